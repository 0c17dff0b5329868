package query

import (
	"testing"
)

// TestNamedWindows: a WINDOW clause's windows, taken whole (OVER w) and
// built on (OVER (w ORDER BY ... frame), a definition on another), in
// SELECT items, their arithmetic and QUALIFY, raw and over groups, give
// what the same windows written out give; the columns are named as
// written; "window" still names columns and sources.
func TestNamedWindows(t *testing.T) {
	src, _ := testSource(t, 1500, 50)
	open := openOnly(src)
	for _, c := range [][2]string{
		{"SELECT seq, avg(v) OVER w, max(v) OVER w, v - first_value(v) OVER w, row_number() OVER w FROM m WINDOW w AS (PARTITION BY s ORDER BY time ROWS 2 PRECEDING)",
			"SELECT seq, avg(v) OVER (PARTITION BY s ORDER BY time ROWS 2 PRECEDING), max(v) OVER (PARTITION BY s ORDER BY time ROWS 2 PRECEDING), " +
				"v - first_value(v) OVER (PARTITION BY s ORDER BY time ROWS 2 PRECEDING), row_number() OVER (PARTITION BY s ORDER BY time) FROM m"},
		{"SELECT seq, sum(n) OVER (a ORDER BY x ROWS 1 PRECEDING), rank() OVER b, count(*) OVER a FROM m WINDOW a AS (PARTITION BY s), b AS (a ORDER BY n DESC), c AS (b RANGE 3 PRECEDING)",
			"SELECT seq, sum(n) OVER (PARTITION BY s ORDER BY x ROWS 1 PRECEDING), rank() OVER (PARTITION BY s ORDER BY n DESC), count(*) OVER (PARTITION BY s) FROM m"},
		{"SELECT seq, n, min(n) OVER c AS lo FROM m WINDOW a AS (PARTITION BY s), b AS (a ORDER BY n DESC), c AS (b RANGE 3 PRECEDING) QUALIFY row_number() OVER b <= 100 ORDER BY seq",
			"SELECT seq, n, min(n) OVER (PARTITION BY s ORDER BY n DESC RANGE 3 PRECEDING) AS lo FROM m QUALIFY row_number() OVER (PARTITION BY s ORDER BY n DESC) <= 100 ORDER BY seq"},
		{"SELECT series, time, avg(v), avg(avg(v)) OVER w, lag(max(n)) OVER w FROM m GROUP BY time(1m), series WINDOW w AS (PARTITION BY series ORDER BY time RANGE 5m PRECEDING)",
			"SELECT series, time, avg(v), avg(avg(v)) OVER (PARTITION BY series ORDER BY time RANGE 5m PRECEDING), lag(max(n)) OVER (PARTITION BY series ORDER BY time) FROM m GROUP BY time(1m), series"},
		{"SELECT window FROM (SELECT v AS window FROM m) window WHERE window > 3", "SELECT v FROM m WHERE v > 3"},
		{"SELECT n window FROM m WINDOW w AS (ORDER BY n)", "SELECT n FROM m"},
	} {
		sameRows(t, open, c[0], c[1], 300)
	}
	rr, err := Run(t.Context(), "SELECT avg(v) OVER w, avg(v) OVER (w ROWS 2 PRECEDING) FROM m WINDOW w AS (ORDER BY time)", openOnly(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if f := rr.Schema().Fields(); f[0].Name != "avg(v) OVER w" || f[1].Name != "avg(v) OVER (w ROWS 2 PRECEDING)" {
		t.Errorf("columns %v", f)
	}
	wantErrors(t, open, []errCase{
		{"SELECT avg(v) OVER w FROM m", "no window named w: WINDOW w AS", "w FROM"},
		{"SELECT avg(v) OVER (w ORDER BY n) FROM m WINDOW x AS (ORDER BY n)", "no window named w", "w ORDER"},
		{"SELECT avg(v) OVER w FROM m WINDOW w AS (ORDER BY n), w AS (ORDER BY v)", "window w is defined twice", "w AS (ORDER BY v)"},
		{"SELECT avg(v) OVER (w PARTITION BY s) FROM m WINDOW w AS (ORDER BY n)", "a window built on window w takes its PARTITION BY", "PARTITION"},
		{"SELECT avg(v) OVER (w ORDER BY v) FROM m WINDOW w AS (ORDER BY n)", "window w has an ORDER BY: a window built on it cannot add one", "w ORDER"},
		{"SELECT avg(v) OVER (w ROWS 1 PRECEDING) FROM m WINDOW w AS (ORDER BY n ROWS 2 PRECEDING)", "window w has a frame", "w ROWS"},
		{"SELECT avg(v) OVER w FROM m WINDOW w AS (ORDER BY n LIMIT)", "in WINDOW w AS (...), found \"LIMIT\"", "LIMIT"},
		{"SELECT avg(v) OVER w FROM m WINDOW w AS (x ORDER BY n), x AS (PARTITION BY s)", "no window named x", "x ORDER"},
		{"SELECT avg(v) OVER w FROM m WINDOW w AS (ORDER BY n), select AS (ORDER BY v)", "expected a window's name in WINDOW", "select AS"},
		{"SELECT avg(v) OVER w FROM m WHERE v > 1 ORDER BY 1 WINDOW w AS (ORDER BY n)", "after HAVING, defines one", "w FROM"},
	})
}
