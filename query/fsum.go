package query

import "math"

// fsum is a compensated (Neumaier) float sum: s holds the running sum
// and c the rounding errors of the additions into it, so that s+c is
// the true sum to within an ulp or so whatever the order of the values.
// The order of a parallel aggregate depends on which worker took which
// block; with a plain sum, the same query over the same data then gave
// answers differing in their last digits from run to run. With fsum
// they agree (and are more accurate): the rounded s+c is, but for
// extreme cancellation, the correctly rounded sum.
type fsum struct{ s, c float64 }

// twoSum returns a+b rounded and the error of that rounding (Knuth's
// branch-free TwoSum: exact for every pair of finite floats).
func twoSum(a, b float64) (s, err float64) {
	s = a + b
	bv := s - a
	av := s - bv
	return s, (a - av) + (b - bv)
}

// add adds v.
func (f *fsum) add(v float64) {
	s, e := twoSum(f.s, v)
	f.s, f.c = s, f.c+e
}

// merge adds the sum o.
func (f *fsum) merge(o fsum) {
	s, e := twoSum(f.s, o.s)
	f.s, f.c = s, f.c+e+o.c
}

// value returns the sum. Infinities and NaNs make the compensation NaN
// (inf - inf): the plain sum, which holds them, is the answer then.
func (f fsum) value() float64 {
	if math.IsInf(f.s, 0) || math.IsNaN(f.s) {
		return f.s
	}
	return f.s + f.c
}
