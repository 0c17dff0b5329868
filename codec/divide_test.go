package codec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDivPow10 checks each of the architecture's divPow10 routines bit-for-bit against the
// portable definition on every exponent, both modes, every short length
// (each tail) and mantissas of every magnitude, up to ±2^63.
func TestDivPow10(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gens := []func() int64{
		func() int64 { return rng.Int64N(2000) - 1000 },
		func() int64 { return rng.Int64N(1<<54) - 1<<53 },
		func() int64 { return int64(rng.Uint64()) },
		func() int64 {
			return []int64{0, 1, -1, math.MaxInt64, math.MinInt64, 1 << 53, -(1 << 53), 1<<53 + 1}[rng.IntN(8)]
		},
	}
	for _, n := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 31, 128, 1000, 8191} {
		for gi, gen := range gens {
			ms := make([]int64, n)
			for i := range ms {
				ms[i] = gen()
			}
			for e, p := range pow10 {
				for _, sum := range []bool{false, true} {
					want := make([]float64, n)
					got := make([]float64, n+1)
					got[n] = 42
					divPow10Go(want, ms, p, sum)
					for name, fn := range divImpls() {
						fn(got, ms, p, sum)
						for i := range want {
							if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
								t.Fatalf("%s: n %d gen %d e %d sum %v: [%d] = %x, want %x", name, n, gi, e, sum, i, math.Float64bits(got[i]), math.Float64bits(want[i]))
							}
						}
						if got[n] != 42 {
							t.Fatalf("%s: n %d: wrote past len(ms)", name, n)
						}
						clear(got[:n])
					}
				}
			}
		}
	}
}

func BenchmarkDivPow10(b *testing.B) {
	ms := make([]int64, 8192)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range ms {
		ms[i] = rng.Int64N(200) - 100
	}
	dst := make([]float64, len(ms))
	for _, impl := range []struct {
		name string
		fn   func([]float64, []int64, float64, bool)
	}{{"go", divPow10Go}, {"arch", divPow10}} {
		b.Run(impl.name, func(b *testing.B) {
			for b.Loop() {
				impl.fn(dst, ms, 1000, true)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ms)), "ns/sample")
		})
	}
}
