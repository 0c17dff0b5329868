package query

import (
	"strings"
	"testing"
)

// TestDurations: which expressions are spans of time (a duration[ns]
// column) and which stay numbers, what they compute, and that a span
// stays one through a subquery, a join, GROUP BY and text.
func TestDurations(t *testing.T) {
	src, _ := testSource(t, 2000, 50)
	open := openOnly(src)
	o := &Options{Now: modelNow}
	for _, c := range []struct {
		items string
		types string
	}{
		{"time - now(), 5m, 2 * 5m, 5m * 2, 5m + 1h, 1h - 5m, -5m, abs(-5m), greatest(1h, 2h)",
			"d d d d d d d d d"},
		{"time - 5m, 5m / 2, (time - now()) / 1000000000, time + time, time * 1, 5m * 1.5, 5m % 2, 5m * 5m",
			"ts float64 float64 int64 int64 float64 int64 int64"},
		{"CASE WHEN n > 1 THEN 1h ELSE 2h END, CASE WHEN n > 1 THEN 1h ELSE 2 END", "d int64"},
	} {
		got := columnTypes(t, open, o, "SELECT "+c.items+" FROM m LIMIT 1")
		if got != c.types {
			t.Errorf("SELECT %s: %s, want %s", c.items, got, c.types)
		}
	}
	for q, want := range map[string]string{
		"SELECT max(time) - min(time), min(time - now()), sum(time - now()), first(time - now()), arg_max(time - now(), time), avg(time - now()), count(time - now()), median(time - now()), quantile_disc(time - now(), 0.1), stddev(time - now()) FROM m": "d d d d d d int64 d d float64",
		"SELECT d, d + 1h, d / 2, typeof(d), concat('took ', d), to_json(d) FROM (SELECT max(time) - min(time) AS d FROM m)":                                                                                                                                "d d float64 string string string",
		"SELECT a.d, b.d - a.d FROM (SELECT series, max(time) - min(time) AS d FROM m GROUP BY series) a JOIN (SELECT series, 2 * (max(time) - min(time)) AS d FROM m GROUP BY series) b USING (series)":                                                    "d d",
		"SELECT sum(gap) OVER (ORDER BY time ROWS 3 PRECEDING), min(gap) OVER (), lag(gap) OVER (ORDER BY time), avg(gap) OVER () FROM (SELECT time, time - lag(time) OVER (ORDER BY time) AS gap FROM m)":                                                  "d d d d",
		"WITH g AS (SELECT time - lag(time) OVER (ORDER BY time) AS gap FROM m) SELECT gap, count(*) FROM g GROUP BY gap":                                                                                                                                   "d int64",
	} {
		if got := columnTypes(t, open, o, q); got != want {
			t.Errorf("%s: %s, want %s", q, got, want)
		}
	}
	got := mustRun(t, open, "SELECT 36h, -1250ms, d, typeof(d), concat('took ', 90m), to_json(90m), d > 1h, d = 1d + 1d FROM (SELECT 2d AS d)")
	want := []any{int64(36 * hourNS), int64(-1250e6), int64(2 * 24 * hourNS), "INTERVAL", "took 01:30:00", `"01:30:00"`, true, true}
	if d := diffCells(got, [][]any{want}); d != "" {
		t.Error(d)
	}
	// The parts of a span, as DuckDB takes them of an INTERVAL (its
	// answers); typed time literals subtract.
	got = mustRun(t, open, "SELECT date_part('year', x), date_part('month', x), date_part('day', x), hour(x), minute(x), date_part('second', x), date_part('millisecond', x), date_part('microsecond', x), date_part('epoch', x), day(y), hour(y), extract(millisecond FROM y) FROM (SELECT TIMESTAMP '2024-01-03 04:05:06.789' - TIMESTAMP '2024-01-01' AS x, TIMESTAMP '2024-01-01' - TIMESTAMP '2024-01-03 04:05:06.789' AS y)")
	want = []any{int64(0), int64(0), int64(2), int64(4), int64(5), int64(6), int64(6789), int64(6789000), 187506.789, int64(-2), int64(-4), int64(-6789)}
	if d := diffCells(got, [][]any{want}); d != "" {
		t.Error(d)
	}
	// The mean and the median of spans, to the nanosecond.
	got = mustRun(t, open, "SELECT avg(to_seconds(x)), median(to_seconds(x)), quantile_cont(to_seconds(x), 0.25) FROM (VALUES (1), (2), (4)) t(x)")
	if d := diffCells(got, [][]any{{int64(2333333333), int64(2e9), int64(1.5e9)}}); d != "" {
		t.Error(d)
	}
	// Windows of spans: sums, means (to the nanosecond, with and without
	// excluded rows) and extremes.
	got = mustRun(t, open, "SELECT x, sum(to_seconds(x)) OVER (ORDER BY x ROWS 1 PRECEDING), avg(to_seconds(x)) OVER (ORDER BY x ROWS 1 PRECEDING), min(to_seconds(x)) OVER (), avg(to_seconds(x)) OVER (ORDER BY x ROWS 1 PRECEDING EXCLUDE CURRENT ROW), avg(x) OVER () FROM (VALUES (1), (2), (4)) t(x) ORDER BY x")
	if d := diffCells(got, [][]any{
		{int64(1), int64(1e9), int64(1e9), int64(1e9), nil, 7.0 / 3},
		{int64(2), int64(3e9), int64(1.5e9), int64(1e9), int64(1e9), 7.0 / 3},
		{int64(4), int64(6e9), int64(3e9), int64(1e9), int64(2e9), 7.0 / 3},
	}); d != "" {
		t.Error(d)
	}
	// Spans of numbers; past int64 nanoseconds, NULL.
	got = mustRun(t, open, "SELECT to_seconds(1.5), to_days(-2), to_milliseconds(0.0005), to_days(200000), to_hours(2562047), to_hours(2562048), to_seconds(n), epoch_ms(to_hours(1)), epoch(to_minutes(3)) FROM m WHERE n = 3 LIMIT 1")
	want = []any{int64(1.5e9), int64(-2 * 24 * hourNS), int64(500), nil, 2562047 * hourNS, nil, int64(3e9), int64(3.6e6), 180.0}
	if d := diffCells(got, [][]any{want}); d != "" {
		t.Error(d)
	}
	// Whole units of a span go toward zero (DuckDB's of an INTERVAL), of
	// an instant down (the unit it falls in).
	got = mustRun(t, open, "SELECT epoch_ms(to_microseconds(-1500)), epoch_ms(to_microseconds(1500)), epoch_us(to_milliseconds(-0.0025)), epoch_ms(TIMESTAMP '1969-12-31 23:59:59.9985'), epoch_us(TIMESTAMP '1969-12-31 23:59:59.9999985') FROM m LIMIT 1")
	if d := diffCells(got, [][]any{{int64(-1), int64(1), int64(-2), int64(-2), int64(-2)}}); d != "" {
		t.Error(d)
	}
	if types := columnTypes(t, open, o, "SELECT to_seconds(n), epoch(to_seconds(n)), epoch_ms(to_seconds(n)) FROM m"); types != "d float64 int64" {
		t.Errorf("to_seconds, epoch and epoch_ms: %s", types)
	}
	// A span compared with duration literals, where the column is one.
	gaps := "(SELECT time - lag(time) OVER (ORDER BY time) AS gap FROM m)"
	all := mustRun(t, open, "SELECT count(*), count(*) FILTER (WHERE gap > 1s), count(*) FILTER (WHERE gap <= 1s) FROM "+gaps)
	for _, c := range []struct {
		where string
		want  any
	}{
		{"gap > 1s", all[0][1]},
		{"gap <= 1s", all[0][2]},
		{"gap > 1s OR gap <= 1s OR gap IS NULL", all[0][0]},
		{"gap NOT IN (1s, 2s) AND gap IN (0s, 1s, 2s)", mustRun(t, open, "SELECT count(*) FILTER (WHERE gap = 0s) FROM "+gaps)[0][0]},
	} {
		if got := mustRun(t, open, "SELECT count(*) FROM "+gaps+" WHERE "+c.where); got[0][0] != c.want {
			t.Errorf("WHERE %s: %v rows, want %v", c.where, got[0][0], c.want)
		}
	}
	// FILL(n) gives an empty bucket's span n nanoseconds.
	filled := mustRun(t, open, "SELECT max(gap) AS g, count(gap) AS c FROM (SELECT time, time - lag(time) OVER (ORDER BY time) AS gap FROM m) GROUP BY time(1s) FILL(7)")
	sevens := 0
	for _, r := range filled {
		if r[2] == int64(7) {
			if r[1] != int64(7) {
				t.Fatalf("an empty bucket's span: %v", r)
			}
			sevens++
		}
	}
	if sevens == 0 {
		t.Fatal("no empty bucket filled")
	}
	wantErrors(t, open, []errCase{
		{"SELECT count(*) FROM m WHERE n > 1m", `int64 column "n" compared with a duration`, "1m"},
		{"SELECT count(*) FROM m WHERE time > 1h", "a duration (1h) must be added to a time", "1h"},
		{"SELECT count(*) FROM m WHERE n IN (1m)", `int64 column "n" compared with a duration`, "1m"},
		{"SELECT date_part('dow', max(time) - min(time)) FROM m", "a span has days, hours, minutes, seconds and their fractions, not dayofweek", "date_part"},
		{"SELECT hour(5h, 'Europe/Berlin') FROM m", "a span is on no clock", "hour"},
	})
}

const hourNS = int64(3600e9)

// columnTypes runs q and names its columns' types: d for a duration,
// ts for a timestamp, else Arrow's name.
func columnTypes(t *testing.T, open Opener, o *Options, q string) string {
	t.Helper()
	rr, err := Run(t.Context(), q, open, o)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rr.Release()
	var types []string
	for _, f := range rr.Schema().Fields() {
		s := f.Type.String()
		switch {
		case s == "duration[ns]":
			s = "d"
		case strings.HasPrefix(s, "timestamp"):
			s = "ts"
		case s == "utf8":
			s = "string"
		}
		types = append(types, s)
	}
	return strings.Join(types, " ")
}
