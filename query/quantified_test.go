package query

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// sqlQuantified is SQL's x op ANY|ALL (set): nil for NULL.
func sqlQuantified(x any, op string, all bool, set []any) *bool {
	res := func(b bool) *bool { return &b }
	holds := func(y any) *bool {
		if x == nil || y == nil {
			return nil
		}
		var c int
		switch x := x.(type) {
		case string:
			c = strings.Compare(x, y.(string))
		default:
			a, b := toF(x), toF(y)
			switch {
			case a < b:
				c = -1
			case a > b:
				c = 1
			}
		}
		switch op {
		case "=":
			return res(c == 0)
		case "!=":
			return res(c != 0)
		case "<":
			return res(c < 0)
		case "<=":
			return res(c <= 0)
		case ">":
			return res(c > 0)
		}
		return res(c >= 0)
	}
	unknown := false
	for _, y := range set {
		h := holds(y)
		switch {
		case h == nil:
			unknown = true
		case *h && !all:
			return res(true)
		case !*h && all:
			return res(false)
		}
	}
	if unknown {
		return nil
	}
	return res(all)
}

func toF(v any) float64 {
	switch v := v.(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	}
	panic(fmt.Sprintf("%T", v))
}

// TestQuantified: x op ANY|SOME|ALL (SELECT ...) keeps the rows SQL's
// logic keeps, for every comparison, numbers and text, sets with and
// without NULLs and empty ones, under NOT too; it works in HAVING and as
// a value; EXPLAIN shows it; = ANY is IN and != ALL NOT IN; bad ones are
// refused with what is wrong.
func TestQuantified(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	open := openOnly(src)
	all := mustRun(t, open, "SELECT seq, n, s, v FROM m ORDER BY seq")
	col := map[string]int{"n": 1, "s": 2, "v": 3}
	subs := []string{
		"SELECT n FROM m WHERE n BETWEEN 40 AND 60",     // no NULLs
		"SELECT n FROM m WHERE v > 150",                 // NULLs among them
		"SELECT n FROM m WHERE v > 100000",              // none
		"SELECT v FROM m WHERE n = 7 AND v IS NOT NULL", // floats against ints
		"SELECT s FROM m WHERE n < 5",                   // text, NULLs among them
	}
	setOf := map[string][]any{}
	for _, q := range subs {
		for _, r := range mustRun(t, open, q) {
			setOf[q] = append(setOf[q], r[0])
		}
	}
	checked := 0
	for _, q := range subs {
		x := "n"
		if strings.HasPrefix(q, "SELECT s") {
			x = "s"
		}
		for _, op := range []string{"=", "!=", "<", "<=", ">", ">="} {
			for _, quant := range []string{"ANY", "SOME", "ALL"} {
				for _, neg := range []bool{false, true} {
					cond := fmt.Sprintf("%s %s %s (%s)", x, op, quant, q)
					if neg {
						cond = "NOT (" + cond + ")"
					}
					var got, want []uint64
					for _, r := range mustRun(t, open, "SELECT seq FROM m WHERE "+cond+" ORDER BY seq") {
						got = append(got, r[0].(uint64))
					}
					for _, r := range all {
						h := sqlQuantified(r[col[x]], op, quant == "ALL", setOf[q])
						if h != nil && *h != neg {
							want = append(want, r[0].(uint64))
						}
					}
					if !slices.Equal(got, want) {
						t.Errorf("%s: %d rows, want %d", cond, len(got), len(want))
					}
					if len(want) > 0 && len(want) < len(all) {
						checked++
					}
				}
			}
		}
	}
	if checked < 60 {
		t.Errorf("only %d conditions keep some rows but not all: the cases show little", checked)
	}

	// = ANY is IN, != ALL is NOT IN.
	sameRows(t, open, "SELECT count(*) FROM m WHERE series = ANY (SELECT series FROM m WHERE n < 3)", "SELECT count(*) FROM m WHERE series IN (SELECT series FROM m WHERE n < 3)", 1)
	sameRows(t, open, "SELECT count(*) FROM m WHERE n != ALL (SELECT n FROM m WHERE v > 150)", "SELECT count(*) FROM m WHERE n NOT IN (SELECT n FROM m WHERE v > 150)", 1)
	// As a value, and in HAVING on the result's columns.
	q := "SELECT n FROM m WHERE v > 150"
	var truths [3]int
	for i, r := range mustRun(t, open, "SELECT n > ALL ("+q+") AS a, n < ANY ("+q+") AS b FROM m ORDER BY seq") {
		for k, quant := range []bool{true, false} {
			want := sqlQuantified(all[i][1], map[bool]string{true: ">", false: "<"}[quant], quant, setOf[q])
			switch {
			case want == nil && r[k] != nil || want != nil && r[k] != *want:
				t.Fatalf("as a value, row %d: %v, want %v", i, r, want)
			case want == nil:
				truths[2]++
			case *want:
				truths[1]++
			default:
				truths[0]++
			}
		}
	}
	if truths[0] == 0 || truths[1] == 0 || truths[2] == 0 {
		t.Errorf("as a value: false, true, NULL %v times: not every outcome shown", truths)
	}
	sameRows(t, open, "SELECT series, max(v) AS hi FROM m GROUP BY series HAVING hi >= ALL (SELECT max(v) FROM m GROUP BY series) ORDER BY series",
		"SELECT series, max(v) AS hi FROM m GROUP BY series HAVING hi = (SELECT max(v) FROM m) ORDER BY series", 2)
	if plan := planText(t, open, "EXPLAIN SELECT * FROM m WHERE v * 2 >= SOME (SELECT v FROM m WHERE n = 7)"); !strings.Contains(plan, "filter: v * 2 >= ANY (SELECT v FROM m WHERE n = 7)") {
		t.Errorf("EXPLAIN:\n%s", plan)
	}

	wantErrors(t, open, []errCase{
		{"SELECT * FROM m WHERE s > ALL (SELECT n FROM m)", "type mismatch: s > ALL (SELECT ...) compares text with an integer", "(SELECT"},
		{"SELECT * FROM m WHERE b < ANY (SELECT b FROM m)", "bools compare only with = and !=", "< ANY"},
		{"SELECT * FROM m WHERE n > ALL (SELECT n, v FROM m)", "wants one column", "(SELECT"},
		{"SELECT * FROM m AS o WHERE n > ALL (SELECT n FROM m WHERE s = o.s)", "may not name the outer row's columns", "(SELECT"},
		{"SELECT * FROM m WHERE max(n) > ALL (SELECT n FROM m)", "aggregate max in WHERE", "max"},
	})
}
