package query

import (
	"strings"
	"testing"
)

// TestJoinThree: FROM a JOIN b ... JOIN c ... joins c to the join of a
// and b, as the same query written with that join as a subquery does:
// ON and USING (the first source's column) on either earlier source,
// every kind of join, SELECT *, a source's a.*, the relation's own time
// (the first source's) bucketed, WHERE on the earlier sources (given to
// their join) and on all three, four sources.
func TestJoinThree(t *testing.T) {
	open := twoStreams(t)
	const ab = "(SELECT time, series, key, op, a.*, b.* FROM m AS a JOIN w AS b ON a.n = b.v)"
	for _, c := range [][2]string{
		{"SELECT a.seq, b.seq, c.seq, c.s FROM m AS a JOIN w AS b ON a.n = b.v JOIN w AS c ON b.series = c.series ORDER BY 1, 2, 3",
			"SELECT a.seq, b.seq, c.seq, c.s FROM " + ab + " AS ab JOIN w AS c ON b.series = c.series ORDER BY 1, 2, 3"},
		{"SELECT a.*, c.v FROM m AS a JOIN w AS b ON a.n = b.v ASOF LEFT JOIN w AS c ON a.time >= c.time ORDER BY a.seq, b.seq",
			"SELECT a.seq, a.time, a.series, a.key, a.op, a.b, a.n, a.s, a.v, a.x, c.v FROM " + ab + " AS ab ASOF LEFT JOIN w AS c ON a.time >= c.time ORDER BY a.seq, b.seq"},
		{"SELECT time, count(*) AS n, max(c.v) AS top FROM w AS a JOIN m AS b ON a.v = b.n JOIN w AS c USING (series) GROUP BY time(1h) ORDER BY time",
			"SELECT time, count(*) AS n, max(c.v) AS top FROM (SELECT time, series, key, op, a.*, b.* FROM w AS a JOIN m AS b ON a.v = b.n) AS ab JOIN w AS c ON a.series = c.series GROUP BY time(1h) ORDER BY time"},
		{"SELECT a.seq, c.seq FROM m AS a JOIN w AS b ON a.n = b.v JOIN w AS c ON b.series = c.series WHERE a.v > 10 AND b.s = 'red' AND c.v < b.v ORDER BY 1, 2",
			"SELECT a.seq, c.seq FROM (SELECT time, series, key, op, a.*, b.* FROM m AS a JOIN w AS b ON a.n = b.v WHERE a.v > 10 AND b.s = 'red') AS ab JOIN w AS c ON b.series = c.series WHERE c.v < b.v ORDER BY 1, 2"},
		{"SELECT a.seq, d.seq FROM m AS a JOIN w AS b ON a.n = b.v JOIN w AS c ON b.series = c.series JOIN m AS d ON c.v = d.n WHERE d.s = 'alpha' ORDER BY 1, 2 LIMIT 500",
			"SELECT ab.a.seq, d.seq FROM (SELECT time, series, key, op, ab.*, c.* FROM " + ab + " AS ab JOIN w AS c ON b.series = c.series) AS abc JOIN m AS d ON c.v = d.n WHERE d.s = 'alpha' ORDER BY 1, 2 LIMIT 500"},
	} {
		sameRows(t, open, c[0], c[1], 1)
	}
	// SELECT * lists each source's columns, without the earlier join's
	// own (time, series, key, op: the first source's).
	star := mustRun(t, open, "SELECT * FROM m AS a JOIN w AS b ON a.n = b.v LEFT JOIN w AS c ON a.s = c.s ORDER BY a.seq, b.seq")
	want := mustRun(t, open, "SELECT * FROM "+ab+" AS ab LEFT JOIN w AS c ON a.s = c.s ORDER BY a.seq, b.seq")
	for i := range want {
		want[i] = want[i][4:]
	}
	if len(want) < 10 {
		t.Fatalf("SELECT *: %d rows", len(want))
	}
	if d := diffCells(star, want); d != "" {
		t.Errorf("SELECT * of three: %s", d)
	}
	// WHERE on the earlier sources filters their join before it is held,
	// and a's term goes on to a's scan.
	rows := mustRun(t, open, "EXPLAIN SELECT a.seq FROM m AS a JOIN w AS b ON a.n = b.v JOIN w AS c ON b.series = c.series WHERE a.v > 10")
	var plan []string
	for _, r := range rows {
		plan = append(plan, r[0].(string))
	}
	if text := strings.Join(plan, "\n"); !strings.Contains(text, "filter: v > 10") {
		t.Errorf("a's term is not given to a's scan:\n%s", text)
	}
	// The earlier join holds only the columns the statement names: not
	// the fields s and x of a and b, nor a's v.
	plan = plan[:0]
	for _, r := range mustRun(t, open, "EXPLAIN SELECT a.seq, c.seq FROM m AS a JOIN w AS b ON a.n = b.v JOIN w AS c ON b.series = c.series") {
		plan = append(plan, r[0].(string))
	}
	text := strings.Join(plan, "\n")
	if !strings.Contains(text, "a.n") || !strings.Contains(text, "b.v") {
		t.Fatalf("the plan names no column of the earlier join:\n%s", text)
	}
	for _, unnamed := range []string{"a.s", "a.x", "a.v", "b.s", "b.x", "b.n", ", s", ", x"} {
		if strings.Contains(text, unnamed+",") || strings.HasSuffix(text, unnamed) || strings.Contains(text, unnamed+"\n") {
			t.Errorf("the earlier join holds %s, which nothing names:\n%s", unnamed, text)
		}
	}
}

// TestJoinOnFilter: an INNER JOIN's ON conditions other than equalities
// (<, <=, >, >=, != and <>, on columns or arithmetic) filter its
// matches as the same conditions in WHERE do; in a join before a RIGHT
// JOIN they filter that join, not the RIGHT JOIN's rows.
func TestJoinOnFilter(t *testing.T) {
	open := twoStreams(t)
	for _, c := range [][2]string{
		{"SELECT a.seq, b.seq FROM m AS a JOIN w AS b ON a.n = b.v AND a.v < b.v * 10 AND a.s <> b.s ORDER BY 1, 2",
			"SELECT a.seq, b.seq FROM m AS a JOIN w AS b ON a.n = b.v WHERE a.v < b.v * 10 AND a.s != b.s ORDER BY 1, 2"},
		{"SELECT a.series, count(*), sum(a.v) FROM m AS a JOIN w AS b ON a.n = b.v AND a.v >= b.v AND b.v > 3 GROUP BY a.series ORDER BY 1",
			"SELECT a.series, count(*), sum(a.v) FROM m AS a JOIN w AS b ON a.n = b.v WHERE a.v >= b.v AND b.v > 3 GROUP BY a.series ORDER BY 1"},
		{"SELECT a.seq, c.seq FROM m AS a JOIN w AS b ON a.n = b.v AND a.v > b.v RIGHT JOIN w AS c ON b.seq = c.seq ORDER BY 2, 1",
			"SELECT ab.aseq, c.seq FROM (SELECT a.seq AS aseq, b.seq AS bseq FROM m AS a JOIN w AS b ON a.n = b.v WHERE a.v > b.v) AS ab RIGHT JOIN w AS c ON ab.bseq = c.seq ORDER BY 2, 1"},
	} {
		sameRows(t, open, c[0], c[1], 3)
	}
	wantErrors(t, open, []errCase{
		{"SELECT count(*) FROM m AS a JOIN w AS b ON a.v < b.v", "an INNER JOIN matches by equality: its ON needs one", "<"},
		{"SELECT count(*) FROM m AS a LEFT JOIN w AS b ON a.n = b.v AND a.v < b.v", "a LEFT JOIN matches by equality (=) in ON", "<"},
	})
}
