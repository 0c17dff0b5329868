package tsq

import (
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

// TestAppendSamplesAllocs: on a warm store under SyncNever,
// AppendSamples allocates a small constant per call, nothing per sample.
func TestAppendSamplesAllocs(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{Sync: SyncNever})
	defer closeT(t, s)
	for _, n := range []int{100, 4000} {
		times, values := make([]int64, n), make([]float64, n)
		for i := range times {
			times[i], values[i] = day0+int64(i)*1e9, float64(i%100)*0.25
		}
		for range 3 { // warm: stream open, buffers grown
			if _, err := s.AppendSamples(ctx, "m", "cpu", times, values); err != nil {
				t.Fatal(err)
			}
		}
		allocs := testing.AllocsPerRun(20, func() {
			if _, err := s.AppendSamples(ctx, "m", "cpu", times, values); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%d samples: %.1f allocs per call", n, allocs)
		if allocs > 8 {
			t.Errorf("%d samples: %.1f allocs per call, want a small constant", n, allocs)
		}
	}
}

func BenchmarkAppendSamples(b *testing.B) {
	// go test -run '^$' -bench AppendSamples .
	s := openT(b, vfs.NewMem(), Options{Sync: SyncNever})
	defer closeT(b, s)
	const n = 1000
	times, values := make([]int64, n), make([]float64, n)
	for i := range times {
		times[i], values[i] = day0+int64(i)*1e9, float64(i%100)*0.25
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.AppendSamples(ctx, "m", "cpu", times, values); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "samples/s")
}
