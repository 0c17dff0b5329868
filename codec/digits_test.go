package codec

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestDecimalDigitsRef holds decimalDigits to its previous form
// (digits_ref_test.go) on decimals of 0..18 digits at every magnitude,
// one-ulp neighbours, huge, tiny and non-finite values.
func TestDecimalDigitsRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	vs := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, math.MaxFloat64, 1 << 50, 1 << 53, 1<<53 - 1, 0.1, 0.20199999999999999, 94.79799999999999}
	for range 200000 {
		digits := rng.IntN(19)
		mag := rng.IntN(40) - 20
		m := rng.Int64N(int64(pow10[1+rng.IntN(15)]))
		v, _ := strconv.ParseFloat(strconv.FormatInt(m, 10)+"e"+strconv.Itoa(mag-digits), 64)
		if rng.IntN(2) == 0 {
			v = -v
		}
		vs = append(vs, v, math.Nextafter(v, math.Inf(1)), math.Float64frombits(rng.Uint64()))
	}
	for _, v := range vs {
		if got, want := decimalDigits(v), decimalDigitsRef(v); got != want {
			t.Fatalf("decimalDigits(%v) = %d, want %d", v, got, want)
		}
	}
}
