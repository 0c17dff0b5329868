package compact

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/codec"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// TestProcessSegmentSinglePass: blocks before the first drop are copied,
// later blocks are decided during the rewrite, a block above the chunk
// end is kept whole; every column keeps its values and the new bloom
// names the series of every kept row, whichever path the block took.
func TestProcessSegmentSinglePass(t *testing.T) {
	fsys := vfs.NewMem()
	_ = fsys.MkdirAll("s", 0o755)
	writeSeg(t, fsys, "s/a.seg",
		[]row{{1, "u", "a", OpPut}, {2, "u", "b", OpPut}},   // untouched, scanned
		[]row{{3, "x", "k1", OpPut}, {4, "x", "k2", OpPut}}, // first drop
		[]row{{5, "x", "k3", OpPut}, {6, "w", "k4", OpPut}}, // decided while rewriting
		[]row{{7, "v", "c", OpPut}},                         // untouched, decided while rewriting
		[]row{{8, "x", "k3", OpPut}},                        // emptied
		[]row{{60, "hi", "k9", OpPut}})                      // above the chunk end
	snap := NewSnapshot()
	for _, k := range []string{"k1", "k3", "k9"} {
		snap.Observe(100, "x", k, OpDelete)
	}
	snap.Observe(100, "hi", "k9", OpDelete)
	d := &decider{snap: snap, chunkEnd: 50}
	res, err := processSegment(context.Background(), &Config{FS: fsys}, "s/a.seg", d, newByteSem(1<<30))
	if err != nil {
		t.Fatal(err)
	}
	if !res.rewritten || res.dropped[ReasonRecord] != 3 || !reflect.DeepEqual(res.goneSup, []uint64{3, 5, 8}) {
		t.Fatalf("result %+v", res)
	}
	got, metas := seqsOf(t, fsys, "s/a.seg")
	want := [][]int64{{1, 2}, {4}, {6}, {7}, nil, {60}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("seqs %v, want %v", got, want)
	}
	if metas[4].Rows != 0 || metas[4].MinSeq != 8 {
		t.Fatalf("emptied block %+v", metas[4])
	}
	r, err := seg.Open(fsys, "s/a.seg")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, s := range []string{"u", "x", "w", "v", "hi"} {
		if !r.MayContainSeries(s) {
			t.Errorf("bloom lost series %q", s)
		}
	}
	// The source's keys were unknown: the new span is the kept keyed
	// puts' own (k1, k3 gone; k9 from the block above the chunk end).
	if k := r.Keys(); !k.Known() {
		t.Error("the rewritten segment's keys are unknown")
	} else if lo, hi, _ := k.Bounds(); string(lo) != "a" || string(hi) != "k9" {
		t.Errorf("the rewritten segment's key span %q..%q, want a..k9", lo, hi)
	}
	// Every column of every block keeps its values (time = seq*10; keys).
	var dec chunk.Decoder
	var blk chunk.Block
	wantKeys := [][]string{{"a", "b"}, {"k2"}, {"k4"}, {"c"}, nil, {"k9"}}
	for i, m := range r.Blocks() {
		if m.Rows == 0 {
			continue
		}
		b, err := r.ReadBlock(i, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := dec.Reset(b); err != nil {
			t.Fatal(err)
		}
		if err := dec.Block(&blk); err != nil {
			t.Fatal(err)
		}
		for _, c := range blk.Columns {
			for j := range blk.Rows {
				switch c.Name {
				case "time":
					if c.Ints[j] != want[i][j]*10 {
						t.Errorf("block %d row %d: time %d", i, j, c.Ints[j])
					}
				case "key":
					if c.StringAt(j) != wantKeys[i][j] {
						t.Errorf("block %d row %d: key %q", i, j, c.StringAt(j))
					}
				}
			}
		}
	}
}

func TestBufClass(t *testing.T) {
	prev := 0
	for n := 0; n < 64<<20; n += 1 + n/7 {
		c, size := bufClass(n)
		if size < n || size < 4<<10 || (n > 4<<10 && size > n+n/4) {
			t.Fatalf("bufClass(%d) = size %d: not the least class at or above it", n, size)
		}
		if c2, size2 := bufClass(size); c2 != c || size2 != size {
			t.Fatalf("bufClass(%d) = %d, %d; of its own size %d, %d", n, c, size, c2, size2)
		}
		if c < prev || c >= len(blockBufs) {
			t.Fatalf("bufClass(%d) = class %d after %d (of %d)", n, c, prev, len(blockBufs))
		}
		prev = c
	}
}

// TestRewriteKeepsKeySpan: a segment whose key span is known keeps it
// through a rewrite (it bounds the kept keyed puts too), and one whose
// kept rows hold no keyed put gets an empty span when its keys were
// unknown.
func TestRewriteKeepsKeySpan(t *testing.T) {
	fsys := vfs.NewMem()
	_ = fsys.MkdirAll("s", 0o755)
	writeSeg(t, fsys, "s/known.seg", []row{{1, "x", "b", OpPut}, {2, "x", "c", OpPut}})
	// Rewrite it once with a span told, as the store's writers do.
	var told seg.KeySpan
	told.AddString("a")
	told.AddString("z")
	if err := seg.Rewrite(fsys, "s/known.seg", func(w *seg.Writer) error {
		r, err := seg.Open(fsys, "s/known.seg")
		if err != nil {
			return err
		}
		defer r.Close()
		if err := w.CopyFrames(r, 0, len(r.Blocks())); err != nil {
			return err
		}
		w.AddSeries("x")
		for i := range r.Blocks() {
			w.SetBlockKeys(i, &told)
		}
		return nil
	}, nil); err != nil {
		t.Fatal(err)
	}
	writeSegSpans(t, fsys, "s/samples.seg", false, []row{{1, "x", "", OpPut}, {2, "x", "b", OpPut}})
	for _, c := range []struct{ path, lo, hi string }{{"s/known.seg", "a", "z"}, {"s/samples.seg", "", ""}} {
		snap := NewSnapshot()
		snap.Observe(100, "x", "b", OpDelete)
		d := &decider{snap: snap, chunkEnd: 50}
		res, err := processSegment(context.Background(), &Config{FS: fsys}, c.path, d, newByteSem(1<<30))
		if err != nil || !res.rewritten || res.dropped[ReasonRecord] != 1 {
			t.Fatalf("%s: %+v, %v", c.path, res, err)
		}
		r, err := seg.Open(fsys, c.path)
		if err != nil {
			t.Fatal(err)
		}
		k := r.Keys()
		lo, hi, ok := k.Bounds()
		r.Close()
		if !k.Known() || string(lo) != c.lo || string(hi) != c.hi || ok != (c.lo != "") {
			t.Fatalf("%s: key span known %v, %q..%q (%v), want %q..%q", c.path, k.Known(), lo, hi, ok, c.lo, c.hi)
		}
	}
}

// TestKeptSeries: the series keptSeries gathers from a block's series
// column are those of its rows neither dropped nor null, against brute
// force, for dictionary columns with and without nulls (every row of
// some series dropped, none of others) and a column of strings.
func TestKeptSeries(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	var scratch []int32
	for round := range 2000 {
		n, entries := 1+rng.IntN(300), 1+rng.IntN(12)
		var sc chunk.Column
		for e := range entries {
			sc.Dict.AppendString(fmt.Sprintf("s%d", e))
		}
		for range n {
			sc.Codes = append(sc.Codes, int32(rng.IntN(entries)))
		}
		if round%3 == 1 {
			sc.Valid = make([]bool, n)
			for r := range sc.Valid {
				sc.Valid[r] = rng.IntN(4) > 0
			}
		}
		var drop []int32
		gone := rng.IntN(entries) // every row of it dropped
		for r, c := range sc.Codes {
			if int(c) == gone || rng.IntN(5) == 0 {
				drop = append(drop, int32(r))
			}
		}
		if round%3 == 2 {
			for _, c := range sc.Codes {
				sc.Strs = append(sc.Strs, string(sc.Dict.At(int(c))))
			}
			sc.Codes, sc.Dict = nil, codec.Strings{}
		}
		want := map[string]struct{}{}
		for r := range n {
			if slices.Contains(drop, int32(r)) || sc.IsNull(r) {
				continue
			}
			if sc.Strs != nil {
				want[sc.Strs[r]] = struct{}{}
			} else {
				want[string(sc.Dict.At(int(sc.Codes[r])))] = struct{}{}
			}
		}
		got := map[string]struct{}{}
		scratch = keptSeries(&sc, drop, scratch, got)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: kept %v, want %v", round, got, want)
		}
	}
}
