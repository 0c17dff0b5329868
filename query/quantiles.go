package query

import (
	"math"
	"strings"
)

// The quantiles as PostgreSQL and DuckDB spell them, besides quantile(q,
// x): quantile_cont(x, q) and percentile_cont(q) WITHIN GROUP (ORDER BY
// x) interpolate as quantile does; quantile_disc(x, q) and
// percentile_disc(q) WITHIN GROUP (ORDER BY x) return a value of the
// group, the first whose place in order reaches the fraction q.
// approx_quantile(x, q) is the exact quantile_cont. ORDER BY x DESC takes
// q from the top (1 - q).

// quantileSpellings maps each spelling to the aggregate it is.
var quantileSpellings = map[string]string{
	"quantile_cont": "quantile", "percentile_cont": "quantile", "approx_quantile": "quantile",
	"quantile_disc": "quantile_disc", "percentile_disc": "quantile_disc",
}

// quantileArgs parses the arguments of quantile spelling fn after its
// "(" into c, up to its ")" and, for the percentiles, WITHIN GROUP
// (ORDER BY x).
func (p *parser) quantileArgs(fn string, c *Call) {
	c.Func = quantileSpellings[fn]
	if !strings.HasPrefix(fn, "percentile") {
		p.aggArg(c)
		p.expectPunct(",")
		c.Q = p.fraction(fn)
		p.expectPunct(")")
		return
	}
	c.Q = p.fraction(fn)
	p.expectPunct(")")
	for _, kw := range []string{"within", "group"} {
		if t := p.advance(); !isKw(t, kw) {
			p.fail(t.pos, "%s(q) wants WITHIN GROUP (ORDER BY x) after it, found %s", fn, t.describe())
		}
	}
	p.expectPunct("(")
	p.expectKw("order")
	p.expectKw("by")
	p.aggArg(c)
	desc, nulls := p.direction()
	if nulls != 0 {
		p.fail(p.toks[p.i-1].pos, "%s ignores nulls: NULLS FIRST or LAST has no place in it", fn)
	}
	if desc {
		c.Q = 1 - c.Q
	}
	p.expectPunct(")")
}

// fraction reads the q of quantile spelling fn: a number in [0, 1].
func (p *parser) fraction(fn string) float64 {
	t := p.peek()
	if t.kind != tInt && t.kind != tFloat {
		p.fail(t.pos, "%s wants the fraction q, a number in [0, 1], found %s", fn, t.describe())
	}
	q := p.literal()
	v := q.Float
	if q.Kind == LitInt {
		v = float64(q.Int)
	}
	if !(v >= 0 && v <= 1) {
		p.fail(q.Pos, "%s's q = %v is outside [0, 1]", fn, v)
	}
	return v
}

// quantileDisc returns the value of vals (sorted here) whose place in
// order, counted from 1, is the first to reach q of them: the smallest
// for q = 0, as PostgreSQL's percentile_disc.
func quantileDisc(vals []float64, q float64) float64 {
	sortFloats(vals)
	i := int(math.Ceil(q*float64(len(vals)))) - 1
	return vals[min(max(i, 0), len(vals)-1)]
}
