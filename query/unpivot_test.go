package query

import (
	"slices"
	"strings"
	"testing"
)

// TestUnpivot: UNPIVOT gives a row for each ON column of each source row
// whose value is not NULL, column by column, with the other columns (a
// stream's seq left out), the column's name and its value (int and float
// columns as floats); INTO names the two; a subquery is a source, a
// PIVOT's too; ORDER BY and LIMIT apply to the rows; clashes and mixed
// types are refused.
func TestUnpivot(t *testing.T) {
	src, rows := testSource(t, 1500, 50)
	open := openOnly(src)
	cols, err := columnNamesOf("UNPIVOT m ON v, n", open)
	if err != nil || strings.Join(cols, "|") != "time|series|key|op|b|s|x|name|value" {
		t.Fatalf("columns %q %v", cols, err)
	}
	got := mustRun(t, open, "UNPIVOT m ON v, n INTO NAME k VALUE val")
	var want [][]any
	for _, f := range []string{"v", "n"} {
		for _, r := range rows {
			var val float64
			switch x := r.f[f].(type) {
			case float64:
				val = x
			case int64:
				val = float64(x)
			default:
				continue
			}
			want = append(want, []any{r.time, r.series, r.key, opNames[r.op], r.f["b"], r.f["s"], r.f["x"], f, val})
		}
	}
	if len(want) < 1000 {
		t.Fatalf("a weak source: %d values", len(want))
	}
	if d := diffCells(got, want); d != "" {
		t.Fatal(d)
	}
	// ORDER BY and LIMIT over the rows; a subquery source.
	sameRows(t, open, "UNPIVOT (SELECT series, v, x FROM m) ON v, x ORDER BY value DESC, series LIMIT 5",
		"SELECT series, name, value FROM (SELECT series, 'v' AS name, v AS value FROM m WHERE v IS NOT NULL UNION ALL SELECT series, 'x', x FROM m WHERE x IS NOT NULL) ORDER BY value DESC, series LIMIT 5", 5)
	// PIVOT, then UNPIVOT: the aggregates back as rows.
	back := mustRun(t, open, "SELECT series, name, value FROM (UNPIVOT (PIVOT m ON s IN ('alpha', 'beta') USING count(*) GROUP BY series) ON alpha, beta) ORDER BY series, name")
	direct := mustRun(t, open, "SELECT series, s, count(*) FROM m WHERE s IN ('alpha', 'beta') GROUP BY series, s ORDER BY series, s")
	for i := range direct { // count 0 is a value too: only where it is not do the two agree row for row
		direct[i][2] = float64(direct[i][2].(int64))
	}
	backNonZero := slices.DeleteFunc(slices.Clone(back), func(r []any) bool { return r[2] == int64(0) })
	for i := range backNonZero {
		backNonZero[i][2] = float64(backNonZero[i][2].(int64))
	}
	if d := diffCells(backNonZero, direct); d != "" {
		t.Fatalf("PIVOT then UNPIVOT: %s", d)
	}
	wantErrors(t, open, []errCase{
		{"UNPIVOT m USING v", "UNPIVOT wants ON <column>, ... after its source", "USING"},
		{"UNPIVOT m ON v, v", "UNPIVOT ON names v twice", "v"},
		{"UNPIVOT m ON v, s", "UNPIVOT puts v and s in one column, and their types differ (a float, text)", "s"},
		{"UNPIVOT m ON v INTO NAME s VALUE w", "the source has a column s already", "UNPIVOT"},
		{"UNPIVOT m ON v INTO NAME k VALUE k", "want two names, not k twice", "k"},
		{"UNPIVOT m ON nope", "UNPIVOT ON names nope, which the source does not have (time, series, key, op, b, n, s, v, x)", "nope"},
	})
}
