package query

import "testing"

// TestQuantileSpellings: quantile_cont, percentile_cont ... WITHIN GROUP
// (ORDER BY x [DESC]) and approx_quantile are quantile(q, x);
// quantile_disc and percentile_disc return the group's value whose rank
// first reaches q (of an integer column, an integer); TestModel checks
// them against an oracle. Their errors say what and where.
func TestQuantileSpellings(t *testing.T) {
	src, _ := testSource(t, 2000, 50)
	open := openOnly(src)
	sameRows(t, open, "SELECT series, quantile_cont(v, 0.9), percentile_cont(0.9) WITHIN GROUP (ORDER BY v), approx_quantile(v * 2, 0.5), percentile_cont(0.25) WITHIN GROUP (ORDER BY n DESC) FILTER (WHERE x > 3) FROM m GROUP BY series",
		"SELECT series, quantile(0.9, v), quantile(0.9, v), quantile(0.5, v * 2), quantile(0.75, n) FILTER (WHERE x > 3) FROM m GROUP BY series", 5)
	got := mustRun(t, open, "SELECT quantile_disc(n, 0), quantile_disc(n, 1), min(n), max(n), percentile_disc(0.5) WITHIN GROUP (ORDER BY n), median(n), quantile_disc(v, 0.5) FROM m")
	g := got[0]
	if g[0] != g[2] || g[1] != g[3] {
		t.Errorf("quantile_disc at 0 and 1: %v %v, want min %v and max %v", g[0], g[1], g[2], g[3])
	}
	if d, ok := g[4].(int64); !ok || float64(d) > g[5].(float64)+1 || float64(d) < g[5].(float64)-1 {
		t.Errorf("percentile_disc(0.5) = %v (%T), median %v", g[4], g[4], g[5])
	}
	if _, ok := g[6].(float64); !ok {
		t.Errorf("quantile_disc of floats: %T", g[6])
	}
	wantErrors(t, open, []errCase{
		{"SELECT quantile_cont(v) FROM m", `expected ","`, ") FROM"},
		{"SELECT quantile_disc(v, 1.5) FROM m", "quantile_disc's q = 1.5 is outside [0, 1]", "1.5"},
		{"SELECT percentile_cont(v) WITHIN GROUP (ORDER BY v) FROM m", "percentile_cont wants the fraction q, a number in [0, 1], found \"v\"", "v) WITHIN"},
		{"SELECT percentile_disc(0.5) FROM m", "percentile_disc(q) wants WITHIN GROUP (ORDER BY x) after it, found \"FROM\"", "FROM"},
		{"SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY v NULLS LAST) FROM m", "percentile_disc ignores nulls", "LAST"},
		{"SELECT quantile_disc(s, 0.5) FROM m", "type mismatch: quantile_disc of string column \"s\"", "s, 0.5"},
	})
}
