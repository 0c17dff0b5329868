package query

import (
	"testing"
	"time"
)

// TestCalendarSpans: a span of months or years added to or subtracted
// from a time moves its UTC date by whole months, keeping the time of
// day, a day past the month's end clamped to its last (the answers are
// DuckDB's); in a computed column, in a time literal WHERE compares
// with, and refused where it is no time arithmetic.
func TestCalendarSpans(t *testing.T) {
	src, rows := testSource(t, 300, 50)
	open := openOnly(src)
	ts := func(s string) int64 {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v.UnixNano()
	}
	got := mustRun(t, open, "SELECT TIMESTAMP '2024-01-31 10:00:00' + INTERVAL 1 MONTH, TIMESTAMP '2023-03-31' - INTERVAL 1 MONTH, "+
		"INTERVAL 3 MONTH + TIMESTAMP '2024-11-30', '2024-02-29' + INTERVAL '1 year', '2024-05-15T12:30:00Z' - INTERVAL 14 MONTHS, "+
		"date_trunc('month', TIMESTAMP '2024-02-10') + INTERVAL 1 MONTH - INTERVAL 1 DAY")
	for i, want := range []string{"2024-02-29T10:00:00Z", "2023-02-28T00:00:00Z", "2025-02-28T00:00:00Z", "2025-02-28T00:00:00Z", "2023-03-15T12:30:00Z", "2024-02-29T00:00:00Z"} {
		if got[0][i] != ts(want) {
			t.Errorf("column %d: %v, want %s", i, time.Unix(0, got[0][i].(int64)).UTC(), want)
		}
	}
	// On a stream's times, against Go's calendar.
	out := mustRun(t, open, "SELECT time, time + INTERVAL 1 MONTH, time - INTERVAL 2 YEARS FROM m ORDER BY seq")
	if len(out) != len(rows) {
		t.Fatalf("%d rows", len(out))
	}
	for _, r := range out {
		tm := time.Unix(0, r[0].(int64)).UTC()
		if want := tm.AddDate(0, 1, 0); tm.Day() <= 28 && r[1] != want.UnixNano() {
			t.Fatalf("%v + 1 month = %v, want %v", tm, time.Unix(0, r[1].(int64)).UTC(), want)
		}
		if want := tm.AddDate(-2, 0, 0); tm.Day() <= 28 && r[2] != want.UnixNano() {
			t.Fatalf("%v - 2 years = %v, want %v", tm, time.Unix(0, r[2].(int64)).UTC(), want)
		}
	}
	// A time literal with a span: every row is within the last month of
	// now (the rows span 5 hours before it), none within 1 month of now
	// less 2 months.
	for q, want := range map[string]int64{
		"SELECT count(*) FROM m WHERE time > now() - INTERVAL 1 MONTH":                  int64(len(rows)),
		"SELECT count(*) FROM m WHERE time > now() - INTERVAL 1 MONTH - INTERVAL 1 DAY": int64(len(rows)),
		"SELECT count(*) FROM m WHERE time < now() - INTERVAL 2 MONTH + INTERVAL 1 DAY": 0,
	} {
		if got := mustRun(t, open, q)[0][0].(int64); got != want {
			t.Errorf("%s: %d, want %d", q, got, want)
		}
	}
	// A month later on both sides: the rows after the middle one (the
	// rows are not near a month's end).
	mid := time.Unix(0, rows[len(rows)/2].time).UTC().Format(time.RFC3339Nano)
	later := mustRun(t, open, "SELECT count(*) FROM m WHERE time + INTERVAL 1 MONTH > '"+mid+"' + INTERVAL 1 MONTH")[0][0].(int64)
	if after := mustRun(t, open, "SELECT count(*) FROM m WHERE time > '"+mid+"'")[0][0].(int64); later != after || later == 0 || later == int64(len(rows)) {
		t.Errorf("a month later: %d rows, after %s %d of %d", later, mid, after, len(rows))
	}
	wantErrors(t, open, []errCase{
		{"SELECT v + INTERVAL 1 MONTH FROM m", "1mo is a calendar span: it adds to a time, not to float64", "INTERVAL 1 MONTH"},
		{"SELECT INTERVAL 1 MONTH FROM m", "1mo is a calendar span: it can only be added to or subtracted from a time", "INTERVAL"},
		{"SELECT count(*) FROM m WHERE time > now() - 1d - INTERVAL 1 MONTH", "a calendar span (1mo) after a duration: write it first", "INTERVAL 1 MONTH"},
	})
}
