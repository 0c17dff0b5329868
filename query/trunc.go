package query

import (
	"strings"
	"time"
)

// Instants computed by expressions: date_trunc('day', time) and
// time_bucket(15m, time) give the start of an instant's bucket, as a
// timestamp (time_bucket's counted from DuckDB's origin, 2000-01-03,
// where GROUP BY time() counts from the epoch); time ± a duration is a
// timestamp too. They project, group, order and compare with time
// literals.

// Trunc is the bucket of date_trunc or time_bucket (an Arith of Op 'f').
type Trunc struct {
	Unit   string // date_trunc's unit as written ("" for time_bucket)
	Width  int64  // ns; calendar buckets approximate it
	Months int    // calendar buckets of this many months
	Offset int64
	// MonthFrom: a month (year*12 + month-1) that starts a calendar
	// bucket (time_bucket: 2000-01, or its origin's)
	MonthFrom int64
	// the width, offset and origin as written (time_bucket)
	width, offset, origin string
}

// time_bucket's buckets start, unless its origin moves them, where
// DuckDB's do: a width's at 2000-01-03 (a Monday) and whole widths from
// it, calendar months' at January 2000.
const (
	bucketOrigin      = int64(946857600) * 1e9 // 2000-01-03T00:00:00Z
	bucketMonthOrigin = 2000 * 12
)

// truncFuncs are the functions that truncate instants.
var truncFuncs = map[string]bool{"date_trunc": true, "time_bucket": true}

// truncUnits are date_trunc's units: a width, calendar months, and an
// offset (weeks start on Monday, 1970-01-05).
var truncUnits = map[string]struct {
	width  time.Duration
	months int
	offset time.Duration
}{
	"microsecond": {width: time.Microsecond},
	"millisecond": {width: time.Millisecond},
	"second":      {width: time.Second},
	"minute":      {width: time.Minute},
	"hour":        {width: time.Hour},
	"day":         {width: 24 * time.Hour},
	"week":        {width: 7 * 24 * time.Hour, offset: 4 * 24 * time.Hour},
	"month":       {months: 1},
	"quarter":     {months: 3},
	"year":        {months: 12},
}

// truncCall parses the rest of a date_trunc or time_bucket call after its
// name: date_trunc('unit', t[, 'zone']), time_bucket(width, t[, offset][,
// 'zone']).
func (p *parser) truncCall(name token) *Arith {
	fn := strings.ToLower(name.text)
	p.expectPunct("(")
	tr := &Trunc{}
	if fn == "date_trunc" {
		u := p.advance()
		if u.kind != tString {
			p.fail(u.pos, "date_trunc wants a unit in quotes first, such as 'day', found %s", u.describe())
		}
		unit, ok := truncUnits[strings.TrimSuffix(strings.ToLower(u.text), "s")]
		if !ok {
			p.fail(u.pos, "date_trunc: unknown unit %q (want microsecond, millisecond, second, minute, hour, day, week, month, quarter or year)", u.text)
		}
		tr.Unit, tr.Width, tr.Months, tr.Offset = u.text, int64(unit.width), unit.months, int64(unit.offset)
		if unit.months > 0 {
			tr.Width = int64(unit.months) * 30 * 24 * int64(time.Hour)
		}
	} else {
		d := p.advance()
		if d.kind != tDuration {
			p.fail(d.pos, "time_bucket wants a width such as 15m first, found %s", d.describe())
		}
		tr.width = d.text
		tr.Width, tr.Months = p.bucketWidth(d, "time_bucket")
	}
	p.expectPunct(",")
	a := &Arith{Op: 'f', Func: fn, L: p.arith(), Trunc: tr, Pos: name.pos}
	if fn == "time_bucket" {
		tr.Offset, tr.MonthFrom = bucketOrigin, bucketMonthOrigin
		if p.acceptPunct(",") {
			a.Zone, a.zone = p.bucketOriginOffset(tr)
		}
	} else if p.acceptPunct(",") {
		z := p.peek()
		a.Zone, a.zone = p.zone(), z.text
	}
	p.expectPunct(")")
	return a
}

// bucketOriginOffset parses what follows time_bucket(width, t, in tr:
// an origin (a time: buckets start there and whole widths, or for
// calendar buckets whole months, from it), an offset (buckets move by
// it: a duration, or calendar months for calendar buckets) and then
// perhaps a zone, or a zone. It returns the zone.
func (p *parser) bucketOriginOffset(tr *Trunc) (*time.Location, string) {
	o := p.peek()
	switch {
	case o.kind == tString && (o.typed || isTimeText(o.text)):
		p.advance()
		ns, ok := parseTime(o.text)
		if !ok {
			p.fail(o.pos, "time_bucket: %q is not a time (the origin buckets start at)", o.text)
		}
		u := time.Unix(0, ns).UTC()
		tr.Offset, tr.MonthFrom, tr.origin = ns, int64(u.Year())*12+int64(u.Month())-1, o.text
		return nil, ""
	case o.kind != tDuration && !isPunct(o, "-"):
		z := p.peek()
		return p.zone(), z.text
	}
	neg := p.acceptPunct("-")
	if o = p.advance(); o.kind != tDuration {
		p.fail(o.pos, "time_bucket wants an offset such as 15m after the time, found %s", o.describe())
	}
	sign := int64(1)
	if tr.offset = o.text; neg {
		sign, tr.offset = -1, "-"+o.text
	}
	if n, ok := calendarMonths(o.text); ok {
		if tr.Months == 0 {
			p.fail(o.pos, "a calendar offset (%s) moves calendar buckets only, not buckets of %s", o.text, tr.width)
		}
		tr.MonthFrom += sign * int64(n)
	} else {
		if tr.Months > 0 {
			p.fail(o.pos, "an offset is not supported with calendar buckets (%s): give months (INTERVAL 1 MONTH) or an origin (TIMESTAMP '2000-01-15')", tr.width)
		}
		tr.Offset += sign * p.duration(o)
	}
	if !p.acceptPunct(",") {
		return nil, ""
	}
	z := p.peek()
	return p.zone(), z.text
}

// bucketWidth parses the width d of a bucket of fn (time() or
// time_bucket): a duration, or months or years (then months, the width
// approximating them at 30 days a month).
func (p *parser) bucketWidth(d token, fn string) (width int64, months int) {
	if n, ok := calendarMonths(d.text); ok {
		if n <= 0 || n > 1200 {
			p.fail(d.pos, "%s(%s): want 1 to 1200 months (100y)", strings.TrimSuffix(fn, " bucket"), d.text)
		}
		return int64(n) * 30 * 24 * int64(time.Hour), n
	}
	if width = p.duration(d); width <= 0 {
		p.fail(d.pos, "%s of 0: want a positive duration such as 5m", fn)
	}
	return width, 0
}

// offsetZone parses what may follow a bucket's width of text widthText
// and the comma after it in fn (after what): an offset, a zone, or both.
func (p *parser) offsetZone(fn, after, widthText string, months int) (offset int64, offsetText string, zone *time.Location, zoneText string) {
	if o := p.peek(); o.kind == tDuration || isPunct(o, "-") {
		neg := p.acceptPunct("-")
		if o = p.advance(); o.kind != tDuration {
			p.fail(o.pos, "%s wants an offset such as 15m after %s, found %s", fn, after, o.describe())
		}
		if months > 0 {
			p.fail(o.pos, "an offset is not supported with calendar buckets (%s)", widthText)
		}
		if offset, offsetText = p.duration(o), o.text; neg {
			offset, offsetText = -offset, "-"+o.text
		}
		if !p.acceptPunct(",") {
			return offset, offsetText, nil, ""
		}
	}
	z := p.peek()
	return offset, offsetText, p.zone(), z.text
}

// writeTrunc writes a, a date_trunc or time_bucket call.
func (a *Arith) writeTrunc(sb *strings.Builder) {
	tr := a.Trunc
	sb.WriteString(a.Func + "(")
	if a.Func == "date_trunc" {
		sb.WriteString("'" + tr.Unit + "'")
	} else {
		sb.WriteString(tr.width)
	}
	sb.WriteString(", ")
	a.L.write(sb, 0)
	if tr.offset != "" {
		sb.WriteString(", " + tr.offset)
	}
	if tr.origin != "" {
		sb.WriteString(", TIMESTAMP '" + tr.origin + "'")
	}
	if a.Zone != nil {
		sb.WriteString(", '" + a.zone + "'")
	}
	sb.WriteByte(')')
}

// bucketer returns the buckets of tr on the clock of loc (UTC when nil).
func (tr *Trunc) bucketer(loc *time.Location) *bucketer {
	bk := newBucketer(tr.Width, tr.Offset, loc, "")
	bk.months, bk.monthFrom = tr.Months, tr.MonthFrom
	return bk
}
