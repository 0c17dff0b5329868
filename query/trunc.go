package query

import (
	"strings"
	"time"
)

// Instants computed by expressions: date_trunc('day', time) and
// time_bucket(15m, time) give the start of the bucket GROUP BY time()
// puts an instant in, as a timestamp; time ± a duration is a timestamp
// too. They project, group, order and compare with time literals.

// Trunc is the bucket of date_trunc or time_bucket (an Arith of Op 'f').
type Trunc struct {
	Unit   string // date_trunc's unit as written ("" for time_bucket)
	Width  int64  // ns; calendar buckets approximate it
	Months int    // calendar buckets of this many months
	Offset int64
	// the width and offset as written (time_bucket)
	width, offset string
}

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
	if fn == "time_bucket" && p.acceptPunct(",") {
		tr.Offset, tr.offset, a.Zone, a.zone = p.offsetZone("time_bucket", "the time", tr.width, tr.Months)
	} else if p.acceptPunct(",") {
		z := p.peek()
		a.Zone, a.zone = p.zone(), z.text
	}
	p.expectPunct(")")
	return a
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
	if a.Zone != nil {
		sb.WriteString(", '" + a.zone + "'")
	}
	sb.WriteByte(')')
}

// bucketer returns the buckets of tr on the clock of loc (UTC when nil).
func (tr *Trunc) bucketer(loc *time.Location) *bucketer {
	bk := newBucketer(tr.Width, tr.Offset, loc, "")
	bk.months = tr.Months
	return bk
}
