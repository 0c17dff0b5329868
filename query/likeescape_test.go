package query

import (
	"testing"
)

// TestLikeEscape: LIKE and ILIKE take ESCAPE 'c', after which c makes
// the next character literal (% and _ too) and \ is itself; on a
// column, on arithmetic and on a string literal (IN too); trim, ltrim
// and rtrim take the characters to cut; min and max take bools (false <
// true).
func TestLikeEscape(t *testing.T) {
	src, _ := testSource(t, 100, 50)
	open := openOnly(src)
	got := mustRun(t, open, "SELECT s, s LIKE 'a!_b' ESCAPE '!' AS x, s NOT LIKE 'a\\\\b' ESCAPE '!' AS y, upper(s) ILIKE 'a#%%' ESCAPE '#' AS z, "+
		"trim(s, 'a') AS t, ltrim(s, 'a_') AS l, rtrim(s, 'bz') AS r FROM (VALUES ('a_b'), ('axb'), ('a\\\\b'), ('a%z')) AS v(s)")
	want := [][]any{
		{"a_b", true, true, false, "_b", "b", "a_"},
		{"axb", false, true, false, "xb", "xb", "ax"},
		{"a\\b", false, false, false, "\\b", "\\b", "a\\"},
		{"a%z", false, true, true, "%z", "%z", "a%"},
	}
	if d := diffCells(got, want); d != "" {
		t.Fatal(d)
	}
	sameRows(t, open, "SELECT series, min(v > 50) AS lo, max(v > 50) AS hi FROM m GROUP BY series ORDER BY series",
		"SELECT series, bool_and(v > 50) AS lo, bool_or(v > 50) AS hi FROM m GROUP BY series ORDER BY series", 3)
	// A string literal may be the value tested.
	got = mustRun(t, open, "SELECT 'a_b' LIKE 'a%', 'Q' NOT ILIKE 'q', 'alpha' IN ('beta', 'alpha') FROM m LIMIT 1")
	if d := diffCells(got, [][]any{{true, false, true}}); d != "" {
		t.Fatalf("a literal tested: %s", d)
	}
	sameRows(t, open, "SELECT seq FROM m WHERE 'alpha' IN (SELECT s FROM m WHERE n > 10) AND 'alpha' NOT IN (s) ORDER BY seq",
		"SELECT seq FROM m WHERE (SELECT count(*) FROM m WHERE n > 10 AND s = 'alpha') > 0 AND s != 'alpha' ORDER BY seq", 10)
	wantErrors(t, open, []errCase{
		{"SELECT * FROM m WHERE s LIKE 'a' ESCAPE 'xy'", "ESCAPE wants one character in quotes", "'xy'"},
		{"SELECT * FROM m WHERE s LIKE 'a!' ESCAPE '!'", "ends with its escape character", "'a!'"},
		{"SELECT * FROM m WHERE upper(s) ILIKE 5", "ILIKE wants a pattern string", "5"},
	})
}
