package query

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestLimitPercent: LIMIT p% gives the first ⌊p·n/100⌋ of the n rows a
// statement gives (after OFFSET), as DuckDB does, for plain scans,
// ORDER BY, GROUP BY, unions, subqueries, VALUES and PIVOT: each equals
// the same statement with LIMIT of that count. Out-of-range percentages,
// a fractional count and a result past the bound are errors.
func TestLimitPercent(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	open := openOnly(src)
	for _, q := range []string{
		"SELECT * FROM m",
		"SELECT seq, v FROM m WHERE v > 50 ORDER BY v DESC, seq",
		"SELECT series, n, count(*) AS c FROM m GROUP BY series, n ORDER BY c DESC, series, n",
		"SELECT s, n FROM m WHERE v > 150 UNION SELECT s, n FROM m WHERE n < 5 ORDER BY s, n",
		"SELECT * FROM (SELECT n, max(v) AS hi FROM m GROUP BY n) ORDER BY hi",
		"SELECT * FROM (VALUES (1), (2), (3), (4), (5), (6), (7)) AS t(x) ORDER BY x",
		"PIVOT m ON series USING count(*) GROUP BY n ORDER BY n",
	} {
		n := len(mustRun(t, open, q))
		if n < 7 {
			t.Fatalf("%s: %d rows: too few to show anything", q, n)
		}
		for _, pct := range []string{"0", "0.5", "10", "25", "33.3", "50", "99.9", "100"} {
			for _, off := range []int{0, 3} {
				if off > 0 && strings.HasPrefix(q, "PIVOT") { // PIVOT takes no OFFSET
					continue
				}
				var p float64
				fmt.Sscan(pct, &p)
				keep := int(math.Floor(p * float64(n) / 100))
				tail := fmt.Sprintf(" LIMIT %d", keep)
				with := " LIMIT " + pct + "%"
				if pct == "25" {
					with = " LIMIT 25 PERCENT"
				}
				if off > 0 {
					tail += fmt.Sprintf(" OFFSET %d", off)
					with += fmt.Sprintf(" OFFSET %d", off)
				}
				got, want := mustRun(t, open, q+with), mustRun(t, open, q+tail)
				if d := diffCells(got, want); d != "" {
					t.Fatalf("%s%s (%d rows of %d): %s", q, with, len(got), n, d)
				}
			}
		}
	}
	// In a subquery, and FROM-first.
	all := len(mustRun(t, open, "SELECT * FROM m"))
	sameRows(t, open, "SELECT count(*) FROM (SELECT * FROM m LIMIT 10%)", fmt.Sprintf("SELECT %d AS \"count(*)\" FROM m LIMIT 1", all/10), 1)
	sameRows(t, open, "FROM m WHERE v > 100 LIMIT 20%", fmt.Sprintf("SELECT * FROM m WHERE v > 100 LIMIT %d", len(mustRun(t, open, "SELECT * FROM m WHERE v > 100"))/5), 2)
	if plan := planText(t, open, "EXPLAIN SELECT * FROM m LIMIT 10% OFFSET 2"); !strings.HasPrefix(plan, "limit 10% of the rows") || !strings.Contains(plan, "after the first 2") || !strings.Contains(plan, "\n  stream m") {
		t.Errorf("EXPLAIN:\n%s", plan)
	}
	wantErrors(t, open, []errCase{
		{"SELECT * FROM m LIMIT 101%", "a percentage is from 0% to 100%", "101"},
		{"SELECT * FROM m LIMIT 2.5", "or a percentage (LIMIT 2.5%)", "2.5"},
		{"SELECT s FROM m LIMIT 10% UNION SELECT s FROM m", "go after the last SELECT", "UNION"},
	})
	if plan := planText(t, open, "EXPLAIN SELECT * FROM m WHERE v > 1 LIMIT 10%"); !strings.Contains(plan, "counted first") {
		t.Errorf("EXPLAIN of a counted statement:\n%s", plan)
	}
	if plan := planText(t, open, "EXPLAIN SELECT s, count(*) FROM m GROUP BY s LIMIT 10%"); !strings.Contains(plan, "held to count them") {
		t.Errorf("EXPLAIN of a held statement:\n%s", plan)
	}
	// A statement of its source's rows is counted first and holds
	// nothing; any other is held, within bounds.
	defer func(r, b, o int) { maxSubqueryRows, maxLimitPctBytes, maxSortRows = r, b, o }(maxSubqueryRows, maxLimitPctBytes, maxSortRows)
	maxSubqueryRows, maxLimitPctBytes, maxSortRows = 1000, 10_000, 500
	for _, q := range []string{"SELECT * FROM m WHERE v > 10", "SELECT seq, v * 2 AS w FROM m WHERE w > 20 ORDER BY v DESC, seq"} {
		n := len(mustRun(t, open, q+" LIMIT 100000"))
		sameRows(t, open, q+" LIMIT 20% OFFSET 1", fmt.Sprintf("%s LIMIT %d OFFSET 1", q, n/5), 100)
	}
	const sample = "SELECT * FROM m USING SAMPLE 90% (bernoulli, 7)"
	wantErrors(t, open, []errCase{
		{sample + " ORDER BY v LIMIT 10%", "LIMIT 10% sorts the whole result to count it, and this one passes 500 rows", "m USING"},
		{sample + " LIMIT 10%", "holds the result to count it, and this one passes 1000 rows", "m USING"},
	})
	maxSubqueryRows, maxSortRows = 1<<24, 1<<22
	wantErrors(t, open, []errCase{{sample + " LIMIT 10%", "USING SAMPLE 10% for a sample", "m USING"}})
}
