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
