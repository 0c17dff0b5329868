package query

import (
	"fmt"
	"strings"
	"testing"
)

// TestExplainAnalyze: EXPLAIN ANALYZE gives EXPLAIN's plan, then the rows
// the statement returned and what its scans decoded and kept: every
// block of a full scan, the rows WHERE keeps, the scans of a join's and
// a union's parts summed, a ROLLUP's SELECTs sharing one scan, a union
// that cannot share running its subqueries once; a DELETE is refused,
// not run.
func TestExplainAnalyze(t *testing.T) {
	open := twoStreams(t)
	count := func(q string) int64 { return mustRun(t, open, q)[0][0].(int64) }
	m, w := count("SELECT count(*) FROM m"), count("SELECT count(*) FROM w")
	big := count("SELECT count(*) FROM m WHERE v > 100")
	joined := count("SELECT count(*) FROM m AS a JOIN w AS b ON a.n = b.v") // the relation the statement scans
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"EXPLAIN ANALYZE SELECT seq, v FROM m WHERE v > 100",
			[]string{"filter: v > 100", fmt.Sprintf("analyze: %d rows in ", big), fmt.Sprintf(", %d rows; %d rows kept by bounds, deletes and WHERE", m, big)}},
		{"EXPLAIN ANALYZE SELECT count(*) FROM m AS a JOIN w AS b ON a.n = b.v",
			[]string{"analyze: 1 row in ", fmt.Sprintf(", %d rows; ", m+w+joined)}},
		{"EXPLAIN ANALYZE SELECT series, count(*) FROM m GROUP BY ROLLUP (series)",
			[]string{"union all of 2 selects:", "one scan of m, each batch aggregated by every select", fmt.Sprintf(", %d rows; %d rows kept", m, m)}},
		// Not one scan (a raw SELECT; another WHERE): each SELECT and
		// its IN subquery run once, none of them again for trying to
		// share.
		{"EXPLAIN ANALYZE SELECT count(*) FROM m WHERE n IN (SELECT v FROM w) UNION ALL SELECT v FROM m",
			[]string{"union all of 2 selects:", fmt.Sprintf(", %d rows; ", m+w+m)}},
		{"EXPLAIN ANALYZE SELECT count(*) FROM m WHERE n IN (SELECT v FROM w) UNION ALL SELECT count(*) FROM m WHERE v > 3",
			[]string{"union all of 2 selects:", fmt.Sprintf(", %d rows; ", m+w+m)}},
		{"EXPLAIN ANALYZE SELECT s FROM m UNION ALL SELECT s FROM w",
			[]string{"union all of 2 selects:", fmt.Sprintf("analyze: %d rows in ", m+w), fmt.Sprintf(", %d rows; %d rows kept", m+w, m+w)}},
	} {
		got := planText(t, open, c.q)
		for _, want := range c.want {
			if !strings.Contains(got, want) {
				t.Errorf("%s lacks %q:\n%s", c.q, want, got)
			}
		}
	}
	wantErrors(t, open, []errCase{
		{"EXPLAIN ANALYZE DELETE FROM m WHERE v > 1", "EXPLAIN ANALYZE runs the statement, and this one changes the store", "DELETE"},
	})
}
