package query

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestOpAsText: a row's op is its name (put, delete, drop) in
// arithmetic, text functions, comparisons of expressions and the
// aggregates that take text (min, max, string_agg, mode, count
// DISTINCT), as CAST(op AS VARCHAR) is, and sorts by it; numbers of it
// are refused.
func TestOpAsText(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	open := openOnly(src)
	names := map[uint64]string{}
	bySeries := map[string]map[string]bool{}
	for _, r := range mustRun(t, open, "SELECT seq, series, op FROM m") {
		names[r[0].(uint64)] = r[2].(string)
		if bySeries[r[1].(string)] == nil {
			bySeries[r[1].(string)] = map[string]bool{}
		}
		bySeries[r[1].(string)][r[2].(string)] = true
	}
	kinds := map[string]int{}
	for _, r := range mustRun(t, open, "SELECT seq, upper(op), op || '!', CAST(op AS VARCHAR), length(op), op::text = 'drop' FROM m WHERE op || '' != 'x' ORDER BY seq") {
		name := names[r[0].(uint64)]
		kinds[name]++
		if r[1] != strings.ToUpper(name) || r[2] != name+"!" || r[3] != name || r[4] != int64(len(name)) || r[5] != (name == "drop") {
			t.Fatalf("row %v, op %s", r, name)
		}
	}
	if len(kinds) != 3 {
		t.Fatalf("ops %v: the test shows little", kinds)
	}
	for _, r := range mustRun(t, open, "SELECT series, min(op), max(op), string_agg(DISTINCT op, ','), count(DISTINCT op), mode(op) FROM m GROUP BY series") {
		var ops []string
		for o := range bySeries[r[0].(string)] {
			ops = append(ops, o)
		}
		slices.Sort(ops)
		agg := strings.Split(r[3].(string), ",")
		slices.Sort(agg)
		if r[1] != ops[0] || r[2] != ops[len(ops)-1] || !slices.Equal(agg, ops) || r[4] != int64(len(ops)) || !slices.Contains(ops, r[5].(string)) {
			t.Errorf("%v, want of %v", r, ops)
		}
	}
	// and orders the texts of string_agg and the rows of arg_max by its name
	sameRows(t, open, "SELECT series, string_agg(key, ',' ORDER BY op DESC, key), arg_max(key, op), arg_min(seq, op) FROM m WHERE key != '' GROUP BY series ORDER BY series",
		"SELECT series, string_agg(key, ',' ORDER BY CAST(op AS VARCHAR) DESC, key), arg_max(key, CAST(op AS VARCHAR)), arg_min(seq, CAST(op AS VARCHAR)) FROM m WHERE key != '' GROUP BY series ORDER BY series", 3)
	sameRows(t, open, "SELECT upper(op) AS u, count(*) FROM m GROUP BY u ORDER BY u",
		fmt.Sprintf("SELECT 'DELETE', %d UNION ALL SELECT 'DROP', %d UNION ALL SELECT 'PUT', %d", kinds["delete"], kinds["drop"], kinds["put"]), 3)
	// ORDER BY op sorts by name too, as min and max do.
	for _, q := range []string{"SELECT op FROM m ORDER BY op", "SELECT op FROM m ORDER BY op DESC", "SELECT op, lag(op) OVER (ORDER BY op, seq) FROM m ORDER BY 2 NULLS FIRST, 1"} {
		var got []string
		for _, r := range mustRun(t, open, q) {
			got = append(got, r[0].(string))
		}
		want := slices.Sorted(func(yield func(string) bool) {
			for _, n := range names {
				if !yield(n) {
					return
				}
			}
		})
		if strings.Contains(q, "DESC") {
			slices.Reverse(want)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: not in the order of the names", q)
		}
	}
	wantErrors(t, open, []errCase{
		{"SELECT avg(op) FROM m", `type mismatch: avg of string column "op"`, "op)"},
		{"SELECT op + 1 FROM m", `arithmetic on column "op" of type string`, "op +"},
	})
}
