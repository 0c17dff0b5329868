package query

import "testing"

// TestBoolAndCountIf: bool_and and bool_or of a bool field (whether every
// and whether any row's is true, nulls skipped), count_if(cond) as
// count(*) FILTER (WHERE cond), any_value as first, approx_count_distinct as count(DISTINCT x); and
// their errors.
func TestBoolAndCountIf(t *testing.T) {
	src, rows := testSource(t, 2000, 50)
	open := openOnly(src)
	got := mustRun(t, open, "SELECT series, bool_and(b), bool_or(b), count_if(v > 100 AND n < 50), any_value(s) FROM m GROUP BY series ORDER BY series")
	type agg struct {
		and, or, seen bool
		n             int64
		first         any
		ft            [2]int64
	}
	want := map[string]*agg{}
	for _, r := range rows {
		if r.op != 1 {
			continue
		}
		a := want[r.series]
		if a == nil {
			a = &agg{and: true}
			want[r.series] = a
		}
		if b, ok := r.f["b"].(bool); ok {
			a.and, a.or, a.seen = a.and && b, a.or || b, true
		}
		v, vok := r.f["v"].(float64)
		n, nok := r.f["n"].(int64)
		if vok && nok && v > 100 && n < 50 {
			a.n++
		}
		if s, ok := r.f["s"]; ok && (a.first == nil || r.time < a.ft[0] || r.time == a.ft[0] && int64(r.seq) < a.ft[1]) {
			a.first, a.ft = s, [2]int64{r.time, int64(r.seq)}
		}
	}
	if len(got) != len(want) || len(got) < 3 {
		t.Fatalf("%d groups, want %d", len(got), len(want))
	}
	for _, g := range got {
		a := want[g[0].(string)]
		if !a.seen || g[1] != a.and || g[2] != a.or || g[3] != a.n || g[4] != a.first {
			t.Errorf("%v, want and %v or %v count %d first %v", g, a.and, a.or, a.n, a.first)
		}
	}
	// approx_count_distinct is count(DISTINCT x), exactly.
	sameRows(t, open, "SELECT series, approx_count_distinct(s), approx_count_distinct(n) FILTER (WHERE v > 100) FROM m GROUP BY series",
		"SELECT series, count(DISTINCT s), count(DISTINCT n) FILTER (WHERE v > 100) FROM m GROUP BY series", 3)
	wantErrors(t, open, []errCase{
		{"SELECT bool_and(v) FROM m", "type mismatch: bool_and of float64 column \"v\" (want a bool)", "v)"},
		{"SELECT count_if(v > 1) FILTER (WHERE n > 1) FROM m", "count_if(cond) is count(*) FILTER (WHERE cond)", "FILTER"},
	})
}
