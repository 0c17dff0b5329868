//go:build !amd64

package codec

func divPow10(dst []float64, ms []int64, p float64, sum bool) { divPow10Go(dst, ms, p, sum) }
