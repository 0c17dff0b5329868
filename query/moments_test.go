package query

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"
)

// TestMoreAggregates: skewness, kurtosis, kurtosis_pop, mad, geomean,
// product, mode, entropy and the bitwise aggregates of each series agree
// with a two-pass computation over the same rows, whatever the workers
// and batch sizes (their partial states merge); mode's ties go to the
// earliest row by (time, seq). Their NULLs for too few values are
// DuckDB's (TestInteropRandomSQL compares values with DuckDB's).
func TestMoreAggregates(t *testing.T) {
	src, rows := testSource(t, 4000, 70)
	open := openOnly(src)
	type acc struct {
		v   []float64 // v, in (time, seq) order
		n   []int64
		s   []string
		sAt map[string][2]int64 // first (time, seq) of each s
	}
	groups := map[string]*acc{}
	sorted := slices.Clone(rows)
	slices.SortFunc(sorted, byTimeSeq)
	for _, r := range sorted {
		if r.op != opPut {
			continue
		}
		g := groups[r.series]
		if g == nil {
			g = &acc{sAt: map[string][2]int64{}}
			groups[r.series] = g
		}
		if v, ok := r.f["v"].(float64); ok {
			g.v = append(g.v, v)
		}
		if n, ok := r.f["n"].(int64); ok {
			g.n = append(g.n, n)
		}
		if s, ok := r.f["s"].(string); ok {
			g.s = append(g.s, s)
			if _, ok := g.sAt[s]; !ok {
				g.sAt[s] = [2]int64{r.time, int64(r.seq)}
			}
		}
	}
	q := "SELECT series, skewness(v), kurtosis(v), kurtosis_pop(v), mad(v), geomean(v + 51), product(CASE WHEN n < 5 THEN n + 0.5 END), " +
		"mode(s), entropy(s), bit_and(n), bit_or(n), bit_xor(n), favg(v), arbitrary(s), mean(v) FROM m WHERE op = 'put' GROUP BY series ORDER BY series"
	for _, o := range []*Options{{Parallelism: 1}, {Parallelism: 4, BatchRows: 7}, {Parallelism: 3}} {
		rr, err := runCells(q, open, o)
		if err != nil {
			t.Fatal(err)
		}
		if len(rr) != len(groups) {
			t.Fatalf("%d groups, want %d", len(rr), len(groups))
		}
		for _, row := range rr {
			g := groups[row[0].(string)]
			want := []any{row[0]}
			want = append(want, moments(g.v)...)
			want = append(want, madOf(g.v), geomeanOf(g.v, 51), productOf(g.n))
			mode, ent := modeOf(g.s, g.sAt)
			want = append(want, mode, ent)
			want = append(want, bitsOf(g.n)...)
			want = append(want, meanOf(g.v), firstOf(g.s), meanOf(g.v))
			for c := range want {
				if !near(row[c], want[c]) {
					t.Fatalf("%+v: series %v column %d = %v, want %v", o, row[0], c, row[c], want[c])
				}
			}
		}
	}
	// Too few values, all equal, none.
	for _, c := range []struct {
		q    string
		want []any
	}{
		{"SELECT skewness(x), kurtosis(x), kurtosis_pop(x) FROM (VALUES (1.0), (1.0), (1.0), (1.0)) AS t(x)", []any{math.NaN(), nil, nil}},
		{"SELECT skewness(x), kurtosis(x), kurtosis_pop(x) FROM (VALUES (1.0), (2.0)) AS t(x)", []any{nil, nil, -2.0}},
		{"SELECT entropy(x), mode(x), mad(x), product(x), bit_or(x) FROM (VALUES (1)) AS t(x) WHERE x > 1", []any{0.0, nil, nil, nil, nil}},
		{"SELECT mode(x), entropy(x) FROM (VALUES ('b'), ('a'), ('a'), ('b'), ('c')) AS t(x)", []any{"b", 1.5219280948873621}},
		// A zero makes the geometric mean 0, a negative value NaN (DuckDB fails the query).
		{"SELECT geomean(x), geomean(x) FILTER (WHERE x <> 0), product(x) FROM (VALUES (0.0), (2.0), (-8.0)) AS t(x)", []any{math.NaN(), math.NaN(), 0.0}}, // product: -0, equal to 0
		{"SELECT geomean(x) FROM (VALUES (0.0), (2.0)) AS t(x)", []any{0.0}},
	} {
		got := mustRun(t, open, c.q)
		for i := range c.want {
			if !near(got[0][i], c.want[i]) {
				t.Errorf("%s: column %d = %v, want %v", c.q, i, got[0][i], c.want[i])
			}
		}
	}
	wantErrors(t, open, []errCase{
		{"SELECT skewness(s) FROM m", `type mismatch: skewness of string column "s"`, "s)"},
		{"SELECT bit_and(v) FROM m", `type mismatch: bit_and of float64 column "v" (want an integer)`, "v)"},
	})
}

// near compares a result cell with a wanted value: floats to 1e-9
// relative (NaN equal to NaN), the rest exactly.
func near(got, want any) bool {
	w, ok := want.(float64)
	if !ok {
		return fmt.Sprint(got) == fmt.Sprint(want)
	}
	g, ok := got.(float64)
	if !ok {
		return false
	}
	if math.IsNaN(w) || math.IsInf(w, 0) {
		return math.IsNaN(g) && math.IsNaN(w) || g == w
	}
	return math.Abs(g-w) <= 1e-9*max(1, math.Abs(w))
}

// moments returns skewness, kurtosis and kurtosis_pop of xs from their
// central moments, computed in two passes.
func moments(xs []float64) []any {
	n := float64(len(xs))
	if len(xs) == 0 {
		return []any{nil, nil, nil}
	}
	mean := 0.0
	for _, x := range xs {
		mean += x
	}
	mean /= n
	var m2, m3, m4 float64
	for _, x := range xs {
		d := x - mean
		m2 += d * d
		m3 += d * d * d
		m4 += d * d * d * d
	}
	m2, m3, m4 = m2/n, m3/n, m4/n
	out := []any{nil, nil, nil}
	if len(xs) >= 3 {
		out[0] = math.Sqrt(n*(n-1)) / (n - 2) * m3 / math.Pow(m2, 1.5)
		if m2 == 0 {
			out[0] = math.NaN()
		}
	}
	if len(xs) >= 4 && m2 > 0 {
		out[1] = (n - 1) * ((n+1)*m4/(m2*m2) - 3*(n-1)) / ((n - 2) * (n - 3))
	}
	if m2 > 0 {
		out[2] = m4/(m2*m2) - 3
	}
	return out
}

func medianOf(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func madOf(xs []float64) any {
	if len(xs) == 0 {
		return nil
	}
	m := medianOf(xs)
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - m)
	}
	return medianOf(dev)
}

func geomeanOf(xs []float64, plus float64) any {
	if len(xs) == 0 {
		return nil
	}
	s := 0.0
	for _, x := range xs {
		s += math.Log(x + plus)
	}
	return math.Exp(s / float64(len(xs)))
}

func productOf(ns []int64) any {
	p, any := 1.0, false
	for _, n := range ns {
		if n < 5 {
			p *= float64(n) + 0.5
			any = true
		}
	}
	if !any {
		return nil
	}
	return p
}

func modeOf(ss []string, at map[string][2]int64) (any, float64) {
	counts := map[string]int{}
	for _, s := range ss {
		counts[s]++
	}
	var best string
	for s, c := range counts {
		b := counts[best]
		if best == "" || c > b || c == b && (at[s][0] < at[best][0] || at[s][0] == at[best][0] && at[s][1] < at[best][1]) {
			best = s
		}
	}
	h := 0.0
	for _, c := range counts {
		p := float64(c) / float64(len(ss))
		h -= p * math.Log2(p)
	}
	if best == "" {
		return nil, 0
	}
	return best, h
}

func bitsOf(ns []int64) []any {
	if len(ns) == 0 {
		return []any{nil, nil, nil}
	}
	a, o, x := ns[0], ns[0], ns[0]
	for _, n := range ns[1:] {
		a, o, x = a&n, o|n, x^n
	}
	return []any{a, o, x}
}

func meanOf(xs []float64) any {
	if len(xs) == 0 {
		return nil
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func firstOf(ss []string) any {
	if len(ss) == 0 {
		return nil
	}
	return ss[0]
}

// TestMomentsNarrow: skewness and kurtosis of values far from zero
// against their spread (where power sums cancel: DuckDB's kurtosis_pop
// of such values is off by 1e-6 relative) agree with the exact rational
// answer to 1e-12.
func TestMomentsNarrow(t *testing.T) {
	vals := []float64{85.0, 86.5, 88.25, 90.0, 91.125, 93.0, 95.5, 97.75, 98.0, 96.0, 89.5}
	var lits []string
	for _, v := range vals {
		lits = append(lits, fmt.Sprintf("(%v)", v))
	}
	got := mustRun(t, openOnly(nil), "SELECT kurtosis_pop(x), skewness(x) FROM (VALUES "+strings.Join(lits, ", ")+") t(x)")
	// exact: population moments m2, m3, m4 of the rationals
	n := big.NewRat(int64(len(vals)), 1)
	mean := new(big.Rat)
	rs := make([]*big.Rat, len(vals))
	for i, v := range vals {
		rs[i] = new(big.Rat).SetFloat64(v)
		mean.Add(mean, rs[i])
	}
	mean.Quo(mean, n)
	m := [5]*big.Rat{}
	for k := range m {
		m[k] = new(big.Rat)
	}
	for _, r := range rs {
		d := new(big.Rat).Sub(r, mean)
		p := big.NewRat(1, 1)
		for k := 1; k <= 4; k++ {
			p.Mul(p, d)
			m[k].Add(m[k], p)
		}
	}
	for k := 2; k <= 4; k++ {
		m[k].Quo(m[k], n)
	}
	m2, _ := m[2].Float64()
	m4, _ := new(big.Rat).Quo(m[4], new(big.Rat).Mul(m[2], m[2])).Float64()
	kurt := m4 - 3
	m3, _ := m[3].Float64()
	nf := float64(len(vals))
	skew := m3 / math.Pow(m2, 1.5) * math.Sqrt(nf*(nf-1)) / (nf - 2) // DuckDB's sample skewness
	for i, want := range []float64{kurt, skew} {
		g, ok := got[0][i].(float64)
		if !ok || math.Abs(g-want) > 1e-12*math.Abs(want) {
			t.Errorf("column %d: %v, exact %v", i, got[0][i], want)
		}
	}
}
