package tsq

import (
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// rewriteWithout rewrites the sealed segment path as compaction does:
// rows in del are removed, block topology and seq/time bounds are kept
// (an emptied block stays with 0 rows). It returns the seqs removed.
func rewriteWithout(t *testing.T, fsys vfs.FS, path string, del *roaring64.Bitmap) *roaring64.Bitmap {
	t.Helper()
	r, err := seg.Open(fsys, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	gone := roaring64.New()
	var enc chunk.Encoder
	err = seg.Rewrite(fsys, path, func(w *seg.Writer) error {
		for i, m := range r.Blocks() {
			if m.Rows == 0 {
				if err := w.Append(nil, m); err != nil {
					return err
				}
				continue
			}
			raw, err := r.ReadBlock(i, nil)
			if err != nil {
				return err
			}
			var dec chunk.Decoder
			blk := new(chunk.Block)
			if err := dec.Reset(raw); err != nil {
				return err
			}
			if err := dec.Block(blk); err != nil {
				return err
			}
			for _, q := range column(blk, colSeq).Ints {
				if del.Contains(uint64(q)) {
					gone.Add(uint64(q))
				}
			}
			dropDeleted(blk, del)
			meta := seg.BlockMeta{Rows: blk.Rows, MinSeq: m.MinSeq, MaxSeq: m.MaxSeq, MinTime: m.MinTime, MaxTime: m.MaxTime}
			var b []byte
			if blk.Rows > 0 {
				if b, err = enc.Append(nil, blk, nil); err != nil {
					return err
				}
				for k := range blk.Rows {
					w.AddSeries(column(blk, colSeries).StringAt(k))
				}
			}
			if err := w.Append(b, meta); err != nil {
				return err
			}
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return gone
}

// TestDeleteAfterRewrite: compaction removes soft-deleted rows from
// sealed segments and forgets them; every read stays the same, in the
// writer and in a read-only Store that loaded the old segments; blocks
// left with non-consecutive seqs still count and filter right.
func TestDeleteAfterRewrite(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{BlockRows: 4, SegmentMaxBytes: 1024, RetentionInterval: NoRetentionLoop})
	all := appendN(t, s, "ev", 40)
	deleted := map[uint64]bool{}
	del := []uint64{2, 5, 6, 7, 8, 13, 30, 39, 40}
	if err := s.Delete(ctx, "ev", del...); err != nil {
		t.Fatal(err)
	}
	for _, q := range del {
		deleted[q] = true
	}
	ro := openT(t, mem, Options{ReadOnly: true})
	checkHidden(t, ro, "ev", all, deleted)
	v, _ := s.readViewT("ev")
	var sealed []string
	for _, sf := range v.segs {
		if sf.sealed {
			sealed = append(sealed, sf.path)
		}
	}
	if len(sealed) < 2 {
		t.Fatalf("want several sealed segments, got %d", len(sealed))
	}
	closeT(t, s)

	bm := roaring64.New()
	for q := range deleted {
		bm.Add(q)
	}
	gone := roaring64.New()
	for _, p := range sealed {
		gone.Or(rewriteWithout(t, mem, p, bm))
	}
	if gone.IsEmpty() {
		t.Fatal("nothing rewritten")
	}
	s = openT(t, mem, Options{RetentionInterval: NoRetentionLoop})
	defer closeT(t, s)
	st, _ := s.stream("ev", false)
	if err := st.forgetDeleted(gone); err != nil {
		t.Fatal(err)
	}
	checkHidden(t, s, "ev", all, deleted)
	checkHidden(t, ro, "ev", all, deleted)
	// Delete in a block whose seqs are no longer consecutive.
	if err := s.Delete(ctx, "ev", 1, 3); err != nil {
		t.Fatal(err)
	}
	deleted[1], deleted[3] = true, true
	checkHidden(t, s, "ev", all, deleted)
	checkHidden(t, ro, "ev", all, deleted)
	if err := s.Delete(ctx, "ev", 5); err == nil {
		t.Fatal("Delete of a row compaction removed succeeded")
	}
	closeT(t, ro)
	if m := s.Metrics(); m.DeletedRows != uint64(len(deleted))-gone.GetCardinality() {
		t.Fatalf("DeletedRows %d, want %d", m.DeletedRows, uint64(len(deleted))-gone.GetCardinality())
	}
}
