package seg

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/codec"
	"github.com/tsqdb/tsq/internal/vfs"
)

// testBlock is an encoded chunk block and the metadata a caller passes to
// Append for it.
type testBlock struct {
	data   []byte
	meta   BlockMeta
	series []string
}

// makeBlock encodes rows rows with seqs from seq0, times 15 s apart from
// a time that depends on seq0, and series drawn from nSeries names.
func makeBlock(t testing.TB, seq0 uint64, rows, nSeries int) testBlock {
	t.Helper()
	seqs := make([]int64, rows)
	times := make([]int64, rows)
	series := make([]string, rows)
	vals := make([]float64, rows)
	t0 := int64(1_700_000_000_000_000_000) + int64(seq0)*15e9
	for i := range rows {
		seqs[i] = int64(seq0) + int64(i)
		times[i] = t0 + int64(i)*15e9
		series[i] = seriesName(int(seq0+uint64(i)) % nSeries)
		vals[i] = float64(i) / 4
	}
	var enc chunk.Encoder
	data, err := enc.Append(nil, &chunk.Block{Rows: rows, Columns: []chunk.Column{
		{Name: "seq", Type: chunk.Int64, Ints: seqs},
		{Name: "time", Type: chunk.Int64, Ints: times},
		{Name: "series", Type: chunk.String, Strs: series},
		{Name: "value", Type: chunk.Float64, Floats: vals},
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return testBlock{
		data:   data,
		meta:   BlockMeta{Rows: rows, MinSeq: seq0, MaxSeq: seq0 + uint64(rows) - 1, MinTime: t0, MaxTime: times[rows-1]},
		series: series,
	}
}

func seriesName(i int) string { return fmt.Sprintf(`cpu{host="h%d",dc="x"}`, i) }

// makeBlocks returns n blocks of 5..20 rows in seq order from seq0, with a
// gap of 3 seqs between blocks.
func makeBlocks(t testing.TB, seq0 uint64, n int) []testBlock {
	t.Helper()
	var out []testBlock
	seq := seq0
	for i := range n {
		b := makeBlock(t, seq, 5+i*7%16, 6)
		out = append(out, b)
		seq = b.meta.MaxSeq + 4
	}
	return out
}

// appendAll appends blocks and their series, syncing after each.
func appendAll(t testing.TB, w *Writer, blocks []testBlock) {
	t.Helper()
	for _, b := range blocks {
		if err := w.Append(b.data, b.meta); err != nil {
			t.Fatal(err)
		}
		for _, s := range b.series {
			w.AddSeries(s)
		}
		if err := w.Sync(); err != nil {
			t.Fatal(err)
		}
	}
}

// writeSegment creates path with blocks, sealed if seal.
func writeSegment(t testing.TB, fsys vfs.FS, path string, blocks []testBlock, seal bool) {
	t.Helper()
	w, err := Create(fsys, path, "cpu", 1, 100)
	if err != nil {
		t.Fatal(err)
	}
	appendAll(t, w, blocks)
	if seal {
		sealClose(t, w)
		return
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// sealClose seals and closes w.
func sealClose(t testing.TB, w *Writer) {
	t.Helper()
	if err := w.Seal(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// openReader opens path, closed when the test ends.
func openReader(t testing.TB, fsys vfs.FS, path string) *Reader {
	t.Helper()
	r, err := Open(fsys, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// checkBlocks checks that r holds exactly want, metadata and bytes.
func checkBlocks(t testing.TB, r *Reader, want []testBlock) {
	t.Helper()
	got := r.Blocks()
	if len(got) != len(want) {
		t.Fatalf("%d blocks, want %d", len(got), len(want))
	}
	var buf []byte
	var rows int64
	for i, m := range got {
		w := want[i].meta
		if m.Rows != w.Rows || m.MinSeq != w.MinSeq || m.MaxSeq != w.MaxSeq || m.MinTime != w.MinTime || m.MaxTime != w.MaxTime {
			t.Fatalf("block %d: meta %+v, want %+v", i, m, w)
		}
		var err error
		if buf, err = r.ReadBlock(i, buf); err != nil {
			t.Fatalf("block %d: %v", i, err)
		}
		if !bytes.Equal(buf, want[i].data) {
			t.Fatalf("block %d: bytes differ", i)
		}
		rows += int64(m.Rows)
	}
	if r.Rows() != rows {
		t.Fatalf("Rows() = %d, want %d", r.Rows(), rows)
	}
}

// wantCorrupt checks that err is a *codec.CorruptionError for path and
// section with an offset in [lo, hi), matching chunk.ErrCorrupt.
func wantCorrupt(t testing.TB, err error, path, section string, lo, hi int64) {
	t.Helper()
	var ce *codec.CorruptionError
	if !errors.As(err, &ce) || !errors.Is(err, chunk.ErrCorrupt) {
		t.Fatalf("error %v (%T), want a *codec.CorruptionError matching chunk.ErrCorrupt", err, err)
	}
	if ce.Path != path || ce.Section != section || ce.Offset < lo || ce.Offset >= hi {
		t.Fatalf("corruption at %s / %q / %d, want %s / %q / [%d, %d): %v", ce.Path, ce.Section, ce.Offset, path, section, lo, hi, err)
	}
}

// exists reports whether path exists in fsys.
func exists(t testing.TB, fsys vfs.FS, path string) bool {
	t.Helper()
	_, err := fsys.Stat(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return err == nil
}

// fileBytes returns the content of path.
func fileBytes(t testing.TB, fsys vfs.FS, path string) []byte {
	t.Helper()
	f, err := fsys.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, fi.Size())
	if _, err := f.ReadAt(b, 0); err != nil && len(b) > 0 {
		t.Fatal(err)
	}
	return b
}

// putFile writes content to path and makes it durable.
func putFile(t testing.TB, fsys vfs.FS, path string, content []byte) {
	t.Helper()
	f, err := fsys.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(content); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := fsys.SyncDir("."); err != nil {
		t.Fatal(err)
	}
}
