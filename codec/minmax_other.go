//go:build !amd64

package codec

func minMax(m []int64) (lo, hi int64) { return minMaxGo(m) }
