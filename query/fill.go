package query

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Fill is GROUP BY time(d) FILL(...): what a bucket without rows holds
// (InfluxQL's fill). Without it such a bucket has no row.
type Fill struct {
	Kind  string  // "null", "previous", "linear" or "value"
	Value float64 // FILL(n)
	Pos   int
}

// fill parses FILL(null | previous | linear | none | n) after GROUP BY;
// none is no fill (nil).
func (p *parser) fill(st *Statement) {
	t := p.peek()
	if !isKw(t, "fill") || p.toks[p.i+1].kind != tPunct || p.toks[p.i+1].text != "(" {
		return
	}
	p.advance()
	p.advance()
	f := &Fill{Pos: t.pos}
	switch a := p.peek(); {
	case isKw(a, "null"), isKw(a, "previous"), isKw(a, "linear"), isKw(a, "none"):
		f.Kind = strings.ToLower(p.advance().text)
	case a.kind == tInt || a.kind == tFloat || a.kind == tPunct && a.text == "-":
		neg := p.acceptPunct("-")
		l := p.literal()
		f.Kind, f.Value = "value", l.Float
		if l.Kind == LitInt {
			f.Value = float64(l.Int)
		}
		if neg {
			f.Value = -f.Value
		}
	default:
		p.fail(a.pos, "FILL wants null, previous, linear, none or a number, found %s", a.describe())
	}
	p.expectPunct(")")
	if f.Kind != "none" {
		st.Fill = f
	}
}

// planFill checks FILL against the aggregate plan: it needs a time
// bucket, and a number fills only numeric aggregates (an int64 one
// with a whole number).
func (p *plan) planFill(f *Fill) error {
	a := p.agg
	if !slices.ContainsFunc(a.groups, func(g groupSpec) bool { return g.kind == gBucket }) {
		return p.errAt(f.Pos, "FILL needs GROUP BY time(...): it fills the buckets without rows")
	}
	if f.Kind == "value" {
		for _, s := range a.aggs {
			if (s.out == kInt || s.out == kDuration) && f.Value != math.Trunc(f.Value) {
				return p.errAt(f.Pos, "FILL(%v) on %s, an int64: fill with a whole number", f.Value, s.name)
			}
		}
	}
	a.fill = f
	return nil
}

// fillGaps adds to gs a group for each bucket from lo to hi (bucket
// starts, inclusive) that a combination of the other group values
// lacks; with no group at all and no other GROUP BY term, the buckets
// of the one combination. FILL(previous) gives a new group the states of
// the one before it; null and a number, empty states (rows then writes
// the number). It fails when that would pass maxGroups.
func (a *aggPlan) fillGaps(gs *groups, lo, hi int64) error {
	bi := slices.IndexFunc(a.groups, func(g groupSpec) bool { return g.kind == gBucket })
	bucket := a.groups[bi].bk
	if lo > hi {
		return nil
	}
	if len(gs.m) == 0 && len(a.groups) == 1 {
		gs.rest("")
	}
	// Buckets are d wide, but for an hour of daylight saving each way.
	d := bucket.d
	if bucket.loc != nil && d > int64(time.Hour) {
		d -= int64(time.Hour)
	}
	if bucket.months > 0 { // the shortest months
		d = int64(bucket.months) * 28 * 24 * int64(time.Hour)
	}
	buckets := (uint64(hi)-uint64(lo))/uint64(d) + 1
	if buckets > uint64(maxGroups) || buckets*uint64(len(gs.m)) > uint64(maxGroups) {
		return &fillLimitError{buckets, len(gs.m)}
	}
	for _, bk := range gs.m {
		var proto []value // the combination's values
		for _, g := range bk.m {
			proto = g.vals
			break
		}
		if proto == nil {
			proto = make([]value, len(a.groups))
		}
		var prev *group
		for b := lo; ; {
			g := bk.m[b]
			if g == nil {
				g = &group{vals: slices.Clone(proto), filled: true}
				g.vals[bi] = value{i: b}
				if a.fill.Kind == "previous" && prev != nil {
					g.states = prev.states // read only from here on
				} else {
					g.states = make([]aggState, len(a.aggs))
				}
				bk.m[b] = g
				gs.n++
			}
			prev = g
			next := bucket.next(b)
			if next > hi || next <= b {
				break
			}
			b = next
		}
	}
	return nil
}

// fillBounds returns the first and last bucket starts to fill: those of
// the WHERE clause's time bounds where it has them, else of the groups
// found; with a lower bound only, up to now.
func (a *aggPlan) fillBounds(gs *groups, tlo, thi, now int64) (lo, hi int64) {
	bi := slices.IndexFunc(a.groups, func(g groupSpec) bool { return g.kind == gBucket })
	bk := a.groups[bi].bk
	lo, hi = math.MaxInt64, math.MinInt64
	for _, bk := range gs.m {
		for b := range bk.m {
			lo, hi = min(lo, b), max(hi, b)
		}
	}
	if tlo != math.MinInt64 {
		lo = bk.key(tlo)
	}
	switch {
	case thi != math.MaxInt64:
		hi = bk.key(thi)
	case tlo != math.MinInt64:
		hi = max(hi, bk.key(now))
	}
	return lo, hi
}

// linearFill sets each numeric aggregate of the filled rows to the
// straight line, in time, between the nearest rows with a value before
// and after it in its partition (the other group values); a filled row
// without both stays as FILL(null) leaves it. An int64 aggregate is
// rounded.
func (a *aggPlan) linearFill(rows [][]value, filled []bool, out []outCol) {
	tcol, parts := a.timeAndParts()
	idx := make([]int, len(rows))
	for i := range idx {
		idx[i] = i
	}
	samePart := func(x, y []value) int {
		for _, pc := range parts {
			if d := compareValues(out[pc].kind, x[pc], y[pc]); d != 0 {
				return d
			}
		}
		return 0
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		if d := samePart(rows[i], rows[j]); d != 0 {
			return d
		}
		return cmp3(rows[i][tcol].i, rows[j][tcol].i)
	})
	for c, o := range a.outOf {
		if o.a < 0 || (a.aggs[o.a].out != kInt && a.aggs[o.a].out != kFloat && a.aggs[o.a].out != kDuration) {
			continue
		}
		k := a.aggs[o.a].out
		has := func(i int) bool { return !filled[i] && !rows[i][c].null }
		for lo := 0; lo < len(idx); {
			hi := lo + 1
			for hi < len(idx) && samePart(rows[idx[lo]], rows[idx[hi]]) == 0 {
				hi++
			}
			prev := -1
			for p := lo; p < hi; p++ {
				i := idx[p]
				if has(i) {
					prev = i
					continue
				}
				if !filled[i] || prev < 0 {
					continue
				}
				next := -1
				for q := p + 1; q < hi; q++ {
					if has(idx[q]) {
						next = idx[q]
						break
					}
				}
				if next < 0 {
					break // no value after: the rest stay unfilled
				}
				t0, t1, t := rows[prev][tcol].i, rows[next][tcol].i, rows[i][tcol].i
				y0, y1 := num(k, rows[prev][c]), num(k, rows[next][c])
				y := y0 + (y1-y0)*(float64(t-t0)/float64(t1-t0))
				if k == kInt || k == kDuration {
					rows[i][c] = value{i: int64(math.Round(y))}
				} else {
					rows[i][c] = fv(y)
				}
			}
			lo = hi
		}
	}
}

// timeAndParts returns the result columns of the time bucket and of the
// other group terms, the partitions of FILL(linear) and of window
// functions.
func (a *aggPlan) timeAndParts() (tcol int, parts []int) {
	seen := make([]bool, len(a.groups))
	for c, o := range a.outOf {
		if o.g < 0 || seen[o.g] {
			continue
		}
		seen[o.g] = true
		if a.groups[o.g].kind == gBucket {
			tcol = c
		} else {
			parts = append(parts, c)
		}
	}
	return tcol, parts
}

// fillLimitError is a FILL that would make more rows than a query may
// hold (maxGroups): a limit of the result, not a mistake in the text.
type fillLimitError struct {
	buckets uint64
	groups  int
}

func (e *fillLimitError) Error() string {
	return fmt.Sprintf("query: FILL would make %d buckets for each of %d groups (more than %d rows); use a wider time bucket or a narrower time range",
		e.buckets, e.groups, maxGroups)
}
