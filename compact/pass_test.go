package compact

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

type row struct {
	seq         uint64
	series, key string
	op          int64
}

// writeSeg writes a sealed segment with one block per group of rows.
func writeSeg(t *testing.T, fsys vfs.FS, path string, groups ...[]row) Segment {
	t.Helper()
	return writeSegSpans(t, fsys, path, true, groups...)
}

// writeSegSpans is writeSeg telling each block's key span, or with
// spans false none (every block's keys unknown, as a version 1 file).
func writeSegSpans(t *testing.T, fsys vfs.FS, path string, spans bool, groups ...[]row) Segment {
	t.Helper()
	w, err := seg.Create(fsys, path, "ev", 1, groups[0][0].seq)
	if err != nil {
		t.Fatal(err)
	}
	var enc chunk.Encoder
	for _, g := range groups {
		var seqs, times, ops []int64
		var series, keys []string
		for _, r := range g {
			seqs, times, ops = append(seqs, int64(r.seq)), append(times, int64(r.seq)*10), append(ops, r.op)
			series, keys = append(series, r.series), append(keys, r.key)
			w.AddSeries(r.series)
		}
		blk := chunk.Block{Rows: len(g), Columns: []chunk.Column{
			{Name: "seq", Type: chunk.Int64, Ints: seqs}, {Name: "time", Type: chunk.Int64, Ints: times},
			{Name: "series", Type: chunk.String, Strs: series}, {Name: "key", Type: chunk.String, Strs: keys},
			{Name: "op", Type: chunk.Int64, Ints: ops}}}
		b, err := enc.Append(nil, &blk, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Append(b, seg.BlockMeta{Rows: len(g), MinSeq: g[0].seq, MaxSeq: g[len(g)-1].seq,
			MinTime: int64(g[0].seq) * 10, MaxTime: int64(g[len(g)-1].seq) * 10}); err != nil {
			t.Fatal(err)
		}
		var span seg.KeySpan // as the store's writers tell it: puts' and deletes' keys
		for _, r := range g {
			if r.key != "" && (r.op == OpPut || r.op == OpDelete) {
				span.AddString(r.key)
			}
		}
		if spans {
			w.SetLastKeys(&span)
		}
	}
	if err := w.Seal(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return Segment{Path: path, FirstSeq: groups[0][0].seq, MaxSeq: groups[len(groups)-1][len(groups[len(groups)-1])-1].seq}
}

// seqsOf returns the seqs of every block of a segment, per block.
func seqsOf(t *testing.T, fsys vfs.FS, path string) ([][]int64, []seg.BlockMeta) {
	t.Helper()
	r, err := seg.Open(fsys, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out [][]int64
	var dec chunk.Decoder
	var rw rows
	for i, m := range r.Blocks() {
		if m.Rows == 0 {
			out = append(out, nil)
			continue
		}
		b, err := r.ReadBlock(i, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := decodeRows(&dec, b, &rw); err != nil {
			t.Fatal(err)
		}
		out = append(out, append([]int64(nil), rw.seq...))
	}
	return out, r.Blocks()
}

// TestRunKeepsTopology: a block whose rows all drop stays as a frame of 0
// rows; envelopes stay; the watermark is committed; untouched segments
// are not rewritten.
func TestRunKeepsTopology(t *testing.T) {
	fsys := vfs.NewMem()
	_ = fsys.MkdirAll("s", 0o755)
	a := writeSeg(t, fsys, "s/a.seg",
		[]row{{1, "x", "k1", OpPut}, {2, "x", "k2", OpPut}},
		[]row{{3, "y", "", OpPut}, {4, "x", "k1", OpPut}})
	b := writeSeg(t, fsys, "s/b.seg",
		[]row{{5, "z", "", OpPut}, {6, "z", "q", OpPut}},
		[]row{{7, "x", "k1", OpDelete}, {8, "x", "k2", OpPut}, {9, "y", "", OpDrop}})
	c := writeSeg(t, fsys, "s/c.seg", []row{{10, "w", "", OpPut}})
	var refreshed []string
	var told seg.Meta
	st, err := Run(context.Background(), Config{FS: fsys, Dir: "s", Segments: []Segment{a, b, c}, Workers: 2,
		OnRewritten: func(p string, m seg.Meta) error { refreshed, told = append(refreshed, p), m; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if st.Watermark != 10 || st.SegmentsRewritten != 1 || st.RowsDropped[ReasonRecord] != 2 ||
		st.RowsDropped[ReasonUpdate] != 1 || st.RowsDropped[ReasonSeries] != 1 {
		t.Fatalf("stats %+v", st)
	}
	if len(refreshed) != 1 || refreshed[0] != "s/a.seg" {
		t.Fatalf("refreshed %v", refreshed)
	}
	got, metas := seqsOf(t, fsys, "s/a.seg")
	if len(got) != 2 || got[0] != nil || metas[0].Rows != 0 || metas[0].MinSeq != 1 || metas[0].MaxSeq != 2 {
		t.Fatalf("block 0: %v %+v, want an empty frame with envelope 1..2", got, metas[0])
	}
	if len(got[1]) != 0 || metas[1].Rows != 0 {
		t.Fatalf("block 1 %v %+v", got[1], metas[1])
	}
	r, _ := seg.Open(fsys, "s/a.seg")
	if r.Header().Generation != 2 {
		t.Fatalf("generation %d", r.Header().Generation)
	}
	if !reflect.DeepEqual(told, r.Meta()) {
		t.Fatalf("OnRewritten was told %+v, the file holds %+v", told, r.Meta())
	}
	_ = r.Close()
	if w, _, _ := LoadWatermark(fsys, "s"); w != 10 {
		t.Fatalf("watermark %d", w)
	}
	if st.GoneSuperseded.GetCardinality() != 4 {
		t.Fatalf("gone %v", st.GoneSuperseded.ToArray())
	}
}

// TestRunCorruptBlock: a block without the record columns fails the pass
// with an error naming the file and block; W does not move.
func TestRunCorruptBlock(t *testing.T) {
	fsys := vfs.NewMem()
	_ = fsys.MkdirAll("s", 0o755)
	w, _ := seg.Create(fsys, "s/bad.seg", "ev", 1, 1)
	var enc chunk.Encoder
	blk := chunk.Block{Rows: 1, Columns: []chunk.Column{{Name: "seq", Type: chunk.Int64, Ints: []int64{1}}}}
	b, _ := enc.Append(nil, &blk, nil)
	if err := w.Append(b, seg.BlockMeta{Rows: 1, MinSeq: 1, MaxSeq: 1}); err != nil {
		t.Fatal(err)
	}
	_ = w.Seal()
	_ = w.Close()
	for _, two := range []TwoPhaseMode{TwoPhaseNever, TwoPhaseAlways} {
		_, err := Run(context.Background(), Config{FS: fsys, Dir: "s", Segments: []Segment{{"s/bad.seg", 1, 1}}, TwoPhase: two})
		if err == nil || !errors.Is(err, chunk.ErrCorrupt) || !strings.Contains(err.Error(), "s/bad.seg block 0") {
			t.Fatalf("two-phase %d: err %v", two, err)
		}
		if _, ok, _ := LoadWatermark(fsys, "s"); ok {
			t.Fatalf("two-phase %d: watermark written by a failed pass", two)
		}
	}
}

// TestRunCancelled: a cancelled context never lets W advance, in the
// fold and in two phases.
func TestRunCancelled(t *testing.T) {
	for _, two := range []TwoPhaseMode{TwoPhaseNever, TwoPhaseAlways} {
		fsys := vfs.NewMem()
		_ = fsys.MkdirAll("s", 0o755)
		a := writeSeg(t, fsys, "s/a.seg", []row{{1, "x", "k", OpPut}, {2, "x", "k", OpDelete}})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		st, err := Run(ctx, Config{FS: fsys, Dir: "s", Segments: []Segment{a}, TwoPhase: two})
		if !errors.Is(err, context.Canceled) || st.Watermark != 0 {
			t.Fatalf("two-phase %d: W %d err %v", two, st.Watermark, err)
		}
		// Cancelled inside the chunk, after the workers: still no commit.
		ctx, cancel = context.WithCancel(context.Background())
		st, err = Run(ctx, Config{FS: fsys, Dir: "s", Segments: []Segment{a}, TwoPhase: two,
			OnRewritten: func(string, seg.Meta) error { cancel(); return nil }})
		if !errors.Is(err, context.Canceled) || st.Watermark != 0 {
			t.Fatalf("two-phase %d: W %d err %v", two, st.Watermark, err)
		}
		if _, ok, _ := LoadWatermark(fsys, "s"); ok {
			t.Fatalf("two-phase %d: watermark written by a cancelled pass", two)
		}
	}
}

// tmpWatchFS records the most bytes temp files held at once.
type tmpWatchFS struct {
	vfs.FS
	dir  string
	mu   sync.Mutex
	peak int64
}

type tmpWatchFile struct {
	vfs.File
	w *tmpWatchFS
}

func (f tmpWatchFile) Write(p []byte) (int, error) {
	time.Sleep(200 * time.Microsecond) // a slow disk: concurrent rewrites overlap
	n, err := f.File.Write(p)
	f.w.mu.Lock()
	defer f.w.mu.Unlock()
	names, _ := f.w.FS.ReadDir(f.w.dir)
	var sum int64
	for _, name := range names {
		if strings.HasSuffix(name, ".tmp") {
			if fi, err := f.w.FS.Stat(f.w.dir + "/" + name); err == nil {
				sum += fi.Size()
			}
		}
	}
	f.w.peak = max(f.w.peak, sum)
	return n, err
}

func (w *tmpWatchFS) CreateNew(name string) (vfs.File, error) {
	f, err := w.FS.CreateNew(name)
	if err != nil {
		return nil, err
	}
	return tmpWatchFile{f, w}, nil
}

func (w *tmpWatchFS) Create(name string) (vfs.File, error) {
	f, err := w.FS.Create(name)
	if err != nil {
		return nil, err
	}
	return tmpWatchFile{f, w}, nil
}

// TestRunDiskBudget: with many workers, the temp files of concurrent
// rewrites never hold more than the largest segment's size.
func TestRunDiskBudget(t *testing.T) {
	mem := vfs.NewMem()
	_ = mem.MkdirAll("s", 0o755)
	var segs []Segment
	var largest int64
	seq := uint64(1)
	for i := range 8 { // equal sizes: two temp files near their end exceed one segment
		var groups [][]row
		for range 3 {
			var g []row
			for range 50 {
				g = append(g, row{seq, fmt.Sprintf("s%d", seq%7), fmt.Sprintf("k%d", seq%40), OpPut})
				seq++
			}
			groups = append(groups, g)
		}
		sg := writeSeg(t, mem, fmt.Sprintf("s/%02d.seg", i), groups...)
		segs = append(segs, sg)
		fi, _ := mem.Stat(sg.Path)
		largest = max(largest, fi.Size())
	}
	w := &tmpWatchFS{FS: mem, dir: "s"}
	st, err := Run(context.Background(), Config{FS: w, Dir: "s", Segments: segs, Workers: 8})
	if err != nil {
		t.Fatal(err)
	}
	if st.SegmentsRewritten < 6 {
		t.Fatalf("only %d segments rewritten", st.SegmentsRewritten)
	}
	if w.peak == 0 || w.peak > largest {
		t.Fatalf("temp files held %d bytes at once; the largest segment is %d", w.peak, largest)
	}
}

// TestRunBloomPrefilter: below the cutoff a segment whose bloom rules
// out every series named is skipped unread; above it every segment is
// scanned; the result is the same. The chunked pass prefilters every
// segment; the single-chunk pass reads the window's segments anyway (to
// fold them) and prefilters those at or below W.
func TestRunBloomPrefilter(t *testing.T) {
	for _, chunked := range []bool{true, false} {
		for _, cutoff := range []int{DefaultBloomCutoff, 1} {
			fsys := vfs.NewMem()
			_ = fsys.MkdirAll("s", 0o755)
			// Keys unknown: the key-span prefilter rules nothing out.
			a := writeSegSpans(t, fsys, "s/a.seg", false, []row{{1, "x", "k", OpPut}, {2, "y", "k", OpPut}})
			b := writeSegSpans(t, fsys, "s/b.seg", false, []row{{3, "other", "", OpPut}, {4, "other2", "", OpPut}}) // samples: no tombstone
			c := writeSegSpans(t, fsys, "s/c.seg", false, []row{{5, "x", "k", OpDelete}, {6, "y", "k", OpDelete}})
			cfg := Config{FS: fsys, Dir: "s", Segments: []Segment{a, b, c}, BloomCutoff: cutoff, Chunked: chunked}
			if !chunked {
				cfg.Watermark = 4 // a and b below W: prefiltered
			}
			st, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			wantSkipped, wantExamined := 1, 2 // b by its bloom (neither x nor y)
			if cutoff == 1 {
				wantSkipped, wantExamined = 0, 3 // two entries > 1: every segment scanned
			}
			if st.SegmentsSkipped != wantSkipped || st.SegmentsExamined != wantExamined ||
				st.SegmentsRewritten != 1 || st.RowsDropped[ReasonRecord] != 2 {
				t.Fatalf("chunked %v, cutoff %d: %+v", chunked, cutoff, st)
			}
			got, _ := seqsOf(t, fsys, "s/b.seg")
			if len(got) != 1 || len(got[0]) != 2 {
				t.Fatalf("chunked %v, cutoff %d: b changed: %v", chunked, cutoff, got)
			}
		}
	}
}

// TestRunBytesWrittenWholeFiles: BytesWritten counts every byte of the
// rewritten files (header, frames, index, bloom, footer), also when
// every block of a segment is emptied; in both the chunked and the
// single-chunk pass.
func TestRunBytesWrittenWholeFiles(t *testing.T) {
	for _, chunked := range []bool{true, false} {
		fsys := vfs.NewMem()
		_ = fsys.MkdirAll("s", 0o755)
		a := writeSeg(t, fsys, "s/a.seg", []row{{1, "x", "k1", OpPut}, {2, "x", "k2", OpPut}}, []row{{3, "y", "k1", OpPut}})
		b := writeSeg(t, fsys, "s/b.seg", []row{{4, "x", "k1", OpDelete}, {5, "x", "k2", OpDelete}, {6, "y", "k1", OpDelete}})
		st, err := Run(context.Background(), Config{FS: fsys, Dir: "s", Segments: []Segment{a, b}, Chunked: chunked})
		if err != nil {
			t.Fatal(err)
		}
		fi, err := fsys.Stat(a.Path)
		if err != nil {
			t.Fatal(err)
		}
		if st.SegmentsRewritten != 1 || st.RowsDropped[ReasonRecord] != 3 || st.Tombstones != [numReasons]int64{3, 0, 0, 0} {
			t.Fatalf("chunked %v: %+v", chunked, st)
		}
		if got, _ := seqsOf(t, fsys, a.Path); len(got) != 2 || len(got[0]) != 0 || len(got[1]) != 0 {
			t.Fatalf("chunked %v: a holds %v, want two empty blocks", chunked, got)
		}
		if st.BytesWritten != fi.Size() || st.BytesWritten == 0 {
			t.Fatalf("chunked %v: BytesWritten %d, the rewritten file has %d bytes", chunked, st.BytesWritten, fi.Size())
		}
	}
}

// TestAddSeqs: seqs in any order (ascending, descending as the
// single-chunk fold lists them, shuffled) end up in the bitmap, each
// once.
func TestAddSeqs(t *testing.T) {
	for _, order := range []string{"ascending", "descending", "shuffled"} {
		var s []uint64
		for q := uint64(1); q <= 50_000; q += 7 {
			s = append(s, q)
		}
		switch order {
		case "descending":
			slices.Reverse(s)
		case "shuffled":
			rand.New(rand.NewPCG(1, 2)).Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		}
		b := roaring64.New()
		addSeqs(b, s)
		if b.GetCardinality() != uint64(len(s)) || !b.Contains(1) || !b.Contains(49_995) || b.Contains(2) {
			t.Errorf("%s: %d seqs gave cardinality %d", order, len(s), b.GetCardinality())
		}
	}
}

// TestConfigDefaults: a Config's zero fields take the contract's
// defaults: a tombstone cap of 32,000,000 (a larger one clamped to
// MaxTombstoneCap), the bloom prefilter up to 100,000 series, min(NumCPU,
// 8) workers.
func TestConfigDefaults(t *testing.T) {
	var c Config
	c.defaults()
	if c.TombstoneCap != 32_000_000 || c.BloomCutoff != 100_000 || c.Workers != min(runtime.NumCPU(), 8) || c.HeldBytes != DefaultHeldBytes {
		t.Fatalf("defaults: cap %d, cutoff %d, workers %d, held %d", c.TombstoneCap, c.BloomCutoff, c.Workers, c.HeldBytes)
	}
	c = Config{TombstoneCap: MaxTombstoneCap + 1, BloomCutoff: 7, Workers: 3}
	c.defaults()
	if c.TombstoneCap != MaxTombstoneCap || c.BloomCutoff != 7 || c.Workers != 3 {
		t.Fatalf("given: cap %d, cutoff %d, workers %d", c.TombstoneCap, c.BloomCutoff, c.Workers)
	}
}
