package query

import "testing"

// TestCaseOverAggregates: a SELECT item's CASE, if() and condition value
// may test aggregates and grouped columns (comparisons, IS NULL, LIKE,
// ILIKE, =~, IN lists, IN, ANY and ALL of subqueries, AND, OR, NOT,
// three-valued), as the same CASE over a grouped subquery does; other
// tests, and aggregates in WHERE, are refused with what and where.
func TestCaseOverAggregates(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	open := openOnly(src)
	for _, c := range [][2]string{
		{"SELECT s, CASE WHEN count(*) > 600 THEN 'big' WHEN count(*) > 500 THEN 'mid' ELSE 'small' END AS size FROM m GROUP BY s ORDER BY s",
			"SELECT s, CASE WHEN c > 600 THEN 'big' WHEN c > 500 THEN 'mid' ELSE 'small' END AS size FROM (SELECT s, count(*) AS c FROM m GROUP BY s) ORDER BY s"},
		{"SELECT s, sum(v) / CASE WHEN count(v) = 0 THEN NULL ELSE count(v) END AS a FROM m GROUP BY s ORDER BY s",
			"SELECT s, sv / CASE WHEN cv = 0 THEN NULL ELSE cv END AS a FROM (SELECT s, sum(v) AS sv, count(v) AS cv FROM m GROUP BY s) ORDER BY s"},
		{"SELECT s, max(v) > 198 AS hot, if(min(v) < -40 OR max(n) IS NULL, 1, 0) AS cold FROM m GROUP BY s ORDER BY s",
			"SELECT s, mv > 198 AS hot, if(lv < -40 OR mn IS NULL, 1, 0) AS cold FROM (SELECT s, max(v) AS mv, min(v) AS lv, max(n) AS mn FROM m GROUP BY s) ORDER BY s"},
		{"SELECT s, CASE WHEN s IS NULL THEN 'none' WHEN NOT (count(*) > 590 AND max(v) > 198) THEN s END AS k FROM m GROUP BY s ORDER BY s",
			"SELECT s, CASE WHEN s IS NULL THEN 'none' WHEN NOT (c > 590 AND mv > 198) THEN s END AS k FROM (SELECT s, count(*) AS c, max(v) AS mv FROM m GROUP BY s) ORDER BY s"},
		{"SELECT s, CASE WHEN s LIKE 'a%' OR s =~ 'g.*' THEN count(*) WHEN lower(s) IN ('beta', 'delta') AND max(v) NOT IN (1, 2) THEN -1 END AS k, CASE WHEN s ILIKE 'D%' THEN 1 END AS d FROM m GROUP BY s ORDER BY s",
			"SELECT s, CASE WHEN s LIKE 'a%' OR s =~ 'g.*' THEN c WHEN lower(s) IN ('beta', 'delta') AND mv NOT IN (1, 2) THEN -1 END AS k, CASE WHEN s ILIKE 'D%' THEN 1 END AS d FROM (SELECT s, count(*) AS c, max(v) AS mv FROM m GROUP BY s) ORDER BY s"},
		{"SELECT series, CASE WHEN sum(CASE WHEN v > 100 THEN 1 ELSE 0 END) * 2 > count(*) THEN 'high' ELSE 'low' END AS k FROM m GROUP BY series ORDER BY series",
			"SELECT series, CASE WHEN h * 2 > c THEN 'high' ELSE 'low' END AS k FROM (SELECT series, sum(CASE WHEN v > 100 THEN 1 ELSE 0 END) AS h, count(*) AS c FROM m GROUP BY series) ORDER BY series"},
		{"SELECT s, CASE WHEN s IN (SELECT s FROM m WHERE n < 3) THEN count(*) WHEN count(*) NOT IN (SELECT count(*) FROM m GROUP BY s) THEN -1 END AS k FROM m GROUP BY s ORDER BY s",
			"SELECT s, CASE WHEN s IN (SELECT s FROM m WHERE n < 3) THEN c WHEN c NOT IN (SELECT count(*) FROM m GROUP BY s) THEN -1 END AS k FROM (SELECT s, count(*) AS c FROM m GROUP BY s) ORDER BY s"},
		{"SELECT s, CASE WHEN max(n) >= ALL (SELECT n FROM m WHERE v > 150) THEN 'all' WHEN NOT (max(n) >= ALL (SELECT n FROM m WHERE v > 150)) THEN 'not' ELSE 'unknown' END AS k, " +
			"CASE WHEN min(v) < ANY (SELECT v FROM m WHERE n = 7) THEN 'any' WHEN NOT (min(v) < ANY (SELECT v FROM m WHERE n = 7)) THEN 'none' END AS j FROM m GROUP BY s ORDER BY s",
			"SELECT s, CASE WHEN mn >= ALL (SELECT n FROM m WHERE v > 150) THEN 'all' WHEN NOT (mn >= ALL (SELECT n FROM m WHERE v > 150)) THEN 'not' ELSE 'unknown' END AS k, " +
				"CASE WHEN lv < ANY (SELECT v FROM m WHERE n = 7) THEN 'any' WHEN NOT (lv < ANY (SELECT v FROM m WHERE n = 7)) THEN 'none' END AS j FROM (SELECT s, max(n) AS mn, min(v) AS lv FROM m GROUP BY s) ORDER BY s"},
	} {
		sameRows(t, open, c[0], c[1], 4)
	}
	// Its values differ by group: the test shows something.
	if got := mustRun(t, open, "SELECT count(DISTINCT k) FROM (SELECT s, CASE WHEN count(*) > 600 THEN 'big' WHEN count(*) > 500 THEN 'mid' ELSE 'small' END AS k FROM m GROUP BY s)"); got[0][0].(int64) < 2 {
		t.Fatalf("one size for every group: %v", got)
	}
	wantErrors(t, open, []errCase{
		{"SELECT series, CASE WHEN series ~ cpu{host=\"a\"} THEN count(*) END FROM m GROUP BY series", "a CASE over aggregates tests comparisons, IS [NOT] NULL, LIKE, =~, IN, ANY, ALL, AND, OR and NOT", ""},
		{"SELECT s, CASE WHEN count(*) LIKE '1%' THEN 1 END FROM m GROUP BY s", "type mismatch: a pattern match on count(*), a int64", ""},
		{"SELECT s FROM m WHERE CASE WHEN count(*) > 1 THEN true END", "aggregate count in a CASE condition", "count"},
		{"SELECT v, CASE WHEN count(*) > 1 THEN 1 END FROM m", `column "v" must be grouped`, "v,"},
	})
}
