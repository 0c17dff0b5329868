package query

import "testing"

// TestFromFirst: DuckDB's FROM-first statements give what their SELECT
// forms give, as statements, subqueries, WITH relations and the parts of
// a UNION, with EXPLAIN; errors point into the text as written.
func TestFromFirst(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	open := openOnly(src)
	for _, c := range [][2]string{
		{"FROM m", "SELECT * FROM m"},
		{"FROM m WHERE v > 100 ORDER BY v DESC, seq LIMIT 20;", "SELECT * FROM m WHERE v > 100 ORDER BY v DESC, seq LIMIT 20"},
		{"FROM fold(m) SELECT series, count(*) AS n GROUP BY series HAVING count(*) > 1 ORDER BY n DESC, series", "SELECT series, count(*) AS n FROM fold(m) GROUP BY series HAVING count(*) > 1 ORDER BY n DESC, series"},
		{"FROM m AS a JOIN m AS b USING (seq) SELECT a.v, b.s WHERE a.v > 50 ORDER BY a.seq", "SELECT a.v, b.s FROM m AS a JOIN m AS b USING (seq) WHERE a.v > 50 ORDER BY a.seq"},
		{"SELECT n, count(*), max(v) FROM (FROM m SELECT n, v WHERE n > 90) GROUP BY n ORDER BY n", "SELECT n, count(*), max(v) FROM (SELECT n, v FROM m WHERE n > 90) GROUP BY n ORDER BY n"},
		{"WITH h AS (FROM m SELECT series, max(v) AS hi GROUP BY series) FROM h SELECT series WHERE hi > 190 ORDER BY series", "WITH h AS (SELECT series, max(v) AS hi FROM m GROUP BY series) SELECT series FROM h WHERE hi > 190 ORDER BY series"},
		{"FROM m SELECT s WHERE v > 190 UNION FROM (FROM m) SELECT s WHERE n < 3 ORDER BY s", "SELECT s FROM m WHERE v > 190 UNION SELECT s FROM (SELECT * FROM m) WHERE n < 3 ORDER BY s"},
		{"FROM m SELECT series, count(*) WHERE s IN (FROM m SELECT s WHERE v > 190) GROUP BY series ORDER BY series", "SELECT series, count(*) FROM m WHERE s IN (SELECT s FROM m WHERE v > 190) GROUP BY series ORDER BY series"},
	} {
		sameRows(t, open, c[0], c[1], 2)
	}
	if plan := planText(t, open, "EXPLAIN FROM m SELECT count(*) WHERE seq > 2900"); plan != planText(t, open, "EXPLAIN SELECT count(*) FROM m WHERE seq > 2900") {
		t.Errorf("EXPLAIN:\n%s", plan)
	}
	wantErrors(t, open, []errCase{
		{"FROM m SELECT nope WHERE v > 1", `unknown column "nope"`, "nope"},
		{"FROM m WHERE nope > 1", `unknown column "nope"`, "nope"},
		{"FROM nope", "stream not found", "nope"},
		{"FROM m WHERE v > 1 SELECT v", `unexpected "SELECT" after the statement`, "SELECT"},
	})
}
