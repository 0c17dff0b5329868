package codec

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// Lossless decimal floats. A value v is stored as an integer mantissa m with
// a block-wide exponent e so that the decoder computes float64(m) / 10^e.
// IEEE division is correctly rounded and both operands are exact (|m| < 2^53,
// e <= MaxDecimalExp), so the result is the double nearest m/10^e: exactly v
// whenever v's shortest decimal form has at most e fraction digits.
//
// Values for which that is not so are patched: the decoder adds a wrapping
// bit difference to the value it computed. Measurement noise such as
// 94.79799999999999 (one ulp below 94.798) then costs a 1-byte difference,
// and NaN payloads, ±Inf and -0 are restored bit-exact. Non-finite values and
// values whose mantissa would reach 2^53 repeat the previous mantissa so that
// deltas stay small.
//
// Layout after the tag byte:
//
//	<1b e> <ints: n mantissas> <uvarint p> [<ints: p gaps> <ints: p diffs>]
//
// where p is the number of patches, each gap is the patch position minus the
// previous patch position minus one (the first counts from -1) and each diff
// is bits(v) - bits(decoded) as a wrapping int64. Both lists use the int
// encodings, so dense 1-ulp patches cost a few bits each.

// MaxDecimalExp is the largest decimal exponent; 10^e is exact in float64
// for every e up to 22. Part of the format; do not change.
const MaxDecimalExp = 18

var pow10 = func() (p [MaxDecimalExp + 1]float64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

const maxMantissa = 1 << 53

// roundEven rounds |x| < 2^51 to the nearest integer, ties to even. For
// 2^51 <= |x| < 2^52 the sum with 1.5*2^52 rounds to a multiple of 2 and
// the result may be one off; the encoder then stores a patch, so decoding
// stays exact. It is kept as is because it fixes which mantissas the
// encoder writes.
func roundEven(x float64) float64 {
	const magic = 0x1.8p52
	if !(math.Abs(x) < 1<<52) {
		return x // already integral, or NaN/Inf
	}
	if x >= 0 {
		return (x + magic) - magic
	}
	return (x - magic) + magic
}

// mantissa returns m with float64(m)/10^e == v bit-exactly, or ok=false.
func mantissa(v float64, e int) (m int64, ok bool) {
	x := v * pow10[e]
	if !(math.Abs(x) < maxMantissa) {
		return 0, false
	}
	m = int64(roundEven(x))
	return m, math.Float64bits(float64(m)/pow10[e]) == math.Float64bits(v)
}

// decimalDigits returns the smallest e at which v is exact, or
// MaxDecimalExp+1 if none is.
func decimalDigits(v float64) int {
	// Exactness is monotone in e while v*10^e stays below 2^50 (the
	// product's rounding error stays under 1/2): if v is exact at e, it is
	// at every larger e in that range. So test the largest such e and
	// bisect below it; above it, up to 2^53, try the one or two left.
	//
	// Most decimal values have few fraction digits: try those in order
	// first. Trying each e in order while |v*10^e| < 2^53 gives the same
	// answer as the search below (TestDecimalDigitsRef); the search is
	// for values needing many digits or none.
	const few = 3
	for e := 0; e <= few; e++ {
		if !(math.Abs(v*pow10[e]) < maxMantissa) {
			return MaxDecimalExp + 1 // nor at any larger e
		}
		if _, ok := mantissa(v, e); ok {
			return e
		}
	}
	hi := MaxDecimalExp
	for hi >= 0 && !(math.Abs(v*pow10[hi]) < 1<<50) {
		hi--
	}
	if hi > few {
		if _, ok := mantissa(v, hi); ok {
			lo := few // not exact at lo, exact at hi
			for hi-lo > 1 {
				mid := (lo + hi + 1) / 2
				if _, ok := mantissa(v, mid); ok {
					hi = mid
				} else {
					lo = mid
				}
			}
			return hi
		}
	}
	for e := hi + 1; e <= MaxDecimalExp && math.Abs(v*pow10[e]) < maxMantissa; e++ {
		if _, ok := mantissa(v, e); ok {
			return e
		}
	}
	return MaxDecimalExp + 1
}

// chooseExp picks the exponent with the smallest estimated size on a sample
// of short consecutive runs spread over src.
func chooseExp(src []float64) int {
	// Sample short consecutive runs spread over src: a few dozen values
	// for a short input, up to 8 runs of 32 for a long one.
	runs, runLen := 4, 32
	if len(src) < 4*runs*runLen {
		runs, runLen = 2, 16
	}
	sample := func(fn func(i int)) {
		if len(src) <= runs*runLen {
			for i := range src {
				fn(i)
			}
			return
		}
		step := len(src) / runs
		for r := range runs {
			for i := r * step; i < r*step+runLen; i++ {
				fn(i)
			}
		}
	}
	var need [MaxDecimalExp + 2]int
	total := 0
	sample(func(i int) { need[decimalDigits(src[i])]++; total++ })
	// Candidates: the exponents that make 50%, 90% and 100% of the
	// decimal values exact.
	var cands [3]int
	nc, cum, decimals := 0, 0, total-need[MaxDecimalExp+1]
	for e, k := range need[:MaxDecimalExp+1] {
		if k == 0 {
			continue
		}
		cum += k
		for nc < len(cands) && cum*10 >= decimals*[3]int{5, 9, 10}[nc] {
			cands[nc] = e
			nc++
		}
	}
	if nc == 0 {
		return 0
	}
	best, bestCost := cands[0], math.MaxInt
	for i, e := range cands[:nc] {
		if i > 0 && e == cands[i-1] {
			continue
		}
		cost := 0
		var prev int64
		sample(func(i int) {
			v := src[i]
			m, ok := mantissa(v, e)
			if !ok {
				x := v * pow10[e]
				if math.Abs(x) < maxMantissa {
					d := math.Float64bits(v) - math.Float64bits(float64(int64(roundEven(x)))/pow10[e])
					cost += 4 + bits.Len64(Zigzag(int64(d)))
				} else {
					cost += 8 * 10
					m = prev
				}
			}
			cost += bits.Len64(Zigzag(m - prev))
			prev = m
		})
		if cost < bestCost {
			best, bestCost = e, cost
		}
	}
	return best
}

// appendDecimal appends src in the decimal encoding with exponent e.
func (c *Encoder) appendDecimal(dst []byte, src []float64, e int) []byte {
	n := len(src)
	// Positions (turned into gaps below) and differences of the patches
	// are written at every index and kept where the difference is not 0,
	// so that no branch depends on how often values need one.
	ms, pos, diffs := grow(c.m, n), grow(c.gaps, n), grow(c.diffs, n)
	ms, pos, diffs = ms[:n], pos[:n], diffs[:n]
	k := 0
	p := pow10[e]
	var prev int64
	for i, v := range src {
		x := v * p
		m := prev
		if math.Abs(x) < maxMantissa {
			m = int64(roundEven(x))
		}
		ms[i] = m
		prev = m
		d := math.Float64bits(v) - math.Float64bits(float64(m)/p)
		pos[k], diffs[k] = int64(i), int64(d)
		k += b2i(d != 0)
	}
	last := int64(-1)
	for j, x := range pos[:k] {
		pos[j] = x - last - 1
		last = x
	}
	c.m, c.gaps, c.diffs = ms, pos[:k], diffs[:k]
	dst = append(dst, byte(FloatDecimal), byte(e))
	dst = c.AppendInts(dst, c.m)
	dst = binary.AppendUvarint(dst, uint64(len(c.gaps)))
	if len(c.gaps) > 0 {
		dst = c.AppendInts(dst, c.gaps)
		dst = c.AppendInts(dst, c.diffs)
	}
	return dst
}

// decodeDecimal decodes n values after the tag byte.
func (c *Decoder) decodeDecimal(dst []float64, r *reader, n int) []float64 {
	eAt := r.off
	e := int(r.byte())
	if r.err == nil && e > MaxDecimalExp {
		r.off = eAt
		r.fail("decimal exponent %d exceeds %d", e, MaxDecimalExp)
	}
	var deltas bool
	r.nested(func(b []byte) (int, error) {
		var k int
		var err error
		c.ints, k, deltas, err = c.decodeInts(c.ints, b, n, true)
		return k, err
	})
	if r.err != nil {
		return dst[:0]
	}
	dst = grow(dst, n)
	ms := c.ints[:n]
	p := pow10[e]
	switch {
	case e == 0 && !deltas:
		for i, m := range ms {
			dst[i] = float64(m)
		}
	default: // with deltas, running sums converted as they go
		divPow10(dst, ms, p, deltas)
	}
	np := r.count("patch count", n)
	if np == 0 || r.err != nil {
		return dst
	}
	gapsAt := r.off
	r.nestedInts(c, &c.gaps, np)
	r.nestedInts(c, &c.diffs, np)
	pos := -1
	for i, gap := range c.gaps {
		if r.err != nil {
			break
		}
		if uint64(gap) >= uint64(n-pos-1) {
			r.off = gapsAt
			r.fail("patch %d: position %d+%d beyond %d values", i, pos+1, gap, n)
			break
		}
		pos += int(gap) + 1
		dst[pos] = math.Float64frombits(math.Float64bits(dst[pos]) + uint64(c.diffs[i]))
	}
	return dst
}
