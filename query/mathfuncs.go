package query

import (
	"math"
	"math/bits"
)

// Further numeric functions, as DuckDB names them: trigonometry, tests of
// floats, even, trunc(x, digits), atan2, log(b, x), gcd, lcm and the
// integer division a // b. A result that is not a finite number where
// the arguments are (asin(2), log(1, 8)) is NULL, not an error: one bad
// row does not fail a query.

// twoArgFuncs take two numbers (fn(x, y)), computed as pairs (pair.go).
var twoArgFuncs = map[string]bool{"atan2": true, "gcd": true, "lcm": true}

// mathPairs are the pair functions mathPair computes.
var mathPairs = map[string]bool{"atan2": true, "logb": true, "gcd": true, "lcm": true, "intdiv": true}

// applyMath computes single-argument function fn of x; ok is false for a
// function it does not know.
func applyMath(fn string, x float64) (value, bool) {
	var f float64
	switch fn {
	case "sin":
		f = math.Sin(x)
	case "cos":
		f = math.Cos(x)
	case "tan":
		f = math.Tan(x)
	case "cot":
		f = 1 / math.Tan(x)
	case "asin":
		f = math.Asin(x)
	case "acos":
		f = math.Acos(x)
	case "atan":
		f = math.Atan(x)
	case "degrees":
		f = x * 180 / math.Pi
	case "radians":
		f = x * math.Pi / 180
	case "isnan":
		return bv(math.IsNaN(x)), true
	case "isinf":
		return bv(math.IsInf(x, 0)), true
	case "isfinite":
		return bv(!math.IsNaN(x) && !math.IsInf(x, 0)), true
	case "even": // away from zero to an even integer: even(2.5) is 4
		f = math.Ceil(math.Abs(x))
		if math.Mod(f, 2) != 0 {
			f++
		}
		f = math.Copysign(f, x)
	default:
		return value{}, false
	}
	if (math.IsNaN(f) || math.IsInf(f, 0)) && !math.IsNaN(x) && !math.IsInf(x, 0) {
		return nullValue, true
	}
	return fv(f), true
}

// truncDigits cuts x toward zero to d digits after the point (before
// it, for a negative d: trunc(1234.5, -2) is 1200).
// roundInt is round(n, d) or trunc(n, d) of an integer: n itself for
// d >= 0, else n to a multiple of 10^-d, toward zero (trunc) or to the
// nearer, halves away from zero (round); NULL past int64.
func roundInt(fn string, n, d int64) value {
	if d >= 0 {
		return value{i: n}
	}
	if d < -18 { // 10^19 is past int64: every n is nearer 0
		if fn == "round" && d == -19 && (n >= 5e18 || n <= -5e18) {
			return nullValue
		}
		return value{i: 0}
	}
	q := int64(1)
	for range -d {
		q *= 10
	}
	r := n % q // of n's sign; |2r| < 2·10^18 fits
	t := n - r
	switch {
	case fn == "trunc" || r == 0:
		return value{i: t}
	case r > 0 && 2*r >= q: // away from zero
		if t > math.MaxInt64-q {
			return nullValue
		}
		return value{i: t + q}
	case r < 0 && -2*r >= q:
		if t < math.MinInt64+q {
			return nullValue
		}
		return value{i: t - q}
	}
	return value{i: t}
}

func truncDigits(x float64, d int64) float64 {
	if d >= 0 {
		p := math.Pow(10, float64(min(d, 400)))
		if t := math.Trunc(x*p) / p; !math.IsInf(x*p, 0) {
			return t
		}
		return x
	}
	q := math.Pow(10, float64(min(-d, 400)))
	return math.Trunc(x/q) * q
}

// mathPair computes a.fn of l and r, neither null.
func (a *arithPlan) mathPair(l, r value) value {
	switch a.fn {
	case "gcd", "lcm":
		g := gcd(l.i, r.i)
		switch {
		case g < 0: // of MinInt64, past int64
			return nullValue
		case a.fn == "gcd":
			return value{i: g}
		case g == 0:
			return value{i: 0}
		}
		hi, lo := mulAbs(l.i/g, r.i)
		if hi != 0 || lo > math.MaxInt64 {
			return nullValue // past int64
		}
		return value{i: int64(lo)}
	case "intdiv":
		if a.kind == kInt {
			if r.i == 0 || l.i == math.MinInt64 && r.i == -1 {
				return nullValue
			}
			return value{i: l.i / r.i} // toward zero, as DuckDB's
		}
		y := num(a.r.kind, r)
		if y == 0 {
			return nullValue
		}
		return fv(num(a.l.kind, l) / y)
	}
	x, y := num(a.l.kind, l), num(a.r.kind, r)
	var f float64
	switch a.fn {
	case "atan2":
		f = math.Atan2(x, y)
	case "logb": // log(b, x): l is the base
		f = math.Log10(y) / math.Log10(x)
	}
	if (math.IsNaN(f) || math.IsInf(f, 0)) && !math.IsNaN(x) && !math.IsInf(x, 0) && !math.IsNaN(y) && !math.IsInf(y, 0) {
		return nullValue
	}
	return fv(f)
}

// gcd is the greatest common divisor of |a| and |b| (0 for two zeros);
// negative only for MinInt64, whose absolute value int64 lacks.
func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// mulAbs is |a| * |b| as 128 bits.
func mulAbs(a, b int64) (hi, lo uint64) {
	ua, ub := uint64(a), uint64(b)
	if a < 0 {
		ua = uint64(-a)
	}
	if b < 0 {
		ub = uint64(-b)
	}
	return bits.Mul64(ua, ub)
}
