package query

import (
	"regexp"
	"strings"
	"testing"
)

// TestColumnsItem: COLUMNS('re') selects the columns * gives whose names
// re matches anywhere (DuckDB's: COLUMNS('val') takes value, val2 and
// xval), in their order, beside other items and over a join's sides;
// COLUMNS(*) is *; a pattern matching nothing, a bad one, an AS and
// COLUMNS inside an expression are refused.
func TestColumnsItem(t *testing.T) {
	src, _ := testSource(t, 500, 50)
	open := openOnly(src)
	all, err := columnNamesOf("SELECT * FROM m", open)
	if err != nil {
		t.Fatal(err)
	}
	for _, re := range []string{"e", "^s", "(?i)^S", "^(v|n)$", "[xy]", "."} {
		var want []string
		for _, c := range all {
			if regexp.MustCompile(re).MatchString(c) {
				want = append(want, c)
			}
		}
		if len(want) == 0 {
			t.Fatalf("%s matches none of %v", re, all)
		}
		q := "SELECT COLUMNS('" + re + "') FROM m"
		same := "SELECT `" + strings.Join(want, "`, `") + "` FROM m"
		cols, err := columnNamesOf(q, open)
		if err != nil || strings.Join(cols, ",") != strings.Join(want, ",") {
			t.Errorf("%s: columns %v (%v), want %v", q, cols, err, want)
		}
		sameRows(t, open, q, same, 10)
	}
	sameRows(t, open, "SELECT COLUMNS(*) FROM m", "SELECT * FROM m", 10)
	sameRows(t, open, "SELECT v * 2 AS d, COLUMNS('^s') FROM m WHERE v > 1", "SELECT v * 2 AS d, seq, series, s FROM m WHERE v > 1", 10)
	cols, err := columnNamesOf("SELECT a.v, COLUMNS('^b\\.(v|n)$') FROM m AS a JOIN m AS b USING (seq)", open)
	if err != nil || strings.Join(cols, ",") != "a.v,b.v,b.n" && strings.Join(cols, ",") != "a.v,b.n,b.v" {
		t.Errorf("over a join: %v %v", cols, err)
	}
	wantErrors(t, open, []errCase{
		{"SELECT COLUMNS('zzz') FROM m", "COLUMNS('zzz') matches no column (seq, time, series, key, op", "COLUMNS"},
		{"SELECT COLUMNS('(') FROM m", "COLUMNS: bad regular expression", "'('"},
		{"SELECT COLUMNS('v') AS x FROM m", "takes no AS", "AS x"},
		{"SELECT COLUMNS(v) FROM m", "COLUMNS wants a regular expression in quotes or *", "v)"},
		{"SELECT min(COLUMNS('v')) FROM m", "COLUMNS(...) stands alone as a SELECT item", "COLUMNS"},
	})
}
