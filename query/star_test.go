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
	} {
		sameRows(t, open, c[0], c[1], 5)
	}
	wantErrors(t, open, []errCase{
		{"SELECT *, 1", "SELECT * needs FROM", ""},
		{"SELECT DISTINCT *, v FROM m", "SELECT DISTINCT * is not supported", "DISTINCT"},
		{"SELECT *, count(*) FROM m GROUP BY ALL", "SELECT * names none", "ALL"},
		{"SELECT *, count(*) FROM m", `column "seq" must be grouped`, "*"},
	})
}
