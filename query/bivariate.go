package query

import "math"

// The bivariate aggregates of SQL, over the pairs (y, x) of the rows
// where both are not null: corr, covar_pop, covar_samp, and the least
// squares line of y on x, regr_slope, regr_intercept, regr_r2 and
// regr_count. The moments are Welford's, one pass, and partial states
// merge as Chan et al. combine them (to within rounding, as stddev's).

// pairMoments are the running means of x and y, the sums of squared
// deviations from them and the sum of their products.
type pairMoments struct {
	mx, my, sxx, syy, sxy float64
}

// bivariateSpec plans bivariate aggregate c, s with y planned (x is
// c's By).
func (p *plan) bivariateSpec(c *Call, s aggSpec) (aggSpec, error) {
	var err error
	if s.byIn, s.by, err = p.aggInput(c, c.By, c.ByExpr); err != nil {
		return s, err
	}
	s.byArg = c.By.Name
	for _, a := range []struct {
		k   colKind
		col *ColRef
	}{{s.in, c.Arg}, {s.byIn, c.By}} {
		if !a.k.numeric() {
			return s, p.errAt(a.col.Pos, "type mismatch: %s of %s %q (want numbers; epoch(time) is a time in seconds)", c.Func, a.k, a.col.Name)
		}
	}
	s.out = kFloat
	if c.Func == "regr_count" {
		s.out = kInt
	}
	return s, nil
}

// addPair folds in the pair (y, x) of one row.
func (s *aggState) addPair(a *aggSpec, y, x value) {
	if y.null || x.null {
		return
	}
	if s.pair == nil {
		s.pair = &pairMoments{}
	}
	s.n++
	m, n := s.pair, float64(s.n)
	fx, fy := num(a.byIn, x), num(a.in, y)
	dx, dy := fx-m.mx, fy-m.my
	m.mx += dx / n
	m.my += dy / n
	m.sxx += dx * (fx - m.mx)
	m.syy += dy * (fy - m.my)
	m.sxy += dx * (fy - m.my)
}

// mergePairs folds o's pairs into s.
func (s *aggState) mergePairs(o *aggState) {
	if s.n == 0 {
		m := *o.pair
		s.n, s.pair = o.n, &m
		return
	}
	a, b := s.pair, o.pair
	na, nb := float64(s.n), float64(o.n)
	n := na + nb
	dx, dy := b.mx-a.mx, b.my-a.my
	a.sxx += b.sxx + dx*dx*na*nb/n
	a.syy += b.syy + dy*dy*na*nb/n
	a.sxy += b.sxy + dx*dy*na*nb/n
	a.mx += dx * nb / n
	a.my += dy * nb / n
	s.n += o.n
}

// pairResult returns bivariate aggregate fn of the pairs: null without
// pairs, and where it is undefined (a sample covariance of one pair; a
// correlation or a line when x, or for corr y, does not vary).
func (s *aggState) pairResult(fn string) value {
	if fn == "regr_count" {
		return value{i: s.n}
	}
	if s.n == 0 {
		return nullValue
	}
	m, n := s.pair, float64(s.n)
	switch fn {
	case "covar_pop":
		return fv(m.sxy / n)
	case "covar_samp":
		if s.n < 2 {
			return nullValue
		}
		return fv(m.sxy / (n - 1))
	}
	if m.sxx <= 0 {
		return nullValue
	}
	switch fn {
	case "regr_slope":
		return fv(m.sxy / m.sxx)
	case "regr_intercept":
		return fv(m.my - m.sxy/m.sxx*m.mx)
	case "regr_r2":
		if m.syy <= 0 {
			return fv(1) // y constant: the line fits it exactly
		}
		return fv(m.sxy * m.sxy / (m.sxx * m.syy))
	}
	// corr
	if m.syy <= 0 {
		return nullValue
	}
	return fv(m.sxy / math.Sqrt(m.sxx*m.syy))
}
