package query

import (
	"math"
	"strconv"
)

// Calendar spans in arithmetic: time + INTERVAL 1 MONTH, time - 2y,
// date_trunc('month', time) + INTERVAL 1 MONTH. A month is no fixed
// number of nanoseconds, so a span of months or years (LitMonths) is not
// a duration: it moves a time's UTC date by whole months, keeping the
// time of day, and a day past the new month's end becomes its last day
// (2024-01-31 + 1 month is 2024-02-29), as DuckDB and PostgreSQL add
// an interval of months.

func (a *Arith) isMonths() bool { return a != nil && a.Lit != nil && a.Lit.Kind == LitMonths }

// compileMonths compiles a when it adds or subtracts a calendar span
// (ok), and refuses a span anywhere else.
func (p *plan) compileMonths(a *Arith, leaf func(a *Arith, ap *arithPlan) error) (ap *arithPlan, ok bool, err error) {
	switch {
	case a.isMonths():
		return nil, true, p.errAt(a.Pos, "%s is a calendar span: it can only be added to or subtracted from a time (time + INTERVAL 1 MONTH)", a.Lit.Str)
	case a.Op != '+' && a.Op != '-' || !a.R.isMonths() && !(a.Op == '+' && a.L.isMonths()):
		return nil, false, nil
	}
	t, span := a.L, a.R
	if a.L.isMonths() {
		t, span = a.R, a.L
	}
	if t.isMonths() {
		return nil, true, p.errAt(a.Pos, "calendar spans add to a time, not to each other: write %s as one span", a.String())
	}
	tp, err := p.compileArith(t, leaf)
	if err != nil {
		return nil, true, err
	}
	p.textAsTime(t, tp)
	if !tp.ts {
		return nil, true, p.errAt(span.Pos, "%s is a calendar span: it adds to a time, not to %s (a number of days is INTERVAL n DAY)", span.Lit.Str, tp.kind)
	}
	n := span.Lit.Int
	if a.Op == '-' {
		n = -n
	}
	return &arithPlan{op: 'f', fn: "add_months", l: tp, r: &arithPlan{kind: kInt, lit: &value{i: n}, hid: -1}, kind: kInt, ts: true, hid: -1, hasCase: tp.hasCase}, true, nil
}

// monthsLater is addMonths as a value: NULL past the range of
// instants.
func monthsLater(ns, n int64) value {
	if n > 1<<20 || n < -(1<<20) {
		return nullValue
	}
	t := addMonths(ns, int(n))
	if t == math.MinInt64 || t == math.MaxInt64 {
		return nullValue
	}
	return value{i: t}
}

// shifted is the time literal l resolved from its base (ns): its months,
// then its duration, added.
func (l *Lit) shifted(base int64) int64 {
	if l.Months != 0 {
		if v := monthsLater(base, l.Months); !v.null {
			base = v.i
		} else if l.Months < 0 {
			base = math.MinInt64
		} else {
			base = math.MaxInt64
		}
	}
	return clampAdd(base, l.Shift)
}

// monthsText writes a span of n months as a duration token: 2y, 14mo.
func monthsText(n int64) string {
	if n%12 == 0 {
		return strconv.FormatInt(n/12, 10) + "y"
	}
	return strconv.FormatInt(n, 10) + "mo"
}
