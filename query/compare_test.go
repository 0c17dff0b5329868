package query

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestArithCompareParse: which comparisons are expressions, which stay
// a column against a literal (those bound and prune the scan), and that
// a parenthesis still groups conditions.
func TestArithCompareParse(t *testing.T) {
	for _, c := range []struct{ where, want string }{
		{"value > 5", "value > 5"},
		{"(value) > 5", "value > 5"},
		{"5 < value", "value > 5"},
		{"-5 < value", "value > -5"},
		{"value > -5", "value > -5"},
		{"(value) <= -(2.5)", "value <= -2.5"},
		{"time > now() - 1h", "time > now() - 1h0m0s"},
		{"2 * value > 10", "2 * value > 10"},
		{"value > n", "value > n"},
		{"value <> n + 1", "value != n + 1"},
		{"(value + 1) * 2 >= n", "(value + 1) * 2 >= n"},
		{"(v > 1) AND n < 2", "(v > 1 AND n < 2)"},
		{"((v + 1) > 2 OR n < 1)", "(v + 1 > 2 OR n < 1)"},
		{"NOT (abs(v - 3) < 1)", "NOT abs(v - 3) < 1"},
		{"-v < 10", "-v < 10"},
		{"series = key", "series = key"},
		{"3 > n - x", "3 > n - x"},
		{"coalesce(v, n, 0) > 1", "coalesce(v, n, 0) > 1"},
		{"coalesce(v, coalesce(n, 0)) > 1", "coalesce(v, n, 0) > 1"},
		{"value > 2 * 3", "value > 2 * 3"},
	} {
		st, err := Parse("SELECT * FROM m WHERE " + c.where)
		if err != nil {
			t.Errorf("%s: %v", c.where, err)
			continue
		}
		if got := exprString(st.Where); got != c.want {
			t.Errorf("%s: parsed as %s, want %s", c.where, got, c.want)
		}
	}
	st, err := Parse("SELECT series, max(v), avg(v) FROM m GROUP BY series HAVING max(v) - avg(v) > 2 * avg(v)")
	if err != nil {
		t.Fatal(err)
	}
	if got := exprString(st.Having); got != "max(v) - avg(v) > 2 * avg(v)" {
		t.Errorf("HAVING parsed as %s", got)
	}
}

// TestArithCompareErrors: each refusal names the problem at its place.
func TestArithCompareErrors(t *testing.T) {
	src, _ := testSource(t, 100, 50)
	wantErrors(t, openOnly(src), []errCase{
		{"SELECT * FROM m WHERE v * 2 > 'x'", "v * 2 > 'x' compares a number with text", "> 'x'"},
		{"SELECT v * 'x' FROM m", `arithmetic on "'x'" of type string (want a number)`, "'x'"},
		{"SELECT count(*) FROM m WHERE avg(v) * 2 > 1", "aggregate avg in WHERE", "avg"},
		{"SELECT count(*) FROM m WHERE 1 < 2 * max(v)", "aggregate max in WHERE", "max"},
		{"SELECT * FROM m WHERE s * 2 > 1", `arithmetic on column "s" of type string`, "s *"},
		{"SELECT * FROM m WHERE series > n", "series > n compares text with a number", "> n"},
		{"SELECT * FROM m WHERE series * 2 > n", `arithmetic on column "series" of type string`, "series *"},
		{"SELECT * FROM m WHERE b < b", "bools compare only with = and !=", "< b"},
		{"SELECT * FROM m WHERE v * 2 >", "expected", ""},
		{"SELECT * FROM m WHERE v * 2", "expected a comparison after v * 2", ""},
		{"SELECT * FROM m WHERE nope + 1 > 2", `unknown column "nope"`, "nope"},
		{"SELECT series, max(v) FROM m GROUP BY series HAVING max(v) > series", "max(v) > series compares a number with text", "> series"},
	})
}

// TestArithCompareVectors: a condition evaluates its arithmetic a block
// at a time (vec), a sorted projection a row at a time (eval). For random
// expressions E — ints and floats, nulls, NaN-free overflow, division
// by zero, functions, literals on either side — the rows WHERE E op c
// selects are those whose projected E compares so, as are those of
// c op' E (the literal on the left) and NOT (E op c).
func TestArithCompareVectors(t *testing.T) {
	src, _ := testSource(t, 2000, 64)
	rng := rand.New(rand.NewPCG(7, 7))
	var gen func(depth int) string
	gen = func(depth int) string {
		if depth == 0 || rng.IntN(3) == 0 {
			return []string{"v", "n", "x", "seq", "time", "3", "-2", "0", "0.5", "9223372036854775807", "1e300"}[rng.IntN(11)]
		}
		switch rng.IntN(7) {
		case 0:
			return "-(" + gen(depth-1) + ")"
		case 2:
			return "coalesce(" + gen(depth-1) + ", " + gen(depth-1) + ")"
		case 1:
			return []string{"abs", "floor", "ceil", "sqrt", "round", "ln", "exp"}[rng.IntN(7)] + "(" + gen(depth-1) + ")"
		}
		return "(" + gen(depth-1) + " " + string("+-*/%"[rng.IntN(5)]) + " " + gen(depth-1) + ")"
	}
	ops := []string{"=", "!=", "<", "<=", ">", ">="}
	for range 300 {
		e := gen(3)
		if e == "seq" || e == "time" { // a column compared with a literal: Compare's own rules
			continue
		}
		// (sorted in memory, so projected a row at a time)
		rows, err := runCells("SELECT seq, "+e+" AS e FROM m ORDER BY seq DESC", openOnly(src), nil)
		if err != nil {
			t.Fatalf("SELECT %s: %v", e, err)
		}
		slices.Reverse(rows)
		var vals []float64
		for _, r := range rows {
			if u, ok := r[1].(uint64); ok { // E is seq
				r[1] = int64(u)
			}
			if f, ok := r[1].(float64); ok && !math.IsNaN(f) && !math.IsInf(f, 0) {
				vals = append(vals, f)
			} else if i, ok := r[1].(int64); ok {
				vals = append(vals, float64(i))
			}
		}
		c := "7"
		if len(vals) > 0 {
			c = fmt.Sprint(vals[rng.IntN(len(vals))]) // a threshold some rows meet
			if !strings.ContainsAny(c, ".e") && rng.IntN(2) == 0 {
				c += ".5"
			}
		}
		op := ops[rng.IntN(len(ops))]
		var want, wantNot []any
		for _, r := range rows {
			if r[1] == nil {
				continue
			}
			var ok bool
			if i, isInt := r[1].(int64); isInt && !strings.ContainsAny(c, ".eInN") {
				var ci int64
				fmt.Sscan(c, &ci)
				ok = cmpHolds(op, cmp3(i, ci))
			} else {
				var cf float64
				fmt.Sscan(c, &cf)
				x, isF := r[1].(float64)
				if !isF {
					x = float64(r[1].(int64))
				}
				ok = floatHolds(op, x, cf)
				if math.IsNaN(x) {
					if op == "!=" {
						wantNot = append(wantNot, r[0]) // NOT (NaN != c) is NaN = c: false
					}
					if ok {
						want = append(want, r[0])
					}
					continue
				}
			}
			if ok {
				want = append(want, r[0])
			} else {
				wantNot = append(wantNot, r[0])
			}
		}
		for _, q := range []struct {
			where string
			want  []any
		}{
			{e + " " + op + " " + c, want},
			{c + " " + flipped[op] + " " + e, want},
			{"NOT (" + e + " " + op + " " + c + ")", wantNot},
		} {
			got, err := runCells("SELECT seq FROM m WHERE "+q.where, openOnly(src), nil)
			if err != nil {
				t.Fatalf("WHERE %s: %v", q.where, err)
			}
			var seqs []any
			for _, r := range got {
				seqs = append(seqs, r[0])
			}
			if !slices.Equal(seqs, q.want) {
				t.Fatalf("WHERE %s: %d rows, want %d (first %v, want %v)", q.where, len(seqs), len(q.want), head1(seqs), head1(q.want))
			}
		}
	}
}

func head1(s []any) any {
	if len(s) == 0 {
		return nil
	}
	return s[0]
}

// TestArithCompareRows: column against column (numbers across int and
// float, text, bools) and HAVING on arithmetic of aggregates, checked
// against the rows.
func TestArithCompareRows(t *testing.T) {
	src, rows := testSource(t, 3000, 50)
	open := openOnly(src)
	count := func(q string) int64 {
		t.Helper()
		got, err := runCells(q, open, nil)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return got[0][0].(int64)
	}
	var vGtN, sEqS, keyLtS, bEq int64
	for _, r := range rows {
		v, okV := r.f["v"].(float64)
		n, okN := r.f["n"].(int64)
		if okV && okN && v > float64(n) {
			vGtN++
		}
		if s, ok := r.f["s"].(string); ok {
			if s == r.series {
				sEqS++
			}
			if r.key < s {
				keyLtS++
			}
		}
		if _, ok := r.f["b"].(bool); ok {
			bEq++
		}
	}
	for _, c := range []struct {
		q    string
		want int64
	}{
		{"SELECT count(*) FROM m WHERE v > n", vGtN},
		{"SELECT count(*) FROM m WHERE n < v", vGtN},
		{"SELECT count(*) FROM m WHERE s = series", sEqS},
		{"SELECT count(*) FROM m WHERE key < s", keyLtS},
		{"SELECT count(*) FROM m WHERE b = b", bEq},
		{"SELECT count(*) FROM m WHERE b != b", 0},
	} {
		if got := count(c.q); got != c.want {
			t.Errorf("%s: %d, want %d", c.q, got, c.want)
		}
	}

	// HAVING on arithmetic of selected aggregates, against the groups.
	all, err := runCells("SELECT series, max(v), avg(v), count(*) FROM m GROUP BY series", open, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ratios []float64 // (max - avg) / avg: the median splits the groups
	for _, r := range all {
		ratios = append(ratios, (r[1].(float64)-r[2].(float64))/r[2].(float64))
	}
	slices.Sort(ratios)
	k := ratios[len(ratios)/2]
	var want [][]any
	for _, r := range all {
		if r[1].(float64)-r[2].(float64) > k*r[2].(float64) && r[3].(int64)-100 >= 0 {
			want = append(want, r)
		}
	}
	got, err := runCells(fmt.Sprintf("SELECT series, max(v), avg(v), count(*) FROM m GROUP BY series HAVING max(v) - avg(v) > %v * avg(v) AND count(*) - 100 >= 0", k), open, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 || len(want) == len(all) {
		t.Fatalf("the HAVING case keeps %d of %d groups: choose one that splits them", len(want), len(all))
	}
	if d := diffCells(got, want); d != "" {
		t.Errorf("HAVING arithmetic: %s", d)
	}
}

// TestHavingNotNull: NOT in HAVING leaves a group whose tested value is
// null out, as WHERE leaves a row (the delete and drop rows' groups have
// no v).
func TestHavingNotNull(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	for _, c := range []struct {
		having string
		want   []any
	}{
		{"NOT avg(v) > 1000", []any{"put"}},
		{"NOT (avg(v) > 1000 OR count(*) < 0)", []any{"put"}},
		{"NOT NOT avg(v) < 1000", []any{"put"}},
		{"NOT avg(v) * 2 > 1000", []any{"put"}},
		{"NOT avg(v) IN (1, 2)", []any{"put"}},
		{"NOT avg(v) IS NULL", []any{"put"}},
		{"avg(v) IS NULL", []any{"delete", "drop"}},
		{"NOT (avg(v) IS NOT NULL AND count(*) > 0)", []any{"delete", "drop"}},
	} {
		got, err := runCells("SELECT op, avg(v), count(*) FROM m GROUP BY op HAVING "+c.having+" ORDER BY op", openOnly(src), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.having, err)
		}
		var ops []any
		for _, r := range got {
			ops = append(ops, r[0])
		}
		if !slices.Equal(ops, c.want) {
			t.Errorf("HAVING %s: groups %v, want %v", c.having, ops, c.want)
		}
	}
}

// TestOrderByExpr: a raw query ordered by arithmetic it does not
// project (ORDER BY abs(v - 50) DESC) returns the rows a sort of the
// projected value gives.
func TestOrderByExpr(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	open := openOnly(src)
	all := mustRun(t, open, "SELECT seq, abs(v - 50) FROM m WHERE v IS NOT NULL")
	slices.SortStableFunc(all, func(a, b []any) int { return -cmpFloat(a[1].(float64), b[1].(float64)) })
	got := mustRun(t, open, "SELECT seq FROM m WHERE v IS NOT NULL ORDER BY abs(v - 50) DESC, seq LIMIT 25")
	for i, r := range got {
		if r[0] != all[i][0] {
			t.Fatalf("row %d: seq %v, want %v", i, r[0], all[i][0])
		}
	}
	if len(got) != 25 {
		t.Fatalf("%d rows", len(got))
	}
	wantErrors(t, open, []errCase{
		{"SELECT seq FROM m ORDER BY s * 2", `arithmetic on column "s"`, "s *"},
	})
	// An aggregate query ordered by aggregates it does not return.
	groups := mustRun(t, open, "SELECT series, max(v), count(*) FROM m GROUP BY series")
	slices.SortStableFunc(groups, func(a, b []any) int {
		if c := -cmpFloat(a[1].(float64), b[1].(float64)); c != 0 {
			return c
		}
		return cmp3(a[2].(int64), b[2].(int64))
	})
	for _, q := range []string{
		"SELECT series FROM m GROUP BY series ORDER BY max(v) * 2 DESC, count(*)",
		"SELECT series FROM m GROUP BY series ORDER BY max(v) DESC, count(*)",
	} {
		got := mustRun(t, open, q)
		if len(got) != len(groups) || len(got[0]) != 1 {
			t.Fatalf("%s: %v", q, got)
		}
		for i := range got {
			if got[i][0] != groups[i][0] {
				t.Fatalf("%s: row %d is %v, want %v", q, i, got[i][0], groups[i][0])
			}
		}
	}
}

// TestOrderByAll: ORDER BY ALL orders by every item, left to right, in
// the direction given; a union's by its columns; with SELECT * it is
// refused.
func TestOrderByAll(t *testing.T) {
	open := twoStreams(t)
	for _, c := range [][2]string{
		{"SELECT s, minute(time) AS h, count(*) AS c FROM m GROUP BY ALL ORDER BY ALL", "SELECT s, minute(time) AS h, count(*) AS c FROM m GROUP BY ALL ORDER BY 1, 2, 3"},
		{"SELECT s, n FROM m ORDER BY ALL DESC NULLS LAST LIMIT 50", "SELECT s, n FROM m ORDER BY s DESC NULLS LAST, n DESC NULLS LAST LIMIT 50"},
		{"SELECT s, v FROM w UNION ALL SELECT s, n FROM m ORDER BY ALL", "SELECT s, v FROM (SELECT s, v FROM w UNION ALL SELECT s, n FROM m) ORDER BY s, v"},
	} {
		sameRows(t, open, c[0], c[1], 10)
	}
	wantErrors(t, open, []errCase{
		{"SELECT * FROM m ORDER BY ALL", "ORDER BY ALL orders by the SELECT's items, and SELECT * names none", "ALL"},
	})
}

// TestBetweenAndPipes: [NOT] BETWEEN over columns and arithmetic with
// literal or computed bounds, a parenthesised side before IN, BETWEEN,
// LIKE or IS, and a || b (concat, NULL when either is NULL, below + in
// precedence), against the same computed in Go row by row.
func TestBetweenAndPipes(t *testing.T) {
	src, rows := testSource(t, 2000, 50)
	open := openOnly(src)
	num := numField
	for _, c := range []struct {
		where string
		want  func(r trow) bool
	}{
		{"n BETWEEN 10 AND 40", func(r trow) bool { n, ok := num(r, "n"); return ok && n >= 10 && n <= 40 }},
		{"n NOT BETWEEN 10 AND 40", func(r trow) bool { n, ok := num(r, "n"); return ok && (n < 10 || n > 40) }},
		{"n * 2 BETWEEN 10 AND 40", func(r trow) bool { n, ok := num(r, "n"); return ok && n*2 >= 10 && n*2 <= 40 }},
		{"(n * 2) NOT BETWEEN 10 AND 40", func(r trow) bool { n, ok := num(r, "n"); return ok && (n*2 < 10 || n*2 > 40) }},
		{"v BETWEEN n AND n + 50", func(r trow) bool {
			v, vok := num(r, "v")
			n, nok := num(r, "n")
			return vok && nok && v >= n && v <= n+50
		}},
		{"(n + 1) IN (3, 5, 8)", func(r trow) bool { n, ok := num(r, "n"); return ok && (n+1 == 3 || n+1 == 5 || n+1 == 8) }},
		{"(s || 'x') LIKE 'b%x'", func(r trow) bool { s, ok := r.f["s"].(string); return ok && strings.HasPrefix(s, "b") }},
		{"(n - 1) IS NULL", func(r trow) bool { _, ok := num(r, "n"); return !ok }},
		{"s || '/' || n = 'beta/7'", func(r trow) bool { return r.f["s"] == "beta" && r.f["n"] == int64(7) }},
		{"'<' || s || '>' = '<alpha>'", func(r trow) bool { return r.f["s"] == "alpha" }},
		{"key || 1 + 1 = 'k12'", func(r trow) bool { return r.key == "k1" }},
	} {
		got := mustRun(t, open, "SELECT seq FROM m WHERE "+c.where)
		var want [][]any
		for _, r := range rows {
			if c.want(r) {
				want = append(want, []any{r.seq})
			}
		}
		if len(want) == 0 {
			t.Fatalf("%s: no row matches: a weak case", c.where)
		}
		if d := diffCells(got, want); d != "" {
			t.Errorf("WHERE %s: %s", c.where, d)
		}
	}
	got := mustRun(t, open, "SELECT s || '-' || n, n || '', 'a' || NULL FROM m LIMIT 200")
	for i, r := range rows[:200] {
		var a, b any
		s, sok := r.f["s"].(string)
		n, nok := r.f["n"].(int64)
		if sok && nok {
			a = s + "-" + strconv.FormatInt(n, 10)
		}
		if nok {
			b = strconv.FormatInt(n, 10)
		}
		if d := diffCells(got[i:i+1], [][]any{{a, b, nil}}); d != "" {
			t.Fatalf("row %d: %s", i, d)
		}
	}
	cols, err := columnNamesOf("SELECT s || key, (s || key) || 'x', length(s || 'a') * 2, 'a' || 1 + 2 FROM m", open)
	if err != nil || strings.Join(cols, "|") != "s || key|s || key || 'x'|length(s || 'a') * 2|'a' || 1 + 2" {
		t.Fatalf("names %q %v", cols, err)
	}
	wantErrors(t, open, []errCase{
		{"SELECT * FROM m WHERE n BETWEEN 1", "expected and", ""},
		{"SELECT * FROM m WHERE n * 2 NOT BETWEEN 1 OR 2", "expected and", "OR"},
	})
}
