package query

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestArithmetic: arithmetic in SELECT against an oracle over the
// generated rows: on columns row by row (streamed, and sorted by an
// arithmetic alias), on aggregates per group (with HAVING and ORDER BY
// on the computed columns), with NULL for a missing operand, a division
// by zero and an int64 overflow; int64 stays int64 but for division.
func TestArithmetic(t *testing.T) {
	src, rows := testSource(t, 3000, 50)
	open := openOnly(src)
	f := func(r trow, name string) (float64, bool) {
		switch v := r.f[name].(type) {
		case float64:
			return v, true
		case int64:
			return float64(v), true
		}
		return 0, false
	}
	run := func(q string) [][]any {
		t.Helper()
		got, err := runCells(q, open, &Options{Now: modelNow})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return got
	}

	// Row by row, streamed in seq order.
	got := run("SELECT seq, v * 2 + n AS y, n / 4, -n, n * n - 3 AS sq, (n + 1) * (v - 0.5) FROM m")
	if len(got) != len(rows) {
		t.Fatalf("%d rows, want %d", len(got), len(rows))
	}
	for i, r := range rows {
		row := got[i]
		v, hasV := f(r, "v")
		n, hasN := r.f["n"].(int64)
		want := []any{r.seq, nil, nil, nil, nil, nil}
		if hasV && hasN {
			want[1] = v*2 + float64(n)
			want[5] = float64(n+1) * (v - 0.5)
		}
		if hasN {
			want[2], want[3], want[4] = float64(n)/4, -n, n*n-3
		}
		if !slices.Equal(row, want) {
			t.Fatalf("seq %d: %v, want %v", r.seq, row, want)
		}
	}

	// Sorted by an alias, LIMIT: the 20 largest.
	var ys []float64
	for _, r := range rows {
		v, hasV := f(r, "v")
		n, hasN := r.f["n"].(int64)
		if hasV && hasN {
			ys = append(ys, v*2+float64(n))
		}
	}
	slices.Sort(ys)
	slices.Reverse(ys)
	got = run("SELECT v * 2 + n AS y FROM m WHERE v IS NOT NULL AND n IS NOT NULL ORDER BY y DESC LIMIT 20")
	for i, row := range got {
		if row[0] != ys[i] {
			t.Fatalf("sorted row %d: %v, want %v", i, row[0], ys[i])
		}
	}
	if len(got) != 20 {
		t.Fatalf("%d sorted rows", len(got))
	}

	// Per group: spread, twice the count, mean; HAVING and ORDER BY on
	// them.
	type acc struct {
		lo, hi float64
		rows   int64
		sum    int64
		cn     int64
	}
	groups := map[string]*acc{}
	for _, r := range rows {
		a := groups[r.series]
		if a == nil {
			a = &acc{lo: math.Inf(1), hi: math.Inf(-1)}
			groups[r.series] = a
		}
		a.rows++
		if v, ok := f(r, "v"); ok {
			a.lo, a.hi = min(a.lo, v), max(a.hi, v)
		}
		if n, ok := r.f["n"].(int64); ok {
			a.sum += n
			a.cn++
		}
	}
	got = run("SELECT series, max(v) - min(v) AS spread, count(*) * 2 AS c2, sum(n) / count(n) AS mean FROM m GROUP BY series HAVING c2 > 0 ORDER BY spread DESC")
	if len(got) != len(groups) {
		t.Fatalf("%d groups, want %d", len(got), len(groups))
	}
	last := math.Inf(1)
	for _, row := range got {
		a := groups[row[0].(string)]
		spread := row[1].(float64)
		if spread != a.hi-a.lo || row[2] != 2*a.rows || row[3] != float64(a.sum)/float64(a.cn) || spread > last {
			t.Fatalf("group %v: want %v %v %v", row, a.hi-a.lo, 2*a.rows, float64(a.sum)/float64(a.cn))
		}
		last = spread
	}
	got = run("SELECT series, count(*) * 2 AS c2 FROM m GROUP BY series HAVING c2 > 1000000")
	if len(got) != 0 {
		t.Fatalf("HAVING on arithmetic kept %v", got)
	}

	// NULL: division by zero, overflow; the names and types of the
	// columns.
	q := "SELECT n / 0, 9223372036854775807 + n + 1, -(0 - 9223372036854775807 - 1), 7 / 2, 7 * 2, -n * 2 AS neg FROM m WHERE n > 0 LIMIT 1"
	rr, err := Run(t.Context(), q, open, &Options{Now: modelNow})
	if err != nil {
		t.Fatal(err)
	}
	var names, types []string
	for _, fl := range rr.Schema().Fields() {
		names, types = append(names, fl.Name), append(types, fl.Type.String())
	}
	rr.Release()
	wantNames := []string{"n / 0", "9223372036854775807 + n + 1", "-(0 - 9223372036854775807 - 1)", "7 / 2", "7 * 2", "neg"}
	wantTypes := []string{"float64", "int64", "int64", "float64", "int64", "int64"}
	if !slices.Equal(names, wantNames) || !slices.Equal(types, wantTypes) {
		t.Fatalf("columns %q %q, want %q %q", names, types, wantNames, wantTypes)
	}
	got = run(q)
	var first int64
	for _, r := range rows {
		if n, ok := r.f["n"].(int64); ok && n > 0 {
			first = n
			break
		}
	}
	if len(got) != 1 || !slices.Equal(got[0], []any{nil, nil, nil, 3.5, int64(14), -2 * first}) {
		t.Fatalf("%s: %v", q, got)
	}
	got = run("SELECT count(*) - count(*) AS zero, max(n) / 0, min(n) + 1 FROM m WHERE n > 1000")
	if len(got) != 1 || !slices.Equal(got[0], []any{int64(0), nil, nil}) {
		t.Fatalf("aggregates: %v", got)
	}
	for _, c := range []struct{ q, err string }{
		{"SELECT s * 2 FROM m", `type mismatch: arithmetic on column "s" of type string`},
		{"SELECT series + 1 FROM m", `type mismatch: arithmetic on column "series"`},
		{"SELECT n - avg(n) FROM m", `column "n" must be grouped`},
		{"SELECT max(s) + 1 FROM m", "arithmetic on max(s) of type string"},
	} {
		if _, err := runCells(c.q, open, &Options{Now: modelNow}); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v, want %q", c.q, err, c.err)
		}
	}
}

// TestArithmeticFunctions: abs, round (with digits, also negative),
// floor, ceil, sqrt, ln, log10 and exp against Go's math, row by row and
// on aggregates; integers stay integers where the result is whole; a
// result that is no finite number from a finite argument is NULL.
func TestArithmeticFunctions(t *testing.T) {
	src, rows := testSource(t, 1500, 50)
	open := openOnly(src)
	q := "SELECT seq, abs(n - 50), round(v / 7, 2), round(n, -1), floor(v / 3), ceil(v / 3), sqrt(v), ln(n), log10(abs(v) + 1), exp(n / 10), round(-v), round(n, 2), round(n * 3, 0) FROM m"
	got, err := runCells(q, open, &Options{Now: modelNow})
	if err != nil {
		t.Fatal(err)
	}
	finite := func(f float64) any {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil
		}
		return f
	}
	for i, r := range rows {
		v, hasV := r.f["v"].(float64)
		n, hasN := r.f["n"].(int64)
		want := []any{r.seq, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil}
		if hasN {
			want[1] = max(n-50, 50-n)
			want[11], want[12] = n, n*3 // an integer rounded to digits: an integer, as DuckDB's
			want[3] = int64(math.Round(float64(n)/10) * 10)
			want[7] = finite(math.Log(float64(n)))
			want[9] = finite(math.Exp(float64(n) / 10))
		}
		if hasV {
			want[2] = math.Round(v/7*100) / 100
			want[4], want[5] = math.Floor(v/3), math.Ceil(v/3)
			want[6] = finite(math.Sqrt(v))
			want[8] = math.Log10(math.Abs(v) + 1)
			want[10] = math.Round(-v)
		}
		if !slices.Equal(got[i], want) {
			t.Fatalf("seq %d: %v, want %v", r.seq, got[i], want)
		}
	}
	rr, err := Run(t.Context(), "SELECT abs(min(n)), round(avg(v)), round(avg(v), 1), floor(count(*) / 7), ceil(count(*)) FROM m", open, &Options{Now: modelNow})
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, fl := range rr.Schema().Fields() {
		types = append(types, fl.Type.String())
	}
	rr.Release()
	if want := []string{"int64", "float64", "float64", "float64", "int64"}; !slices.Equal(types, want) {
		t.Fatalf("types %v, want %v", types, want)
	}
	for _, c := range []struct{ q, err string }{
		{"SELECT round(v, 1.5) FROM m", `round wants a whole number of digits, found "1.5"`},
		{"SELECT sqrt(s) FROM m", `arithmetic on column "s" of type string`},
		{"SELECT sqrt(v FROM m", `expected ")"`},
	} {
		if _, err := runCells(c.q, open, &Options{Now: modelNow}); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v, want %q", c.q, err, c.err)
		}
	}
}
