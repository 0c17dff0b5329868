package query

import "testing"

// TestNullLiteral: NULL is a value in arithmetic, of the kind of the
// values beside it: a CASE branch (numbers, text, instants), coalesce's
// and nullif's arguments, an operand (the result is NULL), an aggregate's
// argument (skipped), an item alone (int64); where a literal string is
// wanted (a pattern, a unit) it is refused.
func TestNullLiteral(t *testing.T) {
	src, _ := testSource(t, 1500, 50)
	open := openOnly(src)
	sameRows(t, open, "SELECT seq, CASE WHEN v > 100 THEN NULL ELSE v END, CASE WHEN n > 50 THEN s ELSE NULL END, CASE WHEN n > 50 THEN NULL ELSE time END, coalesce(NULL, s), v + NULL, nullif(n, NULL) FROM m",
		"SELECT seq, CASE WHEN v > 100 THEN nullif(v, v) ELSE v END, CASE WHEN n > 50 THEN s ELSE nullif(s, s) END, CASE WHEN n > 50 THEN nullif(time, time) ELSE time END, s, nullif(v, v), n FROM m", 1000)
	sameRows(t, open, "SELECT series, count(CASE WHEN v > 100 THEN NULL ELSE 1 END), avg(CASE WHEN v < 0 THEN NULL ELSE v END) FROM m GROUP BY series",
		"SELECT series, count(*) - count(*) FILTER (WHERE v > 100), avg(v) FILTER (WHERE NOT v < 0) FROM m GROUP BY series", 3)
	got := mustRun(t, open, "SELECT NULL AS x, NULL + 1 AS y LIMIT 1")
	if len(got) != 1 || got[0][0] != nil || got[0][1] != nil {
		t.Errorf("SELECT NULL: %v", got)
	}
	// A CASE whose every value is NULL is NULL, an integer's, in a row,
	// in a group's term and under an aggregate.
	sameRows(t, open, "SELECT seq, CASE WHEN v > 1 THEN NULL END, CASE WHEN b THEN NULL ELSE NULL END + 1 FROM m",
		"SELECT seq, NULL, NULL FROM m", 1000)
	sameRows(t, open, "SELECT CASE s WHEN 'x' THEN NULL END AS c, count(*), max(CASE WHEN n > 3 THEN NULL END) FROM m GROUP BY c",
		"SELECT NULL AS c, count(*), NULL FROM m", 1)
	wantErrors(t, open, []errCase{
		{"SELECT regexp_replace(s, NULL, 'x') FROM m", "regexp_replace() wants a string literal here, not NULL", "NULL"},
		{"SELECT date_diff(NULL, time, time) FROM m", "date_diff() wants its unit as a string literal", "NULL"},
	})
}
