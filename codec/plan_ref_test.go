package codec

import (
	"math"
	"math/bits"
)

// planRef is plan as it was before its cost loop was hoisted: it picks the window [lo, hi] that minimises the miniblock's size,
// trying to except up to maxExcTail outliers at either end. prevW is the
// width planned for the previous miniblock of the run, or -1.
func planRef(m []int64, d divisor, prevW int) miniPlan {
	n := len(m)
	if d.one {
		// One cheap pass settles most miniblocks: monotone runs
		// (timestamps, counters) and narrow ones gain nothing from
		// exceptions, nor does one no wider than its predecessor's plan
		// plus a bit: outliers show as a sudden jump in width.
		lo, hi := minMax(m)
		monotone := false
		if n < 8 || isSorted5(m[0], m[n/4], m[n/2], m[3*n/4], m[n-1]) {
			rises, falls := 0, 0
			for i := 1; i < len(m); i++ {
				rises += b2i(m[i] > m[i-1])
				falls += b2i(m[i] < m[i-1])
			}
			monotone = rises == 0 || falls == 0
		}
		w := uint(bits.Len64(d.div(uint64(hi - lo))))
		if monotone || w <= 4 || int(w) <= prevW+1 {
			return miniPlan{lo: lo, hi: hi, w: w, whole: true, size: headerSize(lo) + (n*int(w)+7)/8}
		}
	}
	// The maxExcTail+1 smallest and largest values (multiples of g only),
	// sorted outward; sentinels fill the rest.
	var bot, top [maxExcTail + 1]int64
	for i := range bot {
		bot[i], top[i] = math.MaxInt64, math.MinInt64
	}
	const last = maxExcTail
	forced := 0                    // values that g does not divide
	bl, tl := bot[last], top[last] // entry thresholds, kept in registers
	one := d.one                   // kept in a register
	for _, v := range m {
		if !one && !d.divides(uint64(v)) {
			forced++
			continue
		}
		if v < bl {
			i := last
			for ; i > 0 && v < bot[i-1]; i-- {
				bot[i] = bot[i-1]
			}
			bot[i] = v
			bl = bot[last]
		}
		if v > tl {
			i := last
			for ; i > 0 && v > top[i-1]; i-- {
				top[i] = top[i-1]
			}
			top[i] = v
			tl = top[last]
		}
	}
	kept := len(m) - forced
	if kept == 0 { // nothing is a multiple of g: every value is an exception
		return miniPlan{lo: 0, hi: -1, size: headerSize(0) + 1 + 10*n}
	}
	if w := uint(bits.Len64(d.div(uint64(top[0] - bot[0])))); forced == 0 && w <= 4 {
		return miniPlan{lo: bot[0], hi: top[0], w: w, whole: true, size: headerSize(bot[0]) + (n*int(w)+7)/8}
	}
	nb := min(kept, len(bot))
	best := miniPlan{lo: bot[0], hi: top[0]}
	bestEst := math.MaxInt
	for i := 0; i < nb && i < len(m)/2; i++ {
		for j := 0; j < nb && i+j < len(m)/2; j++ {
			lo, hi := bot[i], top[j]
			if hi < lo {
				continue
			}
			w := uint(bits.Len64(d.div(uint64(hi - lo))))
			est := (len(m)*int(w) + 7) / 8
			for _, v := range bot[:i] {
				est += 1 + uvarintLen(Zigzag(v-lo))
			}
			for _, v := range top[:j] {
				est += 1 + uvarintLen(Zigzag(v-lo))
			}
			if i+j+forced > 0 {
				est += 3*forced + 1
			}
			if est < bestEst {
				bestEst = est
				best = miniPlan{lo: lo, hi: hi, w: w, size: headerSize(lo) + est}
			}
		}
	}
	return best
}
