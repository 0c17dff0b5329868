package codec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPlanRef holds plan to planRef (plan_ref_test.go, its previous
// form) on noisy, spiky, trending, sorted, near-constant and
// divisor-sharing miniblocks, with and without a previous width.
func TestPlanRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := range 30000 {
		n := 1 + rng.IntN(MiniBlockLen)
		m := make([]int64, n)
		g := []int64{1, 1, 1, 10, 6}[rng.IntN(5)]
		width := rng.IntN(40)
		for i := range m {
			m[i] = (rng.Int64N(1<<width+1) - 1<<width/2) * g
			switch trial % 6 {
			case 0:
				m[i] += int64(i) * 5 * g // trend
			case 1: // sorted, rising or falling: the monotone shortcut
				m[i] = int64(i) << width * g
				if trial%12 == 1 {
					m[i] = -m[i]
				}
			case 2: // one value but for a few spikes
				m[i] = g
			}
			switch rng.IntN(30) {
			case 0:
				m[i] = []int64{math.MinInt64, math.MaxInt64, 1 << 50, -1 << 45}[rng.IntN(4)]
			case 1:
				m[i]++
			}
		}
		for _, d := range []divisor{newDivisor(1), packedDivisor(m), newDivisor(uint64(g))} {
			prevW := rng.IntN(66) - 1
			if got, want := plan(m, d, prevW), planRef(m, d, prevW); got != want {
				t.Fatalf("trial %d (n %d g %d prevW %d): plan %+v, want %+v", trial, n, d.g, prevW, got, want)
			}
		}
	}
}
