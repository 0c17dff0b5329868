package termplot

import (
	"math"
	"sort"
)

var sparkRunes = []rune("▁▂▃▄▅▆▇█")

// Sparkline summarises values (in order) in width characters: each
// character is the mean of its share of the values, scaled between the
// smallest and largest mean. NaN values are skipped; an empty share is a
// space.
func Sparkline(values []float64, width int) string { return sparkline(values, width, false) }

// SparklineFromZero is Sparkline with the scale starting at zero (when no
// value is negative), for counts: equal counts draw equal bars whatever
// their size, and small differences stay small.
func SparklineFromZero(values []float64, width int) string { return sparkline(values, width, true) }

func sparkline(values []float64, width int, zero bool) string {
	if width <= 0 || len(values) == 0 {
		return ""
	}
	width = min(width, len(values))
	means := make([]float64, width)
	lo, hi := math.Inf(1), math.Inf(-1)
	for b := range means {
		from, to := b*len(values)/width, (b+1)*len(values)/width
		sum, n := 0.0, 0
		for _, v := range values[from:to] {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				sum += v
				n++
			}
		}
		if n == 0 {
			means[b] = math.NaN()
			continue
		}
		means[b] = sum / float64(n)
		lo, hi = min(lo, means[b]), max(hi, means[b])
	}
	if zero && lo > 0 {
		lo = 0
	}
	out := make([]rune, width)
	for i, m := range means {
		switch {
		case math.IsNaN(m):
			out[i] = ' '
		case hi == lo:
			out[i] = sparkRunes[len(sparkRunes)/2]
		default:
			out[i] = sparkRunes[int((m-lo)/(hi-lo)*float64(len(sparkRunes)-1)+0.5)]
		}
	}
	return string(out)
}

func sortInts(idx []int, less func(a, b int) bool) {
	sort.SliceStable(idx, func(i, j int) bool { return less(idx[i], idx[j]) })
}
