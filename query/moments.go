package query

import (
	"math"
	"slices"
)

// Further aggregates of one column: skewness and kurtosis (from online
// central moments), mode and entropy (from the values' counts), the
// median absolute deviation, and the bitwise aggregates. Each matches
// DuckDB's on the same rows: its bias corrections, its NULLs and NaNs
// for too few or constant values, entropy 0 for none.

// addMoments folds x into the running mean and the sums of the
// deviations' second to fourth powers (s.n counts x already).
func (s *aggState) addMoments(x float64) {
	n := float64(s.n)
	n1 := n - 1
	d := x - s.sumF
	dn := d / n
	dn2 := dn * dn
	t := d * dn * n1
	s.sumF += dn
	s.m4 += t*dn2*(n*n-3*n+3) + 6*dn2*s.m2 - 4*dn*s.m3
	s.m3 += t*dn*(n-2) - 3*dn*s.m2
	s.m2 += t
}

// mergeMoments folds the moments of o into s (Pébay's pairwise
// combination).
func (s *aggState) mergeMoments(o *aggState) {
	if s.n == 0 {
		s.n, s.sumF, s.m2, s.m3, s.m4 = o.n, o.sumF, o.m2, o.m3, o.m4
		return
	}
	na, nb := float64(s.n), float64(o.n)
	n := na + nb
	d := o.sumF - s.sumF
	d2 := d * d
	s.m4 += o.m4 + d2*d2*na*nb*(na*na-na*nb+nb*nb)/(n*n*n) + 6*d2*(na*na*o.m2+nb*nb*s.m2)/(n*n) + 4*d*(na*o.m3-nb*s.m3)/n
	s.m3 += o.m3 + d2*d*na*nb*(na-nb)/(n*n) + 3*d*(na*o.m2-nb*s.m2)/n
	s.m2 += o.m2 + d2*na*nb/n
	s.sumF += d * nb / n
	s.n += o.n
}

// momentResult is skewness (the sample skewness: NULL below 3 values,
// NaN when they are all equal), kurtosis (the sample excess kurtosis:
// NULL below 4 values or when they are all equal) or kurtosis_pop (the
// population excess kurtosis: NULL when the values are all equal).
func (s *aggState) momentResult(fn string) value {
	n := float64(s.n)
	m2, m3, m4 := s.m2/n, s.m3/n, s.m4/n
	switch fn {
	case "skewness":
		if s.n < 3 {
			return nullValue
		}
		if m2 <= 0 {
			return fv(math.NaN())
		}
		return fv(math.Sqrt(n*(n-1)) / (n - 2) * m3 / math.Pow(m2, 1.5))
	case "kurtosis":
		if s.n < 4 || m2 <= 0 {
			return nullValue
		}
		return fv((n - 1) * ((n+1)*m4/(m2*m2) - 3*(n-1)) / ((n - 2) * (n - 3)))
	}
	if m2 <= 0 {
		return nullValue
	}
	return fv(m4/(m2*m2) - 3)
}

// heldValues is the distinct values mode and entropy hold.
func (s *aggState) heldValues() int {
	if s.aggExtra == nil {
		return 0
	}
	return len(s.freq)
}

// addFreq counts value v n more times, first seen at (t, seq).
func (s *aggState) addFreq(a *aggSpec, v value, n, t, seq int64) {
	if s.freq == nil {
		s.freq = map[string]*valueFreq{}
	}
	k := distinctKey(a.in, v)
	f := s.freq[k]
	if f == nil {
		s.freq[k] = &valueFreq{n: n, t: t, seq: seq, v: v}
		return
	}
	f.n += n
	if t < f.t || t == f.t && seq < f.seq {
		f.t, f.seq = t, seq
	}
}

// mode is the most frequent value; of values as frequent, the one seen
// first by (time, seq).
func (s *aggState) mode() value {
	var best *valueFreq
	for _, f := range s.freq {
		if best == nil || f.n > best.n || f.n == best.n && (f.t < best.t || f.t == best.t && f.seq < best.seq) {
			best = f
		}
	}
	if best == nil {
		return nullValue
	}
	return best.v
}

// entropy is the Shannon entropy, in bits, of the values' frequencies.
// The counts are taken in a fixed order: the sum does not depend on the
// map's.
func (s *aggState) entropy() float64 {
	if s.aggExtra == nil || len(s.freq) == 0 {
		return 0
	}
	counts := make([]int64, 0, len(s.freq))
	total := int64(0)
	for _, f := range s.freq {
		counts = append(counts, f.n)
		total += f.n
	}
	slices.Sort(counts)
	var h fsum
	for _, c := range counts {
		p := float64(c) / float64(total)
		h.add(-p * math.Log2(p))
	}
	return h.value()
}

// mad is the median absolute deviation of vals: the median of the
// distances from their median.
func mad(vals []float64) float64 {
	m := quantile(vals, 0.5)
	dev := make([]float64, len(vals))
	for i, x := range vals {
		dev[i] = math.Abs(x - m)
	}
	return quantile(dev, 0.5)
}

// bitOp folds x into acc by the bitwise aggregate fn; first: acc holds
// nothing yet.
func bitOp(fn string, first bool, acc, x int64) int64 {
	switch {
	case first:
		return x
	case fn == "bit_and":
		return acc & x
	case fn == "bit_or":
		return acc | x
	}
	return acc ^ x
}
