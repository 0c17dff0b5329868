package seg

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
)

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name   string
		blocks int
		seal   bool
	}{
		{"sealed empty", 0, true},
		{"sealed one", 1, true},
		{"sealed many", 9, true},
		{"unsealed empty", 0, false},
		{"unsealed one", 1, false},
		{"unsealed many", 9, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := vfs.NewMem()
			if err := mem.MkdirAll("s", 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("s", "000001.seg")
			blocks := makeBlocks(t, 100, tc.blocks)
			writeSegment(t, mem, path, blocks, tc.seal)
			r, err := Open(mem, path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if h := r.Header(); h != (Header{Version: CurrentVersion, Stream: "cpu", Generation: 1, FirstSeq: 100}) {
				t.Fatalf("header %+v", h)
			}
			if r.Sealed() != tc.seal {
				t.Fatalf("Sealed() = %v", r.Sealed())
			}
			checkBlocks(t, r, blocks)
			if err := r.Verify(); err != nil {
				t.Fatal(err)
			}
			for _, b := range blocks {
				for _, s := range b.series {
					if !r.MayContainSeries(s) {
						t.Fatalf("MayContainSeries(%q) = false", s)
					}
				}
			}
			if tc.seal && tc.blocks > 0 && r.MayContainSeries("no such series") {
				t.Log("false positive for a single probe (possible, unlikely)")
			}
			if _, err := r.ReadBlock(len(blocks), nil); err == nil {
				t.Fatal("ReadBlock past the end succeeded")
			}
		})
	}
}

func TestEmptyFrame(t *testing.T) {
	mem := vfs.NewMem()
	blocks := makeBlocks(t, 100, 3)
	// An emptied block keeps its place (and seq range) with 0 rows.
	blocks[1] = testBlock{meta: BlockMeta{MinSeq: blocks[1].meta.MinSeq, MaxSeq: blocks[1].meta.MaxSeq}}
	for _, seal := range []bool{true, false} {
		path := "e.seg"
		_ = mem.Remove(path)
		writeSegment(t, mem, path, blocks, seal)
		r, err := Open(mem, path)
		if err != nil {
			t.Fatal(err)
		}
		checkBlocks(t, r, blocks)
		if m := r.Blocks()[1]; m.Length != FrameHeaderLen || m.CRC != 0 {
			t.Fatalf("empty frame meta %+v", m)
		}
		r.Close()
	}
}

func TestFind(t *testing.T) {
	mem := vfs.NewMem()
	blocks := makeBlocks(t, 100, 6) // gaps of 3 seqs between blocks
	writeSegment(t, mem, "f.seg", blocks, true)
	r, err := Open(mem, "f.seg")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for seq := uint64(0); seq < blocks[5].meta.MaxSeq+10; seq++ {
		want := len(blocks)
		for i, b := range blocks {
			if b.meta.MaxSeq >= seq {
				want = i
				break
			}
		}
		if got := r.Find(seq); got != want {
			t.Fatalf("Find(%d) = %d, want %d", seq, got, want)
		}
	}
}

func TestAppendRejects(t *testing.T) {
	good := makeBlock(t, 100, 10, 3)
	corrupted := append([]byte(nil), good.data...)
	corrupted[5] ^= 1
	for _, tc := range []struct {
		name  string
		prep  func(w *Writer)
		block []byte
		meta  BlockMeta
		want  error
	}{
		{"not a block", nil, []byte("hello, world"), BlockMeta{Rows: 1, MinSeq: 100, MaxSeq: 100}, ErrBadBlock},
		{"bad block CRC", nil, corrupted, good.meta, ErrBadBlock},
		{"rows mismatch", nil, good.data, BlockMeta{Rows: 9, MinSeq: 100, MaxSeq: 109}, ErrBadBlock},
		{"rows without block", nil, nil, BlockMeta{Rows: 1, MinSeq: 100, MaxSeq: 100}, ErrBadBlock},
		{"below first seq", nil, good.data, BlockMeta{Rows: 10, MinSeq: 99, MaxSeq: 109}, ErrBadBlock},
		{"min above max seq", nil, good.data, BlockMeta{Rows: 10, MinSeq: 110, MaxSeq: 109}, ErrBadBlock},
		{"min above max time", nil, good.data, BlockMeta{Rows: 10, MinSeq: 100, MaxSeq: 109, MinTime: 2, MaxTime: 1}, ErrBadBlock},
		{"seq overlap", func(w *Writer) { _ = w.Append(good.data, good.meta) }, good.data, good.meta, ErrBadBlock},
		{"sealed", func(w *Writer) { _ = w.Seal() }, good.data, good.meta, ErrSealed},
		{"closed", func(w *Writer) { _ = w.Close() }, good.data, good.meta, ErrClosed},
	} {
		for _, checked := range []bool{false, true} {
			if checked && tc.name == "bad block CRC" {
				continue // AppendChecked takes the CRC on trust: TestAppendChecked
			}
			t.Run(fmt.Sprintf("%s/checked=%v", tc.name, checked), func(t *testing.T) {
				mem := vfs.NewMem()
				w, err := Create(mem, "a.seg", "cpu", 1, 100)
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
				if tc.prep != nil {
					tc.prep(w)
				}
				size := w.Size()
				appendFn := w.Append
				if checked {
					appendFn = w.AppendChecked
				}
				if err := appendFn(tc.block, tc.meta); !errors.Is(err, tc.want) {
					t.Fatalf("append: %v, want %v", err, tc.want)
				}
				if w.Size() != size {
					t.Fatalf("a rejected append wrote %d bytes", w.Size()-size)
				}
			})
		}
	}
}

// TestAppendChecked: AppendChecked writes the frame Append writes for a
// sound block, and takes a block's CRC from its trailer without computing
// it: a block damaged after its CRC was computed (what the caller vouches
// cannot happen) is written as it is and stays detectably damaged, read
// back or verified.
func TestAppendChecked(t *testing.T) {
	good := makeBlock(t, 100, 10, 3)
	next := makeBlock(t, 110, 10, 3)
	damaged := append([]byte(nil), next.data...)
	damaged[5] ^= 1
	mem := vfs.NewMem()
	for _, name := range []string{"plain.seg", "checked.seg"} {
		w, err := Create(mem, name, "cpu", 1, 100)
		if err != nil {
			t.Fatal(err)
		}
		appendFn := w.Append
		if name == "checked.seg" {
			appendFn = w.AppendChecked
		}
		if err := appendFn(good.data, good.meta); err != nil {
			t.Fatal(err)
		}
		if name == "checked.seg" {
			if err := w.AppendChecked(damaged, next.meta); err != nil {
				t.Fatalf("AppendChecked of a block with a stale CRC: %v", err)
			}
		}
		sealClose(t, w)
	}
	p, r := openReader(t, mem, "plain.seg"), openReader(t, mem, "checked.seg")
	if a, b := p.Blocks()[0], r.Blocks()[0]; a != b {
		t.Fatalf("AppendChecked wrote frame %+v, Append %+v", b, a)
	}
	if b, err := r.ReadBlock(0, nil); err != nil || !bytes.Equal(b, good.data) {
		t.Fatalf("block 0: %v", err)
	}
	if _, err := r.ReadBlock(1, nil); !errors.Is(err, chunk.ErrCorrupt) {
		t.Fatalf("ReadBlock of the damaged block: %v, want chunk.ErrCorrupt", err)
	}
	if err := r.Verify(); !errors.Is(err, chunk.ErrCorrupt) {
		t.Fatalf("Verify: %v, want chunk.ErrCorrupt", err)
	}
}

func TestCreateRejects(t *testing.T) {
	mem := vfs.NewMem()
	writeSegment(t, mem, "x.seg", nil, false)
	if _, err := Create(mem, "x.seg", "cpu", 1, 0); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("Create over an existing file: %v", err)
	}
	for _, stream := range []string{"", string(make([]byte, MaxStreamLen+1))} {
		if _, err := Create(mem, "y.seg", stream, 1, 0); !errors.Is(err, ErrLimit) {
			t.Fatalf("Create with a %d-byte stream name: %v", len(stream), err)
		}
	}
}

func TestOpenWriterResumes(t *testing.T) {
	mem := vfs.NewMem()
	blocks := makeBlocks(t, 100, 5)
	writeSegment(t, mem, "r.seg", blocks[:3], false)
	w, rec, err := OpenWriter(mem, "r.seg")
	if err != nil {
		t.Fatal(err)
	}
	if rec != (Recovery{}) {
		t.Fatalf("recovery %+v of a clean file", rec)
	}
	if len(w.Blocks()) != 3 || w.Size() != w.Synced() {
		t.Fatalf("reopened writer: %d blocks, size %d, synced %d", len(w.Blocks()), w.Size(), w.Synced())
	}
	// The series of the first three blocks come back from their blocks.
	appendAll(t, w, blocks[3:])
	sealClose(t, w)
	r := openReader(t, mem, "r.seg")
	checkBlocks(t, r, blocks)
	for _, b := range blocks {
		for _, s := range b.series {
			if !r.MayContainSeries(s) {
				t.Fatalf("series %q lost", s)
			}
		}
	}
	if _, _, err := OpenWriter(mem, "r.seg"); !errors.Is(err, ErrSealed) {
		t.Fatalf("OpenWriter of a sealed segment: %v", err)
	}
}

// TestConcurrentReaders opens and reads a segment while its writer
// appends: every reader sees a whole prefix of the blocks, and one Reader
// serves concurrent ReadBlock calls.
func TestConcurrentReaders(t *testing.T) {
	mem := vfs.NewMem()
	blocks := makeBlocks(t, 100, 40)
	w, err := Create(mem, "c.seg", "cpu", 1, 100)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	errc := make(chan error, 4)
	for range 4 {
		go func() {
			for {
				select {
				case <-done:
					errc <- nil
					return
				default:
				}
				r, err := Open(mem, "c.seg")
				if err != nil {
					errc <- err
					return
				}
				n := len(r.Blocks())
				var wg sync.WaitGroup
				for i := range n {
					wg.Go(func() {
						b, err := r.ReadBlock(i, nil)
						if err == nil && !bytes.Equal(b, blocks[i].data) {
							err = fmt.Errorf("block %d differs", i)
						}
						if err != nil {
							select {
							case errc <- err:
							default: // enough errors reported
							}
						}
					})
				}
				wg.Wait()
				r.Close()
			}
		}()
	}
	appendAll(t, w, blocks)
	if err := w.Seal(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	close(done)
	for range 4 {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
}

// TestReadBlockPart: any byte range of a block reads as that slice of
// the whole block; a range outside the block, or a block out of range,
// is an error.
func TestReadBlockPart(t *testing.T) {
	fsys := vfs.NewMem()
	writeSegment(t, fsys, "p.seg", makeBlocks(t, 100, 3), true)
	r := openReader(t, fsys, "p.seg")
	defer r.Close()
	for i := range r.Blocks() {
		whole, err := r.ReadBlock(i, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range [][2]int{{0, len(whole)}, {0, 1}, {5, 17}, {len(whole) - 4, len(whole)}, {3, 3}} {
			part := make([]byte, c[1]-c[0])
			if err := r.ReadBlockPart(i, c[0], part); err != nil {
				t.Fatalf("block %d bytes %v: %v", i, c, err)
			}
			if !bytes.Equal(part, whole[c[0]:c[1]]) {
				t.Fatalf("block %d bytes %v differ from the whole block's", i, c)
			}
		}
		if err := r.ReadBlockPart(i, len(whole)-2, make([]byte, 3)); err == nil {
			t.Fatalf("block %d: a range past its end read", i)
		}
		if err := r.ReadBlockPart(i, -1, make([]byte, 1)); err == nil {
			t.Fatalf("block %d: a range before its start read", i)
		}
	}
	if err := r.ReadBlockPart(len(r.Blocks()), 0, make([]byte, 1)); err == nil {
		t.Fatal("a block out of range read")
	}
}
