package query

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// TestRangeMonths: a RANGE frame of calendar months over time holds, for
// each row, the rows of its partition whose time lies between its own
// moved by those months on the UTC calendar, the day clamped to the
// month's last (March 31 less a month is February 28, or 29 in a leap
// year), computed here; 1y is 12 months, and INTERVAL 1 MONTH is 1mo.
func TestRangeMonths(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	var rows []trow
	for d := time.Date(2023, 1, 1, 12, 0, 0, 0, time.UTC); d.Year() < 2025; d = d.AddDate(0, 0, 1) {
		for _, s := range []string{"a", "b"} {
			if rng.IntN(4) == 0 || d.Day() >= 28 { // gaps, and every month's end
				r := trow{seq: uint64(len(rows) + 1), time: d.UnixNano(), series: s, op: 1, f: map[string]any{"v": float64(rng.IntN(1000))}}
				rows = append(rows, r)
			}
		}
	}
	src, err := buildSource(rng, rows, 50)
	if err != nil {
		t.Fatal(err)
	}
	open := openOnly(src)
	// inFrame reports whether row r lies in the frame [o moved by lo
	// months, o moved by hi months] of row o.
	inFrame := func(r, o trow, lo, hi int) bool {
		return r.series == o.series && r.time >= addMonthsRef(o.time, lo) && r.time <= addMonthsRef(o.time, hi)
	}
	for _, c := range []struct {
		frame  string
		lo, hi int
	}{
		{"RANGE BETWEEN INTERVAL 1 MONTH PRECEDING AND CURRENT ROW", -1, 0},
		{"RANGE 3mo PRECEDING", -3, 0},
		{"RANGE BETWEEN 1mo PRECEDING AND 1mo FOLLOWING", -1, 1},
		{"RANGE BETWEEN CURRENT ROW AND INTERVAL '1 year' FOLLOWING", 0, 12},
		{"RANGE BETWEEN 2mo FOLLOWING AND 3mo FOLLOWING", 2, 3},
	} {
		q := "SELECT seq, sum(v) OVER (PARTITION BY series ORDER BY time " + c.frame + "), count(*) OVER (PARTITION BY series ORDER BY time " + c.frame + ") FROM m ORDER BY seq"
		got := mustRun(t, open, q)
		if len(got) != len(rows) {
			t.Fatalf("%s: %d rows", q, len(got))
		}
		for i, o := range rows {
			var sum any
			n := int64(0)
			for _, r := range rows {
				if inFrame(r, o, c.lo, c.hi) {
					if sum == nil {
						sum = 0.0
					}
					sum = sum.(float64) + r.f["v"].(float64)
					n++
				}
			}
			if want := []any{o.seq, sum, n}; fmt.Sprint(got[i]) != fmt.Sprint(want) {
				t.Fatalf("%s: row %d (%s %s): %v, want %v", c.frame, i, o.series, time.Unix(0, o.time).UTC().Format(time.DateOnly), got[i], want)
			}
		}
	}
	// The clamp: March 31 less a month is the end of February.
	for _, c := range [][3]string{{"2024-03-31", "-1", "2024-02-29"}, {"2023-03-31", "-1", "2023-02-28"}, {"2024-01-31", "1", "2024-02-29"},
		{"2024-02-29", "12", "2025-02-28"}, {"2024-05-15", "-14", "2023-03-15"}} {
		from, _ := time.Parse(time.DateOnly, c[0])
		var n int
		fmt.Sscan(c[1], &n)
		if got := time.Unix(0, addMonths(from.UnixNano(), n)).UTC().Format(time.DateOnly); got != c[2] {
			t.Errorf("%s moved %d months: %s, want %s", c[0], n, got, c[2])
		}
	}
	if addMonths(time.Date(2262, 3, 1, 0, 0, 0, 0, time.UTC).Add(-time.Hour).UnixNano(), 2) != (1<<63)-1 {
		t.Errorf("past the int64 range: not its end")
	}
}

// addMonthsRef moves t by n months as the test computes it: by years and
// months, then the day clamped.
func addMonthsRef(t int64, n int) int64 {
	tm := time.Unix(0, t).UTC()
	total := tm.Year()*12 + int(tm.Month()) - 1 + n
	y, m := total/12, time.Month(total%12+1)
	days := time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
	return time.Date(y, m, min(tm.Day(), days), tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), time.UTC).UnixNano()
}
