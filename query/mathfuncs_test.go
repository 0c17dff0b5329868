package query

import (
	"math"
	"slices"
	"testing"
)

// TestMathFuncs: the further numeric functions and // give DuckDB 1.5's
// answers (floats to 1e-12), NULL where DuckDB fails (asin(2), a
// division by zero, past int64), and are named as written.
func TestMathFuncs(t *testing.T) {
	src, _ := testSource(t, 200, 50)
	open := openOnly(src)
	got := mustRun(t, open, "SELECT 7 // 2, -7 // 2, 7.5 // 2, -7.5 // 2, 7 // 0, trunc(2.567, 2), trunc(-2.567, 1), trunc(1234.5, -2), log(2, 8), log(10, 1000), "+
		"atan2(1, 1), gcd(12, 18), lcm(4, 6), gcd(-12, 18), degrees(pi()), radians(180), isnan(CAST('nan' AS DOUBLE)), isinf(1e308 * 10), isfinite(1.0), sin(0), cos(0), "+
		"asin(2), even(2.5), even(-2.5), even(3), even(2.0), even(1.1), lcm(9223372036854775807, 2), gcd(0, 0), log(7, 2), tan(1), acos(0.5), atan(1), cot(1), 2 * 7 // 2 + 1")
	want := []any{int64(3), int64(-3), 3.75, -3.75, nil, 2.56, -2.5, 1200.0, 3.0, 3.0,
		0.7853981633974483, int64(6), int64(12), int64(6), 180.0, 3.141592653589793, true, true, true, 0.0, 1.0,
		nil, 4.0, -4.0, 4.0, 2.0, 2.0, nil, int64(0), 0.3562071871080222, 1.5574077246549023, 1.0471975511965979, 0.7853981633974483, 0.6420926159343306, int64(8)}
	if len(got[0]) != len(want) {
		t.Fatalf("%d columns", len(got[0]))
	}
	for i, w := range want {
		g := got[0][i]
		if wf, ok := w.(float64); ok {
			if gf, ok := g.(float64); !ok || math.Abs(gf-wf) > 1e-12*max(1, math.Abs(wf)) {
				t.Errorf("column %d: %v (%T), want %v", i, g, g, w)
			}
			continue
		}
		if g != w {
			t.Errorf("column %d: %v (%T), want %v", i, g, g, w)
		}
	}
	// On columns, and by name.
	sameRows(t, open, "SELECT n // 3, trunc(v, 1), isfinite(v) FROM m WHERE n IS NOT NULL AND v IS NOT NULL ORDER BY seq",
		"SELECT CAST(trunc(n / 3) AS BIGINT), trunc(v * 10) / 10, true FROM m WHERE n IS NOT NULL AND v IS NOT NULL ORDER BY seq", 50)
	cols, err := columnNamesOf("SELECT 2 * 7 // 2 + 1, log(2, v), trunc(v, 1), atan2(v, n), isnan(v) FROM m", open)
	if want := []string{"2 * 7 // 2 + 1", "log(2, v)", "trunc(v, 1)", "atan2(v, n)", "isnan(v)"}; err != nil || len(cols) != len(want) {
		t.Fatalf("columns %v %v", cols, err)
	} else {
		for i := range want {
			if cols[i] != want[i] {
				t.Errorf("column %d named %q, want %q", i, cols[i], want[i])
			}
		}
	}
	wantErrors(t, open, []errCase{
		{"SELECT gcd(v, 2) FROM m", "type mismatch: gcd() takes integers", "gcd"},
		{"SELECT atan2(s, 2) FROM m", "type mismatch: atan2() takes numbers", "atan2"},
		{"SELECT trunc(v, x) FROM m", "trunc wants a whole number of digits", "x)"},
	})
}

// TestRoundIntegers: round and trunc of an integer to digits are
// integers, as DuckDB's: to tens, hundreds... halves away from zero
// (round) or toward zero (trunc), the integer itself for digits >= 0,
// NULL past int64 (where DuckDB wraps around); DuckDB's answers.
func TestRoundIntegers(t *testing.T) {
	src, _ := testSource(t, 10, 10)
	got := mustRun(t, openOnly(src), "SELECT round(-5, -1), round(5, -1), round(15, -1), round(-15, -1), round(-14, -1), trunc(-17, -1), trunc(17, -1), round(123456, 2), "+
		"round(4611686018427387904, -18), round(-4611686018427387904, -19), round(9223372036854775807, -1), trunc(9223372036854775807, -30), round(n, -1) - round(n, -1) FROM m WHERE n IS NOT NULL LIMIT 1")
	want := []any{int64(-10), int64(10), int64(20), int64(-20), int64(-10), int64(-10), int64(10), int64(123456), int64(5000000000000000000), int64(0), nil, int64(0), int64(0)}
	if !slices.Equal(got[0], want) {
		t.Fatalf("got %v, want %v", got[0], want)
	}
}

// TestPowerOperator: x ^ y and x ** y are power(x, y), above * and /,
// from the right, below a negation (as PostgreSQL and DuckDB have them);
// named as written; in conditions, aggregates' arguments and HAVING.
func TestPowerOperator(t *testing.T) {
	src, _ := testSource(t, 400, 50)
	open := openOnly(src)
	got := mustRun(t, open, "SELECT 2 ^ 3, 2 ** 3, 2 ^ 3 ^ 2, (2 ^ 3) ^ 2, -2 ^ 2, -(2 ^ 2), 2 * 3 ^ 2, 2 ^ 0.5, 4 ^ -1")[0]
	want := []any{8.0, 8.0, 512.0, 64.0, 4.0, -4.0, 18.0, math.Sqrt2, 0.25}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	sameRows(t, open, "SELECT seq, v ^ 2, n ** 0.5 FROM m WHERE v ^ 2 > 100 AND n IS NOT NULL ORDER BY seq",
		"SELECT seq, power(v, 2), sqrt(n) FROM m WHERE abs(v) > 10 AND n IS NOT NULL ORDER BY seq", 50)
	sameRows(t, open, "SELECT series, sqrt(avg(v ^ 2)) AS rms FROM m GROUP BY series HAVING max(v) ^ 2 > 100 ORDER BY series",
		"SELECT series, sqrt(avg(power(v, 2))) AS rms FROM m GROUP BY series HAVING power(max(v), 2) > 100 ORDER BY series", 3)
	cols, err := columnNamesOf("SELECT v ^ 2, n ** 3, -v ^ 2, (v ^ 2) ^ 3 FROM m", open)
	if want := []string{"v ^ 2", "n ** 3", "-v ^ 2", "(v ^ 2) ^ 3"}; err != nil || !slices.Equal(cols, want) {
		t.Errorf("named %v (%v), want %v", cols, err, want)
	}
	wantErrors(t, open, []errCase{
		{"SELECT s ^ 2 FROM m", "type mismatch: ^ takes numbers: s ^ 2", "^ 2"},
		{"SELECT 2 ^ FROM m", "expected", "FROM"},
	})
}
