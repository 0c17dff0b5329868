package query

import (
	"strings"
	"time"
)

// date_diff('unit', a, b) is the number of unit boundaries from instant
// a to instant b on the UTC clock, negative when b is before a, as
// DuckDB counts them: date_diff('hour', 10:59, 11:01) is 1; a week is 7
// days of date_diff('day') (whole weeks, toward zero). date_sub('unit',
// a, b) is the number of whole units from a to b, as DuckDB's: hours
// from 10:59 to 11:01 are 0; a month from the 31st ends on the last day
// of a shorter month (January 31 to February 29 is one).

// compileDateDiff checks date_diff's unit, a literal, and keeps it
// normalized in the unit's plan.
func (p *plan) compileDateDiff(a *Arith, ap *arithPlan) error {
	u := ap.args[0]
	if u.lit == nil || u.lit.null {
		return p.errAt(a.Args[0].Pos, "%s() wants its unit as a string literal, such as 'day', not %s", a.Func, a.Args[0].String())
	}
	unit := strings.TrimSuffix(strings.ToLower(u.lit.s), "s")
	if _, ok := truncUnits[unit]; !ok {
		return p.errAt(a.Args[0].Pos, "%s: unknown unit %s (want microsecond, millisecond, second, minute, hour, day, week, month, quarter or year)", a.Func, a.Args[0].String())
	}
	u.lit = &value{s: unit}
	return nil
}

// dateDiff counts the unit's boundaries from a to b (ns since the epoch).
func dateDiff(unit string, a, b int64) int64 {
	if unit == "week" {
		return dateDiff("day", a, b) / 7
	}
	u := truncUnits[unit]
	if u.months == 0 {
		w := int64(u.width)
		return floorDiv(b, w) - floorDiv(a, w)
	}
	months := func(t int64) int64 {
		tm := time.Unix(0, t).UTC()
		return floorDiv(int64(tm.Year())*12+int64(tm.Month())-1, int64(u.months))
	}
	return months(b) - months(a)
}

// dateSub counts the whole units from a to b (ns since the epoch).
func dateSub(unit string, a, b int64) int64 {
	if a > b {
		return -dateSub(unit, b, a)
	}
	if unit == "week" {
		return dateSub("day", a, b) / 7
	}
	u := truncUnits[unit]
	if u.months == 0 {
		return (b - a) / int64(u.width)
	}
	ta, tb := time.Unix(0, a).UTC(), time.Unix(0, b).UTC()
	clock := func(t time.Time) int64 { return int64(t.Sub(t.Truncate(24 * time.Hour))) }
	startDay, endDay := ta.Day(), tb.Day()
	// Ending on the last day of its month, b completes a month begun on
	// a later day of a longer month.
	if last := time.Date(tb.Year(), tb.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day(); endDay == last &&
		(startDay > last || startDay == last && clock(ta) < clock(tb)) {
		startDay = last
	}
	months := int64(tb.Year()-ta.Year())*12 + int64(tb.Month()-ta.Month())
	if endDay < startDay || endDay == startDay && clock(tb) < clock(ta) {
		months--
	}
	return months / int64(u.months)
}
