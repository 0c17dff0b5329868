package codec

import (
	"math/rand/v2"
	"testing"
)

func TestGCD(t *testing.T) {
	euclid := func(a, b uint64) uint64 {
		for b != 0 {
			a, b = b, a%b
		}
		return a
	}
	r := rand.New(rand.NewPCG(1, 1))
	cases := [][2]uint64{{0, 0}, {0, 7}, {7, 0}, {1, 1}, {12, 18}, {1 << 63, 1 << 40}, {^uint64(0), ^uint64(0) - 1}, {60e9, 840e9}}
	for range 10000 {
		k := r.Uint64N(1 << 20)
		cases = append(cases, [2]uint64{r.Uint64() >> r.UintN(64) * k, r.Uint64() >> r.UintN(64) * k})
	}
	for _, c := range cases {
		if got, want := gcd(c[0], c[1]), euclid(c[0], c[1]); got != want {
			t.Fatalf("gcd(%d, %d) = %d, want %d", c[0], c[1], got, want)
		}
	}
}

// TestDivides checks the branch-free divisibility test against x % g for
// odd, even and power-of-two divisors, multiples, near-multiples and
// random values.
func TestDivides(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	gs := []uint64{1, 2, 3, 10, 1000, 1e6, 1e9, 3e9, 1 << 32, 1 << 63, 3 << 62, ^uint64(0), ^uint64(0) - 1, 6}
	for range 300 {
		gs = append(gs, r.Uint64()>>r.UintN(64)|1, (r.Uint64()>>r.UintN(64)|1)<<r.UintN(20))
	}
	for _, g := range gs {
		if g == 0 {
			continue
		}
		d := newDivisor(g)
		xs := []uint64{0, g, g - 1, g + 1, ^uint64(0), ^uint64(0) / g * g, 1 << 63}
		for range 300 {
			k := r.Uint64()
			xs = append(xs, k*g, k*g+1, k*g-1, k*g+g/2, r.Uint64())
		}
		for _, x := range xs {
			if got, want := d.divides(x), x%g == 0; got != want {
				t.Fatalf("divides(%d) by %d = %v, want %v", x, g, got, want)
			}
			if x%g == 0 && d.div(x) != x/g {
				t.Fatalf("div(%d) by %d = %d, want %d", x, g, d.div(x), x/g)
			}
		}
	}
}
