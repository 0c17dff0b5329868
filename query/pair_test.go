package query

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// TestPairFuncs: greatest, least and nullif: nulls skipped (greatest and
// least are null only when every argument is), an int64 beside a float
// widened, text by bytes, an instant beside a time in quotes, nullif
// comparing an int64 with a float, columns over many rows (TestModel
// holds them against its oracle too), and the type errors.
func TestPairFuncs(t *testing.T) {
	src, rows := testSource(t, 400, 50)
	open := openOnly(src)
	got := mustRun(t, open, "SELECT greatest(1, 2.5, -3), least(4, 2, 9), greatest(1 / 0, 3), least(1 / 0, 2 % 0), "+
		"nullif(3, 3.0), nullif(3, 4), nullif('a', 'a'), greatest('abc', 'abd', 'ab'), least('b', 'B'), "+
		"CASE WHEN greatest('2024-01-02', now() - 3h, '2024-01-01') = now() - 3h THEN 'now' END, CASE WHEN least(time, '2000-01-01') = '2000-01-01' THEN 'y2k' END FROM m LIMIT 1")
	want := []any{2.5, int64(2), 3.0, nil, nil, int64(3), nil, "abd", "B", "now", "y2k"}
	if len(got) != 1 || len(got[0]) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i, w := range want {
		if !sameCell(got[0][i], w) {
			t.Errorf("item %d = %v (%T), want %v", i+1, got[0][i], got[0][i], w)
		}
	}
	// Over columns with nulls: v (float) and n (int64).
	got = mustRun(t, open, "SELECT seq, greatest(v, n), least(v, n, 40), nullif(n, 7) FROM m")
	if len(got) != len(rows) {
		t.Fatalf("%d rows, want %d", len(got), len(rows))
	}
	checked := 0
	for i, r := range rows {
		v, hv := r.f["v"].(float64)
		n, hn := r.f["n"].(int64)
		var g, l, ni any
		switch {
		case hv && hn:
			g, l = max(v, float64(n)), min(v, float64(n), 40)
			checked++
		case hv:
			g, l = v, min(v, 40)
		case hn:
			g, l = float64(n), min(float64(n), 40)
		default:
			l = 40.0
		}
		if hn && n != 7 {
			ni = n
		}
		if row := got[i]; row[0] != r.seq || !sameCell(row[1], g) || !sameCell(row[2], l) || !sameCell(row[3], ni) {
			t.Fatalf("seq %d (v %v, n %v): %v, want %v %v %v", r.seq, r.f["v"], r.f["n"], row[1:], g, l, ni)
		}
	}
	if checked < 100 {
		t.Fatalf("only %d rows with both v and n", checked)
	}
	rr, err := Run(context.Background(), "SELECT greatest(v, n, 10), least(s, key), nullif(time, now()) FROM m", open, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	for i, w := range []string{"greatest(v, n, 10)", "least(s, key)", "nullif(time, now())"} {
		if f := rr.Schema().Field(i); f.Name != w {
			t.Errorf("column %d is named %s, want %s", i, f.Name, w)
		}
	}
	if typ := rr.Schema().Field(2).Type; typ.ID() != arrow.TIMESTAMP {
		t.Errorf("nullif(time, now()) is a %v, want a timestamp", typ)
	}
	wantErrors(t, open, []errCase{
		{"SELECT greatest(v, s) FROM m", "greatest() takes all text, all bools or all numbers", "greatest"},
		{"SELECT nullif(s, 1) FROM m", "nullif() takes all text, all bools or all numbers", "nullif"},
		{"SELECT least(v) FROM m", "expected \",\"", ")"},
	})
}
