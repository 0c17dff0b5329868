package codec

var useAVX2 = hasAVX2()

func hasAVX2() bool

//go:noescape
func minMax4AVX2(m []int64, lo, hi *[4]int64)

// minMax returns the least and greatest of m (len >= 1): four lanes at a
// time with AVX2 where there is enough to pay, else minMaxGo.
func minMax(m []int64) (lo, hi int64) {
	if !useAVX2 || len(m) < 32 {
		return minMaxGo(m)
	}
	var l, h [4]int64
	k := len(m) &^ 3
	minMax4AVX2(m[:k], &l, &h)
	lo, hi = min(l[0], l[1], l[2], l[3]), max(h[0], h[1], h[2], h[3])
	for _, v := range m[k:] {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}
