package tsq

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/tsqdb/tsq/internal/vfs"
)

// TestTombstonedTracksSuperseded: with background compaction on (a live
// set), each keyed put or delete that supersedes a put above W counts
// that put in TombstonedRows at once (samples, deletes and series drops
// mark nothing: a drop's puts are not enumerated); a pass that stops
// before removing them writes them to the tombstoned bitmap; a reopen
// finds them again from the rows above W without counting twice; a pass
// that removes them empties both. With compaction off nothing is marked.
func TestTombstonedTracksSuperseded(t *testing.T) {
	mem := vfs.NewMem()
	o := smallSegs
	o.CompactInterval = time.Hour // a live set; no pass runs by itself
	s := openT(t, mem, o)
	appendAll := func(recs ...Record) {
		t.Helper()
		if _, err := s.Append(ctx, "ev", recs...); err != nil {
			t.Fatal(err)
		}
	}
	put := func(i int, key string) Record {
		return Record{Time: day0 + int64(i), Series: "a", Key: key, Fields: []Field{{"v", Int(int64(i))}}}
	}
	for i := range 8 { // seqs 1..8
		appendAll(put(i, string(rune('p'+i))))
	}
	appendAll(
		put(8, "p"), // 9: supersedes 1
		put(9, "q"), // 10: supersedes 2
		Record{Time: day0 + 10, Series: "a", Key: "r", Op: OpDelete},         // 11: supersedes 3
		Record{Time: day0 + 11, Series: "a", Key: "r", Op: OpDelete},         // 12: a delete supersedes no put
		Record{Time: day0 + 12, Series: "a", Fields: []Field{{"v", Int(1)}}}, // 13: a sample
		put(13, "p"), // 14: supersedes 9
		Record{Time: day0 + 14, Series: "b", Key: "s", Fields: []Field{{"v", Int(1)}}},             // 15
		Record{Time: day0 + 15, Series: "b", Op: OpDrop, Fields: []Field{{"reason", Str("test")}}}, // 16: drops 15, not marked
		put(16, "z"), // 17: a new key
	)
	want := roaring64.BitmapOf(1, 2, 3, 9)
	if got := s.Metrics().TombstonedRows; got != want.GetCardinality() {
		t.Fatalf("TombstonedRows %d after the appends, want %d", got, want.GetCardinality())
	}
	st, err := s.stream("ev", false)
	if err != nil {
		t.Fatal(err)
	}
	if bm := st.tombstonedSnapshot(); bm != nil && !bm.IsEmpty() {
		t.Fatalf("tombstoned bitmap %v before a pass, want empty (the marks wait for one)", bm.ToArray())
	}

	// A pass that stops before it removes anything keeps the marks in
	// the bitmap, on disk.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Compact(cancelled, "ev"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled pass: %v", err)
	}
	if bm := st.tombstonedSnapshot(); bm == nil || !bm.Equals(want) {
		t.Fatalf("tombstoned bitmap after a cancelled pass: %v, want %v", bm, want.ToArray())
	}
	if got := s.Metrics().TombstonedRows; got != want.GetCardinality() {
		t.Fatalf("TombstonedRows %d after a cancelled pass, want %d", got, want.GetCardinality())
	}
	closeT(t, s)

	// Reopened: the bitmap from disk, and the live set's marks found
	// again from the rows above W, counted once.
	s = openT(t, mem, o)
	if st, err = s.stream("ev", false); err != nil { // streams open when first used
		t.Fatal(err)
	}
	if got := s.Metrics().TombstonedRows; got != want.GetCardinality() {
		t.Fatalf("TombstonedRows %d after reopening, want %d", got, want.GetCardinality())
	}
	cs, err := s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	if cs.RowsUpdate+cs.RowsRecord+cs.RowsSeries != 5 { // 1, 2, 3, 9 and 15
		t.Fatalf("pass dropped %+v, want 5 rows", cs)
	}
	if got := s.Metrics().TombstonedRows; got != 0 {
		t.Fatalf("TombstonedRows %d after a pass, want 0", got)
	}
	if bm := st.tombstonedSnapshot(); bm != nil && !bm.IsEmpty() {
		t.Fatalf("tombstoned bitmap %v after the pass, want empty", bm.ToArray())
	}
	// A put at or below W (17) is not known to the live set: the next
	// pass removes it without a mark. Puts above W are marked again.
	for i, key := range []string{"z", "y", "y"} { // 18 supersedes 17; 20 supersedes 19
		if _, err := s.Append(ctx, "ev", put(20+i, key)); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.Metrics().TombstonedRows; got != 1 {
		t.Fatalf("TombstonedRows %d after the appends above W, want 1 (seq 19)", got)
	}
	closeT(t, s)

	// Compaction off (interval 0): no live set, nothing marked.
	off := smallSegs
	s = openT(t, vfs.NewMem(), off)
	defer closeT(t, s)
	for i := range 3 {
		if _, err := s.Append(ctx, "ev", put(i, "same")); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.Metrics().TombstonedRows; got != 0 {
		t.Fatalf("TombstonedRows %d with compaction off, want 0", got)
	}
}
