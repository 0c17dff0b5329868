package query

import (
	"strings"
	"testing"
)

// TestQualify: QUALIFY filters rows on the window functions' results
// (by alias, or an aggregate's text), after HAVING and before ORDER BY
// and LIMIT, as the same filter on a subquery does; a duration compares
// with a span in QUALIFY and HAVING.
func TestQualify(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	open := openOnly(src)
	for _, c := range []struct{ q, sub string }{
		// (seq + 0: the subquery's seq AS s is an int64, as arithmetic's is)
		{"SELECT series, seq + 0 AS s, v, row_number() OVER (PARTITION BY series ORDER BY v DESC) AS rn FROM m QUALIFY rn <= 3 ORDER BY series, rn",
			"SELECT series, s, v, rn FROM (SELECT series, seq AS s, v, row_number() OVER (PARTITION BY series ORDER BY v DESC) AS rn FROM m) WHERE rn <= 3 ORDER BY series, rn"},
		{"SELECT seq + 0 AS s, time - lag(time) AS gap FROM m WHERE n > 10 QUALIFY gap > 40s OR gap IS NULL ORDER BY s LIMIT 50",
			"SELECT s, gap FROM (SELECT seq AS s, time - lag(time) AS gap FROM m WHERE n > 10) WHERE gap > 40000000000 OR gap IS NULL ORDER BY s LIMIT 50"},
		// Windows written in QUALIFY are computed, not returned.
		{"SELECT series, seq + 0 AS s, v FROM m QUALIFY row_number() OVER (PARTITION BY series ORDER BY v DESC) <= 3 ORDER BY series, v DESC NULLS FIRST, s",
			"SELECT series, s, v FROM (SELECT series, seq AS s, v, row_number() OVER (PARTITION BY series ORDER BY v DESC) AS rn FROM m) WHERE rn <= 3 ORDER BY series, v DESC NULLS FIRST, s"},
		{"SELECT seq + 0 AS q, v, n FROM m QUALIFY v = max(v) OVER (PARTITION BY series) OR n > sum(n) OVER () / count(n) OVER () * 1.9 ORDER BY q",
			"SELECT q, v, n FROM (SELECT seq AS q, v, n, max(v) OVER (PARTITION BY series) AS mv, sum(n) OVER () / count(n) OVER () AS mn FROM m) WHERE v = mv OR n > mn * 1.9 ORDER BY q"},
		// A raw query's QUALIFY tests columns it does not return too.
		{"SELECT series, seq + 0 AS s, v FROM m QUALIFY row_number() OVER (PARTITION BY series ORDER BY time DESC) <= 5 AND n > 20 AND minute(time) % 2 = 0 ORDER BY s",
			"SELECT series, s, v FROM (SELECT series, seq AS s, v, n, time, row_number() OVER (PARTITION BY series ORDER BY time DESC) AS rn FROM m) WHERE rn <= 5 AND n > 20 AND minute(time) % 2 = 0 ORDER BY s"},
		{"SELECT series, count(*) AS c FROM m GROUP BY series QUALIFY rank() OVER (ORDER BY count(*) DESC) <= 5 ORDER BY c DESC, series",
			"SELECT series, c FROM (SELECT series, count(*) AS c, rank() OVER (ORDER BY count(*) DESC) AS r FROM m GROUP BY series) WHERE r <= 5 ORDER BY c DESC, series"},
		{"SELECT series, time, count(*), lag(count(*)) AS before FROM m GROUP BY time(10m), series HAVING count(*) > 1 QUALIFY count(*) > before ORDER BY series, time",
			"SELECT series, time, c, before FROM (SELECT series, time, count(*) AS c, lag(count(*)) AS before FROM m GROUP BY time(10m), series HAVING count(*) > 1) WHERE c > before ORDER BY series, time"},
	} {
		sameRows(t, open, c.q, c.sub, 5)
	}
	spans := mustRun(t, open, "SELECT series, max(time) - min(time) AS span FROM m GROUP BY series HAVING span > 1h")
	for _, r := range spans {
		if r[1].(int64) <= 3600e9 {
			t.Fatalf("HAVING span > 1h kept %v", r)
		}
	}
	if len(spans) == 0 {
		t.Fatal("HAVING span > 1h kept nothing")
	}
	if p := explainLines(t, src, "EXPLAIN SELECT seq, rank() OVER (ORDER BY v) AS r FROM m QUALIFY r < 5"); !strings.Contains(p, "qualify: tested on each row once the window functions are computed") {
		t.Errorf("EXPLAIN:\n%s", p)
	}
	wantErrors(t, open, []errCase{
		{"SELECT series, avg(v) AS a FROM m GROUP BY series QUALIFY a > 1", "QUALIFY filters on window functions' results, and this query has none", "QUALIFY"},
		{"SELECT seq, lag(v) AS l FROM m QUALIFY nope > 1", "QUALIFY nope: not a column of the result", "nope"},
		{"SELECT seq, lag(v) AS l FROM m QUALIFY series ~ cpu{host=\"a\"}", "QUALIFY does not take series selectors", ""},
		{"SELECT seq, lag(v) AS l FROM m QUALIFY l > 1 HAVING l > 2", "unexpected", "HAVING"},
		{"SELECT seq, lag(v) AS l FROM m QUALIFY lag(lag(v)) > 1", "lag() is a window function", "lag(v))"},
		{"SELECT seq FROM m QUALIFY quantile(0.5, v) OVER () > 1", "quantile() has no window form", "OVER"},
		{"SELECT seq, lag(v) AS l FROM m WHERE v > 1m", "float64 column \"v\" compared with a duration", "1m"},
	})
}

// TestWindowAggAlias: in an aggregate query a window's terms and
// arguments may name an aggregate item's alias, as DuckDB allows: it
// stands for the item's arithmetic; a stream's column or a group of the
// same name comes first.
func TestWindowAggAlias(t *testing.T) {
	src, _ := testSource(t, 2000, 50)
	open := openOnly(src)
	sameRows(t, open, "SELECT series, avg(v) AS a, count(*) AS c, rank() OVER (ORDER BY a DESC) AS r, sum(c) OVER (ORDER BY a * -1) AS run, lag(c) OVER (PARTITION BY c % 2 ORDER BY a) FROM m GROUP BY series QUALIFY r <= 5",
		"SELECT series, avg(v) AS a, count(*) AS c, rank() OVER (ORDER BY avg(v) DESC) AS r, sum(count(*)) OVER (ORDER BY avg(v) * -1) AS run, lag(count(*)) OVER (PARTITION BY count(*) % 2 ORDER BY avg(v)) FROM m GROUP BY series QUALIFY r <= 5", 5)
	// n is a column of the stream: OVER (ORDER BY n) is not the alias.
	wantErrors(t, open, []errCase{{"SELECT series, avg(v) AS n, rank() OVER (ORDER BY n) FROM m GROUP BY series", `column "n" must be grouped`, "n) FROM"}})
}
