package query

import (
	"slices"
	"strings"
	"time"
)

// Time parts: hour(time), dayofweek(time, 'Europe/Berlin'), ... are
// int64 functions of arithmetic, so they filter (WHERE hour(time)
// BETWEEN 9 AND 17 is written hour(time) >= 9 AND hour(time) <= 17),
// project, and group (GROUP BY hour(time): a daily profile).

// timeFuncs are the time-part functions and what each returns.
var timeFuncs = map[string]string{
	"year":      "the year",
	"month":     "the month, 1 to 12",
	"day":       "the day of the month, 1 to 31",
	"hour":      "the hour, 0 to 23",
	"minute":    "the minute, 0 to 59",
	"second":    "the second, 0 to 59",
	"dayofweek": "the day of the week, 0 (Sunday) to 6",
	"isodow":    "the ISO day of the week, 1 (Monday) to 7",
	"dayofyear": "the day of the year, 1 to 366",
	"week":      "the ISO week, 1 to 53",
}

// timePart returns part fn of the instant t (ns since the epoch) on the
// clock of loc (UTC when nil).
func timePart(fn string, t int64, loc *time.Location) int64 {
	if loc == nil {
		// UTC without a time.Time for the clock parts.
		const day = 24 * int64(time.Hour)
		ns := t % day
		days := t / day
		if ns < 0 {
			ns += day
			days--
		}
		switch fn {
		case "hour":
			return ns / int64(time.Hour)
		case "minute":
			return ns / int64(time.Minute) % 60
		case "second":
			return ns / int64(time.Second) % 60
		case "dayofweek":
			return ((days+4)%7 + 7) % 7 // 1970-01-01 was a Thursday
		case "isodow":
			return ((days+3)%7+7)%7 + 1
		}
		loc = time.UTC
	}
	tm := time.Unix(0, t).In(loc)
	switch fn {
	case "year":
		return int64(tm.Year())
	case "month":
		return int64(tm.Month())
	case "day":
		return int64(tm.Day())
	case "hour":
		return int64(tm.Hour())
	case "minute":
		return int64(tm.Minute())
	case "second":
		return int64(tm.Second())
	case "dayofweek":
		return int64(tm.Weekday())
	case "isodow":
		return (int64(tm.Weekday())+6)%7 + 1
	case "dayofyear":
		return int64(tm.YearDay())
	}
	_, w := tm.ISOWeek()
	return int64(w)
}

// timeCall parses the rest of a time-part call after its name: (arg[,
// 'zone']).
func (p *parser) timeCall(name token) *Arith {
	p.expectPunct("(")
	a := &Arith{Op: 'f', Func: strings.ToLower(name.text), L: p.arith(), Pos: name.pos}
	if p.acceptPunct(",") {
		z := p.peek()
		a.Zone = p.zone()
		a.zone = z.text
	}
	p.expectPunct(")")
	return a
}

// Functions returns the names of the language's functions: aggregates,
// window functions, numeric functions, time parts, truncations of
// time and text functions, sorted.
func Functions() []string {
	var out []string
	for _, m := range []map[string]bool{aggregates, winFuncs, numFuncs} {
		for f := range m {
			out = append(out, f)
		}
	}
	for f := range timeFuncs {
		out = append(out, f)
	}
	for f := range textFuncs {
		out = append(out, f)
	}
	for f := range truncFuncs {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}
