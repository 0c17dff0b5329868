package query

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// sqlRowIn is SQL's (x...) IN (set): true when a row of the set equals
// x in every part, else NULL (nil) when none differs from x in a part
// both know, else false.
func sqlRowIn(x []any, set [][]any) *bool {
	unknown := false
	for _, s := range set {
		eq, null := true, false
		for k := range x {
			switch {
			case x[k] == nil || s[k] == nil:
				null = true
			case fmt.Sprint(x[k]) != fmt.Sprint(s[k]):
				eq = false
			}
		}
		switch {
		case eq && !null:
			t := true
			return &t
		case eq:
			unknown = true
		}
	}
	if unknown {
		return nil
	}
	f := false
	return &f
}

// TestRowValueIn: (x, y) [NOT] IN (rows) and (x, y) [NOT] IN (SELECT
// ...) keep the rows SQL keeps, NULL parts included (but for the
// documented NOT IN of a subquery that gives a NULL part); they work in
// WHERE, as values, in CASE and in HAVING; EXPLAIN shows them as written;
// bad ones are refused with what is wrong.
func TestRowValueIn(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	open := openOnly(src)
	all := mustRun(t, open, "SELECT seq, series, n, s, time FROM m ORDER BY seq")
	seqsWhere := func(cond string) []uint64 {
		var out []uint64
		for _, r := range mustRun(t, open, "SELECT seq FROM m WHERE "+cond+" ORDER BY seq") {
			out = append(out, r[0].(uint64))
		}
		return out
	}
	want := func(keep func(r []any) bool) []uint64 {
		var out []uint64
		for _, r := range all {
			if keep(r) {
				out = append(out, r[0].(uint64))
			}
		}
		return out
	}
	check := func(cond string, keep func(r []any) bool) {
		t.Helper()
		got, w := seqsWhere(cond), want(keep)
		if len(w) == 0 || len(w) == len(all) {
			t.Fatalf("%s: the oracle keeps %d of %d rows: shows nothing", cond, len(w), len(all))
		}
		if !slices.Equal(got, w) {
			t.Errorf("%s: %d rows, want %d", cond, len(got), len(w))
		}
	}
	series := func(i int) string { return all[i][1].(string) }

	// Rows written out, NULL parts on either side.
	set := [][]any{{series(0), int64(3)}, {series(1), nil}, {"nope", int64(7)}, {series(2), int64(40)}}
	var lits []string
	for _, s := range set {
		n := "NULL"
		if s[1] != nil {
			n = fmt.Sprint(s[1])
		}
		lits = append(lits, fmt.Sprintf("('%s', %s)", s[0], n))
	}
	list := "(" + strings.Join(lits, ", ") + ")"
	check("(series, n) IN "+list, func(r []any) bool {
		in := sqlRowIn([]any{r[1], r[2]}, set)
		return in != nil && *in
	})
	check("(series, n) NOT IN "+list, func(r []any) bool {
		in := sqlRowIn([]any{r[1], r[2]}, set)
		return in != nil && !*in
	})
	check("NOT ((series, n) IN "+list+")", func(r []any) bool {
		in := sqlRowIn([]any{r[1], r[2]}, set)
		return in != nil && !*in
	})

	// A subquery: each series' latest rows.
	latest := map[string]int64{}
	for _, r := range all {
		latest[r[1].(string)] = max(latest[r[1].(string)], r[4].(int64))
	}
	check("(series, time) IN (SELECT series, max(time) FROM m GROUP BY series)", func(r []any) bool {
		return r[4].(int64) == latest[r[1].(string)]
	})
	check("(series, time) NOT IN (SELECT series, max(time) FROM m GROUP BY series)", func(r []any) bool {
		return r[4].(int64) != latest[r[1].(string)]
	})
	// Its rows without NULLs, against rows with NULL parts; numbers by
	// value (n * 1.0 is a float).
	var sub [][]any
	for _, r := range mustRun(t, open, "SELECT DISTINCT series, n FROM m WHERE n < 50") {
		sub = append(sub, []any{r[0], r[1]})
	}
	for _, q := range []string{"SELECT series, n FROM m WHERE n < 50", "SELECT series, n * 1.0 FROM m WHERE n < 50 UNION ALL SELECT 'nope', 2"} {
		check("(series, n) IN ("+q+")", func(r []any) bool {
			in := sqlRowIn([]any{r[1], r[2]}, sub)
			return in != nil && *in
		})
		check("(series, n) NOT IN ("+q+")", func(r []any) bool {
			in := sqlRowIn([]any{r[1], r[2]}, sub)
			return in != nil && !*in
		})
	}
	// The documented difference: a subquery row with a NULL part makes
	// NOT IN hold for no row.
	if got := seqsWhere("(series, n) NOT IN (SELECT series, n FROM m)"); len(got) != 0 {
		t.Errorf("NOT IN a subquery with a NULL part: %d rows, want none", len(got))
	}
	if got := seqsWhere("(series, n) NOT IN (SELECT series, n FROM m WHERE n > 1000)"); len(got) != len(all) {
		t.Errorf("NOT IN an empty subquery: %d rows, want all %d", len(got), len(all))
	}

	// As a value, in CASE and in HAVING.
	vals := mustRun(t, open, "SELECT (series, time) IN (SELECT series, max(time) FROM m GROUP BY series) AS last, count(*) FROM m GROUP BY last ORDER BY last")
	if len(vals) != 2 || vals[1][0] != true || vals[1][1].(int64) != int64(len(want(func(r []any) bool { return r[4].(int64) == latest[r[1].(string)] }))) {
		t.Errorf("as a value: %v", vals)
	}
	sameRows(t, open, "SELECT count(CASE WHEN (series, n) IN "+list+" THEN 1 END) FROM m",
		"SELECT count(*) FROM m WHERE (series, n) IN "+list, 1)
	sameRows(t, open, "SELECT series, count(*) AS c FROM m GROUP BY series HAVING (series, c) IN (SELECT series, count(*) FROM m WHERE n < 50 GROUP BY series UNION ALL SELECT '"+series(0)+"', count(*) FROM m WHERE series = '"+series(0)+"') ORDER BY series",
		"SELECT series, count(*) AS c FROM m WHERE series = '"+series(0)+"' GROUP BY series", 1)

	if plan := planText(t, open, "EXPLAIN SELECT * FROM m WHERE (series, time) IN (SELECT series, max(time) FROM m GROUP BY series)"); !strings.Contains(plan, "filter: (series, time) IN (SELECT series, max(time) FROM m GROUP BY series)") {
		t.Errorf("EXPLAIN:\n%s", plan)
	}

	wantErrors(t, open, []errCase{
		{"SELECT * FROM m WHERE (series, n) IN (('a', 1), ('b'))", "a row of (series, n) IN (...) has 2 values, this one 1", ")"},
		{"SELECT * FROM m WHERE (series, n) IN (('a', 1, 2))", "has 2 values, this one more", ", 2"},
		{"SELECT * FROM m WHERE (series, n) IN ('a', 1)", "wants rows of 2 values in parentheses", "'a'"},
		{"SELECT * FROM m WHERE (series, n) IN (SELECT series FROM m)", "wants 2 columns; the subquery selects 1", "(SELECT"},
		{"SELECT * FROM m WHERE (series, n) IN (SELECT * FROM m)", "wants 2 columns; the subquery gives", "(SELECT"},
		{"SELECT * FROM m WHERE (series, n) IN (SELECT n, series FROM m)", "type mismatch: (series, n) IN (SELECT ...) compares series, text, with a number", "(SELECT"},
		{"SELECT * FROM m AS o WHERE (series, n) IN (SELECT series, n FROM m WHERE s = o.s)", "may not name the outer row's columns", "(SELECT"},
	})
}
