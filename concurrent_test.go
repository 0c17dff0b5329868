package tsq

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tsqdb/tsq/internal/vfs"
)

// TestConcurrentGroupCommit: 8 goroutines append under SyncAlways; every
// acknowledged seq survives Close and reopen, seqs are unique, and group
// commit makes fsyncs far fewer than appends. Each fsync of the MemFS
// takes 200µs, as on a fast SSD.
func TestConcurrentGroupCommit(t *testing.T) {
	const writers, perWriter = 8, 300
	fsys := vfs.NewMem()
	s := openT(t, slowSyncFS(fsys, 200*time.Microsecond), Options{})
	acked := make([][]uint64, writers)
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range perWriter {
				var err error
				var seqs []uint64
				if i%2 == 0 {
					seqs, err = s.Append(ctx, "ev", rec(day0+int64(i), fmt.Sprintf("w%d", g), int64(i)))
				} else {
					var q uint64
					q, err = s.AppendSamples(ctx, "ev", fmt.Sprintf("w%d", g), []int64{day0 + int64(i)}, []float64{float64(i)})
					seqs = []uint64{q}
				}
				if err != nil {
					t.Error(err)
					return
				}
				acked[g] = append(acked[g], seqs...)
			}
		})
	}
	wg.Wait()
	m := s.Metrics()
	closeT(t, s)
	t.Logf("appends %d, fsyncs %d, group commits %d, mean group %.1f, max %d, frames %d",
		m.Appends, m.Fsyncs, m.GroupCommits, m.GroupCommitMean, m.GroupCommitMax, m.Frames)
	if m.Appends != writers*perWriter {
		t.Fatalf("appends = %d", m.Appends)
	}
	if m.Fsyncs*5 > m.Appends {
		t.Errorf("fsyncs %d, appends %d: group commit shares too few fsyncs", m.Fsyncs, m.Appends)
	}
	s = openT(t, fsys.CrashClone(), Options{ReadOnly: true})
	defer closeT(t, s)
	got := map[uint64]bool{}
	for _, q := range allSeqs(t, s, "ev") {
		got[q] = true
	}
	if len(got) != writers*perWriter {
		t.Fatalf("%d records after reopen, want %d", len(got), writers*perWriter)
	}
	for g := range writers {
		for _, q := range acked[g] {
			if !got[q] {
				t.Fatalf("acknowledged seq %d missing", q)
			}
			r, err := s.Get("ev", q)
			if err != nil || r.Series != fmt.Sprintf("w%d", g) {
				t.Fatalf("Get(%d) = %+v, %v", q, r, err)
			}
		}
	}
}
