package codec

import "math/bits"

// commonDivisor returns the largest g such that every x in xs is a multiple
// of g (wrapping uint64 arithmetic), or 1 when there is none worth using.
// Timestamps in nanoseconds from a millisecond source share 10^6, decimal
// mantissas of round values share powers of ten: dividing first saves
// log2(g) bits a value.
func commonDivisor(xs func(yield func(uint64) bool)) uint64 {
	var g uint64
	var d divisor
	for x := range xs {
		if x == 0 || (g != 0 && d.divides(x)) {
			continue
		}
		g = gcd(g, x)
		if g == 1 {
			return 1
		}
		d = newDivisor(g)
	}
	if g == 0 {
		return 1
	}
	return g
}

// gcd is Stein's binary algorithm: shifts and subtractions, no division.
func gcd(a, b uint64) uint64 {
	if a == 0 {
		return b
	}
	if b == 0 {
		return a
	}
	shift := bits.TrailingZeros64(a | b)
	a >>= bits.TrailingZeros64(a)
	for b != 0 {
		b >>= bits.TrailingZeros64(b)
		if a > b {
			a, b = b, a
		}
		b -= a
	}
	return a << shift
}

// divisor tests divisibility by a fixed g with one multiply and a rotate,
// without a branch: for g = q*2^s with q odd, x is a multiple of g iff
// (x*inverse(q) mod 2^64) rotated right by s is at most (2^64-1)/g
// (Hacker's Delight 10-17: the rotation moves x's low s bits, zero exactly
// for multiples of 2^s, to the top, beyond the limit).
type divisor struct {
	g     uint64
	one   bool   // every value in play is a multiple of g: skip the test
	shift uint   // trailing zero bits of g
	inv   uint64 // multiplicative inverse of g>>shift mod 2^64
	lim   uint64 // (2^64-1) / g
}

func newDivisor(g uint64) divisor {
	s := uint(bits.TrailingZeros64(g))
	q := g >> s
	inv := q // Newton's iteration: each step doubles the correct low bits
	for range 5 {
		inv *= 2 - q*inv
	}
	return divisor{g: g, one: g == 1, shift: s, inv: inv, lim: ^uint64(0) / g}
}

func (d divisor) divides(x uint64) bool {
	return bits.RotateLeft64(x*d.inv, -int(d.shift)) <= d.lim
}

// div returns x/g for a multiple x of g.
func (d divisor) div(x uint64) uint64 { return (x >> d.shift) * d.inv }
