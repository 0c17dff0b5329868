package query

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// FROM generate_series(start, stop [, step]) and FROM range(...), as
// DuckDB has them: one column of integers or of times, counted from
// start by step (1 by default; for times an interval, which they need)
// up to stop, which generate_series includes and range does not. With
// one argument n the count runs from 0 to n. A step below zero counts
// down; a step of zero is an error; a NULL argument gives no rows. A
// calendar step (INTERVAL 1 MONTH) is added to each time in turn, so a
// day clamped at a month's end stays clamped (Jan 31, Feb 29, Mar 29).
// The column is named after the function unless AS t(name) names it
// (AS t(time) makes the rows a timeline), the source after the function
// unless AS t names it; the rows are read as a
// subquery's result, so they join, filter and aggregate as one does:
// a grid of hours to LEFT JOIN readings to, say.

// GenSeries is a generate_series or range source.
type GenSeries struct {
	Func string // "generate_series" or "range"
	Name string // the column's name
	// Start, Stop and Step as written; Start is nil with one argument
	// (0), Step nil with fewer than three (1)
	Start, Stop, Step *Lit
	Times             bool // a series of times: Step is a duration or months
	Pos               int
}

// isGenSeries reports whether t, followed by "(", calls a table
// function of FROM.
func (p *parser) isGenSeries(t token) bool {
	if t.kind != tIdent {
		return false
	}
	next := p.tok(p.i + 1)
	l := strings.ToLower(t.text)
	return (l == "generate_series" || l == "range") && next.kind == tPunct && next.text == "("
}

// genSeries parses FROM generate_series(...) or range(...) [[AS] t
// [(name)]] into st, as the source subquery it is read as.
func (p *parser) genSeries(st *Statement) {
	t := p.advance()
	fn := strings.ToLower(t.text)
	p.expectPunct("(")
	var args []*Lit
	for {
		args = append(args, p.genArg())
		if len(args) > 3 {
			p.fail(args[3].Pos, "%s takes 1 to 3 arguments: (stop), (start, stop) or (start, stop, step)", fn)
		}
		if !p.acceptPunct(",") {
			break
		}
	}
	p.expectPunct(")")
	g := &GenSeries{Func: fn, Name: fn, Pos: t.pos}
	switch len(args) {
	case 1:
		g.Stop = args[0]
	case 2:
		g.Start, g.Stop = args[0], args[1]
	default:
		g.Start, g.Stop, g.Step = args[0], args[1], args[2]
	}
	p.checkGenSeries(g)
	sub := &Statement{Limit: -1, Stream: "(" + fn + ")", streamPos: t.pos, Gen: g}
	st.Sub, st.Stream, st.streamPos = sub, "(subquery)", t.pos
	st.subAlias, st.subAliasPos = p.aliasAfterSource(fn)
	if st.subAlias != "" && p.acceptPunct("(") { // AS t(name): the column's name
		n := p.advance()
		if n.kind != tIdent && n.kind != tQuoted {
			p.fail(n.pos, "expected a column name, found %s", n.describe())
		}
		g.Name = n.text
		if n.kind == tIdent && strings.EqualFold(n.text, ColTime) {
			g.Name = ColTime
		}
		if k := p.peek(); k.kind == tPunct && k.text == "," {
			p.fail(k.pos, "%s has one column: name it alone, as in AS t(x)", fn)
		}
		p.expectPunct(")")
	}
	if st.subAlias == "" { // its columns qualify by the function's name
		st.subAlias, st.subAliasPos = fn, t.pos
	}
	if g.Name == ColTime && !g.Times {
		p.fail(g.Pos, "a column named time holds times: %s here counts integers", fn)
	}
}

// genArg parses an argument of generate_series: a literal, or a step
// written as a duration or an interval (1h, INTERVAL 1 MONTH, -
// INTERVAL 1 DAY).
func (p *parser) genArg() *Lit {
	t := p.peek()
	neg := t.kind == tPunct && t.text == "-" && p.tok(p.i+1).kind == tDuration
	if neg {
		p.advance()
		t = p.peek()
	}
	if t.kind != tDuration {
		return p.literal()
	}
	p.advance()
	sign := int64(1)
	if neg {
		sign = -1
	}
	if n, ok := calendarMonths(t.text); ok {
		return &Lit{Kind: LitMonths, Int: sign * int64(n), Str: t.text, Pos: t.pos}
	}
	return &Lit{Kind: LitDuration, Int: sign * p.duration(t), Str: t.text, Pos: t.pos}
}

// checkGenSeries sets g.Times and fails on arguments of the wrong kind
// or a zero step.
func (p *parser) checkGenSeries(g *GenSeries) {
	isTime := func(l *Lit) bool { return l != nil && (l.Kind == LitTime || l.Kind == LitString && isTimeText(l.Str)) }
	g.Times = isTime(g.Start) || isTime(g.Stop)
	for _, l := range []*Lit{g.Start, g.Stop} {
		switch {
		case l == nil || l.Kind == LitNull:
		case g.Times && !isTime(l):
			p.fail(l.Pos, "%s of times wants times for start and stop, found %s", g.Func, litKindName(l.Kind))
		case !g.Times && l.Kind != LitInt:
			p.fail(l.Pos, "%s counts integers or times, found %s %s", g.Func, litKindName(l.Kind), l)
		}
	}
	s := g.Step
	switch {
	case g.Times && s == nil:
		p.fail(g.Pos, "%s of times wants a step: %s(start, stop, INTERVAL 1 HOUR)", g.Func, g.Func)
	case s == nil || s.Kind == LitNull:
	case g.Times && s.Kind != LitDuration && s.Kind != LitMonths:
		p.fail(s.Pos, "%s of times steps by an interval such as INTERVAL 1 HOUR or 15m, found %s", g.Func, litKindName(s.Kind))
	case !g.Times && s.Kind != LitInt:
		p.fail(s.Pos, "%s of integers steps by an integer, found %s", g.Func, litKindName(s.Kind))
	case s.Int == 0:
		p.fail(s.Pos, "%s cannot step by 0", g.Func)
	}
}

// genBatchRows is the rows of each batch a series is read in.
const genBatchRows = 1 << 14

// genReader reads a series in batches as they are asked for.
type genReader struct {
	refs       atomic.Int64
	schema     *arrow.Schema
	mem        memory.Allocator
	times      bool
	next, stop int64
	step       int64 // ns for times, unless months
	months     int64
	inclusive  bool
	done       bool
	cur        arrow.RecordBatch
}

// newGenReader resolves g's arguments (now is the query's now()).
func newGenReader(g *GenSeries, text string, now int64, mem memory.Allocator) (*genReader, error) {
	r := &genReader{mem: mem, times: g.Times, step: 1, inclusive: g.Func == "generate_series"}
	typ := arrow.DataType(arrow.PrimitiveTypes.Int64)
	if g.Times {
		typ = TimeType
	}
	r.schema = arrow.NewSchema([]arrow.Field{{Name: g.Name, Type: typ, Nullable: true}}, nil)
	r.refs.Store(1)
	resolve := func(l *Lit) (int64, bool, error) {
		switch {
		case l == nil:
			return 0, true, nil
		case l.Kind == LitNull:
			return 0, false, nil
		case !g.Times:
			return l.Int, true, nil
		case l.Now:
			return l.shifted(now), true, nil
		}
		ns, ok := parseTime(l.Str)
		if !ok {
			return 0, false, errAt(text, l.Pos, "%s: %q is not a time", g.Func, l.Str)
		}
		return l.shifted(ns), true, nil
	}
	var ok [2]bool
	var err error
	if r.next, ok[0], err = resolve(g.Start); err != nil {
		return nil, err
	}
	if r.stop, ok[1], err = resolve(g.Stop); err != nil {
		return nil, err
	}
	switch s := g.Step; {
	case s == nil:
	case s.Kind == LitNull:
		r.done = true
	case s.Kind == LitMonths:
		r.months, r.step = s.Int, 0
	default:
		r.step = s.Int
	}
	r.done = r.done || !ok[0] || !ok[1]
	return r, nil
}

func (r *genReader) Retain() { r.refs.Add(1) }

func (r *genReader) Release() {
	if r.refs.Add(-1) == 0 && r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
}

func (r *genReader) Schema() *arrow.Schema          { return r.schema }
func (r *genReader) Err() error                     { return nil }
func (r *genReader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch (deprecated in arrow-go).
func (r *genReader) Record() arrow.RecordBatch { return r.cur }

// within reports whether v is still in the series.
func (r *genReader) within(v int64) bool {
	up := r.step > 0 || r.months > 0
	switch {
	case up && r.inclusive:
		return v <= r.stop
	case up:
		return v < r.stop
	case r.inclusive:
		return v >= r.stop
	}
	return v > r.stop
}

// advance moves r.next one step on, and ends the series where the next
// value would leave int64 (or the times a timestamp holds).
func (r *genReader) advance() {
	if r.months != 0 {
		v := monthsLater(r.next, r.months)
		r.done = v.null
		r.next = v.i
		return
	}
	n := r.next + r.step
	if (r.step > 0 && n < r.next) || (r.step < 0 && n > r.next) {
		r.done = true
		return
	}
	r.next = n
}

func (r *genReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.done || !r.within(r.next) {
		r.done = true
		return false
	}
	var vals []int64
	for len(vals) < genBatchRows && !r.done && r.within(r.next) {
		vals = append(vals, r.next)
		r.advance()
	}
	r.done = r.done || !r.within(r.next)
	if r.times {
		b := array.NewTimestampBuilder(r.mem, TimeType)
		defer b.Release()
		b.Reserve(len(vals))
		for _, v := range vals {
			b.UnsafeAppend(arrow.Timestamp(v))
		}
		arr := b.NewArray()
		defer arr.Release()
		r.cur = array.NewRecordBatch(r.schema, []arrow.Array{arr}, int64(len(vals)))
		return true
	}
	b := array.NewInt64Builder(r.mem)
	defer b.Release()
	b.AppendValues(vals, nil)
	arr := b.NewArray()
	defer arr.Release()
	r.cur = array.NewRecordBatch(r.schema, []arrow.Array{arr}, int64(len(vals)))
	return true
}

// explainGen is the plan line of a series.
func explainGen(g *GenSeries) string {
	kind, step := "integers", "1"
	if g.Times {
		kind = "times"
	}
	if g.Step != nil {
		step = stepText(g.Step)
	}
	from := "0"
	if g.Start != nil {
		from = g.Start.String()
	}
	end := "excluded"
	if g.Func == "generate_series" {
		end = "included"
	}
	return fmt.Sprintf("%s: %s from %s to %s (%s) by %s", g.Func, kind, from, g.Stop.String(), end, step)
}

// stepText is a step as written, its sign included.
func stepText(l *Lit) string {
	if (l.Kind == LitDuration || l.Kind == LitMonths) && l.Int < 0 {
		return "-" + l.Str
	}
	return l.String()
}
