package query

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestScalarSubquery: (SELECT ...) of one value in WHERE, items,
// aggregates' and windows' arguments, OVER, HAVING, QUALIFY, ORDER BY,
// GROUP BY, a join's WHERE and another subquery gives what the query
// with its value written out gives: numbers, times and text; none, or a
// null, is NULL; more columns or rows fail where the subquery is.
func TestScalarSubquery(t *testing.T) {
	src, _ := testSource(t, 2000, 50)
	open := openOnly(src)
	// lit runs q and returns its one value as a literal of the language.
	lit := func(q string) string {
		t.Helper()
		g := mustRun(t, open, q)
		switch v := g[0][0].(type) {
		case float64:
			return strconv.FormatFloat(v, 'g', -1, 64)
		case int64:
			if strings.Contains(q, "time)") {
				return "'" + time.Unix(0, v).UTC().Format(time.RFC3339Nano) + "'"
			}
			return strconv.FormatInt(v, 10)
		case string:
			return "'" + v + "'"
		}
		t.Fatalf("%s: %v", q, g)
		return ""
	}
	avg, minV, maxT, maxS := lit("SELECT avg(v) FROM m"), lit("SELECT min(v) FROM m"), lit("SELECT max(time) FROM m"), lit("SELECT max(series) FROM m")
	inner := lit("SELECT max(v) FROM m WHERE v < " + avg)
	for _, c := range [][2]string{
		{"SELECT seq, v FROM m WHERE v > (SELECT avg(v) FROM m)", "SELECT seq, v FROM m WHERE v > " + avg},
		{"SELECT seq, v - (SELECT min(v) FROM m) AS d, avg(v - (SELECT min(v) FROM m)) OVER (PARTITION BY series) FROM m",
			"SELECT seq, v - " + minV + " AS d, avg(v - " + minV + ") OVER (PARTITION BY series) FROM m"},
		{"SELECT seq, rank() OVER (ORDER BY abs(v - (SELECT avg(v) FROM m)), seq) FROM m ORDER BY abs(v - (SELECT avg(v) FROM m)), seq",
			"SELECT seq, rank() OVER (ORDER BY abs(v - " + avg + "), seq) FROM m ORDER BY abs(v - " + avg + "), seq"},
		{"SELECT count(*) FROM m WHERE time > (SELECT max(time) FROM m) - 1h AND series = (SELECT max(series) FROM m)",
			"SELECT count(*) FROM m WHERE time > " + maxT + " - 1h AND series = " + maxS},
		{"SELECT series, avg(v), sum(v * (SELECT min(v) FROM m)) FROM m GROUP BY series HAVING avg(v) > (SELECT avg(v) FROM m) - 1",
			"SELECT series, avg(v), sum(v * " + minV + ") FROM m GROUP BY series HAVING avg(v) > " + avg + " - 1"},
		{"SELECT seq, lag(v) AS l FROM m QUALIFY l > (SELECT avg(v) FROM m)", "SELECT seq, lag(v) AS l FROM m QUALIFY l > " + avg},
		{"SELECT CASE WHEN v > (SELECT avg(v) FROM m) THEN 'hi' ELSE 'lo' END AS side, count(*) FROM m GROUP BY side ORDER BY side",
			"SELECT CASE WHEN v > " + avg + " THEN 'hi' ELSE 'lo' END AS side, count(*) FROM m GROUP BY side ORDER BY side"},
		{"SELECT count(*) FROM m WHERE v = (SELECT max(v) FROM m WHERE v < (SELECT avg(v) FROM m))", "SELECT count(*) FROM m WHERE v = " + inner},
		{"SELECT a.seq FROM m AS a JOIN (SELECT DISTINCT series FROM m) AS k USING (series) WHERE a.v > (SELECT avg(v) FROM m)",
			"SELECT a.seq FROM m AS a JOIN (SELECT DISTINCT series FROM m) AS k USING (series) WHERE a.v > " + avg},
	} {
		sameRows(t, open, c[0], c[1], 1)
	}
	got := mustRun(t, open, "SELECT (SELECT max(v) FROM m WHERE seq < 0) AS none, (SELECT v FROM m WHERE v IS NULL LIMIT 1) AS null_v, (SELECT count(*) FROM m) AS n")
	if got[0][0] != nil || got[0][1] != nil || got[0][2] != int64(2000) {
		t.Errorf("NULL and count: %v", got)
	}
	if got := mustRun(t, open, "SELECT count(*) FROM m WHERE v > (SELECT max(v) FROM m WHERE seq < 0)"); got[0][0] != int64(0) {
		t.Errorf("a NULL subquery compared: %v", got)
	}
	// A time from a subquery bounds the scan as a written one does.
	bound := explainLines(t, src, "EXPLAIN SELECT count(*) FROM m WHERE time > (SELECT max(time) FROM m) - 10m")
	if want := explainLines(t, src, "EXPLAIN SELECT count(*) FROM m WHERE time > "+maxT+" - 10m"); !strings.Contains(bound, strings.Split(want, "\n")[1]) || strings.Contains(bound, "time all") {
		t.Errorf("EXPLAIN with a subquery's time:\n%s\nwant the range of\n%s", bound, want)
	}
	wantErrors(t, open, []errCase{
		{"SELECT count(*) FROM m WHERE v > (SELECT avg(v), 1 FROM m)", "a subquery as a value gives one column; (SELECT avg(v), 1 FROM m) gives 2", "(SELECT avg(v), 1"},
		{"SELECT count(*) FROM m WHERE v > (SELECT v FROM m)", "gives at most one row; (SELECT v FROM m) gives more", "(SELECT v FROM m)"},
		{"SELECT count(*) FROM m WHERE v > (SELECT v FROM nope)", "stream not found", ""},
		{"SELECT count(*) FROM m WHERE v > (SELECT v FROM m", `expected ")"`, ""},
	})
}
