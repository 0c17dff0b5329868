package tsq

import (
	"math/rand"
	"sync"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

// TestDeleteConcurrent runs appends, deletes, retention and reads at
// once (meant for -race): a read that starts after a Delete returned
// never shows its rows.
func TestDeleteConcurrent(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 8, SegmentMaxBytes: 4096, RetentionInterval: NoRetentionLoop})
	defer closeT(t, s)
	if err := s.SetRetention("ev", Retention{MaxCount: 150, ProtectField: "s", ProtectValues: []string{"sa"}}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var acked []uint64
	gone := map[uint64]bool{}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { // appender
		defer wg.Done()
		for i := 0; i < 400; i++ {
			seqs, err := s.Append(ctx, "ev", rec(day0+int64(i), []string{"sa", "sb"}[i%2], int64(i)))
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			acked = append(acked, seqs...)
			mu.Unlock()
		}
		close(stop)
	}()
	go func() { // deleter
		defer wg.Done()
		rng := rand.New(rand.NewSource(1))
		for {
			select {
			case <-stop:
				return
			default:
			}
			mu.Lock()
			if len(acked) == 0 {
				mu.Unlock()
				continue
			}
			q := acked[rng.Intn(len(acked))]
			mu.Unlock()
			if err := s.Delete(ctx, "ev", q); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			gone[q] = true
			mu.Unlock()
			if _, err := s.ApplyRetention(ctx, "ev"); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	go func() { // reader
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			mu.Lock()
			before := make(map[uint64]bool, len(gone))
			for q := range gone {
				before[q] = true
			}
			mu.Unlock()
			for b, err := range s.Scan(ctx, "ev", ScanOptions{}) {
				if err != nil {
					t.Error(err)
					return
				}
				for _, q := range column(b, colSeq).Ints {
					if before[uint64(q)] {
						t.Errorf("Scan shows seq %d deleted before it started", q)
						return
					}
				}
			}
			ids, err := s.OldestIDs("ev", 1000)
			if err != nil {
				t.Error(err)
				return
			}
			for _, q := range ids {
				if before[q] {
					t.Errorf("OldestIDs shows deleted seq %d", q)
					return
				}
			}
		}
	}()
	wg.Wait()
	if _, err := s.ApplyRetention(ctx, "ev"); err != nil {
		t.Fatal(err)
	}
	n, err := s.Count("ev")
	if err != nil {
		t.Fatal(err)
	}
	// Retention to 150 rows spares series "sa": either at most 150 rows
	// remain or only protected ones do.
	unprotected, rows := 0, 0
	for b, err := range s.Scan(ctx, "ev", ScanOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		rows += b.Rows
		for k := range b.Rows {
			if column(b, colSeries).StringAt(k) != "sa" {
				unprotected++
			}
		}
	}
	if rows != n || (n > 150 && unprotected > 0) {
		t.Fatalf("Count %d, Scan %d rows, %d unprotected, after retention to 150", n, rows, unprotected)
	}
}
