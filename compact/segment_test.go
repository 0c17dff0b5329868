package compact

import (
	"context"
	"reflect"
	"testing"

	"github.com/tsqdb/tsq/chunk"
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
