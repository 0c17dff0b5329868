package query

import "testing"

// TestWhereAlias: WHERE names a SELECT item computed from the row by its
// alias (in comparisons, IS NULL, LIKE, =~, IN lists and subqueries, as
// a bool alone, inside arithmetic), as the same WHERE on the item's
// value does; a column's own name comes first (n is a field of m); an
// aggregate's or a window's alias is no value WHERE can see.
func TestWhereAlias(t *testing.T) {
	src, _ := testSource(t, 2000, 50)
	open := openOnly(src)
	for _, c := range [][2]string{
		{"SELECT seq, v * 2 AS v2 FROM m WHERE v2 > 100 ORDER BY seq", "SELECT seq, v * 2 AS v2 FROM m WHERE v * 2 > 100 ORDER BY seq"},
		{"SELECT seq, lower(s) AS ls FROM m WHERE ls LIKE 'a%' OR ls IS NULL ORDER BY seq", "SELECT seq, lower(s) AS ls FROM m WHERE lower(s) LIKE 'a%' OR lower(s) IS NULL ORDER BY seq"},
		{"SELECT seq, lower(s) AS ls FROM m WHERE ls IN ('alpha', 'delta') ORDER BY seq", "SELECT seq, lower(s) AS ls FROM m WHERE lower(s) IN ('alpha', 'delta') ORDER BY seq"},
		{"SELECT seq, lower(s) AS ls FROM m WHERE ls NOT IN ('alpha', 'delta') ORDER BY seq", "SELECT seq, lower(s) AS ls FROM m WHERE lower(s) NOT IN ('alpha', 'delta') ORDER BY seq"},
		{"SELECT seq, lower(s) AS ls FROM m WHERE ls =~ 'b.*' ORDER BY seq", "SELECT seq, lower(s) AS ls FROM m WHERE lower(s) =~ 'b.*' ORDER BY seq"},
		{"SELECT seq, v > 50 AS hot FROM m WHERE hot ORDER BY seq", "SELECT seq, v > 50 AS hot FROM m WHERE v > 50 ORDER BY seq"},
		{"SELECT seq, v AS w FROM m WHERE w + 1 > 60 AND minute(time) IN (SELECT minute(time) FROM m WHERE v > 100) ORDER BY seq", "SELECT seq, v AS w FROM m WHERE v + 1 > 60 AND minute(time) IN (SELECT minute(time) FROM m WHERE v > 100) ORDER BY seq"},
		{"SELECT seq, s AS word FROM m WHERE word IN (SELECT s FROM m WHERE v > 150) ORDER BY seq", "SELECT seq, s AS word FROM m WHERE s IN (SELECT s FROM m WHERE v > 150) ORDER BY seq"},
		// n is a field: WHERE n reads it, not the item v * 2 AS n
		{"SELECT seq, v * 2 AS n FROM m WHERE n > 50 ORDER BY seq", "SELECT seq, v * 2 AS n2 FROM m WHERE n > 50 ORDER BY seq"},
	} {
		sameRows(t, open, c[0], c[1], 5)
	}
	wantErrors(t, open, []errCase{
		{"SELECT s, count(*) AS c FROM m WHERE c > 1 GROUP BY s", `unknown column "c"`, "c > 1"},
		{"SELECT seq, lag(v) OVER (ORDER BY time) AS l FROM m WHERE l > 1", `unknown column "l"`, "l > 1"},
	})
}
