package query

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestCondValue: a condition where a value goes is a bool: true where the
// row meets it, false where it meets NOT it, NULL where a NULL leaves it
// unknown; in items, casts, coalesce, CASE, aggregates, GROUP BY, ORDER
// BY and alone in WHERE; against the same computed in Go row by row.
func TestCondValue(t *testing.T) {
	src, rows := testSource(t, 2000, 50)
	open := openOnly(src)
	type tri = any // true, false or nil (NULL)
	num := numField
	gt := func(r trow, f string, c float64) tri {
		if v, ok := num(r, f); ok {
			return v > c
		}
		return nil
	}
	and := func(a, b tri) tri {
		if a == false || b == false {
			return false
		}
		if a == nil || b == nil {
			return nil
		}
		return true
	}
	not := func(a tri) tri {
		if a == nil {
			return nil
		}
		return !a.(bool)
	}
	got := mustRun(t, open, "SELECT v > 50, NOT v > 50, v > 50 AND n < 10, s LIKE 'b%', s IS NULL, (n + 1) IN (2, 3), "+
		"CAST(v > 50 AS INT), (v > 50)::varchar, coalesce(v > 50, false), CASE WHEN n IS NULL THEN true ELSE n > 25 END, true, b = true, "+
		"CAST(s = 'beta' AS BIGINT), coalesce(b, false) FROM m")
	if len(got) != len(rows) {
		t.Fatalf("%d rows, want %d", len(got), len(rows))
	}
	var nulls, trues int
	for i, r := range rows {
		hot := gt(r, "v", 50)
		var like, isNull, in, asInt, asText, seen, nBig, bTrue, beta any
		s, sok := r.f["s"].(string)
		if sok {
			like, beta = len(s) > 0 && s[0] == 'b', int64(0)
			if s == "beta" {
				beta = int64(1)
			}
		}
		isNull = !sok
		if n, ok := num(r, "n"); ok {
			in, nBig = n+1 == 2 || n+1 == 3, n > 25
		} else {
			nBig = true
		}
		if hot != nil {
			asInt, asText = int64(0), "false"
			if hot == true {
				asInt, asText = int64(1), "true"
			}
		}
		seen = hot
		if hot == nil {
			seen = false
		}
		if b, ok := r.f["b"].(bool); ok {
			bTrue = b
		}
		want := []any{hot, not(hot), and(hot, func() tri {
			if n, ok := num(r, "n"); ok {
				return n < 10
			}
			return nil
		}()), like, isNull, in, asInt, asText, seen, nBig, true, bTrue, beta, bTrue == true}
		if d := diffCells(got[i:i+1], [][]any{want}); d != "" {
			t.Fatalf("row %d (%v): %s", i, r.f, d)
		}
		if hot == nil {
			nulls++
		} else if hot == true {
			trues++
		}
	}
	if nulls == 0 || trues == 0 {
		t.Fatalf("a weak source: %d NULL and %d true of v > 50", nulls, trues)
	}
	// Aggregates of it, grouped by it, ordered by it, alone in WHERE.
	agg := mustRun(t, open, "SELECT v > 50 AS hot, count(*), count(n > 10), bool_and(v > 1), bool_or(n > 40), sum((n > 40)::int) FROM m GROUP BY hot ORDER BY hot NULLS FIRST")
	type acc struct {
		rows, nonNull, sum int64
		all, any           tri
	}
	want := map[string]*acc{}
	for _, r := range rows {
		k := strconv.Quote(toStr(gt(r, "v", 50)))
		a := want[k]
		if a == nil {
			a = &acc{all: nil, any: nil}
			want[k] = a
		}
		a.rows++
		if g := gt(r, "n", 10); g != nil {
			a.nonNull++
		}
		if g := gt(r, "v", 1); g != nil {
			a.all = g.(bool) && (a.all == nil || a.all.(bool))
		}
		if g := gt(r, "n", 40); g != nil {
			a.any = g.(bool) || a.any == true
			if g == true {
				a.sum++
			}
		}
	}
	if len(agg) != 3 || agg[0][0] != nil || agg[1][0] != false || agg[2][0] != true {
		t.Fatalf("groups %v, want NULL, false, true in order", agg)
	}
	for _, g := range agg {
		a := want[strconv.Quote(toStr(g[0]))]
		var sum any = a.sum
		if a.any == nil {
			sum = nil
		}
		if d := diffCells([][]any{g[1:]}, [][]any{{a.rows, a.nonNull, a.all, a.any, sum}}); d != "" {
			t.Errorf("group %v: %s", g[0], d)
		}
	}
	// In a window function: lag of it is the row before's.
	lagged := mustRun(t, open, "SELECT v > 50, lag(v > 50) OVER (ORDER BY seq), count(v > 50) OVER (ORDER BY seq ROWS UNBOUNDED PRECEDING) FROM m ORDER BY seq")
	var counted int64
	for i, r := range lagged {
		var prev any
		if i > 0 {
			prev = lagged[i-1][0]
		}
		if r[0] != nil {
			counted++
		}
		if r[1] != prev || r[2] != counted {
			t.Fatalf("row %d: %v, want lag %v, count %d", i, r, prev, counted)
		}
	}
	sameRows(t, open, "SELECT seq FROM m WHERE coalesce(v > 50, false) AND NOT (n > 10) = true", "SELECT seq FROM m WHERE v > 50 AND n <= 10", 1)
	cols, err := columnNamesOf("SELECT v > 50, (v > 50)::int, NOT b, s LIKE 'a%' AND n IS NULL FROM m", open)
	if err != nil || len(cols) != 4 || cols[0] != "v > 50" || cols[1] != "CAST(v > 50 AS BIGINT)" || cols[2] != "NOT b" || cols[3] != "s LIKE 'a%' AND n IS NULL" {
		t.Fatalf("names %q %v", cols, err)
	}
	wantErrors(t, open, []errCase{
		{"SELECT (v > 1) + 1 FROM m", "arithmetic on v > 1, a bool (as a number: CAST(v > 1 AS INT))", "v > 1) +"},
		{"SELECT series, avg(v + (v > 1)) FROM m GROUP BY series", "arithmetic on v > 1, a bool", "v > 1"},
		{"SELECT coalesce(v > 1, 2) FROM m", "coalesce() takes all text, all bools or all numbers", "coalesce"},
		{"SELECT * FROM m WHERE (v > 1) = 1", "compares a bool with a number", "= 1"},
		{"SELECT * FROM m WHERE v * 2", "expected a comparison after v * 2", ""},
		{"SELECT sum(v > 1) FROM m", "type mismatch: sum of bool", "v > 1"},
	})
}

func toStr(v any) string {
	if v == nil {
		return "NULL"
	}
	return strconv.FormatBool(v.(bool))
}

// TestIsTrue: x IS [NOT] TRUE and IS [NOT] FALSE are never NULL: a NULL x
// is neither true nor false; after a comparison, a parenthesised value
// or a bool column; against the rows counted in Go.
func TestIsTrue(t *testing.T) {
	src, rows := testSource(t, 2000, 50)
	open := openOnly(src)
	// Forms the parser expands are named as written.
	cols, err := columnNamesOf("SELECT v > 50 IS TRUE, b IS NOT FALSE, v NOT BETWEEN 1 AND 2, n * 2 between n and n + 1, v BETWEEN -1 AND 2.5 AND b FROM m", open)
	if want := "(v > 50) IS TRUE|b IS NOT FALSE|v NOT BETWEEN 1 AND 2|(n * 2) BETWEEN n AND (n + 1)|(v BETWEEN -1 AND 2.5) AND b"; err != nil || strings.Join(cols, "|") != want {
		t.Fatalf("names %q %v, want %s", cols, err, want)
	}
	var hot, cold, unknown, bTrue, bFalse, bNull int64
	for _, r := range rows {
		switch v, ok := r.f["v"].(float64); {
		case !ok:
			unknown++
		case v > 50:
			hot++
		default:
			cold++
		}
		switch b, ok := r.f["b"].(bool); {
		case !ok:
			bNull++
		case b:
			bTrue++
		default:
			bFalse++
		}
	}
	if unknown == 0 || hot == 0 || cold == 0 || bNull == 0 {
		t.Fatalf("a weak source: %d %d %d %d", hot, cold, unknown, bNull)
	}
	got := mustRun(t, open, "SELECT count(*) FILTER (WHERE v > 50 IS TRUE), count(*) FILTER (WHERE (v > 50) IS NOT TRUE), "+
		"count(*) FILTER (WHERE v > 50 IS FALSE), count(*) FILTER (WHERE v > 50 IS NOT FALSE), count(*) FILTER (WHERE (v > 50) IS NULL), "+
		"count(*) FILTER (WHERE b IS TRUE), count(*) FILTER (WHERE b IS NOT FALSE), count(*) FILTER (WHERE NOT b IS NOT TRUE) FROM m")
	want := []any{hot, cold + unknown, cold, hot + unknown, unknown, bTrue, bTrue + bNull, bTrue}
	if d := diffCells(got, [][]any{want}); d != "" {
		t.Fatal(d)
	}
}

// TestNiladic: current_timestamp is now(), current_date (and today())
// its day, pi() the number; a column named today stays one.
func TestNiladic(t *testing.T) {
	src, _ := testSource(t, 10, 5)
	now := time.Date(2026, 12, 4, 23, 40, 5, 0, time.UTC)
	got, err := runCells("SELECT current_timestamp, current_date, today(), current_date(), pi(), 2 * pi() FROM m LIMIT 1", openOnly(src), &Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC).UnixNano()
	if d := diffCells(got, [][]any{{now.UnixNano(), day, day, day, math.Pi, 2 * math.Pi}}); d != "" {
		t.Fatal(d)
	}
}
