package query

import (
	"strings"
	"testing"
)

// TestJoinFullRight: a FULL JOIN gives the LEFT JOIN's rows, then each
// right row no left row matched (a NULL key matches none) with the left
// side's columns NULL; a RIGHT JOIN the INNER JOIN's rows, then those.
// The relation's time and series are the right row's where there is no
// left one (so USING (time) reads as either side's), and WHERE sees
// the NULLs: a condition on a side is not pushed into it.
func TestJoinFullRight(t *testing.T) {
	open := twoStreams(t)
	const unmatched = "SELECT NULL AS x, epoch_ms(b.time) AS y, b.s AS bs FROM w AS b WHERE NOT EXISTS (SELECT 1 FROM m WHERE n = b.v)"
	sorted := func(q string) string { return "SELECT * FROM (" + q + ") ORDER BY x NULLS FIRST, y NULLS FIRST, bs" }
	for _, c := range [][2]string{
		{"SELECT a.seq AS x, epoch_ms(b.time) AS y, b.s AS bs FROM m AS a FULL JOIN w AS b ON a.n = b.v",
			"SELECT a.seq AS x, epoch_ms(b.time) AS y, b.s AS bs FROM m AS a LEFT JOIN w AS b ON a.n = b.v UNION ALL " + unmatched},
		{"SELECT a.seq AS x, epoch_ms(b.time) AS y, b.s AS bs FROM m AS a FULL OUTER JOIN w AS b ON a.n = b.v AND a.series = b.series",
			"SELECT a.seq AS x, epoch_ms(b.time) AS y, b.s AS bs FROM m AS a LEFT JOIN w AS b ON a.n = b.v AND a.series = b.series UNION ALL " +
				"SELECT NULL AS x, epoch_ms(b.time) AS y, b.s AS bs FROM w AS b WHERE NOT EXISTS (SELECT 1 FROM m WHERE n = b.v AND series = b.series)"},
		{"SELECT a.seq AS x, epoch_ms(b.time) AS y, b.s AS bs FROM m AS a RIGHT JOIN w AS b ON a.n = b.v",
			"SELECT a.seq AS x, epoch_ms(b.time) AS y, b.s AS bs FROM m AS a JOIN w AS b ON a.n = b.v UNION ALL " + unmatched},
		{"SELECT a.seq AS x, epoch_ms(b.time) AS y, b.s AS bs FROM m AS a RIGHT OUTER JOIN w AS b ON a.n = b.v WHERE a.seq IS NULL",
			unmatched},
		{"SELECT a.seq AS x, epoch_ms(b.time) AS y, b.s AS bs FROM m AS a FULL JOIN w AS b ON a.n = b.v WHERE a.n IS NULL",
			"SELECT CAST(a.seq AS BIGINT) AS x, NULL AS y, CAST(NULL AS VARCHAR) AS bs FROM m AS a WHERE n IS NULL UNION ALL " + unmatched},
		{"SELECT a.seq AS x, epoch_ms(b.time) AS y, b.s AS bs FROM m AS a FULL JOIN w AS b ON a.n = b.v WHERE b.s = 'red' AND a.v > 10",
			"SELECT a.seq AS x, epoch_ms(b.time) AS y, b.s AS bs FROM m AS a JOIN w AS b ON a.n = b.v WHERE b.s = 'red' AND a.v > 10"},
	} {
		sameRows(t, open, sorted(c[0]), sorted(c[1]), 20)
	}
	// The relation's own time and series: the right row's without a left
	// one.
	sameRows(t, open, "SELECT series, count(*) AS c, min(time) AS t FROM m AS a FULL JOIN w AS b USING (time) WHERE a.seq IS NULL GROUP BY series ORDER BY series",
		"SELECT series, count(*) AS c, min(time) AS t FROM w AS b WHERE NOT EXISTS (SELECT 1 FROM m WHERE time = b.time) GROUP BY series ORDER BY series", 3)
	// A column of USING is either side's; per value, the pairs of the
	// two sides' rows, or one side's rows alone (NULL matches nothing).
	const l, r = "SELECT s FROM m WHERE n < 30", "SELECT s FROM w WHERE v > 100 UNION ALL SELECT s FROM m WHERE n > 80"
	counts := func(q string) map[any]int64 {
		out := map[any]int64{}
		for _, row := range mustRun(t, open, "SELECT s, count(*) FROM ("+q+") GROUP BY s") {
			out[row[0]] = row[1].(int64)
		}
		return out
	}
	cl, cr := counts(l), counts(r)
	for _, kind := range []string{"FULL", "RIGHT"} {
		want := map[any]int64{}
		for v, n := range cr {
			switch {
			case v != nil && cl[v] > 0:
				want[v] = n * cl[v]
			default:
				want[v] += n
			}
		}
		for v, n := range cl {
			if kind == "FULL" && (v == nil || cr[v] == 0) {
				want[v] += n
			}
		}
		got := mustRun(t, open, "SELECT s, count(*) FROM ("+l+") AS a "+kind+" JOIN ("+r+") AS b USING (s) GROUP BY s")
		if len(got) != len(want) || len(got) < 4 {
			t.Fatalf("%s JOIN USING (s): %d groups %v, want %d %v", kind, len(got), got, len(want), want)
		}
		for _, g := range got {
			if want[g[0]] != g[1].(int64) {
				t.Errorf("%s JOIN USING (s): s = %v: %v rows, want %d", kind, g[0], g[1], want[g[0]])
			}
		}
	}
	// A third source after a FULL JOIN.
	sameRows(t, open, "SELECT count(*) AS c FROM m AS a FULL JOIN w AS b ON a.n = b.v JOIN w AS c ON b.seq = c.seq",
		"SELECT count(*) AS c FROM m AS a RIGHT JOIN w AS b ON a.n = b.v", 1)
}

// TestJoinCross: a CROSS JOIN pairs every left row with every right row
// (WHERE on a side narrowing it first); beside a one-row subquery it is
// that row's values on every row.
func TestJoinCross(t *testing.T) {
	open := twoStreams(t)
	count := func(q string) int64 { return mustRun(t, open, q)[0][0].(int64) }
	m, w := count("SELECT count(*) FROM m"), count("SELECT count(*) FROM w")
	if got := count("SELECT count(*) FROM m AS a CROSS JOIN w AS b"); got != m*w {
		t.Errorf("m CROSS JOIN w: %d rows, want %d × %d", got, m, w)
	}
	m, w = count("SELECT count(*) FROM m WHERE n > 50"), count("SELECT count(*) FROM w WHERE v < 10")
	if got := count("SELECT count(*) FROM m AS a CROSS JOIN w AS b WHERE a.n > 50 AND b.v < 10"); got != m*w || got == 0 {
		t.Errorf("CROSS JOIN with WHERE on each side: %d rows, want %d × %d", got, m, w)
	}
	sameRows(t, open, "SELECT a.time, b.mx, a.v - b.mean AS d FROM m AS a CROSS JOIN (SELECT max(v) AS mx, avg(v) AS mean FROM w) AS b ORDER BY a.seq",
		"SELECT time, (SELECT max(v) FROM w) AS mx, v - (SELECT avg(v) FROM w) AS d FROM m ORDER BY seq", 100)
	wantErrors(t, open, []errCase{
		{"SELECT * FROM m a CROSS JOIN w b ON a.n = b.v", "a CROSS JOIN pairs every row with every row and takes no ON", "ON"},
	})
}

// TestJoinComma: FROM a, b is a CROSS JOIN; equalities of WHERE between
// its sides make it an INNER JOIN ON them (EXPLAIN says so), with the
// rows the explicit join gives; three sources too.
func TestJoinComma(t *testing.T) {
	open := twoStreams(t)
	for _, c := range [][2]string{
		{"SELECT a.seq, b.seq AS bseq FROM m AS a, w AS b WHERE a.n = b.v AND b.s = 'red' ORDER BY a.seq, bseq",
			"SELECT a.seq, b.seq AS bseq FROM m AS a JOIN w AS b ON a.n = b.v WHERE b.s = 'red' ORDER BY a.seq, bseq"},
		{"SELECT a.seq, b.seq AS bseq FROM m AS a, w AS b WHERE b.v = a.n + 1 ORDER BY a.seq, bseq",
			"SELECT a.seq, b.seq AS bseq FROM m AS a JOIN w AS b ON a.n + 1 = b.v ORDER BY a.seq, bseq"},
		{"SELECT count(*) AS c FROM m AS a, w AS b WHERE a.v > 100 AND b.v < 5",
			"SELECT count(*) AS c FROM m AS a CROSS JOIN w AS b WHERE a.v > 100 AND b.v < 5"},
		{"SELECT a.seq, c.seq AS cseq FROM m AS a, w AS b, w AS c WHERE a.n = b.v AND b.s = c.s AND c.v < 3 ORDER BY a.seq, cseq",
			"SELECT a.seq, c.seq AS cseq FROM m AS a JOIN w AS b ON a.n = b.v JOIN w AS c ON b.s = c.s WHERE c.v < 3 ORDER BY a.seq, cseq"},
	} {
		sameRows(t, open, c[0], c[1], 1)
	}
	if plan := planText(t, open, "EXPLAIN SELECT count(*) FROM m AS a, w AS b WHERE a.n = b.v"); !strings.Contains(plan, "INNER JOIN ON a.n = b.v") {
		t.Errorf("EXPLAIN of a comma join tied by WHERE lacks INNER JOIN ON:\n%s", plan)
	}
}
