package query

import "testing"

// TestIntervals: SQL's INTERVAL literals are durations wherever those go
// (arithmetic, time literals, time() and time_bucket), written the short
// way; what is no interval is refused at its text.
func TestIntervals(t *testing.T) {
	for in, want := range map[string]string{
		"1 day": "1d", "90 minutes": "90m", "1 hour 30 minutes": "1h30m", "1h30m": "1h30m", "2 Weeks": "2w",
		" 1.5 hours ": "1.5h", "1 day, 2 hours": "1d2h", "250 ms": "250ms", "3 months": "3mo", "1 year": "1y",
		"10 secs": "10s", "5 mins": "5m", "7 µs": "7us", "1 hr": "1h",
	} {
		if got, ok := intervalText(in); !ok || got != want {
			t.Errorf("intervalText(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "day", "-1 day", "1 fortnight", "1..5 h", "1.h", ".5 h", "1 day 2"} {
		if got, ok := intervalText(bad); ok {
			t.Errorf("intervalText(%q) = %q, want no interval", bad, got)
		}
	}
	src, _ := testSource(t, 400, 50)
	open := openOnly(src)
	o := &Options{Now: modelNow}
	for with, without := range map[string]string{
		"SELECT time + INTERVAL '90 minutes', time_bucket(INTERVAL '15 minutes', time) FROM m":    "SELECT time + 90m, time_bucket(15m, time) FROM m",
		"SELECT count(*) FROM m WHERE time > now() - interval '2 hours'":                          "SELECT count(*) FROM m WHERE time > now() - 2h",
		"SELECT time, count(*) FROM m GROUP BY time(INTERVAL '20 minutes', INTERVAL '5 minutes')": "SELECT time, count(*) FROM m GROUP BY time(20m, 5m)",
		// The number and the unit apart, as DuckDB writes them.
		"SELECT time + INTERVAL 90 MINUTES, time_bucket(INTERVAL 1 hour, time), time - interval '2' DAY FROM m": "SELECT time + 90m, time_bucket(1h, time), time - 2d FROM m",
		"SELECT count(*) FROM m WHERE time > now() - INTERVAL 2.5 HOURS":                                        "SELECT count(*) FROM m WHERE time > now() - 150m",
		// Text cast to INTERVAL, as DuckDB and PostgreSQL write it.
		"SELECT time - '1 day'::INTERVAL, time + CAST('2 hours' AS interval), time_bucket(TRY_CAST('15 minutes' AS INTERVAL), time) FROM m": "SELECT time - 1d, time + 2h, time_bucket(15m, time) FROM m",
	} {
		a, err := runCells(with, open, o)
		if err != nil {
			t.Fatalf("%s: %v", with, err)
		}
		b, err := runCells(without, open, o)
		if err != nil {
			t.Fatal(err)
		}
		if d := diffCells(a, b); d != "" || len(a) == 0 {
			t.Errorf("%s: %s", with, d)
		}
	}
	st, err := Parse("SELECT time + INTERVAL '1 hour 30 minutes' FROM m")
	if err != nil || st.Items[0].Name() != "time + 1h30m" {
		t.Errorf("named %q (%v), want time + 1h30m", st.Items[0].Name(), err)
	}
	wantErrors(t, open, []errCase{
		{"SELECT time + INTERVAL '1 fortnight' FROM m", `bad interval "1 fortnight"`, "'1 fortnight'"},
		{"SELECT v * INTERVAL '1 month' FROM m", "1mo is a calendar span", "INTERVAL"},
		{"SELECT 2 + INTERVAL 1 MONTH FROM m", "1mo is a calendar span: it adds to a time, not to int64", "INTERVAL"},
		{"SELECT time + INTERVAL '1x' HOUR FROM m", "bad interval 1x HOUR (want e.g. INTERVAL 1 HOUR or INTERVAL '90' MINUTES)", "'1x'"},
		{"SELECT time - '1 fortnight'::INTERVAL FROM m", `bad interval "1 fortnight"`, "'1 fortnight'"},
		{"SELECT time - CAST('x' AS INTERVAL) FROM m", `bad interval "x"`, "'x'"},
		{"SELECT CAST(v AS INTERVAL) FROM m", "CAST(x AS INTERVAL) takes a written text, '1 day'::INTERVAL", "INTERVAL"},
	})
}
