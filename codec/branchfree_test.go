package codec

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDeriveMinMax checks the branch-free derive and minMax (the AVX2
// routine on amd64 from 32 values) and minMaxGo against their definitions
// on random, regular, constant and wrapping inputs.
func TestDeriveMinMax(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var c Encoder
	for trial := range 2000 {
		n := 2 + rng.IntN(300)
		src := make([]int64, n)
		kind := trial % 4
		for i := range src {
			switch kind {
			case 0:
				src[i] = rng.Int64N(7) - 3
			case 1:
				src[i] = int64(rng.Uint64())
			case 2:
				src[i] = 5 + int64(i)*3
			case 3:
				src[i] = math.MaxInt64 - int64(i)*(math.MaxInt64/100)
			}
		}
		runs, regular := c.derive(src)
		wantRuns, wantRegular := countRuns(src), true
		for i := range n - 1 {
			if d := src[i+1] - src[i]; c.d[i] != d {
				t.Fatalf("trial %d: d[%d] = %d, want %d", trial, i, c.d[i], d)
			}
			if i < n-2 {
				dd := (src[i+2] - src[i+1]) - (src[i+1] - src[i])
				if c.dd[i] != dd {
					t.Fatalf("trial %d: dd[%d] = %d, want %d", trial, i, c.dd[i], dd)
				}
				wantRegular = wantRegular && dd == 0
			}
		}
		if runs != wantRuns || regular != wantRegular {
			t.Fatalf("trial %d: runs %d regular %v, want %d %v", trial, runs, regular, wantRuns, wantRegular)
		}
		for k := 1; k <= n; k++ {
			lo, hi := minMax(src[:k])
			glo, ghi := minMaxGo(src[:k])
			wlo, whi := src[0], src[0]
			for _, v := range src[:k] {
				wlo, whi = min(wlo, v), max(whi, v)
			}
			if lo != wlo || hi != whi || glo != wlo || ghi != whi {
				t.Fatalf("trial %d: minMax of %d = %d, %d, minMaxGo %d, %d, want %d, %d", trial, k, lo, hi, glo, ghi, wlo, whi)
			}
		}
	}
}

// TestAppendDecimalPatches holds appendDecimal's branch-free patch
// collection to the straightforward loop it replaced, byte for byte.
func TestAppendDecimalPatches(t *testing.T) {
	ref := func(c *Encoder, src []float64, e int) []byte {
		m := make([]int64, len(src))
		var gaps, diffs []int64
		last, p, prev := -1, pow10[e], int64(0)
		for i, v := range src {
			x := v * p
			mi := prev
			if math.Abs(x) < maxMantissa {
				mi = int64(roundEven(x))
			}
			m[i], prev = mi, mi
			if d := math.Float64bits(v) - math.Float64bits(float64(mi)/p); d != 0 {
				gaps = append(gaps, int64(i-last-1))
				diffs = append(diffs, int64(d))
				last = i
			}
		}
		dst := []byte{byte(FloatDecimal), byte(e)}
		dst = c.AppendInts(dst, m)
		dst = appendUvarint(dst, uint64(len(gaps)))
		if len(gaps) > 0 {
			dst = c.AppendInts(dst, gaps)
			dst = c.AppendInts(dst, diffs)
		}
		return dst
	}
	rng := rand.New(rand.NewPCG(7, 8))
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 5e-324, 1e300, 0.20199999999999999, 94.79799999999999, math.Float64frombits(0x7ff0000000000bad)}
	var c Encoder
	for trial := range 300 {
		n := 1 + rng.IntN(3000)
		src := make([]float64, n)
		v := 100.0
		for i := range src {
			v += float64(rng.IntN(200)-100) / 1000
			src[i] = v
			switch r := rng.IntN(20); {
			case r == 0:
				src[i] = special[rng.IntN(len(special))]
			case r < 4:
				src[i] = math.Nextafter(v, math.Inf(1)) // one ulp off a decimal
			}
		}
		for _, e := range []int{0, 3, chooseExp(src), MaxDecimalExp} {
			got := c.appendDecimal(nil, src, e)
			want := ref(&c, src, e)
			if string(got) != string(want) {
				t.Fatalf("trial %d e %d: output differs from the reference loop", trial, e)
			}
		}
	}
}

// TestFillProgression checks fill and progression against plain loops for
// every length up to 300, zero and non-zero values, wrapping steps.
func TestFillProgression(t *testing.T) {
	for n := range 300 {
		for _, v := range []int64{0, 1, -5, math.MaxInt64} {
			got := make([]int64, n+1)
			got[n] = 42
			fill(got[:n], v)
			for i := range n {
				if got[i] != v {
					t.Fatalf("fill n %d v %d: [%d] = %d", n, v, i, got[i])
				}
			}
			for _, d := range []int64{0, 1, -3, 300e9, math.MaxInt64} {
				progression(got[:n], v, d)
				w := v
				for i := range n {
					if got[i] != w {
						t.Fatalf("progression n %d v %d d %d: [%d] = %d, want %d", n, v, d, i, got[i], w)
					}
					w += d
				}
			}
			if got[n] != 42 {
				t.Fatalf("n %d: wrote past the slice", n)
			}
		}
	}
}

func BenchmarkMinMax(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	m := make([]int64, MiniBlockLen)
	for i := range m {
		m[i] = rng.Int64N(1 << 20)
	}
	for _, impl := range []struct {
		name string
		fn   func([]int64) (int64, int64)
	}{{"go", minMaxGo}, {"arch", minMax}} {
		b.Run(impl.name, func(b *testing.B) {
			var s int64
			for b.Loop() {
				lo, hi := impl.fn(m)
				s += lo + hi
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/MiniBlockLen, "ns/value")
		})
	}
}

// countRuns counts the runs of equal values of src.
func countRuns(src []int64) int {
	if len(src) == 0 {
		return 0
	}
	runs := 1
	for i := 1; i < len(src); i++ {
		if src[i] != src[i-1] {
			runs++
		}
	}
	return runs
}

// TestAppendRLE holds appendRLE (runs found once, their count moved in
// front) to the layout written with the runs counted first: random
// values in runs of random lengths (long ones past the four-at-a-time
// scan, single values, the int64 extremes), after bytes already in dst.
func TestAppendRLE(t *testing.T) {
	ref := func(dst []byte, src []int64) []byte {
		dst = binary.AppendUvarint(dst, uint64(countRuns(src)))
		prev := int64(0)
		for i := 0; i < len(src); {
			j := i + 1
			for j < len(src) && src[j] == src[i] {
				j++
			}
			dst = binary.AppendUvarint(dst, Zigzag(src[i]-prev))
			dst = binary.AppendUvarint(dst, uint64(j-i-1))
			prev = src[i]
			i = j
		}
		return dst
	}
	rng := rand.New(rand.NewPCG(21, 22))
	odd := []int64{0, -1, 1, math.MinInt64, math.MaxInt64}
	for round := range 3000 {
		var src []int64
		for range rng.IntN(40) {
			v := rng.Int64N(1<<20) - 1<<19
			if rng.IntN(5) == 0 {
				v = odd[rng.IntN(len(odd))]
			}
			n := 1 + rng.IntN(3)
			if rng.IntN(4) == 0 {
				n = 1 + rng.IntN(300)
			}
			for range n {
				src = append(src, v)
			}
		}
		pre := []byte("prefix")[:rng.IntN(7)]
		got := appendRLE(slices.Clone(pre), src)
		want := ref(slices.Clone(pre), src)
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d: %d values: % x, want % x", round, len(src), got, want)
		}
	}
}
