package query

import (
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
	"quarter":   "the quarter, 1 to 4",
	"month":     "the month, 1 to 12",
	"day":       "the day of the month, 1 to 31",
	"hour":      "the hour, 0 to 23",
	"minute":    "the minute, 0 to 59",
	"second":    "the second, 0 to 59",
	"dayofweek": "the day of the week, 0 (Sunday) to 6",
	"isodow":    "the ISO day of the week, 1 (Monday) to 7",
	"dayofyear": "the day of the year, 1 to 366",
	"week":      "the ISO week, 1 to 53",
	// DuckDB's further parts (the answers are DuckDB's)
	"millisecond": "the second's milliseconds within the minute, 0 to 59999",
	"microsecond": "the second's microseconds within the minute, 0 to 59999999",
	"nanosecond":  "the second's nanoseconds within the minute",
	"isoyear":     "the ISO year, the year of the ISO week",
	"yearweek":    "the ISO year and week, 202053",
	"decade":      "the year / 10",
	"century":     "the century, 21 for 2001 to 2100",
	"millennium":  "the millennium, 3 for 2001 to 3000",
	"era":         "the era, 1 (AD) for a year above 0",
	"dayofmonth":  "day",
	"weekday":     "dayofweek",
	"weekofyear":  "week",
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
		case "dayofweek", "weekday":
			return ((days+4)%7 + 7) % 7 // 1970-01-01 was a Thursday
		case "isodow":
			return ((days+3)%7+7)%7 + 1
		case "millisecond":
			return ns % int64(time.Minute) / int64(time.Millisecond)
		case "microsecond":
			return ns % int64(time.Minute) / int64(time.Microsecond)
		case "nanosecond":
			return ns % int64(time.Minute)
		}
		loc = time.UTC
	}
	tm := time.Unix(0, t).In(loc)
	switch fn {
	case "year":
		return int64(tm.Year())
	case "quarter":
		return (int64(tm.Month())-1)/3 + 1
	case "month":
		return int64(tm.Month())
	case "day", "dayofmonth":
		return int64(tm.Day())
	case "millisecond", "microsecond", "nanosecond":
		ns := int64(tm.Second())*int64(time.Second) + int64(tm.Nanosecond())
		return ns / map[string]int64{"millisecond": 1e6, "microsecond": 1e3, "nanosecond": 1}[fn]
	case "decade":
		return floorDiv(int64(tm.Year()), 10)
	case "century":
		return floorDiv(int64(tm.Year())-1, 100) + 1
	case "millennium":
		return floorDiv(int64(tm.Year())-1, 1000) + 1
	case "era":
		if tm.Year() > 0 {
			return 1
		}
		return 0
	case "isoyear":
		y, _ := tm.ISOWeek()
		return int64(y)
	case "yearweek":
		y, w := tm.ISOWeek()
		return int64(y)*100 + int64(w)
	case "hour":
		return int64(tm.Hour())
	case "minute":
		return int64(tm.Minute())
	case "second":
		return int64(tm.Second())
	case "dayofweek", "weekday":
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

// partUnits maps the units of date_part and extract to time parts (and
// epoch, seconds since the epoch).
var partUnits = map[string]string{
	"year": "year", "quarter": "quarter", "month": "month", "week": "week", "day": "day",
	"hour": "hour", "minute": "minute", "second": "second", "dow": "dayofweek", "dayofweek": "dayofweek",
	"isodow": "isodow", "doy": "dayofyear", "dayofyear": "dayofyear", "epoch": "epoch",
	"millisecond": "millisecond", "milliseconds": "millisecond", "microsecond": "microsecond", "microseconds": "microsecond",
	"nanosecond": "nanosecond", "nanoseconds": "nanosecond", "isoyear": "isoyear", "yearweek": "yearweek",
	"decade": "decade", "century": "century", "millennium": "millennium", "era": "era",
}

// partCall parses the rest of date_part('unit', t[, 'zone']) or
// extract(unit FROM t) after its name: a time part (or epoch) named as
// written.
func (p *parser) partCall(name token) *Arith {
	syntax := strings.ToLower(name.text)
	p.expectPunct("(")
	u := p.advance()
	if syntax == "extract" && u.kind != tIdent || syntax == "date_part" && u.kind != tString {
		p.fail(u.pos, "%s wants a unit first, such as %s, found %s", syntax, map[string]string{"extract": "hour FROM time", "date_part": "'hour' in quotes"}[syntax], u.describe())
	}
	fn, ok := partUnits[strings.ToLower(u.text)]
	if !ok {
		p.fail(u.pos, "%s: unknown unit %q (want year, quarter, month, week, day, hour, minute, second, millisecond, microsecond, nanosecond, dow, isodow, doy, isoyear, yearweek, decade, century, millennium or epoch)", syntax, u.text)
	}
	if syntax == "extract" {
		p.expectKw("from")
	} else {
		p.expectPunct(",")
	}
	a := &Arith{Op: 'f', Func: fn, L: p.arith(), Pos: name.pos, Part: u.text, partSyntax: syntax}
	if syntax == "date_part" && fn != "epoch" && p.acceptPunct(",") {
		z := p.peek()
		a.Zone, a.zone = p.zone(), z.text
	}
	p.expectPunct(")")
	return a
}

// writePart writes a, a time part called as date_part or extract.
func (a *Arith) writePart(sb *strings.Builder) {
	if a.partSyntax == "extract" {
		sb.WriteString("extract(" + a.Part + " FROM ")
		a.L.write(sb, 0)
		sb.WriteByte(')')
		return
	}
	sb.WriteString("date_part('" + a.Part + "', ")
	a.L.write(sb, 0)
	if a.Zone != nil {
		sb.WriteString(", '" + a.zone + "'")
	}
	sb.WriteByte(')')
}
