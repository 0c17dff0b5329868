package query

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

// exactSum is the correctly rounded sum of vs.
func exactSum(vs []float64) float64 {
	acc := new(big.Float).SetPrec(4096)
	for _, v := range vs {
		acc.Add(acc, new(big.Float).SetPrec(4096).SetFloat64(v))
	}
	f, _ := acc.Float64()
	return f
}

// TestFsumOrderFree: however values are ordered, split into partial
// sums and merged, fsum gives the correctly rounded sum, every time;
// a plain sum does not (the check that the data can tell).
func TestFsumOrderFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	shapes := map[string]func() float64{
		"metrics":      func() float64 { return 50 + rng.NormFloat64()*12.3456789 },
		"large offset": func() float64 { return 1.7e9 + rng.Float64()*1e3 },
		"magnitudes":   func() float64 { return math.Ldexp(rng.Float64()-0.5, rng.IntN(80)-40) },
		"cancelling": func() float64 {
			v := rng.NormFloat64() * 1e12
			if rng.IntN(2) == 0 {
				return -v
			}
			return v + rng.Float64()
		},
	}
	for name, gen := range shapes {
		vs := make([]float64, 20_000)
		for i := range vs {
			vs[i] = gen()
		}
		want := exactSum(vs)
		plain := map[float64]bool{}
		for trial := range 50 {
			order := rng.Perm(len(vs))
			parts := make([]fsum, 1+trial%8)
			var p float64
			for _, i := range order {
				parts[rng.IntN(len(parts))].add(vs[i])
				p += vs[i]
			}
			plain[p] = true
			var total fsum
			for _, k := range rng.Perm(len(parts)) {
				total.merge(parts[k])
			}
			if got := total.value(); got != want {
				t.Fatalf("%s, trial %d: fsum %v, exact %v", name, trial, got, want)
			}
		}
		if len(plain) < 2 {
			t.Logf("%s: a plain sum gave one answer over 50 orders", name)
		}
	}
	var f fsum
	for _, v := range []float64{1, math.Inf(1), 2} {
		f.add(v)
	}
	if !math.IsInf(f.value(), 1) {
		t.Fatalf("sum with +Inf: %v", f.value())
	}
	f = fsum{}
	f.add(math.NaN())
	if !math.IsNaN(f.value()) {
		t.Fatalf("sum with NaN: %v", f.value())
	}
}

// TestSumDeterministic: sum and avg of float values give the same,
// correctly rounded answer whatever the parallelism and however the
// blocks fall to the workers.
func TestSumDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	t0 := modelNow.Add(-24 * time.Hour).UnixNano()
	rows := make([]trow, 30_000)
	by := map[string][]float64{}
	for i := range rows {
		s := testSeries[i%3]
		x := 1000 + rng.NormFloat64()*3.14159
		rows[i] = trow{seq: uint64(i + 1), time: t0 + int64(i)*1e9, series: s, op: 1, f: map[string]any{"y": x}}
		by[s] = append(by[s], x)
	}
	src, err := buildSource(rng, rows, 97)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for s, xs := range by {
		sum := exactSum(xs)
		want[s] = fmt.Sprint(sum, sum/float64(len(xs)))
	}
	for _, par := range []int{1, 2, 3, 8} {
		for range 5 {
			got, err := runCells("SELECT series, sum(y), avg(y) FROM m GROUP BY series", openOnly(src), &Options{Now: modelNow, Parallelism: par})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%d groups, want %d", len(got), len(want))
			}
			for _, r := range got {
				if s := fmt.Sprint(r[1], r[2]); s != want[r[0].(string)] {
					t.Fatalf("parallelism %d: %s: sum, avg %s; exact %s", par, r[0], s, want[r[0].(string)])
				}
			}
		}
	}
}
