package tsq

import (
	"fmt"
	"syscall"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

// TestFsyncLostPages: an fsync fails and, as Linux may, the bytes it
// should have written never reach the disk although they read back
// (vfs.LoseUnsynced). The failed append's frame must not stay under the
// frames acknowledged after it: a crash image then has every
// acknowledged record, under SyncAlways, at each fsync of a run of
// appends that rolls (a frame's fsync and a seal's).
func TestFsyncLostPages(t *testing.T) {
	for n := range 8 {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			mem := vfs.NewMem()
			efs := vfs.NewErrorFS(mem)
			s := openT(t, efs, rollFaultOpts(SyncAlways))
			acked := map[uint64]int64{}
			app := func(i int) error {
				recs := rollPair(i)
				seqs, err := s.Append(ctx, "ev", recs...)
				for j, q := range seqs {
					acked[q] = recs[j].Fields[0].Value.Int()
				}
				return err
			}
			for i := range 3 {
				if err := app(i); err != nil {
					t.Fatal(err)
				}
			}
			efs.FailAfter(vfs.OpSync, n, syscall.EIO, vfs.LoseUnsynced)
			failed := false
			for i := 3; i < 20; i++ {
				if err := app(i); err != nil {
					failed = true
					efs.Disarm()
				}
			}
			if !failed {
				t.Fatal("no append failed")
			}
			if err := s.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			c := openT(t, mem.CrashClone(), Options{})
			defer closeT(t, c)
			seen := map[uint64]int64{}
			for b, err := range c.Scan(ctx, "ev", ScanOptions{}) {
				if err != nil {
					t.Fatal(err)
				}
				for i := range b.Rows {
					r := RecordAt(b, i)
					seen[r.Seq] = r.Fields[0].Value.Int()
				}
			}
			for q, v := range acked {
				if got, ok := seen[q]; !ok || got != v {
					t.Fatalf("acknowledged seq %d (n=%d) lost after a crash: %d %v (rows %d)", q, v, got, ok, len(seen))
				}
			}
		})
	}
}
