package codec

// useAVX selects the four-lane routine; SSE2 is part of every amd64.
var useAVX = hasAVX()

// divPow10 is divPow10Go with several divisions per instruction.
func divPow10(dst []float64, ms []int64, p float64, sum bool) {
	if len(dst) < len(ms) {
		panic("codec: divPow10 destination too short")
	}
	if useAVX {
		divPow10AVX(dst, ms, p, sum)
		return
	}
	divPow10SSE2(dst, ms, p, sum)
}

func hasAVX() bool

//go:noescape
func divPow10SSE2(dst []float64, ms []int64, p float64, sum bool)

//go:noescape
func divPow10AVX(dst []float64, ms []int64, p float64, sum bool)
