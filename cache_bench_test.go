package tsq

import (
	"math"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

const benchScanSamples = 1 << 20

// openScanBench appends benchScanSamples samples with AppendSamples on
// the OS file system (SyncNever) to a store with the given cache size.
func openScanBench(b *testing.B, cacheBytes int64) *Store {
	b.Helper()
	s, err := Open(b.TempDir(), &Options{Sync: SyncNever, CacheBytes: cacheBytes, FS: vfs.Default})
	if err != nil {
		b.Fatal(err)
	}
	const batch = 8192
	times, values := make([]int64, batch), make([]float64, batch)
	for i := 0; i < benchScanSamples; i += batch {
		for j := range batch {
			k := i + j
			times[j] = day0 + int64(k)*int64(10e6) // every 10ms: about 2.9 hours
			values[j] = 20 + 5*math.Sin(float64(k)/500) + float64(k%7)*0.25
		}
		if _, err := s.AppendSamples(ctx, "m", "cpu.temp", times, values); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// scanInto decodes the whole stream with Scan into times and values.
func scanInto(b *testing.B, s *Store, times []int64, values []float64) ([]int64, []float64) {
	times, values = times[:0], values[:0]
	for blk, err := range s.Scan(ctx, "m", ScanOptions{}) {
		if err != nil {
			b.Fatal(err)
		}
		times = append(times, column(blk, colTime).Ints...)
		values = append(values, column(blk, "value").Floats...)
	}
	if len(times) != benchScanSamples || len(values) != benchScanSamples {
		b.Fatalf("scanned %d samples, want %d", len(times), benchScanSamples)
	}
	return times, values
}

func benchScan(b *testing.B, cacheBytes int64) {
	s := openScanBench(b, cacheBytes)
	defer s.Close()
	times, values := make([]int64, 0, benchScanSamples), make([]float64, 0, benchScanSamples)
	times, values = scanInto(b, s, times, values) // warms the cache
	s.cache.wait()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		times, values = scanInto(b, s, times, values)
	}
	b.ReportMetric(float64(b.N)*benchScanSamples/b.Elapsed().Seconds(), "samples/s")
	if s.cache != nil {
		m := s.Metrics()
		b.ReportMetric(float64(m.CacheHits)/float64(m.CacheHits+m.CacheMisses), "hit-ratio")
	}
}

// BenchmarkScanCached: Scan of ~1M samples decoded into slices, every
// block served from the block cache (64 MiB).
func BenchmarkScanCached(b *testing.B) { benchScan(b, DefaultCacheBytes) }

// BenchmarkScanUncached: the same Scan with the cache disabled: every
// block is read from the file (the OS page cache) and its CRC checked.
func BenchmarkScanUncached(b *testing.B) { benchScan(b, NoCache) }
