package query

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// hourly returns a source of one sample an hour (v = the hour's index)
// from from to to (UTC).
func hourly(t *testing.T, from, to time.Time) Source {
	t.Helper()
	var rows []trow
	for tm := from; tm.Before(to); tm = tm.Add(time.Hour) {
		rows = append(rows, trow{seq: uint64(len(rows) + 1), time: tm.UnixNano(), series: "cpu", op: 1, f: map[string]any{"v": float64(len(rows))}})
	}
	src, err := buildSource(rand.New(rand.NewPCG(1, 1)), rows, 7)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestBucketZone: time(1d, 'Europe/Berlin') buckets start at Berlin
// midnight; the days clocks change last 23 and 25 hours; an hourly
// bucket of the repeated hour holds both; offsets shift UTC buckets;
// FILL makes the zone's empty days.
func TestBucketZone(t *testing.T) {
	utc := func(s string) string { tm, _ := time.Parse(time.RFC3339, s); return tm.UTC().Format(time.RFC3339) }
	run := func(src Source, q string) [][]any {
		t.Helper()
		got, err := runCells(q, openOnly(src), &Options{BatchRows: 5})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return got
	}
	check := func(got [][]any, want [][2]any) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%d rows %v, want %d", len(got), got, len(want))
		}
		for i, w := range want {
			ts := time.Unix(0, got[i][0].(int64)).UTC().Format(time.RFC3339)
			if ts != utc(w[0].(string)) || got[i][1] != w[1] {
				t.Fatalf("row %d: %s %v, want %s %v", i, ts, got[i][1], utc(w[0].(string)), w[1])
			}
		}
	}
	spring := hourly(t, time.Date(2024, 3, 29, 23, 0, 0, 0, time.UTC), time.Date(2024, 4, 1, 22, 0, 0, 0, time.UTC))
	check(run(spring, "SELECT time, count(*) FROM m GROUP BY time(1d, 'Europe/Berlin')"), [][2]any{
		{"2024-03-30T00:00:00+01:00", int64(24)}, {"2024-03-31T00:00:00+01:00", int64(23)}, {"2024-04-01T00:00:00+02:00", int64(24)}})
	fall := hourly(t, time.Date(2024, 10, 25, 22, 0, 0, 0, time.UTC), time.Date(2024, 10, 27, 23, 0, 0, 0, time.UTC))
	check(run(fall, "SELECT time, count(*) FROM m GROUP BY time(1d, 'Europe/Berlin')"), [][2]any{
		{"2024-10-26T00:00:00+02:00", int64(24)}, {"2024-10-27T00:00:00+02:00", int64(25)}})
	// 02:00 to 03:00 Berlin time happens twice on 2024-10-27: one bucket.
	got := run(fall, "SELECT time, count(*) FROM m WHERE time >= '2024-10-26T23:00:00Z' AND time < '2024-10-27T03:00:00Z' GROUP BY time(1h, 'Europe/Berlin')")
	if len(got) != 3 || got[1][1] != int64(2) {
		t.Fatalf("hours around the change: %v, want the repeated hour with 2 rows", got)
	}
	// Kolkata is 5h30 ahead: its hours start at :30 UTC.
	got = run(spring, "SELECT time, count(*) FROM m GROUP BY time(1h, 'Asia/Kolkata') LIMIT 1")
	if ts := time.Unix(0, got[0][0].(int64)).UTC(); ts.Minute() != 30 || got[0][1] != int64(1) {
		t.Fatalf("Kolkata hours: %v", got)
	}
	// An offset: 6-hour buckets from 02:00 UTC.
	check(run(spring, "SELECT time, count(*) FROM m WHERE time < '2024-03-30T09:00:00Z' GROUP BY time(6h, 2h)"), [][2]any{
		{"2024-03-29T20:00:00Z", int64(3)}, {"2024-03-30T02:00:00Z", int64(6)}, {"2024-03-30T08:00:00Z", int64(1)}})
	// FILL makes the empty local days, each starting at local midnight.
	gappy := hourly(t, time.Date(2024, 3, 29, 23, 0, 0, 0, time.UTC), time.Date(2024, 3, 30, 1, 0, 0, 0, time.UTC))
	check(run(gappy, "SELECT time, count(*) FROM m WHERE time >= '2024-03-29T23:00:00Z' AND time < '2024-04-02T00:00:00Z' GROUP BY time(1d, 'Europe/Berlin') FILL(0)"), [][2]any{
		{"2024-03-30T00:00:00+01:00", int64(2)}, {"2024-03-31T00:00:00+01:00", int64(0)}, {"2024-04-01T00:00:00+02:00", int64(0)}, {"2024-04-02T00:00:00+02:00", int64(0)}})
	plan := explainLines(t, spring, "EXPLAIN SELECT count(*) FROM m GROUP BY time(1d, 6h, 'Europe/Berlin')")
	if !strings.Contains(plan, "group by [time(1d, 6h, 'Europe/Berlin')]") {
		t.Fatalf("EXPLAIN:\n%s", plan)
	}
	for _, c := range []struct{ q, msg string }{
		{"SELECT count(*) FROM m GROUP BY time(1d, 'Mars/Olympus')", "unknown time zone"},
		{"SELECT count(*) FROM m GROUP BY time(1d, 'Local')", "unknown time zone"},
		{"SELECT count(*) FROM m GROUP BY time(1d, 3)", "an offset such as 15m or a time zone"},
		{"SELECT count(*) FROM m GROUP BY time(1d, 1h, 2h)", "time zone"},
	} {
		_, err := runCells(c.q, openOnly(spring), nil)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want %q", c.q, err, c.msg)
		}
	}
}

// TestBucketerEdges: every time lies in its span, the times of a span
// share its key, and spans meet, at the ends of int64 and around the
// changes of clocks (a repeated hour: two spans of one key).
func TestBucketerEdges(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	change := time.Date(2024, 10, 27, 0, 0, 0, 0, time.UTC).UnixNano()
	for _, b := range []*bucketer{newBucketer(int64(time.Hour), 0, nil, "a"), newBucketer(7e9, 3e9, nil, "b"),
		newBucketer(int64(time.Hour), int64(15*time.Minute), berlin, "c"), newBucketer(int64(24*time.Hour), 0, berlin, "d"),
		newBucketer(int64(15*time.Minute), 0, berlin, "e")} {
		times := []int64{math.MinInt64, math.MinInt64 + 5, -1, 0, 1, math.MaxInt64 - 3, math.MaxInt64}
		for k := int64(-8); k <= 12; k++ {
			times = append(times, change+k*int64(13*time.Minute))
		}
		for _, t0 := range times {
			lo, hi := b.span(t0)
			if !(lo <= t0 && (t0 < hi || hi == math.MaxInt64)) {
				t.Fatalf("%s: %d not in its span [%d, %d)", b, t0, lo, hi)
			}
			if k := b.key(t0); k != b.key(lo) || hi != math.MaxInt64 && k != b.key(hi-1) {
				t.Fatalf("%s: span [%d, %d) of %d has keys %d, %d, %d", b, lo, hi, t0, b.key(lo), k, b.key(hi-1))
			}
			if hi != math.MaxInt64 {
				if nlo, _ := b.span(hi); nlo != hi {
					t.Fatalf("%s: the span after [%d, %d) starts at %d", b, lo, hi, nlo)
				}
			}
		}
	}
}

// TestBucketMonths: time(1mo), time(3mo) and time(1y) are calendar
// months, quarters and years, on UTC or a zone's calendar; FILL makes
// the empty ones.
func TestBucketMonths(t *testing.T) {
	var rows []trow
	for d := time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC); d.Year() == 2024; d = d.AddDate(0, 0, 1) {
		rows = append(rows, trow{seq: uint64(len(rows) + 1), time: d.UnixNano(), series: "cpu", op: 1, f: map[string]any{"v": float64(d.Day())}})
	}
	src, err := buildSource(rand.New(rand.NewPCG(2, 2)), rows, 30)
	if err != nil {
		t.Fatal(err)
	}
	counts := func(q string) ([]int64, []time.Time) {
		t.Helper()
		got, err := runCells(q, openOnly(src), &Options{BatchRows: 4})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var n []int64
		var at []time.Time
		for _, r := range got {
			at = append(at, time.Unix(0, r[0].(int64)).UTC())
			n = append(n, r[1].(int64))
		}
		return n, at
	}
	n, at := counts("SELECT time, count(*) FROM m GROUP BY time(1mo)")
	if want := []int64{31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}; !slicesEqual(n, want) || at[1] != time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC) {
		t.Fatalf("months: %v from %v", n, at)
	}
	if n, _ := counts("SELECT time, count(*) FROM m GROUP BY time(3mo)"); !slicesEqual(n, []int64{91, 91, 92, 92}) {
		t.Fatalf("quarters: %v", n)
	}
	if n, at := counts("SELECT time, count(*) FROM m GROUP BY time(1y)"); !slicesEqual(n, []int64{366}) || at[0] != time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC) {
		t.Fatalf("years: %v at %v", n, at)
	}
	// In Kiritimati (UTC+14) noon UTC is 02:00 the next day: its months
	// start at 10:00 UTC the day before, and 2024-12-31 is in its 2025.
	n, at = counts("SELECT time, count(*) FROM m GROUP BY time(1mo, 'Pacific/Kiritimati')")
	if len(n) != 13 || n[0] != 30 || n[11] != 31 || n[12] != 1 || at[1] != time.Date(2024, 1, 31, 10, 0, 0, 0, time.UTC) {
		t.Fatalf("Kiritimati months: %v from %v", n, at)
	}
	n, at = counts("SELECT time, count(*) FROM m WHERE time >= '2024-03-01' AND time < '2024-04-01' OR time >= '2024-06-01' AND time < '2024-07-01' " +
		"GROUP BY time(1mo) FILL(0)")
	if !slicesEqual(n, []int64{31, 0, 0, 30}) || at[1] != time.Date(2024, 4, 1, 0, 0, 0, 0, time.UTC) {
		t.Fatalf("months filled: %v from %v", n, at)
	}
	for _, c := range []struct{ q, msg string }{
		{"SELECT count(*) FROM m GROUP BY time(0mo)", "1 to 1200 months"},
		{"SELECT count(*) FROM m GROUP BY time(1mo, 1d)", "not supported with calendar buckets"},
		{"SELECT count(*) FROM m GROUP BY time(1.5mo)", "bad duration"},
	} {
		_, err := runCells(c.q, openOnly(src), nil)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want %q", c.q, err, c.msg)
		}
	}
}

func slicesEqual(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
