//go:build !amd64

package codec

func divImpls() map[string]func([]float64, []int64, float64, bool) {
	return map[string]func([]float64, []int64, float64, bool){"divPow10": divPow10}
}
