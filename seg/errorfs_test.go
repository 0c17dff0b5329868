package seg

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

// errorRun writes a segment through fsys, syncing after some blocks, and
// returns the first error with the number of blocks a successful Sync
// acknowledged and whether Seal succeeded.
func errorRun(fsys vfs.FS, blocks []testBlock) (acked int, sealed bool, err error) {
	w, err := Create(fsys, "e.seg", "cpu", 1, 100)
	if err != nil {
		return 0, false, err
	}
	defer w.Close()
	for i, b := range blocks {
		if err := w.Append(b.data, b.meta); err != nil {
			return acked, false, err
		}
		for _, s := range b.series {
			w.AddSeries(s)
		}
		if i%2 == 1 {
			if err := w.Sync(); err != nil {
				return acked, false, err
			}
			acked = i + 1
		}
	}
	if err := w.Seal(); err != nil {
		return acked, false, err
	}
	return len(blocks), true, w.Close()
}

// TestErrorFS fails every operation of Create, Append, Sync and Seal in
// turn, with EIO and ENOSPC, once or for good, whole or as a partial
// write: the error is clear, and neither the file as left nor a crash of
// it is corrupt; every acknowledged block survives the crash.
func TestErrorFS(t *testing.T) {
	blocks := makeBlocks(t, 100, 5)
	counted := vfs.NewErrorFS(vfs.NewMem())
	if _, _, err := errorRun(counted, blocks); err != nil {
		t.Fatal(err)
	}
	modes := []struct {
		err  error
		opts []vfs.FailOption
	}{
		{syscall.EIO, nil},
		{syscall.EIO, []vfs.FailOption{vfs.Sticky}},
		{syscall.ENOSPC, []vfs.FailOption{vfs.PartialWrite, vfs.Sticky}},
	}
	runs := 0
	for _, kind := range vfs.OpKinds() {
		for i := range counted.Ops(kind) {
			for _, mode := range modes {
				name := fmt.Sprintf("%s #%d %v %v", kind, i, mode.err, mode.opts)
				mem := vfs.NewMem()
				efs := vfs.NewErrorFS(mem)
				efs.FailAfter(kind, i, mode.err, mode.opts...)
				acked, _, err := errorRun(efs, blocks)
				runs++
				if efs.Injected(kind) == 0 {
					t.Fatalf("%s: nothing injected", name)
				}
				if err == nil || !errors.Is(err, mode.err) || !strings.HasPrefix(err.Error(), "seg: ") || !strings.Contains(err.Error(), "e.seg") {
					t.Fatalf("%s: error %v", name, err)
				}
				crashed := mem.CrashClone()
				checkAfterError(t, name, mem, blocks, acked)
				checkAfterError(t, name+" crashed", crashed, blocks, acked)
			}
		}
	}
	t.Logf("%d runs", runs)
}

// checkAfterError checks a file system after a failed run: if the segment
// exists it opens, holds at least the acknowledged blocks intact, and (if
// unsealed) reopens for writing.
func checkAfterError(t *testing.T, name string, fsys vfs.FS, blocks []testBlock, acked int) {
	t.Helper()
	if !exists(t, fsys, "e.seg") {
		if acked > 0 {
			t.Fatalf("%s: segment gone with %d blocks acknowledged", name, acked)
		}
		return
	}
	r, err := Open(fsys, "e.seg")
	if err != nil {
		t.Fatalf("%s: Open: %v", name, err)
	}
	n := len(r.Blocks())
	if n < acked {
		t.Fatalf("%s: %d blocks, %d acknowledged", name, n, acked)
	}
	checkBlocks(t, r, blocks[:n])
	sealed := r.Sealed()
	r.Close()
	if sealed {
		return
	}
	w, _, err := OpenWriter(fsys, "e.seg")
	if err != nil {
		t.Fatalf("%s: OpenWriter: %v", name, err)
	}
	if len(w.Blocks()) != n {
		t.Fatalf("%s: writer recovered %d blocks, reader saw %d", name, len(w.Blocks()), n)
	}
	w.Close()
}
