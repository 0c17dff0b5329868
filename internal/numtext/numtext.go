// Package numtext writes floats as text for people and for other tools:
// the fewest digits that read back as the same value, without an
// exponent from 1e-4 up to 1e21 (as JSON and JavaScript print numbers),
// so that an epoch in seconds reads 1392388200, not 1.3923882e+09.
package numtext

import (
	"math"
	"strconv"
)

// AppendFloat appends v, a float of bits (32 or 64) bits, as the
// package says; NaN and the infinities are NaN, +Inf and -Inf.
func AppendFloat(dst []byte, v float64, bits int) []byte {
	switch {
	case math.IsNaN(v):
		return append(dst, "NaN"...)
	case math.IsInf(v, 1):
		return append(dst, "+Inf"...)
	case math.IsInf(v, -1):
		return append(dst, "-Inf"...)
	}
	if a := math.Abs(v); a == 0 || a >= 1e-4 && a < 1e21 {
		return strconv.AppendFloat(dst, v, 'f', -1, bits)
	}
	return strconv.AppendFloat(dst, v, 'g', -1, bits)
}
