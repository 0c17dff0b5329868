package query

import (
	"math"
	"time"
)

// Calendar functions, DuckDB's: last_day(t) is the first instant (UTC
// midnight) of the last day of t's month, a date as tsq keeps dates;
// make_date(y, m, d) that of a day and make_timestamp(y, mo, d, h, mi, s)
// an instant (s may have a fraction). A day or time that does not exist
// (make_date(2024, 2, 30)), or one past the range of instants, is NULL,
// where DuckDB fails.

// calendarFuncs are the text-call functions that give instants.
var calendarFuncs = map[string]bool{"last_day": true, "make_date": true, "make_timestamp": true}

// calendarValue computes fn of v (of the kinds of args).
func calendarValue(fn string, args []*arithPlan, v []value) (value, bool) {
	switch fn {
	case "last_day":
		y, m, _ := time.Unix(0, v[0].i).UTC().Date()
		return instantOf(time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC))
	case "make_date":
		return dateOf(v[0].i, v[1].i, v[2].i, 0, 0, 0)
	}
	if len(v) == 1 { // make_timestamp(us)
		if v[0].i > math.MaxInt64/1000 || v[0].i < math.MinInt64/1000 {
			return nullValue, false
		}
		return value{i: v[0].i * 1000}, true
	}
	sec := float64(v[5].i)
	if args[5].kind == kFloat {
		sec = v[5].fl()
	}
	if !(sec >= 0 && sec < 60) {
		return nullValue, false
	}
	whole := math.Floor(sec)
	return dateOf(v[0].i, v[1].i, v[2].i, v[3].i, v[4].i, int64(whole)*1e9+int64(math.Round((sec-whole)*1e9)))
}

// dateOf is the instant of the given UTC date and time of day, NULL
// when any part is out of its range.
func dateOf(y, mo, d, h, mi, ns int64) (value, bool) {
	if y < 1677 || y > 2262 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || ns < 0 || ns >= 60e9 {
		return nullValue, false
	}
	t := time.Date(int(y), time.Month(mo), int(d), int(h), int(mi), 0, int(ns), time.UTC)
	if t.Day() != int(d) { // February 30th rolled over
		return nullValue, false
	}
	return instantOf(t)
}

// instantOf is t as ns since the epoch, NULL past the int64 range.
func instantOf(t time.Time) (value, bool) {
	if t.Year() < 1678 || t.Year() > 2261 {
		if ns := t.UnixNano(); time.Unix(0, ns).UTC() != t.UTC() {
			return nullValue, false
		}
	}
	return value{i: t.UnixNano()}, true
}
