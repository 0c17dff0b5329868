package tsq

import (
	"errors"
	"slices"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

// TestDropSeries: a drop takes every earlier put of its series out of
// the folded view (keyed and samples), none of another series nor a
// later one; the drop row keeps its reason in the raw view, also after
// compaction removed the dropped rows; an empty reason is refused and
// appends nothing.
func TestDropSeries(t *testing.T) {
	s := openT(t, vfs.NewMem(), smallSegs)
	defer closeT(t, s)
	recs := []Record{
		{Time: day0, Series: "a", Key: "k", Fields: []Field{{"v", Int(1)}}},
		{Time: day0 + 1, Series: "a", Fields: []Field{{"v", Int(2)}}}, // a sample
		{Time: day0 + 2, Series: "b", Key: "k", Fields: []Field{{"v", Int(3)}}},
	}
	if _, err := s.Append(ctx, "ev", recs...); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DropSeries(ctx, "ev", "a", ""); !errors.Is(err, ErrInvalidRecord) {
		t.Fatalf("empty reason: %v, want ErrInvalidRecord", err)
	}
	if _, err := s.DropSeries(ctx, "ev", "", "retired"); !errors.Is(err, ErrInvalidRecord) {
		t.Fatalf("empty series: %v, want ErrInvalidRecord", err)
	}
	if _, err := s.DropSeries(ctx, "no/such", "a", "retired"); err == nil {
		t.Fatal("invalid stream name: no error")
	}
	seq, err := s.DropSeries(ctx, "ev", "a", "retired")
	if err != nil {
		t.Fatal(err)
	}
	if seq != 4 {
		t.Fatalf("drop seq %d, want 4 (the refused drop appended nothing)", seq)
	}
	if _, err := s.Append(ctx, "ev", Record{Time: day0 + 5, Series: "a", Key: "k2", Fields: []Field{{"v", Int(5)}}}); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		var live []uint64
		for _, seq := range fold(rawRows(t, s, "ev")) {
			live = append(live, seq)
		}
		slices.Sort(live)
		if !slices.Equal(live, []uint64{3, 5}) {
			t.Fatalf("%s: folded rows %v, want [3 5] (b's put and the put after the drop)", when, live)
		}
		r, err := s.Get("ev", seq)
		if err != nil {
			t.Fatalf("%s: drop row %d: %v", when, seq, err)
		}
		if v, ok := r.Field(DropReasonField); r.Op != OpDrop || r.Series != "a" || !ok || v.Str() != "retired" {
			t.Fatalf("%s: drop row %+v", when, r)
		}
	}
	check("before compaction")
	cs, err := s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	if cs.RowsSeries != 2 {
		t.Fatalf("compaction dropped %d rows for the series drop, want 2", cs.RowsSeries)
	}
	check("after compaction")
}
