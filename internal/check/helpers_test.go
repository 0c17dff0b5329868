package check

import (
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// secondBlockBody returns the file offset of block 1's bytes in path.
func secondBlockBody(t *testing.T, path string) int64 {
	t.Helper()
	r, err := seg.Open(vfs.Default, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b := r.Blocks()
	if len(b) < 2 {
		t.Fatalf("%s has %d blocks", path, len(b))
	}
	return b[1].Offset + seg.FrameHeaderLen
}
