package seg

import (
	"bytes"
	"errors"
	"testing"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
)

// FuzzOpen opens arbitrary bytes as a segment: Open and OpenWriter either
// fail or succeed, never panic, and whatever opens can be read and
// checked. Corruption must match chunk.ErrCorrupt.
//
//	go test ./seg -run '^$' -fuzz FuzzOpen -fuzztime 20s -parallel 1
func FuzzOpen(f *testing.F) {
	mem := vfs.NewMem()
	blocks := makeBlocks(f, 100, 3)
	writeSegment(f, mem, "sealed", blocks, true)
	writeSegment(f, mem, "unsealed", blocks, false)
	sealed, unsealed := fileBytes(f, mem, "sealed"), fileBytes(f, mem, "unsealed")
	w, err := Create(mem, "keyed", "cpu", 1, 100)
	if err != nil {
		f.Fatal(err)
	}
	appendAll(f, w, blocks)
	var span KeySpan
	span.AddString("k-01")
	span.AddString("k-99")
	for i := range blocks {
		w.SetBlockKeys(i, &span)
	}
	sealClose(f, w)
	f.Add(fileBytes(f, mem, "keyed"))
	f.Add(sealed)
	f.Add(unsealed)
	f.Add(unsealed[:len(unsealed)-7])
	f.Add(sealed[:len(sealed)-footerLen])
	f.Add(appendHeader(nil, &Header{Stream: "s", Generation: 1, FirstSeq: 1}))
	f.Add([]byte(headerMagic))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := vfs.NewMem()
		putFile(t, fsys, "f", data)
		r, err := Open(fsys, "f")
		if err != nil {
			if !isCorrupt(err) {
				t.Fatalf("Open: %v", err)
			}
		} else {
			readAll(t, r)
		}
		w, _, err := OpenWriter(fsys, "f")
		if err != nil {
			if !errors.Is(err, ErrSealed) && !isCorrupt(err) {
				t.Fatalf("OpenWriter: %v", err)
			}
			return
		}
		// A recovered segment seals and reopens.
		if err := w.Seal(); err != nil {
			t.Fatal(err)
		}
		w.Close()
		r, err = Open(fsys, "f")
		if err != nil {
			t.Fatalf("Open after recovery and Seal: %v", err)
		}
		if err := r.Verify(); err != nil {
			t.Fatalf("Verify after recovery and Seal: %v", err)
		}
		readAll(t, r)
	})
}

func isCorrupt(err error) bool { return errors.Is(err, chunk.ErrCorrupt) }

// readAll exercises every read method of r.
func readAll(t *testing.T, r *Reader) {
	defer r.Close()
	_ = r.Verify()
	var buf []byte
	for i, m := range r.Blocks() {
		var err error
		if buf, err = r.ReadBlock(i, buf); err != nil && !errors.Is(err, chunk.ErrCorrupt) {
			t.Fatalf("ReadBlock(%d): %v", i, err)
		}
		part := make([]byte, min(m.BlockLen(), 64))
		if perr := r.ReadBlockPart(i, 0, part); err == nil && (perr != nil || !bytes.Equal(part, buf[:len(part)])) {
			t.Fatalf("ReadBlockPart(%d): %v, or bytes other than ReadBlock's", i, perr)
		}
		if r.Find(m.MinSeq) > i {
			t.Fatalf("Find(%d) = %d past block %d", m.MinSeq, r.Find(m.MinSeq), i)
		}
	}
	r.MayContainSeries("x")
	k := r.Keys()
	for i := range r.Blocks() {
		b := r.BlockKeys(i)
		if lo, hi, ok := b.Bounds(); ok && (!k.MayHold(lo) || !k.MayHold(hi) || !b.MayHold(lo) || bytes.Compare(lo, hi) > 0) {
			t.Fatalf("block %d's key span %q..%q is not within its own or the segment's", i, lo, hi)
		}
	}
	k.MayHoldAny([][]byte{[]byte("a"), []byte("k-5")})
}
