package codec

import "math"

// decimalDigitsRef is decimalDigits before its few-digit first pass: it returns the smallest e at which v is exact, or
// MaxDecimalExp+1 if none is.
func decimalDigitsRef(v float64) int {
	// Exactness is monotone in e while v*10^e stays below 2^50 (the
	// product's rounding error stays under 1/2): if v is exact at e, it is
	// at every larger e in that range. So test the largest such e and
	// bisect below it; above it, up to 2^53, try the one or two left.
	hi := MaxDecimalExp
	for hi >= 0 && !(math.Abs(v*pow10[hi]) < 1<<50) {
		hi--
	}
	if hi >= 0 {
		if _, ok := mantissa(v, hi); ok {
			lo := -1 // not exact at lo, exact at hi
			for hi-lo > 1 {
				mid := (lo + hi + 1) / 2
				if _, ok := mantissa(v, mid); ok {
					hi = mid
				} else {
					lo = mid
				}
			}
			return hi
		}
	}
	for e := hi + 1; e <= MaxDecimalExp && math.Abs(v*pow10[e]) < maxMantissa; e++ {
		if _, ok := mantissa(v, e); ok {
			return e
		}
	}
	return MaxDecimalExp + 1
}
