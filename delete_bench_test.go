package tsq

import (
	"fmt"
	"testing"
	"time"

	"github.com/tsqdb/tsq/internal/vfs"
)

// go test -run '^$' -bench 'Deleted|BenchmarkDelete' -benchtime 20x .

// deletedStore holds 1,048,576 samples with every tenth soft-deleted
// when del.
func deletedStore(b *testing.B, del bool) *Store {
	b.Helper()
	s := openT(b, vfs.NewMem(), Options{Sync: SyncNever, RetentionInterval: NoRetentionLoop})
	const n = 1 << 20
	times := make([]int64, n)
	vals := make([]float64, n)
	for i := range times {
		times[i] = day0 + int64(i)*1e9
	}
	if _, err := s.AppendSamples(ctx, "cpu", "cpu", times, vals); err != nil {
		b.Fatal(err)
	}
	if del {
		var seqs []uint64
		for q := uint64(1); q <= n; q += 10 {
			seqs = append(seqs, q)
		}
		if err := s.Delete(ctx, "cpu", seqs...); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

func BenchmarkCountDeleted(b *testing.B) {
	for _, del := range []bool{false, true} {
		b.Run(fmt.Sprintf("deleted=%v", del), func(b *testing.B) {
			s := deletedStore(b, del)
			defer s.Close()
			for b.Loop() {
				if _, err := s.Count("cpu"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkScanDeleted(b *testing.B) {
	for _, del := range []bool{false, true} {
		b.Run(fmt.Sprintf("deleted=%v", del), func(b *testing.B) {
			s := deletedStore(b, del)
			defer s.Close()
			b.ReportAllocs()
			rows := 0
			for b.Loop() {
				for blk, err := range s.Scan(ctx, "cpu", ScanOptions{}) {
					if err != nil {
						b.Fatal(err)
					}
					rows += blk.Rows
				}
			}
			b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkDelete: one Delete of one seq on a stream whose bitmap holds
// 104,858 scattered seqs (the bitmap is rewritten whole, MemFS).
func BenchmarkDelete(b *testing.B) {
	s := deletedStore(b, true)
	defer s.Close()
	q := uint64(2)
	for b.Loop() {
		if err := s.Delete(ctx, "cpu", q); err != nil {
			b.Fatal(err)
		}
		q++
		if q%10 == 1 {
			q++
		}
	}
}

// BenchmarkApplyRetention: retention by age over 1,048,576 samples
// (one per second) that soft-deletes the older half, then a no-op pass.
func BenchmarkApplyRetention(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		s := deletedStore(b, false)
		s.now = func() time.Time { return time.Unix(0, day0).Add(1 << 20 * time.Second) }
		if err := s.SetRetention("cpu", Retention{MaxAge: 1 << 19 * time.Second}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		st, err := s.ApplyRetention(ctx, "cpu")
		if err != nil || st.ByAge != 1<<19 {
			b.Fatalf("%+v, %v", st, err)
		}
		b.StopTimer()
		fi, _ := s.fs.Stat("db/streams/cpu/deleted.bitmap")
		b.ReportMetric(float64(fi.Size()), "bitmap-bytes")
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(1<<20)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
