package tsq

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

// TestErrorFS injects ENOSPC on writes (half written, as a full disk
// does) and EIO on fsyncs: the failing Append returns an error naming
// the stream and the cause, the store recovers in place for the next
// Append, and a reopen (clean or after a crash) holds every record
// acknowledged before and after.
func TestErrorFS(t *testing.T) {
	for _, tc := range []struct {
		kind vfs.OpKind
		err  error
		opt  vfs.FailOption
	}{
		{vfs.OpWrite, syscall.ENOSPC, vfs.PartialWrite},
		{vfs.OpSync, syscall.EIO, 0},
		{vfs.OpWrite, syscall.EIO, vfs.Sticky},
		{vfs.OpSync, syscall.EIO, vfs.Sticky},
	} {
		for n := range 4 {
			t.Run(fmt.Sprintf("%v/%v/opt=%d/n=%d", tc.kind, tc.err, tc.opt, n), func(t *testing.T) {
				mem := vfs.NewMem()
				efs := vfs.NewErrorFS(mem)
				// BlockRows 2: frames of 1-2 rows are not merged at seal, so every
				// injected failure hits an append, not a background merge.
				s := openT(t, efs, Options{BlockRows: 2, SegmentMaxBytes: 1024})
				acked := map[uint64]bool{}
				appendOK := func(i int) {
					t.Helper()
					seqs, err := s.Append(ctx, "ev", rec(day0+int64(i), "a", int64(i)), rec(day0+int64(i), "b", int64(i)))
					if err != nil {
						t.Fatalf("append %d: %v", i, err)
					}
					for _, q := range seqs {
						acked[q] = true
					}
				}
				for i := range 5 {
					appendOK(i)
				}
				efs.FailAfter(tc.kind, n, tc.err, tc.opt)
				var failed error
				for i := 5; i < 20 && failed == nil; i++ {
					seqs, err := s.Append(ctx, "ev", rec(day0+int64(i), "a", int64(i)))
					if err != nil {
						failed = err
						break
					}
					acked[seqs[0]] = true
				}
				if failed == nil {
					t.Fatal("no append failed")
				}
				if !errors.Is(failed, tc.err) || !errors.Is(failed, vfs.ErrInjected) || !strings.Contains(failed.Error(), `"ev"`) {
					t.Fatalf("append error %v does not name the stream and wrap %v", failed, tc.err)
				}
				if n == 0 {
					t.Logf("append error: %v", failed)
				}
				if tc.opt&vfs.Sticky != 0 {
					if _, err := s.Append(ctx, "ev", rec(day0, "a", 0)); err == nil {
						t.Fatal("append on a dead disk succeeded")
					}
					efs.Disarm()
				}
				// in-place recovery: the next append works
				appendOK(100)
				appendOK(101)
				m := s.Metrics()
				if m.AppendErrors == 0 {
					t.Errorf("AppendErrors not counted")
				}
				if err := s.Close(); err != nil {
					t.Fatalf("Close: %v", err)
				}
				for _, fsys := range []*vfs.MemFS{mem, mem.CrashClone()} {
					s := openT(t, fsys, Options{})
					got := map[uint64]bool{}
					for _, q := range allSeqs(t, s, "ev") {
						got[q] = true
					}
					for q := range acked {
						if !got[q] {
							t.Fatalf("acknowledged seq %d lost", q)
						}
					}
					closeT(t, s)
				}
			})
		}
	}
}
