package query

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// TestInSubquery: x [NOT] IN (SELECT ...) is x [NOT] IN (its values):
// in WHERE (narrowing the series scanned), HAVING and FILTER, nested,
// empty, and with the one selected item of a grouped subquery.
func TestInSubquery(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	open := openOnly(src)
	count := func(q string) int64 { return mustRun(t, open, q)[0][0].(int64) }
	top := mustRun(t, open, "SELECT series, count(*) AS c FROM m GROUP BY series ORDER BY c DESC LIMIT 2")
	list := fmt.Sprintf("('%s', '%s')", top[0][0], top[1][0])
	for _, c := range [][2]string{
		{"SELECT count(*) FROM m WHERE series IN (SELECT series FROM (SELECT series, count(*) AS c FROM m GROUP BY series ORDER BY c DESC LIMIT 2))",
			"SELECT count(*) FROM m WHERE series IN " + list},
		{"SELECT count(*) FROM m WHERE series NOT IN (SELECT series FROM m WHERE series IN " + list + ")",
			"SELECT count(*) FROM m WHERE series NOT IN " + list},
		{"SELECT count(*) FROM m WHERE n IN (SELECT n FROM m WHERE v > 190)", ""},
		{"SELECT count(*) FROM m WHERE series IN (SELECT series FROM m WHERE v > 1000)", "SELECT 0"},
		{"SELECT count(*) FROM m WHERE series NOT IN (SELECT series FROM m WHERE v > 1000)", "SELECT count(*) FROM m"},
		{"SELECT count(*) FROM m WHERE time IN (SELECT max(time) FROM m GROUP BY series)", ""},
		{"SELECT count(*) FILTER (WHERE series IN (SELECT DISTINCT series FROM m WHERE series IN " + list + ")) FROM m",
			"SELECT count(*) FROM m WHERE series IN " + list},
	} {
		got := count(c[0])
		var want int64
		switch {
		case c[1] == "SELECT 0":
		case c[1] != "":
			want = count(c[1])
		case strings.Contains(c[0], "v > 190"):
			ns := map[int64]bool{}
			for _, r := range mustRun(t, open, "SELECT n FROM m WHERE v > 190 AND n IS NOT NULL") {
				ns[r[0].(int64)] = true
			}
			for _, r := range mustRun(t, open, "SELECT n FROM m WHERE n IS NOT NULL") {
				if ns[r[0].(int64)] {
					want++
				}
			}
		default: // the latest time of each series
			for _, r := range mustRun(t, open, "SELECT series, max(time) FROM m GROUP BY series") {
				want += count(fmt.Sprintf("SELECT count(*) FROM m WHERE time = %d", r[1].(int64)))
			}
		}
		if got != want || want == 0 && !strings.Contains(c[0], "1000") {
			t.Errorf("%s: %d rows, want %d", c[0], got, want)
		}
	}
	// Inside CASE, in GROUP BY and in a WHERE comparison of expressions.
	inCase := mustRun(t, open, "SELECT CASE WHEN series IN (SELECT series FROM m WHERE series IN "+list+") THEN 'top' ELSE 'rest' END AS k, count(*) FROM m "+
		"WHERE CASE WHEN series IN (SELECT series FROM m WHERE series IN "+list+") THEN 1 ELSE 1 END = 1 GROUP BY k")
	if len(inCase) != 2 || inCase[1][0] != "top" || inCase[1][1] != count("SELECT count(*) FROM m WHERE series IN "+list) {
		t.Errorf("IN (SELECT ...) inside CASE: %v", inCase)
	}
	having := mustRun(t, open, "SELECT series, count(*) FROM m GROUP BY series HAVING series IN (SELECT series FROM m WHERE series IN "+list+")")
	if len(having) != 2 {
		t.Errorf("HAVING series IN (SELECT ...): %v", having)
	}
	if out := explainLines(t, src, "EXPLAIN SELECT * FROM m WHERE series IN (SELECT series FROM m WHERE series IN "+list+")"); !strings.Contains(out, "series {") {
		t.Errorf("EXPLAIN: the series are not narrowed: %s", out)
	}
	// A statement is not changed by its run: run twice, it gives the
	// same rows, and its subquery is still there, named as written.
	st, err := Parse("SELECT count(*) FILTER (WHERE series IN (SELECT series FROM m WHERE series IN " + list + ")) AS c FROM m " +
		"ORDER BY count(*) FILTER (WHERE series IN (SELECT series FROM m WHERE series IN " + list + "))")
	if err != nil {
		t.Fatal(err)
	}
	var firsts []any
	for range 2 {
		rr, err := Exec(context.Background(), st, "", open, nil)
		if err != nil {
			t.Fatal(err)
		}
		for rr.Next() {
			firsts = append(firsts, rr.RecordBatch().Column(0).(*array.Int64).Value(0))
		}
		rr.Release()
	}
	if len(firsts) != 2 || firsts[0] != firsts[1] || firsts[0] != count("SELECT count(*) FROM m WHERE series IN "+list) {
		t.Errorf("two runs of one statement: %v", firsts)
	}
	if in := st.Items[0].Agg.Filter.(*In); in.Sub == nil || in.Lits != nil || !strings.Contains(st.Items[0].Agg.String(), "IN (SELECT series FROM m") {
		t.Errorf("the statement changed by its run: %+v, named %s", in, st.Items[0].Agg.String())
	}
	if out := explainLines(t, src, "EXPLAIN SELECT * FROM m WHERE series IN (SELECT series FROM m WHERE b)"); !strings.Contains(out, "filter: series IN (SELECT series FROM m WHERE b)") {
		t.Errorf("EXPLAIN: %s", out)
	}
	defer func(n int) { maxInValues = n }(maxInValues)
	maxInValues = 3
	wantErrors(t, open, []errCase{
		{"SELECT * FROM m WHERE series IN (SELECT series, n FROM m)", "wants one column; the subquery gives 2", "(SELECT"},
		{"SELECT * FROM m WHERE seq IN (SELECT seq FROM m)", "more than 3 values", "(SELECT"},
		{"SELECT * FROM m WHERE series IN (SELECT series FROM nope)", "stream not found", "nope"},
		{"SELECT * FROM m WHERE n IN (SELECT s FROM m LIMIT 2)", "type mismatch", ""},
	})
}

// TestInSubqueryArith: arithmetic IN (SELECT ...) holds as its IN of
// the values written out does (numbers by value, text, bools, NOT IN,
// in FILTER), against the rows counted in Go.
func TestInSubqueryArith(t *testing.T) {
	src, rows := testSource(t, 3000, 50)
	open := openOnly(src)
	count := func(q string) int64 { return mustRun(t, open, q)[0][0].(int64) }
	var inN, notIn, upper int64
	for _, r := range rows {
		if n, ok := r.f["n"].(int64); ok {
			if n%7 == 3 || n%7 == 5 {
				inN++
			} else {
				notIn++
			}
		}
		if s, ok := r.f["s"].(string); ok && (s == "alpha" || s == "beta") {
			upper++
		}
	}
	if inN == 0 || notIn == 0 || upper == 0 {
		t.Fatal("a weak source")
	}
	for _, c := range []struct {
		q    string
		want int64
	}{
		{"SELECT count(*) FROM m WHERE n % 7 IN (SELECT n % 7 FROM m WHERE n % 7 IN (3, 5))", inN},
		{"SELECT count(*) FROM m WHERE n % 7 * 1.0 IN (SELECT n % 7 FROM m WHERE n % 7 IN (3, 5))", inN}, // 3.0 = 3
		{"SELECT count(*) FROM m WHERE n % 7 NOT IN (SELECT n % 7 FROM m WHERE n % 7 IN (3, 5))", notIn},
		{"SELECT count(*) FROM m WHERE upper(s) IN (SELECT upper(s) FROM m WHERE s IN ('alpha', 'beta'))", upper},
		{"SELECT count(*) FILTER (WHERE upper(s) IN (SELECT upper(s) FROM m WHERE s IN ('alpha', 'beta'))) FROM m", upper},
		{"SELECT count(*) FROM m WHERE coalesce(b, false) IN (SELECT b FROM m WHERE b = false)", count("SELECT count(*) FROM m WHERE b = false OR b IS NULL")},
	} {
		if got := count(c.q); got != c.want {
			t.Errorf("%s: %d, want %d", c.q, got, c.want)
		}
	}
	wantErrors(t, open, []errCase{
		{"SELECT count(*) FROM m WHERE upper(s) IN (SELECT n FROM m)", "type mismatch: upper(s) IN (SELECT ...) compares text with an integer", "(SELECT n"},
	})
}

// TestInSubqueryNulls: as in SQL, NOT IN of values that hold a NULL
// holds for no row, NOT IN of no values for every row (a NULL x's too),
// and IN ignores the NULL; for a column and for arithmetic, in WHERE,
// FILTER and HAVING.
func TestInSubqueryNulls(t *testing.T) {
	src, _ := testSource(t, 2000, 50)
	open := openOnly(src)
	count := func(q string) int64 { return mustRun(t, open, q)[0][0].(int64) }
	all := count("SELECT count(*) FROM m")
	withNull := "(SELECT CASE WHEN n > 50 THEN NULL ELSE n END FROM m)"
	none := "(SELECT n FROM m WHERE n > 1000000)"
	for _, c := range []struct {
		q    string
		want int64
	}{
		{"SELECT count(*) FROM m WHERE n NOT IN " + withNull, 0},
		{"SELECT count(*) FROM m WHERE n + 0 NOT IN " + withNull, 0},
		{"SELECT count(*) FILTER (WHERE n NOT IN " + withNull + ") FROM m", 0},
		{"SELECT count(*) FROM m WHERE n IN " + withNull, count("SELECT count(*) FROM m WHERE n <= 50")},
		{"SELECT count(*) FROM m WHERE n * 1 IN " + withNull, count("SELECT count(*) FROM m WHERE n <= 50")},
		{"SELECT count(*) FROM m WHERE n NOT IN " + none, all},
		{"SELECT count(*) FROM m WHERE n * 2 NOT IN " + none, all},
		{"SELECT count(*) FROM m WHERE n IN " + none, 0},
		{"SELECT count(*) FROM (SELECT series, max(n) AS top FROM m GROUP BY series HAVING max(n) NOT IN " + withNull + ")", 0},
	} {
		if got := count(c.q); got != c.want {
			t.Errorf("%s: %d, want %d", c.q, got, c.want)
		}
	}
	if count("SELECT count(*) FROM m WHERE n IS NULL") == 0 {
		t.Fatal("a weak source: no row without n")
	}
}
