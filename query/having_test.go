package query

import (
	"strings"
	"testing"
)

// TestHavingUnselected: HAVING tests aggregates the SELECT does not
// return (alone, in arithmetic, with FILTER, under grouping sets), as
// the same query with them computed in a subquery does, and the result
// has only the SELECT's columns.
func TestHavingUnselected(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	open := openOnly(src)
	for _, c := range [][2]string{
		{"SELECT series FROM m GROUP BY series HAVING count(*) > 55 ORDER BY series",
			"SELECT series FROM (SELECT series, count(*) AS c FROM m GROUP BY series) WHERE c > 55 ORDER BY series"},
		{"SELECT series, avg(v) FROM m GROUP BY series HAVING max(v) > 2 * avg(v) AND count(*) FILTER (WHERE v > 10) >= 3 ORDER BY series",
			"SELECT series, a AS `avg(v)` FROM (SELECT series, avg(v) AS a, max(v) AS top, count(*) FILTER (WHERE v > 10) AS n FROM m GROUP BY series) WHERE top > 2 * a AND n >= 3 ORDER BY series"},
		// an aggregate compared with another
		{"SELECT series, count(*) AS n FROM m GROUP BY series HAVING max(v) <> min(v) AND count(DISTINCT n) >= count(*) / 10 ORDER BY series",
			"SELECT series, n FROM (SELECT series, count(*) AS n, max(v) AS a, min(v) AS b, count(DISTINCT n) AS d FROM m GROUP BY series) WHERE a <> b AND d >= n / 10 ORDER BY series"},
		{"SELECT s, count(*) AS n FROM m GROUP BY ROLLUP (s) HAVING sum(x) > 1000 ORDER BY s",
			"SELECT s, n FROM (SELECT s, count(*) AS n, sum(x) AS sx FROM m GROUP BY ROLLUP (s)) WHERE sx > 1000 ORDER BY s"},
	} {
		sameRows(t, open, c[0], c[1], 2)
	}
	cols, err := columnNamesOf("SELECT series FROM m GROUP BY series HAVING count(*) > 1 AND min(v) < 0", open)
	if err != nil || strings.Join(cols, "|") != "series" {
		t.Fatalf("columns %q %v, want series alone", cols, err)
	}
	wantErrors(t, open, []errCase{
		{"SELECT series FROM m GROUP BY series HAVING nope(v) > 1", `unknown function "nope"`, "nope"},
		{"SELECT series FROM m GROUP BY series HAVING sum(s) > 1", "sum", "s) > 1"},
	})
}
