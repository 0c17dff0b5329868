package seg

import (
	"path/filepath"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

// TestCopyFrames: frames copied from another segment, between appended
// blocks, read back with the same blocks and metadata (offsets aside),
// on the OS file system (copy_file_range), through files that wrap OS
// files as the store's do (vfs.OSFile finds them), and in memory (read
// and write); frames out of seq order or range are refused.
func TestCopyFrames(t *testing.T) {
	for _, tc := range []struct {
		name string
		fsys vfs.FS
		dir  string
	}{{"os", vfs.Default, t.TempDir()}, {"os wrapped", unwrapFS(vfs.Default), t.TempDir()}, {"mem", vfs.NewMem(), "/d"}} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.fsys.MkdirAll(tc.dir, 0o755); err != nil {
				t.Fatal(err)
			}
			blocks := makeBlocks(t, 10, 8)
			src := filepath.Join(tc.dir, "a.seg")
			w, err := Create(tc.fsys, src, "s", 1, 10)
			if err != nil {
				t.Fatal(err)
			}
			blocks[3].data, blocks[3].meta.Rows = nil, 0 // an empty frame
			appendAll(t, w, blocks)
			if err := w.Seal(); err != nil {
				t.Fatal(err)
			}
			_ = w.Close()
			r, err := Open(tc.fsys, src)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			dst := filepath.Join(tc.dir, "b.seg")
			w, err = Create(tc.fsys, dst, "s", 2, 10)
			if err != nil {
				t.Fatal(err)
			}
			// blocks 0, 1 appended; 2..5 copied; 6 appended; 7 copied.
			appendAll(t, w, blocks[:2])
			if err := w.CopyFrames(r, 2, 6); err != nil {
				t.Fatal(err)
			}
			if err := w.CopyFrames(r, 6, 6); err != nil {
				t.Fatal(err)
			}
			if err := w.CopyFrames(r, 4, 5); err == nil {
				t.Fatal("frame out of seq order accepted")
			}
			if err := w.CopyFrames(r, 7, 9); err == nil {
				t.Fatal("frames out of range accepted")
			}
			appendAll(t, w, blocks[6:7])
			if err := w.CopyFrames(r, 7, 8); err != nil {
				t.Fatal(err)
			}
			for _, b := range blocks {
				for _, s := range b.series {
					w.AddSeries(s)
				}
			}
			if err := w.Seal(); err != nil {
				t.Fatal(err)
			}
			_ = w.Close()
			r2, err := Open(tc.fsys, dst)
			if err != nil {
				t.Fatal(err)
			}
			defer r2.Close()
			if err := r2.Verify(); err != nil {
				t.Fatal(err)
			}
			got, want := r2.Blocks(), r.Blocks()
			if len(got) != len(want) || r2.Rows() != r.Rows() {
				t.Fatalf("%d blocks, %d rows; want %d, %d", len(got), r2.Rows(), len(want), r.Rows())
			}
			for i := range got {
				g, w := got[i], want[i]
				g.Offset, w.Offset = 0, 0
				if g != w {
					t.Fatalf("block %d: %+v, want %+v", i, g, w)
				}
				data, err := r2.ReadBlock(i, nil)
				if err != nil {
					t.Fatal(err)
				}
				if string(data) != string(blocks[i].data) {
					t.Fatalf("block %d: bytes differ", i)
				}
			}
		})
	}
}

// unwrapFS wraps its files as the store's fsync counter does: a wrapper
// with Unwrap.
func unwrapFS(inner vfs.FS) vfs.FS {
	return vfs.WrapFS{FS: inner, File: func(f vfs.File) vfs.File { return unwrapFile{f} }}
}

type unwrapFile struct{ vfs.File }

func (f unwrapFile) Unwrap() vfs.File { return f.File }

// TestWriterStartsWriteback: a writer asks for the writeback of what it
// wrote each writebackStep bytes (writes and copies go through grew), so
// that the Sync at its end waits for the last part only.
func TestWriterStartsWriteback(t *testing.T) {
	w, err := Create(unwrapFS(vfs.Default), filepath.Join(t.TempDir(), "a.seg"), "s", 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	payload := make([]byte, 3*writebackStep+writebackStep/2)
	for off := 0; off < len(payload); off += 64 << 10 { // as frames come
		if err := w.write(payload[off:min(off+64<<10, len(payload))]); err != nil {
			t.Fatal(err)
		}
	}
	if w.kicked < 3*writebackStep || w.size-w.kicked >= writebackStep {
		t.Fatalf("wrote %d bytes, writeback started up to %d", w.size, w.kicked)
	}
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
}
