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
// COLUMNS outside the SELECT list are refused.
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
		{"SELECT min(v) FROM m WHERE COLUMNS('v') > 1", "COLUMNS(...) is a SELECT item or an operand of one", "COLUMNS"},
	})
}

// TestColumnsExpr: COLUMNS(...) as an operand of a SELECT item stands
// for the item once per column it selects, in the columns' order, each
// named by its column (or all by the item's AS name): in arithmetic, in
// aggregates beside grouped columns, with * EXCLUDE, over a subquery and
// a join's sides, in conditions' values and casts; the same item twice
// is the same column; two different COLUMNS in an item, no column
// matched, an EXCLUDE of no column, COLUMNS in WHERE, HAVING or a window
// function, and with GROUP BY ALL, GROUP BY n or DISTINCT, are refused.
func TestColumnsExpr(t *testing.T) {
	src, _ := testSource(t, 500, 50)
	open := openOnly(src)
	for _, c := range []struct{ q, same, names string }{
		{"SELECT COLUMNS('^(v|n)$') * 2 + 1 FROM m", "SELECT n * 2 + 1 AS n, v * 2 + 1 AS v FROM m", "n,v"},
		{"SELECT series, max(COLUMNS('^(v|n)$')), count(*) FROM m GROUP BY series ORDER BY series",
			"SELECT series, max(n) AS n, max(v) AS v, count(*) FROM m GROUP BY series ORDER BY series", "series,n,v,count(*)"},
		{"SELECT min(COLUMNS('^(v|n)$')) AS lo FROM m", "SELECT min(n) AS lo, min(v) AS lo FROM m", "lo,lo"},
		{"SELECT round(COLUMNS(* EXCLUDE (seq, time, series, key, op, s, b, x)) / 3, 2) FROM m",
			"SELECT round(n / 3, 2) AS n, round(v / 3, 2) AS v FROM m", "n,v"},
		{"SELECT COLUMNS('^v$') * COLUMNS('^v$') FROM (SELECT v FROM m WHERE v > 1)", "SELECT v * v AS v FROM m WHERE v > 1", "v"},
		{"SELECT COLUMNS('^v$') IS NULL, COLUMNS('^s$')::VARCHAR || '!' FROM m", "SELECT v IS NULL AS v, s::VARCHAR || '!' AS s FROM m", "v,s"},
		{"SELECT sum(COLUMNS('^[ab]\\.n$')) FROM m AS a JOIN m AS b USING (seq)", "SELECT sum(a.n) AS \"a.n\", sum(b.n) AS \"b.n\" FROM m AS a JOIN m AS b USING (seq)", "a.n,b.n"},
		{"SELECT (SELECT max(COLUMNS('^v$')) FROM m) AS top", "SELECT max(v) AS top FROM m", "top"},
	} {
		cols, err := columnNamesOf(c.q, open)
		if err != nil || strings.Join(cols, ",") != c.names {
			t.Errorf("%s: columns %v (%v), want %s", c.q, cols, err, c.names)
		}
		sameRows(t, open, c.q, c.same, 1)
	}
	wantErrors(t, open, []errCase{
		{"SELECT COLUMNS('^v') + COLUMNS('^n') FROM m", "one COLUMNS(...) an item", "COLUMNS('^n')"},
		{"SELECT COLUMNS('zzz') + 1 FROM m", "COLUMNS('zzz') matches no column", "COLUMNS"},
		{"SELECT max(COLUMNS(* EXCLUDE (nope))) FROM m", "EXCLUDE names nope", "nope"},
		{"SELECT max(v) FROM m HAVING max(COLUMNS('v')) > 1", "COLUMNS(...) is a SELECT item or an operand of one", "COLUMNS"},
		{"SELECT lag(COLUMNS('v')) OVER (ORDER BY time) FROM m", "COLUMNS(...) is a SELECT item or an operand of one", "COLUMNS"},
		{"SELECT COLUMNS('^s$') || 'x', count(*) FROM m GROUP BY ALL", "GROUP BY ALL groups by the items", "COLUMNS"},
		{"SELECT COLUMNS('^s$') || 'x', count(*) FROM m GROUP BY 1", "GROUP BY 1: COLUMNS(...) in an item stands for several", "1"},
		{"SELECT DISTINCT COLUMNS('^s$') || 'x' FROM m", "SELECT DISTINCT with COLUMNS(...)", "DISTINCT"},
	})
}
