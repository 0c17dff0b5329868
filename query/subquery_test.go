package query

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
)

// TestSubquery: FROM (SELECT ...) reads the inner result as rows: the
// same values as the inner query gives (raw rows, soft deletes still
// hidden, nulls and types kept), in its order, as seqs 1, 2, ...; outer
// aggregates over inner ones agree with the same computed from the
// inner result; nesting works; blocks split anywhere.
func TestSubquery(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	src.deleted = roaring64.BitmapOf(5, 6, 7, 100)
	open := openOnly(src)
	run := func(q string) [][]any { return mustRun(t, open, q) }
	for _, rows := range []int{8192, 7, 1} {
		subBlockRows = rows
		// Raw rows through a subquery: all but seq as they were.
		direct := run("SELECT * FROM m")
		through := run("SELECT * FROM (SELECT * FROM m)")
		if len(through) != len(direct) {
			t.Fatalf("block rows %d: %d rows through the subquery, want %d", rows, len(through), len(direct))
		}
		for i := range direct {
			if through[i][0] != uint64(i+1) {
				t.Fatalf("row %d: seq %v, want its position %d", i, through[i][0], i+1)
			}
			if d := diffCells([][]any{through[i][1:]}, [][]any{direct[i][1:]}); d != "" {
				t.Fatalf("block rows %d, row %d: %s", rows, i, d)
			}
		}
		// The inner order is kept.
		top := run("SELECT seq, v FROM (SELECT v FROM m WHERE v IS NOT NULL ORDER BY v DESC, seq LIMIT 10)")
		want := run("SELECT v FROM m WHERE v IS NOT NULL ORDER BY v DESC, seq LIMIT 10")
		for i := range want {
			if top[i][0] != uint64(i+1) || top[i][1] != want[i][0] {
				t.Fatalf("ordered subquery row %d: %v, want seq %d and %v", i, top[i], i+1, want[i][0])
			}
		}
		// An aggregate of an aggregate: per series, the busiest hour.
		inner := run("SELECT time, series, count(*) AS n, max(time) AS last FROM m GROUP BY time(1h), series")
		busiest := map[string]int64{}
		lastOf := map[string]int64{}
		for _, r := range inner {
			s := r[1].(string)
			busiest[s] = max(busiest[s], r[2].(int64))
			lastOf[s] = max(lastOf[s], r[3].(int64))
		}
		var wantAgg [][]any
		for s, n := range busiest {
			wantAgg = append(wantAgg, []any{s, n, lastOf[s]})
		}
		slices.SortFunc(wantAgg, func(a, b []any) int { return strings.Compare(a[0].(string), b[0].(string)) })
		got := run("SELECT series, max(n), max(last) FROM (SELECT time, series, count(*) AS n, max(time) AS last FROM m GROUP BY time(1h), series) AS h GROUP BY series")
		if d := diffCells(got, wantAgg); d != "" {
			t.Fatalf("block rows %d: busiest hour per series: %s", rows, d)
		}
		// Nested, with WHERE on a computed inner column and time buckets
		// over the inner times.
		n := run("SELECT count(*) FROM (SELECT * FROM (SELECT time, series, v * 2 AS w FROM m) WHERE w > 100)")[0][0].(int64)
		var wantN int64
		for _, r := range run("SELECT v FROM m") {
			if v, ok := r[0].(float64); ok && v*2 > 100 {
				wantN++
			}
		}
		if n != wantN {
			t.Fatalf("nested: %d rows, want %d", n, wantN)
		}
		// Time bounds prune the held blocks by their own time ranges.
		for i, cond := 0, 0; i < len(direct); i, cond = i+97, cond+1 {
			w := []string{"time >= ", "time < ", "time = ", "time <= "}[cond%4] + strconv.FormatInt(direct[i][1].(int64), 10)
			a := run("SELECT count(*) FROM (SELECT * FROM m) WHERE " + w)
			b := run("SELECT count(*) FROM m WHERE " + w)
			if a[0][0] != b[0][0] || a[0][0] == int64(0) {
				t.Fatalf("block rows %d, WHERE %s: %v rows, want %v", rows, w, a[0][0], b[0][0])
			}
		}
		perDay := run("SELECT time, sum(n) FROM (SELECT time, count(*) AS n FROM m GROUP BY time(1h)) GROUP BY time(1d)")
		direct1d := run("SELECT time, count(*) FROM m GROUP BY time(1d)")
		if d := diffCells(perDay, direct1d); d != "" {
			t.Fatalf("daily sums of hourly counts: %s", d)
		}
	}
	subBlockRows = 8192
	if out := explainLines(t, src, "EXPLAIN SELECT count(*) FROM (SELECT * FROM m)"); !strings.Contains(out, "source: a subquery, run first: 2996 rows held in 1 blocks") ||
		!strings.Contains(out, "  | stream m (raw view)") {
		t.Errorf("EXPLAIN: %s", out)
	}
}

// TestSubqueryErrors: what a subquery cannot be, said at its place.
func TestSubqueryErrors(t *testing.T) {
	src, _ := testSource(t, 300, 50)
	defer func(n int) { maxSubqueryRows = n }(maxSubqueryRows)
	wantErrors(t, openOnly(src), []errCase{
		{"SELECT count(*) FROM (SELECT v AS time FROM m)", "its column time is float64, not a timestamp", "(SELECT"},
		{"SELECT count(*) FROM (SELECT s AS op FROM m)", "its column op holds", "(SELECT"},
		{"SELECT count(*) FROM (SELECT n AS series FROM m)", "its column series is int64, not text", "(SELECT"},
		{"SELECT count(*) FROM (SELECT * FROM nope)", "stream not found", "nope"},
		{"SELECT count(*) FROM (SELECT v AS vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv FROM m)", "has a name of 300 bytes, which a held result cannot keep (at most 255)", "(SELECT"},
		{"SELECT count(*) FROM (SELECT * FROM m", `expected ")"`, ""},
		{"SELECT count(*) FROM (m)", "expected SELECT after FROM (", "m)"},
		{"SELECT count(*) FROM (SELECT * FROM m) AS", "expected a name for the subquery", ""},
		{"SELECT x FROM (SELECT v FROM m LIMIT 3)", `unknown column "x" in the subquery (columns: v)`, "x"},
		{"SELECT * FROM (SELECT b, b FROM m)", "its column b appears twice", "(SELECT"},
	})
	maxSubqueryRows = 100
	mustRun(t, openOnly(src), "SELECT count(*) FROM (SELECT * FROM m LIMIT 100)")
	wantErrors(t, openOnly(src), []errCase{{"SELECT count(*) FROM (SELECT * FROM m LIMIT 101)", "its result passes 100 rows", "(SELECT"}})
}

// TestSubqueryStar: SELECT * over a subquery or a WITH relation gives the
// inner result's columns, in its order, and no others; the rows are the
// inner ones.
func TestSubqueryStar(t *testing.T) {
	src, _ := testSource(t, 500, 5)
	open := openOnly(src)
	for _, c := range []struct {
		q    string
		cols []string
		same string // the same rows, read directly
	}{
		{"SELECT * FROM (SELECT series, avg(v) AS a FROM m GROUP BY series)", []string{"series", "a"}, "SELECT series, avg(v) AS a FROM m GROUP BY series"},
		{"WITH t AS (SELECT series, count(*) AS n FROM m GROUP BY series) SELECT * FROM t ORDER BY n DESC", []string{"series", "n"}, "SELECT series, count(*) AS n FROM m GROUP BY series ORDER BY n DESC"},
		{"SELECT * FROM (SELECT v, time FROM m) LIMIT 7", []string{"v", "time"}, "SELECT v, time FROM m LIMIT 7"},
		{"SELECT *, v * 2 AS w FROM (SELECT key, v FROM m) LIMIT 7", []string{"key", "v", "w"}, "SELECT key, v, v * 2 AS w FROM m LIMIT 7"},
		{"SELECT * EXCLUDE (time) FROM (SELECT time, v, b FROM m) LIMIT 7", []string{"v", "b"}, "SELECT v, b FROM m LIMIT 7"},
		{"SELECT * FROM (SELECT * FROM m) LIMIT 3", []string{"seq", "time", "series", "key", "op", "b", "n", "s", "v", "x"}, ""},
	} {
		cols, err := columnNamesOf(c.q, open)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		if !slices.Equal(cols, c.cols) {
			t.Errorf("%s: columns %v, want %v", c.q, cols, c.cols)
		}
		if c.same != "" {
			if d := diffCells(mustRun(t, open, c.q), mustRun(t, open, c.same)); d != "" {
				t.Errorf("%s: %s", c.q, d)
			}
		}
	}
}
