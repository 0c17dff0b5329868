package codec

// Conversion of decimal mantissas to floats: dst[i] = float64(m_i) / p,
// where m_i is ms[i], or with sum the running sum ms[0] + ... + ms[i]
// (wrapping). Division dominates the decoder's time; the amd64 routine
// divides two values per DIVPD instruction, bit-for-bit what the scalar
// division below gives (IEEE division and int64 conversion are correctly
// rounded in the default rounding mode either way).

// divPow10Go is the portable definition; len(dst) >= len(ms).
func divPow10Go(dst []float64, ms []int64, p float64, sum bool) {
	dst = dst[:len(ms)]
	if sum {
		var m int64
		for i, d := range ms {
			m += d
			dst[i] = float64(m) / p
		}
		return
	}
	for i, m := range ms {
		dst[i] = float64(m) / p
	}
}
