package numtext

import (
	"math"
	"strconv"
	"testing"
)

// TestAppendFloat: floats print with the fewest digits that read back,
// without an exponent from 1e-4 up to 1e21 (an epoch in seconds reads
// 1392388200), with one outside it, and NaN and the infinities by name;
// float32 values with float32's digits.
func TestAppendFloat(t *testing.T) {
	for _, c := range []struct {
		v    float64
		bits int
		want string
	}{
		{1392388200, 64, "1392388200"},
		{1392388200.5, 64, "1392388200.5"},
		{0.1, 64, "0.1"},
		{-2.5e-4, 64, "-0.00025"},
		{1e-4, 64, "0.0001"},
		{9.99e-5, 64, "9.99e-05"},
		{1e21, 64, "1e+21"},
		{123456789012345678901, 64, "123456789012345680000"},
		{0, 64, "0"},
		{math.Copysign(0, -1), 64, "-0"},
		{5e-324, 64, "5e-324"},
		{float64(float32(0.1)), 32, "0.1"},
		{float64(float32(16777216)), 32, "16777216"},
		{math.NaN(), 64, "NaN"},
		{math.Inf(1), 64, "+Inf"},
		{math.Inf(-1), 64, "-Inf"},
	} {
		got := AppendFloat(nil, c.v, c.bits)
		if string(got) != c.want {
			t.Errorf("%v (%d bits): %q, want %q", c.v, c.bits, got, c.want)
		}
		if !math.IsNaN(c.v) && !math.IsInf(c.v, 0) {
			back, err := strconv.ParseFloat(string(got), c.bits)
			if err != nil || back != c.v && !(c.bits == 32 && float32(back) == float32(c.v)) {
				t.Errorf("%q reads back as %v (%v), want %v", got, back, err, c.v)
			}
		}
	}
}
