package query

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"testing"
)

// TestArgExtremes: arg_max and arg_min (max_by, min_by) return the
// value at the row with the largest (smallest) order value, the earliest
// of ties by (time, seq) whatever the batch size, skip rows where either
// is null, work with FILTER, HAVING and ORDER BY by their text, and are
// named as written.
func TestArgExtremes(t *testing.T) {
	src, rows := testSource(t, 3000, 50)
	// The oracle: per series, the earliest row with the largest
	// (smallest) n among those with s and n, and among those with n.
	type pick struct {
		n    int64
		t    int64
		seq  uint64
		s    string
		have bool
	}
	better := func(p *pick, n int64, r trow, max bool) bool {
		return !p.have || max && n > p.n || !max && n < p.n || n == p.n && (r.time < p.t || r.time == p.t && r.seq < p.seq)
	}
	type picks struct{ max, min, maxTime pick }
	want := map[string]*picks{}
	for _, r := range rows {
		n, ok := r.f["n"].(int64)
		if r.op != 1 || !ok {
			continue
		}
		p := want[r.series]
		if p == nil {
			p = &picks{}
			want[r.series] = p
		}
		if better(&p.maxTime, n, r, true) {
			p.maxTime = pick{n, r.time, r.seq, "", true}
		}
		s, ok := r.f["s"].(string)
		if !ok {
			continue
		}
		if better(&p.max, n, r, true) {
			p.max = pick{n, r.time, r.seq, s, true}
		}
		if better(&p.min, n, r, false) {
			p.min = pick{n, r.time, r.seq, s, true}
		}
	}
	q := "SELECT series, arg_max(s, n), min_by(s, n), arg_max(time, n) AS at, max(n) FROM m WHERE op = 'put' GROUP BY series ORDER BY series"
	var first [][]any // at batch 1
	for _, batch := range []int{1, 7, 4096} {
		got, err := runCells(q, openOnly(src), &Options{BatchRows: batch})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) || len(got) < 3 {
			t.Fatalf("%d groups, want %d", len(got), len(want))
		}
		for _, g := range got {
			p := want[g[0].(string)]
			if g[1] != p.max.s || g[2] != p.min.s || g[3] != p.maxTime.t || g[4] != p.maxTime.n {
				t.Fatalf("batch %d, %s: %v, want %s %s %d %d", batch, g[0], g[1:], p.max.s, p.min.s, p.maxTime.t, p.maxTime.n)
			}
		}
		if first != nil && !slices.EqualFunc(first, got, func(a, b []any) bool { return slices.Equal(a, b) }) {
			t.Fatalf("batch %d gives %v, batch 1 %v", batch, got, first)
		}
		first = got
	}
	rr, err := Run(context.Background(), "SELECT arg_max(s, n), max_by(v * 2, time) FROM m", openOnly(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if f := rr.Schema().Fields(); f[0].Name != "arg_max(s, n)" || f[1].Name != "max_by(v * 2, time)" {
		t.Fatalf("columns %v", rr.Schema())
	}
	rr.Release()
	// HAVING and ORDER BY name it by its text; FILTER narrows its rows.
	got, err := runCells("SELECT series, arg_max(n, v) FILTER (WHERE v < 0) FROM m GROUP BY series HAVING arg_max(n, v) FILTER (WHERE v < 0) > 10 ORDER BY arg_max(n, v) FILTER (WHERE v < 0) DESC", openOnly(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Fatal("no rows")
	}
	for i, g := range got {
		if g[1].(int64) <= 10 || i > 0 && g[1].(int64) > got[i-1][1].(int64) {
			t.Fatalf("rows %v", got)
		}
	}
}

// TestArgExtremeErrors: the mistakes, with their place.
func TestArgExtremeErrors(t *testing.T) {
	src, _ := testSource(t, 100, 50)
	wantErrors(t, openOnly(src), []errCase{
		{"SELECT arg_max(v) FROM m", "arg_max wants two arguments", ")"},
		{"SELECT min_by(v, b) FROM m", "min_by orders the rows by bool column \"b\", which has no order", "b)"},
		{"SELECT arg_min(v, avg(n)) FROM m", "aggregates do not nest", "avg"},
		{"SELECT arg_max(v, nope) FROM m", "unknown column \"nope\"", "nope"},
	})
}

// TestStringAgg: string_agg joins a group's text values in (time, seq)
// order with its separator (',' by default), skipping nulls, the same
// at every batch size; with DISTINCT each value once, where it first
// comes; it is named as written and wants text.
func TestStringAgg(t *testing.T) {
	src, rows := testSource(t, 800, 50)
	want, distinct := map[string][]string{}, map[string][]string{}
	byTime := slices.Clone(rows)
	slices.SortStableFunc(byTime, byTimeSeq)
	for _, r := range byTime {
		if s, ok := r.f["s"].(string); ok {
			want[r.series] = append(want[r.series], s)
			if !slices.Contains(distinct[r.series], s) {
				distinct[r.series] = append(distinct[r.series], s)
			}
		}
	}
	for _, batch := range []int{1, 7, 4096} {
		got, err := runCells("SELECT series, string_agg(s, ' | '), string_agg(s), string_agg(DISTINCT s, '/') FROM m GROUP BY series", openOnly(src), &Options{BatchRows: batch})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%d groups, want %d", len(got), len(want))
		}
		for _, g := range got {
			w, d := want[g[0].(string)], distinct[g[0].(string)]
			if g[1] != strings.Join(w, " | ") || g[2] != strings.Join(w, ",") || g[3] != strings.Join(d, "/") {
				t.Fatalf("batch %d, %s: %q and %q, want %q and %q", batch, g[0], g[1], g[3], strings.Join(w, " | "), strings.Join(d, "/"))
			}
			if len(d) < 2 || len(d) == len(w) {
				t.Fatalf("%s: %d values, %d distinct: the case shows nothing", g[0], len(w), len(d))
			}
		}
	}
	rr, err := Run(context.Background(), "SELECT string_agg(key, ';'), string_agg(series), string_agg(DISTINCT s, ' ') FROM m", openOnly(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if f := rr.Schema().Fields(); f[0].Name != "string_agg(key, ';')" || f[1].Name != "string_agg(series)" || f[2].Name != "string_agg(DISTINCT s, ' ')" {
		t.Fatalf("columns %v", rr.Schema())
	}
	rr.Release()
	// DuckDB's other names.
	sameRows(t, openOnly(src), "SELECT series, group_concat(s, '-'), listagg(DISTINCT s ORDER BY s DESC) FROM m GROUP BY series",
		"SELECT series, string_agg(s, '-'), string_agg(DISTINCT s ORDER BY s DESC) FROM m GROUP BY series", 3)
	wantErrors(t, openOnly(src), []errCase{
		{"SELECT string_agg(v) FROM m", "type mismatch: string_agg of float64 \"v\" (want text: CAST(v AS VARCHAR))", "v)"},
		{"SELECT string_agg(s, 1) FROM m", "string_agg wants its separator as a string", "1)"},
		{"SELECT max(DISTINCT v) FROM m", "max(DISTINCT ...) is not supported; count(DISTINCT x) and string_agg(DISTINCT x) are", "DISTINCT"},
	})
}

// TestStringAggOrderBy: string_agg(x, sep ORDER BY k [DESC] [NULLS ...],
// ...) joins the texts in the terms' order (ties in (time, seq) order; a
// null k where NULLS puts it), with DISTINCT each text once, where it first
// comes in that order; the same at every batch size; named as written.
func TestStringAggOrderBy(t *testing.T) {
	src, rows := testSource(t, 800, 50)
	byTime := slices.Clone(rows)
	slices.SortStableFunc(byTime, byTimeSeq)
	// v DESC NULLS FIRST, then (time, seq): a stable sort of byTime
	ordered := slices.Clone(byTime)
	slices.SortStableFunc(ordered, func(a, b trow) int {
		va, oka := numField(a, "v")
		vb, okb := numField(b, "v")
		switch {
		case !oka && !okb:
			return 0
		case !oka:
			return -1
		case !okb:
			return 1
		}
		return cmp.Compare(vb, va)
	})
	want, distinct := map[string][]string{}, map[string][]string{}
	for _, r := range ordered {
		if s, ok := r.f["s"].(string); ok {
			want[r.series] = append(want[r.series], s)
			if !slices.Contains(distinct[r.series], s) {
				distinct[r.series] = append(distinct[r.series], s)
			}
		}
	}
	nullKeys := 0
	for _, r := range rows {
		if _, ok := numField(r, "v"); !ok && r.f["s"] != nil {
			nullKeys++
		}
	}
	if nullKeys == 0 {
		t.Fatal("no text has a null key: the case shows nothing")
	}
	for _, batch := range []int{1, 7, 4096} {
		got, err := runCells("SELECT series, string_agg(s, '|' ORDER BY v DESC NULLS FIRST), string_agg(DISTINCT s ORDER BY v * -1 NULLS FIRST) FROM m GROUP BY series", openOnly(src), &Options{BatchRows: batch})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%d groups, want %d", len(got), len(want))
		}
		for _, g := range got {
			w, d := want[g[0].(string)], distinct[g[0].(string)]
			if g[1] != strings.Join(w, "|") || g[2] != strings.Join(d, ",") {
				t.Fatalf("batch %d, %s: %q and %q, want %q and %q", batch, g[0], g[1], g[2], strings.Join(w, "|"), strings.Join(d, ","))
			}
		}
	}
	// Two terms: n % 3 (ascending, nulls last), then v DESC NULLS FIRST.
	two := slices.Clone(ordered)
	slices.SortStableFunc(two, func(a, b trow) int {
		na, oka := numField(a, "n")
		nb, okb := numField(b, "n")
		switch {
		case !oka && !okb:
			return 0
		case !oka:
			return 1
		case !okb:
			return -1
		}
		return cmp.Compare(int64(na)%3, int64(nb)%3)
	})
	var all []string
	for _, r := range two {
		if s, ok := r.f["s"].(string); ok {
			all = append(all, s)
		}
	}
	for _, batch := range []int{3, 4096} {
		got, err := runCells("SELECT string_agg(s, '' ORDER BY n % 3 NULLS LAST, v DESC NULLS FIRST) FROM m", openOnly(src), &Options{BatchRows: batch})
		if err != nil {
			t.Fatal(err)
		}
		if got[0][0] != strings.Join(all, "") {
			t.Fatalf("batch %d: two terms: %q, want %q", batch, got[0][0], strings.Join(all, ""))
		}
	}
	rr, err := Run(context.Background(), "SELECT string_agg(s, ';' ORDER BY v DESC NULLS LAST), string_agg(DISTINCT s ORDER BY time), string_agg(s ORDER BY n, v DESC) FROM m", openOnly(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if f := rr.Schema().Fields(); f[0].Name != "string_agg(s, ';' ORDER BY v DESC NULLS LAST)" || f[1].Name != "string_agg(DISTINCT s ORDER BY time)" || f[2].Name != "string_agg(s ORDER BY n, v DESC)" {
		t.Fatalf("columns %v", rr.Schema())
	}
	rr.Release()
	wantErrors(t, openOnly(src), []errCase{
		{"SELECT string_agg(s ORDER BY nope) FROM m", "unknown column \"nope\"", "nope"},
	})
}
