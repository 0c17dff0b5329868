package codec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDeriveMinMax checks the branch-free derive and minMax against their
// definitions on random, regular, constant and wrapping inputs.
func TestDeriveMinMax(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var c Encoder
	for trial := range 2000 {
		n := 2 + rng.IntN(300)
		src := make([]int64, n)
		kind := trial % 4
		for i := range src {
			switch kind {
			case 0:
				src[i] = rng.Int64N(7) - 3
			case 1:
				src[i] = int64(rng.Uint64())
			case 2:
				src[i] = 5 + int64(i)*3
			case 3:
				src[i] = math.MaxInt64 - int64(i)*(math.MaxInt64/100)
			}
		}
		runs, regular := c.derive(src)
		wantRuns, wantRegular := countRuns(src), true
		for i := range n - 1 {
			if d := src[i+1] - src[i]; c.d[i] != d {
				t.Fatalf("trial %d: d[%d] = %d, want %d", trial, i, c.d[i], d)
			}
			if i < n-2 {
				dd := (src[i+2] - src[i+1]) - (src[i+1] - src[i])
				if c.dd[i] != dd {
					t.Fatalf("trial %d: dd[%d] = %d, want %d", trial, i, c.dd[i], dd)
				}
				wantRegular = wantRegular && dd == 0
			}
		}
		if runs != wantRuns || regular != wantRegular {
			t.Fatalf("trial %d: runs %d regular %v, want %d %v", trial, runs, regular, wantRuns, wantRegular)
		}
		for k := 1; k <= n; k++ {
			lo, hi := minMax(src[:k])
			wlo, whi := src[0], src[0]
			for _, v := range src[:k] {
				wlo, whi = min(wlo, v), max(whi, v)
			}
			if lo != wlo || hi != whi {
				t.Fatalf("trial %d: minMax of %d = %d, %d, want %d, %d", trial, k, lo, hi, wlo, whi)
			}
		}
	}
}
