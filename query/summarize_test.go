package query

import (
	"fmt"
	"math"
	"testing"
)

// TestSummarize: SUMMARIZE gives a row for each column of the stream's
// raw view (or of a statement's result): its type, its values, the
// share of NULLs, its least and greatest value as text and, for numbers,
// the mean and standard deviation, as the aggregates give them.
func TestSummarize(t *testing.T) {
	src, _ := testSource(t, 1200, 40)
	open := openOnly(src)
	got := mustRun(t, open, "SUMMARIZE m")
	defs, err := Fields(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5+len(defs) {
		t.Fatalf("%d rows, want %d", len(got), 5+len(defs))
	}
	n := mustRun(t, open, "SELECT count(*) FROM m")[0][0].(int64)
	byName := map[string][]any{}
	for _, r := range got {
		byName[r[0].(string)] = r
	}
	check := func(col, typ string, agg string) {
		t.Helper()
		r := byName[col]
		if r == nil || r[1] != typ {
			t.Fatalf("%s: %v, want type %s", col, r, typ)
		}
		w := mustRun(t, open, fmt.Sprintf("SELECT count(%s), %s FROM m", col, agg))[0]
		if r[2] != w[0] {
			t.Errorf("%s: count %v, want %v", col, r[2], w[0])
		}
		if nulls := math.Round(10000*float64(n-w[0].(int64))/float64(n)) / 100; r[3] != nulls {
			t.Errorf("%s: %v%% NULL, want %v", col, r[3], nulls)
		}
		for k, x := range w[1:] {
			if k < 2 {
				if s := fmt.Sprint(x); r[4+k] != s {
					t.Errorf("%s: figure %d is %v, want %v", col, k, r[4+k], s)
				}
			} else if math.Abs(r[4+k].(float64)-x.(float64)) > 1e-9 {
				t.Errorf("%s: figure %d is %v, want %v", col, k, r[4+k], x)
			}
		}
	}
	check("v", "float64", "min(v), max(v), avg(v), stddev(v)")
	check("n", "int64", "min(n), max(n), avg(n), stddev(n)")
	check("s", "string", "min(s), max(s)")
	check("series", "string", "min(series), max(series)")
	check("seq", "uint64", "min(seq), max(seq)")
	check("op", "string", "min(op), max(op)")
	if r := byName["op"]; r[4] != "delete" || r[5] != "put" { // and drop between
		t.Errorf("op: %v", r)
	}
	if r := byName["b"]; r[1] != "bool" || r[4] != "false" || r[5] != "true" {
		t.Errorf("b: %v", r)
	}
	// Of a statement's result.
	got = mustRun(t, open, "SUMMARIZE SELECT hour(time) AS h, CASE WHEN v > 100 THEN 'big' END AS size FROM m")
	if len(got) != 2 || got[0][0] != "h" || got[1][0] != "size" || got[1][4] != "big" || got[1][3].(float64) <= 0 {
		t.Errorf("SUMMARIZE SELECT: %v", got)
	}
	wantErrors(t, open, []errCase{
		{"SUMMARIZE nope", "stream not found", "nope"},
		{"SUMMARIZE SELECT nope FROM m", `unknown column "nope"`, "nope"},
	})
}
