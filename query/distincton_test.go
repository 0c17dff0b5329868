package query

import "testing"

// TestDistinctOn: DISTINCT ON (x, ...) keeps the first row of each x in
// ORDER BY's order (by expression, position or alias), over raw rows
// and groups: each series' newest row against an oracle, and the
// QUALIFY it stands for; its errors.
func TestDistinctOn(t *testing.T) {
	src, rows := testSource(t, 2000, 50)
	open := openOnly(src)
	got := mustRun(t, open, "SELECT DISTINCT ON (series) series, seq, v FROM m ORDER BY series, seq DESC")
	newest := map[string]uint64{}
	for _, r := range rows {
		newest[r.series] = max(newest[r.series], r.seq)
	}
	if len(got) != len(newest) || len(got) < 3 {
		t.Fatalf("%d rows, %d series", len(got), len(newest))
	}
	for _, g := range got {
		if g[1] != newest[g[0].(string)] {
			t.Errorf("%v: want seq %d", g, newest[g[0].(string)])
		}
	}
	sameRows(t, open, "SELECT DISTINCT ON (s, n % 3) s, n % 3 AS m3, v, seq FROM m WHERE v IS NOT NULL ORDER BY s, m3, 3 DESC",
		"SELECT s, n % 3 AS m3, v, seq FROM m WHERE v IS NOT NULL QUALIFY row_number() OVER (PARTITION BY s, n % 3 ORDER BY s, n % 3, v DESC) = 1 ORDER BY s, m3, 3 DESC", 5)
	sameRows(t, open, "SELECT DISTINCT ON (series) series, time, avg(v) AS a FROM m GROUP BY time(10m), series ORDER BY series, a DESC",
		"SELECT series, time, avg(v) AS a FROM m GROUP BY time(10m), series QUALIFY row_number() OVER (PARTITION BY series ORDER BY series, avg(v) DESC) = 1 ORDER BY series, a DESC", 3)
	// Without ORDER BY: the first row of each in time order.
	sameRows(t, open, "SELECT DISTINCT ON (s) s, seq FROM m ORDER BY s", "SELECT s, seq FROM m QUALIFY row_number() OVER (PARTITION BY s) = 1 ORDER BY s", 4)
	wantErrors(t, open, []errCase{
		{"SELECT DISTINCT ON (s) s, lag(v) AS l FROM m QUALIFY l > 1", "DISTINCT ON with QUALIFY is not supported", "DISTINCT ON"},
		{"SELECT DISTINCT ON (s) * FROM m", "SELECT DISTINCT ON (...) * is not supported", "DISTINCT ON"},
		{"SELECT DISTINCT ON (s) s FROM m ORDER BY 3", "ORDER BY 3: the SELECT has 1 columns", "3"},
		{"SELECT DISTINCT ON (lag(v)) s FROM m", "lag() is a window function", "lag"},
	})
}
