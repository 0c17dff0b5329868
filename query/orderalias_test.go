package query

import (
	"slices"
	"strings"
	"testing"
)

// TestOrderByAliasExpr: an ORDER BY expression reads a SELECT item's
// alias as the item's value, as DuckDB does — in a raw query an item
// computed from the row, in an aggregate query an aggregate or a group —
// and arithmetic on the groups alone orders an aggregate query. A
// column's own name comes first (x and n are fields of m). A condition
// orders by its value.
func TestOrderByAliasExpr(t *testing.T) {
	src, _ := testSource(t, 2000, 50)
	open := openOnly(src)
	for _, c := range [][2]string{
		{"SELECT s, v AS w FROM m ORDER BY abs(w - 50) DESC NULLS LAST, seq LIMIT 40",
			"SELECT s, v AS w FROM m ORDER BY abs(v - 50) DESC NULLS LAST, seq LIMIT 40"},
		{"SELECT s, v * 2 AS w, time AS t FROM m ORDER BY w * -1 NULLS FIRST, t, seq LIMIT 40",
			"SELECT s, v * 2 AS w, time AS t FROM m ORDER BY v * -2 NULLS FIRST, time, seq LIMIT 40"},
		{"SELECT s, lower(s) AS ls FROM m ORDER BY length(ls), ls NULLS LAST, seq LIMIT 40",
			"SELECT s, lower(s) AS ls FROM m ORDER BY length(lower(s)), ls NULLS LAST, seq LIMIT 40"},
		{"SELECT s, count(*) AS cnt, max(v) AS top FROM m GROUP BY s ORDER BY top - cnt, s",
			"SELECT s, count(*) AS cnt, max(v) AS top FROM m GROUP BY s ORDER BY max(v) - count(*), s"},
		{"SELECT s, count(*) AS cnt FROM m GROUP BY s ORDER BY cnt * -1, s",
			"SELECT s, count(*) AS cnt FROM m GROUP BY s ORDER BY cnt DESC, s"},
		{"SELECT lower(s) AS ls, count(*) AS cnt FROM m GROUP BY ls ORDER BY length(ls) DESC NULLS LAST, ls",
			"SELECT lower(s) AS ls, count(*) AS cnt FROM m GROUP BY ls ORDER BY length(lower(s)) DESC NULLS LAST, ls"},
		{"SELECT s, count(*) AS cnt FROM m GROUP BY s ORDER BY length(s) NULLS FIRST, s",
			"SELECT s, count(*) AS cnt, length(s) AS k FROM m GROUP BY s ORDER BY k NULLS FIRST, s"},
	} {
		got, want := mustRun(t, open, c[0]), mustRun(t, open, c[1])
		if len(want) < 4 {
			t.Fatalf("%s: %d rows", c[1], len(want))
		}
		for i := range want { // the same rows in the same order (the second query may return one more column)
			if i >= len(got) || !slices.Equal(got[i], want[i][:len(got[i])]) {
				t.Fatalf("%s\nrow %d: %v, want %v", c[0], i, got, want)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d rows, want %d", c[0], len(got), len(want))
		}
	}
	// A condition orders by its value, false before true (NULL as a
	// direction puts it), as DuckDB's ORDER BY x IS NULL.
	for _, c := range [][2]string{
		{"SELECT seq, v FROM m ORDER BY v IS NULL, v, seq LIMIT 60", "SELECT seq, v FROM m ORDER BY CASE WHEN v IS NULL THEN 1 ELSE 0 END, v, seq LIMIT 60"},
		{"SELECT seq, s FROM m ORDER BY s LIKE 'a%' DESC NULLS LAST, seq LIMIT 60", "SELECT seq, s FROM m ORDER BY CASE WHEN s LIKE 'a%' THEN 1 WHEN NOT (s LIKE 'a%') THEN 0 END DESC NULLS LAST, seq LIMIT 60"},
		{"SELECT seq, v FROM m ORDER BY NOT (v > 50) NULLS FIRST, seq LIMIT 60", "SELECT seq, v FROM m ORDER BY CASE WHEN v > 50 THEN 0 WHEN v <= 50 THEN 1 END NULLS FIRST, seq LIMIT 60"},
	} {
		got, want := mustRun(t, open, c[0]), mustRun(t, open, c[1])
		if len(want) != 60 || !slices.EqualFunc(got, want, func(a, b []any) bool { return slices.Equal(a, b) }) {
			t.Fatalf("%s: %v\nwant %v", c[0], got, want)
		}
	}
	// x is a field of m: it, not the alias, is what the expression reads.
	sameRows(t, open, "SELECT s, v AS x FROM m ORDER BY x * -1, seq LIMIT 20", "SELECT s, v FROM m ORDER BY x * -1, seq LIMIT 20", 20)
	wantErrors(t, open, []errCase{
		{"SELECT s, count(*) AS cnt FROM m GROUP BY s ORDER BY length(v)", `column "v" must be grouped`, "v)"},
	})
}

// TestIsDistinctFrom: x IS [NOT] DISTINCT FROM y compares with NULL as a
// value and is never NULL: as a filter, a value, a CASE condition and in
// HAVING.
func TestIsDistinctFrom(t *testing.T) {
	src, rows := testSource(t, 2000, 50)
	open := openOnly(src)
	var distinct, same int
	for _, r := range rows {
		v, ok := numField(r, "v")
		n, okn := numField(r, "n")
		switch {
		case ok != okn || ok && v != n:
			distinct++
		default:
			same++
		}
	}
	if distinct == 0 || same == 0 {
		t.Fatalf("%d distinct, %d not: the data shows nothing", distinct, same)
	}
	for _, c := range []struct {
		q    string
		want int64
	}{
		{"SELECT count(*) FROM m WHERE v IS DISTINCT FROM n", int64(distinct)},
		{"SELECT count(*) FROM m WHERE v IS NOT DISTINCT FROM n", int64(same)},
		{"SELECT count(*) FROM m WHERE NOT (v IS DISTINCT FROM n)", int64(same)},
		{"SELECT count(*) FROM m WHERE (v + 0) IS DISTINCT FROM n * 1", int64(distinct)},
		{"SELECT sum(CASE WHEN v IS NOT DISTINCT FROM n THEN 1 ELSE 0 END) FROM m", int64(same)},
		{"SELECT count(*) FILTER (WHERE (v IS DISTINCT FROM n) IS NOT NULL) FROM m", int64(len(rows))},
		{"SELECT count(*) FROM m WHERE v IS NOT DISTINCT FROM NULL", int64(len(rows)) - mustRun(t, open, "SELECT count(v) FROM m")[0][0].(int64)},
	} {
		if got := mustRun(t, open, c.q); len(got) != 1 || got[0][0] != c.want {
			t.Errorf("%s: %v, want %d", c.q, got, c.want)
		}
	}
	sameRows(t, open, "SELECT s, count(*) FROM m GROUP BY s HAVING max(v) IS DISTINCT FROM max(n) ORDER BY s",
		"SELECT s, count(*) FROM m GROUP BY s HAVING coalesce(max(v), -1e9) <> coalesce(max(n), -1e9) ORDER BY s", 2)
	rr := mustRun(t, open, "SELECT v IS DISTINCT FROM n AS d FROM m LIMIT 1")
	if _, ok := rr[0][0].(bool); !ok {
		t.Errorf("IS DISTINCT FROM as a value: %T", rr[0][0])
	}
}

// TestAliasQuoted: AS "name" and AS 'name' name a column as AS name
// does (DuckDB takes both), spaces and all; the name is then written in
// backquotes; an empty or typed string is no name.
func TestAliasQuoted(t *testing.T) {
	src, _ := testSource(t, 500, 50)
	open := openOnly(src)
	cols, err := columnNamesOf(`SELECT series, avg(v) AS "mean v", max(v) AS 'top' FROM m GROUP BY series`, open)
	if err != nil || strings.Join(cols, "|") != "series|mean v|top" {
		t.Fatalf("names %q %v", cols, err)
	}
	sameRows(t, open, "SELECT series, avg(v) AS \"mean v\" FROM m GROUP BY series ORDER BY `mean v` DESC, series",
		"SELECT series, avg(v) AS m FROM m GROUP BY series ORDER BY m DESC, series", 2)
	wantErrors(t, open, []errCase{
		{"SELECT v AS '' FROM m", "expected a name after AS", "''"},
		{"SELECT v AS TIMESTAMP '2024-01-01' FROM m", "expected a name after AS", "'2024"},
	})
}
