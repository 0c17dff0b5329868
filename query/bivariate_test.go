package query

import (
	"math"
	"testing"
)

// TestBivariate: the bivariate aggregates of an exact line (y = 2n + 1:
// slope 2, intercept 1, r2 and corr 1, a covariance of twice n's
// variance), of y against itself reversed (corr -1), of constants (no
// line), a count of pairs without any, FILTER and HAVING; and their
// errors. TestModel checks them against a two-pass oracle.
func TestBivariate(t *testing.T) {
	src, _ := testSource(t, 2000, 50)
	open := openOnly(src)
	got := mustRun(t, open, "SELECT regr_slope(2 * n + 1, n), regr_intercept(2 * n + 1, n), regr_r2(2 * n + 1, n), corr(2 * n + 1, n), covar_samp(2 * n + 1, n), 2 * variance(n), "+
		"covar_pop(n, n), var_pop(n), corr(n, 100 - n), regr_count(n, v), count(*) FILTER (WHERE n IS NOT NULL AND v IS NOT NULL) FROM m")
	g := got[0]
	near := func(i int, want float64) {
		t.Helper()
		if f, ok := g[i].(float64); !ok || math.Abs(f-want) > 1e-9*max(1, math.Abs(want)) {
			t.Errorf("column %d = %v, want %v", i, g[i], want)
		}
	}
	near(0, 2)
	near(1, 1)
	near(2, 1)
	near(3, 1)
	near(4, g[5].(float64))
	near(6, g[7].(float64))
	near(8, -1)
	if g[9] != g[10] || g[9].(int64) < 1000 {
		t.Errorf("regr_count %v, want %v", g[9], g[10])
	}
	// Constants: no line, no correlation; y constant fits exactly.
	got = mustRun(t, open, "SELECT regr_slope(v, 3), corr(v, 3), corr(3, v), regr_r2(3, v), covar_samp(v, n) FILTER (WHERE seq = 5), regr_count(v, n) FILTER (WHERE seq < 0), "+
		"regr_slope(v, n) FILTER (WHERE seq < 0) FROM m")
	if want := []any{nil, nil, nil, 1.0, nil, int64(0), nil}; !sameRow(got[0], want) {
		t.Errorf("constants: %v, want %v", got[0], want)
	}
	got = mustRun(t, open, "SELECT series, corr(v, n), regr_count(v, n) AS c FROM m GROUP BY series HAVING corr(v, n) > -2 AND c > 10 ORDER BY series")
	if len(got) < 3 {
		t.Errorf("HAVING on corr: %v", got)
	}
	wantErrors(t, open, []errCase{
		{"SELECT corr(v) FROM m", "corr wants two arguments: y, then x, corr(value, epoch(time))", ") FROM"},
		{"SELECT regr_slope(v, time) FROM m", "type mismatch: regr_slope of time \"time\" (want numbers; epoch(time) is a time in seconds)", "time)"},
		{"SELECT covar_pop(s, v) FROM m", "type mismatch: covar_pop of string \"s\"", "s, v"},
	})
}

func sameRow(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameCell(a[i], b[i]) {
			return false
		}
	}
	return true
}
