package query

import (
	"cmp"
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"slices"
	"testing"
)

// TestCorrelated: a subquery that names the outer row's columns gives,
// for each outer row, what it gives with that row's values written in,
// computed here row by row from the generated rows: an aggregate (the
// aggregate of no rows where none match: count 0, avg NULL), keyed by
// one term or two, by computed terms and across kinds (an int equals a
// float of its value); the first row of each key (ORDER BY ... LIMIT 1);
// EXISTS and NOT EXISTS (true for a NULL key).
func TestCorrelated(t *testing.T) {
	src, rows := testSource(t, 1500, 40)
	open := openOnly(src)
	each := func(q string, want func(o trow) any) {
		t.Helper()
		eachRow(t, open, rows, q, want)
	}
	where := func(f func(r trow) bool) []trow { return rowsWhere(rows, f) }
	avgV := func(rs []trow) any {
		n, s := 0, 0.0
		for _, r := range rs {
			if v, ok := r.f["v"].(float64); ok {
				n, s = n+1, s+v
			}
		}
		if n == 0 {
			return nil
		}
		return s / float64(n)
	}
	count := func(rs []trow) any { return int64(len(rs)) }
	opName := map[int64]string{1: "put", 2: "delete", 3: "drop"}

	each("SELECT seq, (SELECT avg(v) FROM m WHERE series = o.series) FROM m AS o ORDER BY seq", func(o trow) any {
		return avgV(where(func(r trow) bool { return r.series == o.series }))
	})
	each("SELECT seq, (SELECT count(*) FROM m WHERE key = o.key AND op = 'delete') FROM m AS o ORDER BY seq", func(o trow) any {
		return count(where(func(r trow) bool { return r.key == o.key && r.op == 2 }))
	})
	each("SELECT seq, (SELECT avg(v) FROM m WHERE o.series = series AND key = o.key AND seq < 700) FROM m AS o ORDER BY seq", func(o trow) any {
		return avgV(where(func(r trow) bool { return r.series == o.series && r.key == o.key && r.seq < 700 }))
	})
	// One term tied twice: its column once in the grouped result.
	each("SELECT seq, (SELECT avg(v) FROM m WHERE s = o.s AND o.s = s) FROM m AS o ORDER BY seq", func(o trow) any {
		return avgV(where(func(r trow) bool { return o.f["s"] != nil && r.f["s"] == o.f["s"] }))
	})
	each("SELECT seq, (SELECT count(*) + 1 FROM m WHERE date_trunc('hour', time) = date_trunc('hour', o.time)) FROM m AS o ORDER BY seq", func(o trow) any {
		h := o.time - o.time%3_600_000_000_000
		return int64(len(where(func(r trow) bool { return r.time-r.time%3_600_000_000_000 == h }))) + 1
	})
	// Keyed by the instant itself (grouped by time(1ns)).
	for _, tied := range []string{"time = o.time", "time = o.time AND o.time = time"} {
		each("SELECT seq, (SELECT count(*) FROM m WHERE "+tied+") FROM m AS o ORDER BY seq", func(o trow) any {
			return count(where(func(r trow) bool { return r.time == o.time }))
		})
	}
	each("SELECT seq, (SELECT count(*) FROM m WHERE n = o.x) FROM m AS o ORDER BY seq", func(o trow) any {
		x, ok := o.f["x"].(float64)
		return count(where(func(r trow) bool { n, has := r.f["n"].(int64); return ok && has && float64(n) == x }))
	})
	each("SELECT seq, (SELECT v FROM m WHERE series = o.series AND v IS NOT NULL ORDER BY time DESC, seq DESC LIMIT 1) FROM m AS o ORDER BY seq", func(o trow) any {
		rs := where(func(r trow) bool { _, ok := r.f["v"]; return ok && r.series == o.series })
		if len(rs) == 0 {
			return nil
		}
		return slices.MaxFunc(rs, byTimeSeq).f["v"]
	})
	each("SELECT seq, (SELECT op FROM m WHERE key = o.key ORDER BY seq LIMIT 1) FROM m AS o ORDER BY seq", func(o trow) any {
		rs := where(func(r trow) bool { return r.key == o.key })
		if len(rs) == 0 {
			return nil
		}
		return opName[slices.MinFunc(rs, func(a, b trow) int { return cmp.Compare(a.seq, b.seq) }).op]
	})
	deleted := func(o trow) bool {
		return len(where(func(r trow) bool { return r.key == o.key && r.op == 2 && r.series == o.series })) > 0
	}
	each("SELECT seq, CASE WHEN EXISTS (SELECT 1 FROM m WHERE key = o.key AND op = 'delete' AND series = o.series) THEN 'yes' ELSE 'no' END FROM m AS o ORDER BY seq", func(o trow) any {
		return map[bool]string{true: "yes", false: "no"}[deleted(o)]
	})
	var kept, gone []any
	for _, o := range rows {
		if deleted(o) {
			gone = append(gone, o.seq)
		} else {
			kept = append(kept, o.seq)
		}
	}
	if len(kept) < 100 || len(gone) < 20 {
		t.Fatalf("%d rows with a deleted key, %d without: too few to show anything", len(gone), len(kept))
	}
	for q, want := range map[string][]any{
		"SELECT seq FROM m AS o WHERE NOT EXISTS (SELECT seq FROM m WHERE key = o.key AND op = 'delete' AND series = o.series) ORDER BY seq": kept,
		"SELECT seq FROM m AS o WHERE EXISTS (SELECT * FROM m WHERE key = o.key AND series = o.series AND op = 'delete') ORDER BY seq":       gone,
	} {
		got := mustRun(t, open, q)
		var seqs []any
		for _, g := range got {
			seqs = append(seqs, g[0])
		}
		if !slices.Equal(seqs, want) {
			t.Errorf("%s: %d rows, want %d", q, len(seqs), len(want))
		}
	}
}

// rowsWhere returns the rows matching f.
func rowsWhere(rows []trow, f func(r trow) bool) []trow {
	var out []trow
	for _, r := range rows {
		if f(r) {
			out = append(out, r)
		}
	}
	return out
}

// eachRow runs q, whose first column is seq in seq order, one row for
// each of rows, and checks its second column against want of the row.
func eachRow(t *testing.T, open Opener, rows []trow, q string, want func(o trow) any) {
	t.Helper()
	got := mustRun(t, open, q)
	if len(got) != len(rows) {
		t.Fatalf("%s: %d rows, want %d", q, len(got), len(rows))
	}
	for i, g := range got {
		o := rows[i]
		if g[0].(uint64) != o.seq {
			t.Fatalf("%s: row %d is seq %v", q, i, g[0])
		}
		if w := want(o); !sameCell(g[1], w) {
			t.Fatalf("%s: seq %d (series %s, key %q): %v (%T), want %v (%T)", q, o.seq, o.series, o.key, g[1], g[1], w, w)
		}
	}
}

// TestCorrelatedIn: x IN (SELECT y ...) and NOT IN, the subquery tied to
// the outer row, hold for each outer row as computed here from the
// generated rows: y plain, computed, an aggregate of one group (x =
// its value) or of several (GROUP BY, HAVING); a NULL x is neither in
// nor out, a NULL key of the outer row leaves the list empty (so x is
// out), NULL values of y are in no list; numbers compare across
// kinds.
func TestCorrelatedIn(t *testing.T) {
	src, rows := testSource(t, 1500, 40)
	open := openOnly(src)
	where := func(f func(r trow) bool) []trow { return rowsWhere(rows, f) }
	num := numField
	// inOut writes the CASE telling in, out and neither apart, and its
	// oracle: x of the outer row against the values of the rows tied.
	inOut := func(x, sub string, ox func(o trow) (float64, bool), tied func(o, r trow) bool, y func(rs []trow) []float64) {
		t.Helper()
		q := "SELECT seq, CASE WHEN " + x + " IN " + sub + " THEN 'in' WHEN " + x + " NOT IN " + sub + " THEN 'out' ELSE 'neither' END FROM m AS o ORDER BY seq"
		var ins, outs, nulls int
		eachRow(t, open, rows, q, func(o trow) any {
			ys := y(where(func(r trow) bool { return tied(o, r) }))
			xv, ok := ox(o)
			switch {
			case !ok:
				nulls++
				return "neither"
			case slices.Contains(ys, xv):
				ins++
				return "in"
			}
			outs++
			return "out"
		})
		if ins < 20 || outs < 20 {
			t.Errorf("%s: %d rows in, %d out, %d neither: too few to show anything", q, ins, outs, nulls)
		}
	}
	field := func(f string) func(o trow) (float64, bool) { return func(o trow) (float64, bool) { return num(o, f) } }
	values := func(f string, plus float64) func(rs []trow) []float64 {
		return func(rs []trow) []float64 {
			var out []float64
			for _, r := range rs {
				if v, ok := num(r, f); ok {
					out = append(out, v+plus)
				}
			}
			return out
		}
	}
	sameSeries := func(o, r trow) bool { return r.series == o.series }
	inOut("n", "(SELECT n FROM m WHERE series = o.series AND key = 'k1')", field("n"),
		func(o, r trow) bool { return r.series == o.series && r.key == "k1" }, values("n", 0))
	// Across kinds (x is a float, n an int); o.s NULL: an empty list.
	inOut("x", "(SELECT n FROM m WHERE s = o.s AND n < 50)", func(o trow) (float64, bool) {
		if o.f["s"] == nil {
			return -1, true // out of the empty list
		}
		return num(o, "x")
	}, func(o, r trow) bool { n, _ := num(r, "n"); return r.f["s"] != nil && r.f["s"] == o.f["s"] && n < 50 }, values("n", 0))
	inOut("n", "(SELECT n + 1 FROM m WHERE key = o.key AND key != '')", field("n"),
		func(o, r trow) bool { return r.key == o.key && r.key != "" }, values("n", 1))
	// An aggregate of one group: x = its value.
	inOut("x", "(SELECT min(x) FROM m WHERE series = o.series AND key = o.key)", field("x"),
		func(o, r trow) bool { return r.series == o.series && r.key == o.key }, func(rs []trow) []float64 {
			if vs := values("x", 0)(rs); len(vs) > 0 {
				return []float64{slices.Min(vs)}
			}
			return nil
		})
	// Of several: each key's count within the series, those over 3.
	counts := func(min int) func(rs []trow) []float64 {
		return func(rs []trow) []float64 {
			by := map[string]int{}
			for _, r := range rs {
				by[r.key]++
			}
			var out []float64
			for _, c := range by {
				if c > min {
					out = append(out, float64(c))
				}
			}
			return out
		}
	}
	inOut("n", "(SELECT count(*) FROM m WHERE series = o.series GROUP BY key)", field("n"), sameSeries, counts(0))
	inOut("n", "(SELECT count(*) FROM m WHERE series = o.series GROUP BY key HAVING count(*) > 3)", field("n"), sameSeries, counts(3))
	// In WHERE, of text: the rows whose series has a delete of their key.
	var want []any
	for _, o := range rows {
		if len(where(func(r trow) bool { return r.key == o.key && r.op == 2 && r.series == o.series })) == 0 {
			want = append(want, o.seq)
		}
	}
	var got []any
	for _, g := range mustRun(t, open, "SELECT seq FROM m AS o WHERE series NOT IN (SELECT series FROM m WHERE key = o.key AND op = 'delete') ORDER BY seq") {
		got = append(got, g[0])
	}
	if !slices.Equal(got, want) || len(want) == len(rows) {
		t.Errorf("NOT IN in WHERE: %d rows, want %d of %d", len(got), len(want), len(rows))
	}
	// A column keeps the text of its condition as written.
	for _, in := range []string{"n NOT IN (SELECT n FROM m WHERE series = o.series AND key = 'k1')", "v IN (SELECT max(v) FROM m WHERE series = o.series)"} {
		rr, err := Run(context.Background(), "SELECT count(*) FILTER (WHERE "+in+") FROM m AS o", open, nil)
		if err != nil {
			t.Fatal(err)
		}
		if name := rr.Schema().Field(0).Name; name != "count(*) FILTER (WHERE "+in+")" {
			t.Errorf("the column of %s is named %q", in, name)
		}
		rr.Release()
	}
}

// TestCorrelatedForms: correlated subqueries give what the same
// question written as a join, or with the value written in, gives: in
// HAVING of a grouped outer query, in a join's WHERE (keyed by a side's
// column), inside FROM's subquery and a WITH relation, and nested (a
// correlated subquery in a correlated one); an uncorrelated EXISTS is
// all rows or none; names qualified by the statement's own source read
// as plain ones.
func TestCorrelatedForms(t *testing.T) {
	open := twoStreams(t)
	for _, c := range [][2]string{
		{"SELECT time, v FROM m AS o WHERE v > (SELECT avg(v) FROM m WHERE series = o.series) ORDER BY seq",
			"SELECT a.time, a.v FROM m AS a JOIN (SELECT series, avg(v) AS mean FROM m GROUP BY series) AS b USING (series) WHERE a.v > b.mean ORDER BY a.seq"},
		{"SELECT series, count(*) AS c, max(v) AS mx, avg(v) AS mean FROM m AS o GROUP BY series HAVING count(*) > (SELECT count(*) FROM w WHERE v < 20) AND max(v) > (SELECT avg(v) FROM m WHERE series = o.series) ORDER BY series",
			"SELECT series, count(*) AS c, max(v) AS mx, avg(v) AS mean FROM m GROUP BY series HAVING c > 17 AND mx > mean ORDER BY series"},
		{"SELECT a.seq, (SELECT count(*) FROM w WHERE series = b.series AND v > 10) AS n FROM m AS a JOIN w AS b ON a.n = b.v ORDER BY a.seq, n",
			"SELECT a.seq, c.n FROM (SELECT a.seq AS seq, b.series AS series FROM m AS a JOIN w AS b ON a.n = b.v) AS a JOIN (SELECT series, count(*) FILTER (WHERE v > 10) AS n FROM w GROUP BY series) AS c USING (series) ORDER BY a.seq, c.n"},
		{"SELECT count(*) FROM (SELECT seq FROM m AS o WHERE v > (SELECT avg(v) FROM m WHERE series = o.series))",
			"SELECT count(*) FROM m AS a JOIN (SELECT series, avg(v) AS mean FROM m GROUP BY series) AS b USING (series) WHERE a.v > b.mean"},
		{"WITH h AS (SELECT time, series, v FROM m) SELECT time FROM h AS o WHERE v = (SELECT max(v) FROM h WHERE series = o.series) ORDER BY time",
			"SELECT a.time FROM m AS a JOIN (SELECT series, max(v) AS top FROM m GROUP BY series) AS b USING (series) WHERE a.v = b.top ORDER BY a.time"},
		{"SELECT seq FROM m AS o WHERE EXISTS (SELECT 1 FROM w AS x WHERE x.v = o.n AND EXISTS (SELECT 1 FROM w WHERE series = x.series AND v > 117)) ORDER BY seq",
			"SELECT seq FROM m WHERE n % 3 = 1 AND n % 7 != 0 ORDER BY seq"},
		{"SELECT seq FROM m WHERE EXISTS (SELECT 1 FROM w WHERE v > 100) ORDER BY seq", "SELECT seq FROM m ORDER BY seq"},
		{"SELECT count(*) FROM m WHERE NOT EXISTS (SELECT 1 FROM w WHERE v > 1000)", "SELECT count(*) FROM m"},
		{"SELECT count(*) AS c FROM m WHERE EXISTS (SELECT 1 FROM w WHERE v > 1000)", "SELECT 0 AS c"},
		{"SELECT o.seq, o.v * 2 AS d FROM m AS o WHERE o.v > 1 AND o.series LIKE 'cpu%' ORDER BY o.seq", "SELECT seq, v * 2 AS d FROM m WHERE v > 1 AND series LIKE 'cpu%' ORDER BY seq"},
		{"SELECT m.seq, avg(m.v) OVER (PARTITION BY m.series) AS a FROM m ORDER BY m.seq", "SELECT seq, avg(v) OVER (PARTITION BY series) AS a FROM m ORDER BY seq"},
		{"SELECT h.series, h.c FROM (SELECT series, count(*) AS c FROM m GROUP BY series) AS h WHERE h.c > 10 ORDER BY h.series", "SELECT series, count(*) AS c FROM m GROUP BY series HAVING count(*) > 10 ORDER BY series"},
		{"SELECT o.* FROM m o WHERE o.n > 50 ORDER BY seq", "SELECT * FROM m WHERE n > 50 ORDER BY seq"},
		// A subquery in parentheses is a value: IS NULL, ORDER BY.
		{"SELECT count(*) FROM m AS o WHERE (SELECT max(v) FROM w WHERE v = o.n) IS NULL", "SELECT count(*) FROM m AS o WHERE NOT EXISTS (SELECT 1 FROM w WHERE v = o.n)"},
		{"SELECT time FROM m AS o ORDER BY (SELECT count(*) FROM w WHERE v = o.n) DESC, time LIMIT 50",
			"SELECT time FROM (SELECT time, (SELECT count(*) FROM w WHERE v = o.n) AS c FROM m AS o) ORDER BY c DESC, time LIMIT 50"},
		{"SELECT seq FROM m ORDER BY (v + 1) DESC, seq", "SELECT seq FROM m ORDER BY v + 1 DESC, seq"},
	} {
		sameRows(t, open, c[0], c[1], 1)
	}
	// EXPLAIN says what ran once and how many keys it gave.
	plan := mustRun(t, open, "EXPLAIN SELECT seq FROM m AS o WHERE v > (SELECT avg(v) FROM m WHERE series = o.series AND n > 3)")
	want := "correlated: (SELECT avg(v) FROM m WHERE series = o.series AND n > 3), run once, grouped by series: 6 keys" // the six series
	if !slices.ContainsFunc(plan, func(r []any) bool { return r[0] == want }) {
		t.Errorf("EXPLAIN lacks %q:\n%v", want, plan)
	}
	// The items' names are the columns', unqualified; a correlated
	// subquery's instant is a timestamp.
	rr, err := Run(context.Background(), "SELECT o.seq, o.v, (SELECT max(time) FROM w WHERE v = o.n) AS last FROM m AS o LIMIT 1", open, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if f := rr.Schema().Fields(); f[0].Name != "seq" || f[1].Name != "v" || f[2].Type.ID() != arrow.TIMESTAMP {
		t.Errorf("qualified items named %s, %s; the subquery's instant is %s", f[0].Name, f[1].Name, f[2].Type)
	}
}

// TestCorrelatedErrors: what a correlated subquery cannot do fails where
// it is written, saying what to write instead.
func TestCorrelatedErrors(t *testing.T) {
	open := twoStreams(t)
	wantErrors(t, open, []errCase{
		{"SELECT seq FROM m AS o WHERE v > (SELECT avg(v) FROM m WHERE time < o.time)", "o.time names a column of the outer query outside an equality of the subquery's WHERE (series = o.series); a correlated subquery is tied to the outer row by such equalities only; the nearest row before or after the outer one is an ASOF JOIN", "o.time)"},
		{"SELECT seq, (SELECT avg(v) + o.v FROM m WHERE series = o.series) FROM m AS o", "o.v names a column of the outer query outside an equality", "o.v FROM"},
		{"SELECT seq FROM m AS o WHERE v IN (SELECT v FROM m WHERE series = o.series LIMIT 3)", "a correlated IN (SELECT ...) takes no LIMIT or OFFSET", "(SELECT v"},
		{"SELECT seq FROM m AS o WHERE v IN (SELECT v, n FROM m WHERE series = o.series)", "IN (SELECT ...) selects one column", "(SELECT v"},
		{"SELECT seq FROM m AS o WHERE v IN (SELECT lag(v) FROM m WHERE series = o.series)", "a correlated IN (SELECT ...) selects no window function", "lag(v)"},
		{"SELECT seq FROM m AS o WHERE v IN (SELECT v FROM m WHERE series = o.series UNION ALL SELECT v FROM w)", "may not be a UNION", "(SELECT v"},
		{"SELECT seq FROM m AS o WHERE v IN (SELECT v FROM m WHERE v > o.v)", "o.v names a column of the outer query outside an equality", "o.v)"},
		{"SELECT seq FROM m AS o WHERE v IN (SELECT v FROM m WHERE EXISTS (SELECT 1 FROM w WHERE s = o.s))", "o.s names a column of the outer query outside an equality", "o.s)"},
		{"SELECT seq FROM m AS o WHERE series IN (SELECT n FROM m WHERE key = o.key)", "type mismatch: series is text and the subquery's n a number", "series IN"},
		{"SELECT seq, (SELECT v FROM m WHERE series = o.series ORDER BY time LIMIT 2) FROM m AS o", "takes LIMIT 1", "(SELECT v"},
		{"SELECT seq, (SELECT v FROM m WHERE series = o.series) FROM m AS o", "gives more than one row for one outer row", "(SELECT v"},
		{"SELECT seq, (SELECT count(*) FROM m WHERE n = o.series) FROM m AS o", "type mismatch: series is text and the subquery's n a number", "o.series)"},
		{"SELECT seq, (SELECT v, n FROM m WHERE series = o.series LIMIT 1) FROM m AS o", "selects one column; this one selects 2", "(SELECT v, n"},
		{"SELECT seq FROM m AS o WHERE EXISTS (SELECT count(*) FROM m WHERE series = o.series)", "EXISTS over an aggregate", "EXISTS"},
		{"SELECT seq, (SELECT avg(v) FROM m WHERE series = o.series AND EXISTS (SELECT 1 FROM w WHERE s = o.s)) FROM m AS o", "o.s names a column of the outer query outside an equality", "o.s)"},
	})
}
