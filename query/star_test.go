package query

import (
	"strings"
	"testing"
)

// TestStarItems: * beside other items gives every column, as SELECT *
// does, in its place: before a computed column, after one, under a
// window function, in a subquery, over a join (its sides' columns);
// where SELECT * is refused, so is it.
func TestStarItems(t *testing.T) {
	open := twoStreams(t)
	src, err := open("m")
	if err != nil {
		t.Fatal(err)
	}
	defs, err := Fields(src)
	if err != nil {
		t.Fatal(err)
	}
	cols := []string{"seq", "time", "series", "key", "op"}
	for _, d := range defs {
		cols = append(cols, d.Name)
	}
	all := strings.Join(cols, ", ")
	for _, c := range [][2]string{
		{"SELECT *, v * 2 AS d FROM m ORDER BY seq", "SELECT " + all + ", v * 2 AS d FROM m ORDER BY seq"},
		{"SELECT n + 1 AS n1, * FROM m WHERE v > 10", "SELECT n + 1 AS n1, " + all + " FROM m WHERE v > 10"},
		{"SELECT *, row_number() OVER (PARTITION BY series ORDER BY v DESC) AS rn FROM m QUALIFY rn <= 2",
			"SELECT " + all + ", row_number() OVER (PARTITION BY series ORDER BY v DESC) AS rn FROM m QUALIFY rn <= 2"},
		{"SELECT series, count(*), max(d) FROM (SELECT *, v * 2 AS d FROM m) GROUP BY series", "SELECT series, count(*), max(v * 2) FROM m GROUP BY series"},
		{"SELECT *, b.s AS bs FROM m AS a JOIN w AS b ON a.n = b.v ORDER BY a.seq, b.seq",
			"SELECT a.*, b.*, b.s AS bs FROM m AS a JOIN w AS b ON a.n = b.v ORDER BY a.seq, b.seq"},
		// EXCLUDE leaves columns out, REPLACE puts a value in a column's place.
		{"SELECT * EXCLUDE (seq, key, op) FROM m ORDER BY time, seq", "SELECT " + strings.Join(cols[1:2], ", ") + ", series, " + strings.Join(cols[5:], ", ") + " FROM m ORDER BY time, seq"},
		{"SELECT * EXCLUDE op REPLACE (v * 100 AS v, upper(s) AS s) FROM m ORDER BY seq",
			"SELECT " + strings.ReplaceAll(strings.ReplaceAll(strings.Replace(all, ", op", "", 1), ", v", ", v * 100 AS v"), ", s,", ", upper(s) AS s,") + " FROM m ORDER BY seq"},
		// DISTINCT *: the distinct rows of every column given.
		{"SELECT series, n, s, b FROM (SELECT DISTINCT * EXCLUDE (seq, time, key, op, v, x) FROM m) ORDER BY series, n, s, b",
			"SELECT DISTINCT series, n, s, b FROM m ORDER BY series, n, s, b"},
		{"SELECT DISTINCT * FROM m WHERE v > 100", "SELECT * FROM m WHERE v > 100"}, // seq differs row to row
		{"SELECT DISTINCT * FROM m ORDER BY time DESC, seq LIMIT 20 OFFSET 3", "SELECT * FROM m ORDER BY time DESC, seq LIMIT 20 OFFSET 3"},
		{"WITH r AS (SELECT seq, s FROM m WHERE s IS NOT NULL) SELECT DISTINCT * FROM r ORDER BY s, seq LIMIT 30", "WITH r AS (SELECT seq, s FROM m WHERE s IS NOT NULL) SELECT * FROM r ORDER BY s, seq LIMIT 30"},
		{"SELECT DISTINCT * EXCLUDE (seq, time, key, op, v, x, n) FROM m ORDER BY series, s, b LIMIT 9", "SELECT DISTINCT series, b, s FROM m ORDER BY series, s, b LIMIT 9"},
		{"SELECT * EXCLUDE (b.seq, b.time, b.series, b.key, b.op) FROM m AS a JOIN w AS b ON a.n = b.v ORDER BY a.seq, b.seq",
			"SELECT a.*, b.s, b.v FROM m AS a JOIN w AS b ON a.n = b.v ORDER BY a.seq, b.seq"},
	} {
		sameRows(t, open, c[0], c[1], 5)
	}
	wantErrors(t, open, []errCase{
		{"SELECT *, 1", "SELECT * needs FROM", ""},
		{"SELECT DISTINCT *, count(*) FROM m", "SELECT DISTINCT * with an aggregate is not supported", "DISTINCT"},
		{"SELECT *, count(*) FROM m GROUP BY ALL", "SELECT * names none", "ALL"},
		{"SELECT *, count(*) FROM m", `column "seq" must be grouped`, "*"},
		{"SELECT * EXCLUDE (nope) FROM m", "EXCLUDE names nope, which * does not give", "nope"},
		{"SELECT * REPLACE (v + 1 AS nope) FROM m", "REPLACE names nope, which * does not give", "v + 1"},
		{"SELECT * REPLACE (v + 1) FROM m", "REPLACE wants x AS <the column it replaces>", ")"},
		{"SELECT * EXCLUDE (1) FROM m", "expected a column name in EXCLUDE", "1)"},
	})
}
