package query

import (
	"math"
	"testing"
)

// TestMoreNumericFuncs: trunc, sign, log2, cbrt, power (pow) and the
// aliases ceiling and log (log10) against Go's math on every row:
// integers stay integers under trunc and sign, a result that is no
// finite number of finite arguments is NULL, nulls stay null.
func TestMoreNumericFuncs(t *testing.T) {
	src, rows := testSource(t, 1000, 50)
	open := openOnly(src)
	bySeq := bySeqOf(rows)
	got := mustRun(t, open, "SELECT seq, trunc(v / 3), trunc(n), sign(v - 50), sign(n - 50), log2(v), cbrt(v - 100), power(v, 2), pow(n, 0.5), power(-8, 1.0 / 3), ceiling(v / 7), log(n), power(n, -1) FROM m WHERE op = 'put'")
	if len(got) < 500 {
		t.Fatalf("%d rows", len(got))
	}
	fin := func(f float64) any {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil
		}
		return f
	}
	for _, g := range got {
		r := bySeq[g[0].(uint64)]
		v, vok := r.f["v"].(float64)
		n, nok := r.f["n"].(int64)
		want := make([]any, 12)
		if vok {
			want[0], want[2], want[4], want[5], want[6], want[9] = math.Trunc(v/3), float64(cmpFloat(v-50, 0)), fin(math.Log2(v)), math.Cbrt(v-100), v*v, math.Ceil(v/7)
		}
		if nok {
			want[1], want[3], want[7], want[10], want[11] = n, int64(cmp3(n-50, 0)), math.Sqrt(float64(n)), fin(math.Log10(float64(n))), fin(math.Pow(float64(n), -1))
		}
		for k, w := range want {
			if !sameCell(g[k+1], w) {
				t.Fatalf("seq %d column %d: %v (%T), want %v (%T)", g[0], k+1, g[k+1], g[k+1], w, w)
			}
		}
	}
	// DuckDB's spellings: if(), mod(), ifnull().
	sameRows(t, open, "SELECT seq, if(v > 50, 'big', s) AS a, mod(n, 7) AS b, ifnull(x, -1) AS c FROM m ORDER BY seq",
		"SELECT seq, CASE WHEN v > 50 THEN 'big' ELSE s END AS a, n % 7 AS b, coalesce(x, -1) AS c FROM m ORDER BY seq", 500)
	wantErrors(t, open, []errCase{
		{"SELECT if(v > 1, 2) FROM m", `expected ","`, ") FROM"},
		{"SELECT power(s, 2) FROM m", "type mismatch: power() takes numbers", "power"},
		{"SELECT power(v) FROM m", `expected ","`, ") FROM"},
	})
}

// TestPadFuncs: left, right, lpad, rpad, repeat, reverse, ltrim and
// rtrim by characters, negative lengths as PostgreSQL takes them, and a
// result past maxTextLen NULL rather than a giant allocation.
func TestPadFuncs(t *testing.T) {
	src, _ := testSource(t, 300, 50)
	open := openOnly(src)
	got := mustRun(t, open, "SELECT left('héllo', 2), right('héllo', 2), left('abc', -1), right('abc', -1), left('abc', -9), lpad('7', 3, '0'), rpad('ab', 5, 'xy'), "+
		"lpad('hello', 2), repeat('ab', 3), reverse('héllo'), ltrim(' \t a '), rtrim(' a \n'), lpad('x', 4), repeat('x', -2), lpad('abc', 5, ''), rpad('a', 0), "+
		"repeat('ab', 9000000000), lpad('a', 2000000000, 'b')")
	want := []any{"hé", "lo", "ab", "bc", "", "007", "abxyx", "he", "ababab", "olléh", "a ", " a", "   x", "", "abc", "", nil, nil}
	if msg := diffCells(got, [][]any{want}); msg != "" {
		t.Fatal(msg)
	}
	sameRows(t, open, "SELECT seq, left(series, 3), right(key, 1), lpad(s, 8, '*'), reverse(reverse(series)) FROM m WHERE s IS NOT NULL",
		"SELECT seq, substr(series, 1, 3), substr(key, length(key), 1), CASE WHEN length(s) >= 8 THEN substr(s, 1, 8) ELSE concat(substr('********', 1, 8 - length(s)), s) END, series FROM m WHERE s IS NOT NULL", 100)
}
