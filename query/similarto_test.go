package query

import (
	"fmt"
	"testing"
)

// TestSimilarTo: x [NOT] SIMILAR TO 'pattern' is DuckDB's: the regular
// expression (RE2's syntax) matches the whole text, '.' not across a
// newline, NULL for NULL (answers taken from DuckDB 1.5); on a column
// and on an expression, in WHERE, FILTER, CASE and as a value, it keeps
// the rows regexp_full_match keeps; it and ILIKE are named as written.
func TestSimilarTo(t *testing.T) {
	src, rows := testSource(t, 2000, 64)
	open := openOnly(src)
	got := mustRun(t, open, "SELECT 'abc' SIMILAR TO 'a.c', 'abc' SIMILAR TO 'b', 'abc' SIMILAR TO 'a%', 'abc' NOT SIMILAR TO 'a.*', 'a\nb' SIMILAR TO 'a.b', 'ABC' SIMILAR TO '(?i)abc'")
	if fmt.Sprint(got) != "[[true false false false false true]]" {
		t.Errorf("literals: %v", got)
	}
	n := 0
	for _, pat := range []string{".*a.*", `host="a".*`, "[^=]+", ".*(b|c)\"}", ""} {
		for _, not := range []string{"", "NOT "} {
			full := "regexp_full_match(series, '" + pat + "')"
			if not != "" {
				full = "NOT " + full
			}
			want := mustRun(t, open, "SELECT seq FROM m WHERE "+full)
			n += len(want)
			for _, q := range []string{
				"SELECT seq FROM m WHERE series " + not + "SIMILAR TO '" + pat + "'",
				"SELECT seq FROM m WHERE lower(series) " + not + "SIMILAR TO '" + pat + "' AND seq > 0",
				"SELECT seq FROM m WHERE (series " + not + "SIMILAR TO '" + pat + "') IS TRUE",
				"SELECT seq FROM (SELECT seq, series " + not + "SIMILAR TO '" + pat + "' AS hit FROM m) WHERE hit",
				"SELECT seq FROM m WHERE CASE WHEN series " + not + "SIMILAR TO '" + pat + "' THEN 1 ELSE 0 END = 1",
			} {
				if d := diffCells(mustRun(t, open, q), want); d != "" {
					t.Errorf("%s: %s", q, d)
				}
			}
			cnt := mustRun(t, open, "SELECT count(*) FILTER (WHERE series "+not+"SIMILAR TO '"+pat+"') FROM m")
			if cnt[0][0] != int64(len(want)) {
				t.Errorf("FILTER %s%s: %v, want %d", not, pat, cnt, len(want))
			}
		}
	}
	if n != 5*len(rows) {
		t.Errorf("a pattern and its NOT kept %d rows over 5 patterns, want %d", n, 5*len(rows))
	}
	for q, want := range map[string]string{
		"SELECT series SIMILAR TO '.*a.*' FROM m":             "series SIMILAR TO '.*a.*'",
		"SELECT series NOT SIMILAR TO 'it''s' FROM m":         "series NOT SIMILAR TO 'it''s'",
		"SELECT upper(series) SIMILAR TO 'A.*' FROM m":        "upper(series) SIMILAR TO 'A.*'",
		"SELECT series ILIKE '%A%' FROM m":                    "series ILIKE '%A%'",
		"SELECT series NOT ILIKE '%A%' FROM m":                "series NOT ILIKE '%A%'",
		"SELECT count(*) FILTER (WHERE s ILIKE 'al%') FROM m": "count(*) FILTER (WHERE s ILIKE 'al%')",
	} {
		cols, err := columnNamesOf(q, open)
		if err != nil || len(cols) != 1 || cols[0] != want {
			t.Errorf("%s: named %q (%v), want %q", q, cols, err, want)
		}
	}
	wantErrors(t, open, []errCase{
		{"SELECT count(*) FROM m WHERE series SIMILAR TO '('", "bad regular expression", "'('"},
		{"SELECT count(*) FROM m WHERE series SIMILAR TO 5", "SIMILAR TO wants a pattern string", "5"},
		{"SELECT count(*) FROM m WHERE n SIMILAR TO '1'", "regular expression match on int64 column \"n\"", "n SIMILAR"},
	})
}
