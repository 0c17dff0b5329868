package codec

// divImpls lists the routines TestDivPow10 compares with divPow10Go: each
// that this machine can run.
func divImpls() map[string]func([]float64, []int64, float64, bool) {
	m := map[string]func([]float64, []int64, float64, bool){"divPow10": divPow10, "sse2": divPow10SSE2}
	if hasAVX() {
		m["avx"] = divPow10AVX
	}
	return m
}
