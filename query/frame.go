package query

import (
	"math"
	"strconv"
	"strings"
)

// Frame is a window's frame: the rows of the partition, around the
// current one, that an aggregate or a value function over the window
// reads. ROWS counts rows, GROUPS counts runs of peers (rows that tie
// on OVER's ORDER BY), RANGE measures the distance on OVER's one ORDER
// BY key (a number, or a time with a duration offset).
type Frame struct {
	Mode       string // "rows", "range" or "groups"
	Start, End FrameBound
	// Exclude leaves rows out of each row's frame: "current row", its
	// "group" of peers, its "ties" (the peers but the row); "": none.
	Exclude string
	Pos     int
}

// BoundKind is where a frame bound lies; the kinds are in order, and a
// frame may not start at a later kind than it ends.
type BoundKind uint8

const (
	UnboundedPreceding BoundKind = iota
	Preceding                    // Off rows, groups or key units before
	CurrentRow
	Following // Off rows, groups or key units after
	UnboundedFollowing
)

// FrameBound is a frame's start or end.
type FrameBound struct {
	Kind BoundKind
	Off  *Lit // Preceding, Following: an integer, a number or a duration
	// Months: Off is a calendar span (1mo, 1y: 12), measured on the UTC
	// calendar; 0 otherwise
	Months int
	Pos    int
}

func (b FrameBound) String() string {
	switch b.Kind {
	case UnboundedPreceding:
		return "UNBOUNDED PRECEDING"
	case Preceding:
		return b.Off.String() + " PRECEDING"
	case CurrentRow:
		return "CURRENT ROW"
	case Following:
		return b.Off.String() + " FOLLOWING"
	}
	return "UNBOUNDED FOLLOWING"
}

func (f *Frame) String() string {
	s := strings.ToUpper(f.Mode) + " BETWEEN " + f.Start.String() + " AND " + f.End.String()
	if f.Exclude != "" {
		s += " EXCLUDE " + strings.ToUpper(f.Exclude)
	}
	return s
}

// frame parses an optional frame after OVER's ORDER BY: {ROWS | RANGE
// | GROUPS} {bound | BETWEEN bound AND bound} [EXCLUDE {CURRENT ROW |
// GROUP | TIES | NO OTHERS}]; a bound alone is the start, and the frame
// ends at the current row.
func (p *parser) frame() *Frame {
	t := p.peek()
	if !isKw(t, "rows") && !isKw(t, "range") && !isKw(t, "groups") {
		return nil
	}
	p.advance()
	f := &Frame{Mode: strings.ToLower(t.text), Pos: t.pos}
	if p.acceptKw("between") {
		f.Start = p.frameBound()
		p.expectKw("and")
		f.End = p.frameBound()
	} else {
		f.Start = p.frameBound()
		f.End = FrameBound{Kind: CurrentRow, Pos: f.Start.Pos}
	}
	switch {
	case f.Start.Kind == UnboundedFollowing:
		p.fail(f.Start.Pos, "a window frame cannot start at UNBOUNDED FOLLOWING")
	case f.End.Kind == UnboundedPreceding:
		p.fail(f.End.Pos, "a window frame cannot end at UNBOUNDED PRECEDING")
	case f.Start.Kind > f.End.Kind:
		p.fail(f.End.Pos, "a window frame cannot end (%s) before it starts (%s)", f.End, f.Start)
	}
	if p.acceptKw("exclude") {
		switch t := p.advance(); {
		case isKw(t, "current") && isKw(p.peek(), "row"):
			p.advance()
			f.Exclude = "current row"
		case isKw(t, "group"):
			f.Exclude = "group"
		case isKw(t, "ties"):
			f.Exclude = "ties"
		case isKw(t, "no") && isKw(p.peek(), "others"):
			p.advance()
		default:
			p.fail(t.pos, "expected CURRENT ROW, GROUP, TIES or NO OTHERS after EXCLUDE, found %s", t.describe())
		}
	}
	return f
}

// frameBound parses UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n
// FOLLOWING or UNBOUNDED FOLLOWING; n is a non-negative integer, number
// or duration.
func (p *parser) frameBound() FrameBound {
	t := p.peek()
	b := FrameBound{Pos: t.pos}
	side := func() BoundKind {
		switch d := p.advance(); {
		case isKw(d, "preceding"):
			return Preceding
		case isKw(d, "following"):
			return Following
		default:
			p.fail(d.pos, "expected PRECEDING or FOLLOWING in the window frame, found %s", d.describe())
		}
		return 0
	}
	switch {
	case isKw(t, "unbounded"):
		p.advance()
		b.Kind = UnboundedPreceding
		if side() == Following {
			b.Kind = UnboundedFollowing
		}
		return b
	case isKw(t, "current"):
		p.advance()
		if r := p.advance(); !isKw(r, "row") {
			p.fail(r.pos, "expected ROW after CURRENT in the window frame, found %s", r.describe())
		}
		b.Kind = CurrentRow
		return b
	case isPunct(t, "-"):
		p.fail(t.pos, "a window frame's offset cannot be negative: PRECEDING looks back, FOLLOWING ahead")
	case t.kind == tInt:
		p.advance()
		n, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			p.fail(t.pos, "window frame offset %s is too large", t.text)
		}
		b.Off = &Lit{Kind: LitInt, Int: n, Pos: t.pos}
	case t.kind == tFloat:
		p.advance()
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil || math.IsInf(f, 0) {
			p.fail(t.pos, "bad window frame offset %s", t.text)
		}
		b.Off = &Lit{Kind: LitFloat, Float: f, Pos: t.pos}
	case t.kind == tDuration:
		p.advance()
		if n, ok := calendarMonths(t.text); ok { // months on the calendar (addMonths)
			b.Off, b.Months = &Lit{Kind: LitDuration, Str: t.text, Pos: t.pos}, n
			break
		}
		b.Off = &Lit{Kind: LitDuration, Int: p.duration(t), Str: t.text, Pos: t.pos}
	default:
		p.fail(t.pos, "expected UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n FOLLOWING or UNBOUNDED FOLLOWING in the window frame, found %s", t.describe())
	}
	b.Kind = side()
	return b
}

// framed are the window functions that read a frame: the others (the
// ranking functions, lag and lead) ignore it, as in SQL.
func framed(fn string) bool { return winAggs[fn] || valueFuncs[fn] }

// checkFrame refuses frame f of window function fn whose OVER orders by
// keys of kinds keys (in order) and says where (the error's text).
func checkFrame(f *Frame, fn string, keys []colKind) (pos int, msg string) {
	if f == nil {
		return 0, ""
	}
	switch fn {
	case "difference", "non_negative_difference", "derivative", "non_negative_derivative", "cumulative_sum", "moving_average":
		return f.Pos, fn + " takes no window frame: it steps from row to row in order (sum, avg, min, max, count and the value functions read frames)"
	}
	for _, b := range []FrameBound{f.Start, f.End} {
		if b.Off == nil {
			continue
		}
		switch {
		case f.Mode != "range" && b.Off.Kind != LitInt:
			return b.Off.Pos, strings.ToUpper(f.Mode) + " frames count " + f.Mode + ": the offset is a whole number, found " + b.Off.String()
		case f.Mode != "range":
		case len(keys) != 1:
			return b.Off.Pos, "a RANGE frame with an offset measures the distance on OVER's ORDER BY, which must have exactly one key (a number or a time)"
		case keys[0] == kTime && b.Off.Kind != LitDuration:
			return b.Off.Pos, "a RANGE frame over a time orders by it: the offset is a duration such as 1h, found " + b.Off.String()
		case keys[0] == kTime:
		case keys[0] != kInt && keys[0] != kFloat && keys[0] != kSeq:
			return b.Off.Pos, "a RANGE frame with an offset measures the distance on OVER's ORDER BY key, a number or a time, found " + keys[0].String()
		case b.Off.Kind == LitDuration:
			return b.Off.Pos, "a RANGE frame over a number: the offset is a number, found the duration " + b.Off.String()
		case b.Off.Kind == LitFloat && keys[0] != kFloat:
			return b.Off.Pos, "a RANGE frame over an integer: the offset is a whole number, found " + b.Off.String()
		}
	}
	if f.Mode == "groups" && len(keys) == 0 {
		return f.Pos, "a GROUPS frame counts runs of rows that tie on OVER's ORDER BY, which it needs"
	}
	return 0, ""
}
