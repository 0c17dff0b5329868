package codec

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
)

// Patched frame-of-reference bit packing. A packed run of int64 values is
//
//	<uvarint g> miniblock...
//
// where g >= 1 is a divisor common to nearly all values. The values are cut
// into miniblocks of MiniBlockLen values (the last may be
// shorter), each
//
//	<uvarint zigzag(lo)> <1b flags|width> <packed> [<1b k> k × (<1b pos> <uvarint zigzag(v - lo)>)]
//
// Width (low 7 bits, 0..64) is the bit width of the packed slots; flag 0x80
// says k >= 1 exceptions follow the packed bytes. Packed holds ceil(count*width/8) bytes: for each
// value v, uint64(v - lo) / g (wrapping) in width bits, least significant bit
// first, little-endian. Exceptions are values outside the window the width
// covers (spikes) or not multiples of g: their slot holds 0 and the listed
// position (0..count-1, strictly increasing) gets lo + (v - lo) from the list
// instead. A width of 0 without exceptions means every value equals lo.

//go:generate go run gen_unpack.go
//go:generate go run gen_pack.go

// MiniBlockLen is the number of values per bit-packed miniblock. Part of the
// format; do not change.
const MiniBlockLen = 128

const (
	excFlag    = 0x80
	maxExcTail = 4 // outliers considered at each end of a miniblock
)

// miniPlan is the chosen layout of one miniblock.
type miniPlan struct {
	lo, hi int64 // values in [lo, hi] are packed, others are exceptions
	w      uint
	whole  bool // every value is packed: no exceptions
	size   int  // encoded bytes of the miniblock (exact but for duplicates of outliers)
}

// plan picks the window [lo, hi] that minimises the miniblock's size,
// trying to except up to maxExcTail outliers at either end. prevW is the
// width planned for the previous miniblock of the run, or -1.
func plan(m []int64, d divisor, prevW int) miniPlan {
	n := len(m)
	if d.one {
		// One cheap pass settles most miniblocks: monotone runs
		// (timestamps, counters) and narrow ones gain nothing from
		// exceptions, nor does one no wider than its predecessor's plan
		// plus a bit: outliers show as a sudden jump in width.
		lo, hi := minMax(m)
		w := uint(bits.Len64(d.div(uint64(hi - lo))))
		if w <= 4 || int(w) <= prevW+1 || monotone(m) {
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
	for i := 0; i < len(m); i++ {
		v := m[i]
		if one && i+4 <= len(m) {
			// Four at a time while none enters either list (most
			// values once the lists are full): two branches for four.
			q := m[i : i+4 : i+4]
			if min(q[0], q[1], q[2], q[3]) >= bl && max(q[0], q[1], q[2], q[3]) <= tl {
				i += 3
				continue
			}
		}
		if !one && !d.divides(uint64(v)) {
			forced++
			continue
		}
		if v < bl {
			k := last
			for ; k > 0 && v < bot[k-1]; k-- {
				bot[k] = bot[k-1]
			}
			bot[k] = v
			bl = bot[last]
		}
		if v > tl {
			k := last
			for ; k > 0 && v > top[k-1]; k-- {
				top[k] = top[k-1]
			}
			top[k] = v
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
		lo := bot[i]
		// The cost of excepting bot[:i], then top[:j] (grown with j),
		// both relative to lo.
		botCost, topCost := 0, 0
		for _, v := range bot[:i] {
			botCost += 1 + uvarintLen(Zigzag(v-lo))
		}
		for j := 0; j < nb && i+j < len(m)/2; j++ {
			if j > 0 {
				topCost += 1 + uvarintLen(Zigzag(top[j-1]-lo))
			}
			hi := top[j]
			if hi < lo {
				continue
			}
			w := uint(bits.Len64(d.div(uint64(hi - lo))))
			est := (len(m)*int(w)+7)/8 + botCost + topCost
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

// minMaxGo returns the least and greatest of m (len >= 1), in two pairs of
// independent chains so that each step does not wait for the last.
func minMaxGo(m []int64) (lo, hi int64) {
	lo0, hi0 := m[0], m[0]
	lo1, hi1 := lo0, hi0
	i := 1
	for ; i+1 < len(m); i += 2 {
		a, b := m[i], m[i+1]
		lo0, hi0 = min(lo0, a), max(hi0, a)
		lo1, hi1 = min(lo1, b), max(hi1, b)
	}
	if i < len(m) {
		lo0, hi0 = min(lo0, m[i]), max(hi0, m[i])
	}
	return min(lo0, lo1), max(hi0, hi1)
}

// monotone reports whether m never falls or never rises. Five samples
// rule most miniblocks out before the full check.
func monotone(m []int64) bool {
	n := len(m)
	if n >= 8 && !isSorted5(m[0], m[n/4], m[n/2], m[3*n/4], m[n-1]) {
		return false
	}
	rises, falls := 0, 0
	for i := 1; i < n; i++ {
		rises += b2i(m[i] > m[i-1])
		falls += b2i(m[i] < m[i-1])
	}
	return rises == 0 || falls == 0
}

// b2i is 1 for true, 0 for false, without a branch.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func headerSize(lo int64) int { return uvarintLen(Zigzag(lo)) + 1 }

// sampledSize estimates the packed size of src from the exact plans of at
// most maxSampled of its miniblocks, spread evenly.
func sampledSize(src []int64) int {
	const maxSampled = 4
	nmb := (len(src) + MiniBlockLen - 1) / MiniBlockLen
	step := (nmb + maxSampled - 1) / maxSampled
	mb := func(k int) []int64 { return src[k*MiniBlockLen : min(len(src), (k+1)*MiniBlockLen)] }
	// The divisor as packedDivisor would choose it, on the sample: that of
	// a prefix if it misses few sampled values, else the strict one.
	d := newDivisor(gcdOf(src[:min(len(src), 64)]))
	miss, sampled := 0, 0
	for k := 0; k < nmb && !d.one; k += step {
		for _, v := range mb(k) {
			if !d.divides(uint64(v)) {
				miss++
			}
		}
		sampled += len(mb(k))
	}
	if miss == 0 {
		d.one = true // no sampled value needs testing again
	} else if miss > sampled/64 {
		g := uint64(0)
		for k := 0; k < nmb && g != 1; k += step {
			g = gcd(g, gcdOf(mb(k)))
		}
		d = newDivisor(max(g, 1))
		d.one = true
	}
	size, values, prevW := 0, 0, -1
	for k := 0; k < nmb; k += step {
		m := mb(k)
		p := plan(m, d, prevW)
		size += p.size
		values += len(m)
		prevW = int(p.w)
	}
	if values == 0 {
		return 1
	}
	return uvarintLen(d.g) + size*len(src)/values
}

// isSorted5 reports whether a..e are in ascending or descending order.
func isSorted5(a, b, c, d, e int64) bool {
	return (a <= b && b <= c && c <= d && d <= e) || (a >= b && b >= c && c >= d && d >= e)
}

// excepts reports whether v is listed as an exception.
func (p *miniPlan) excepts(v int64, d divisor) bool {
	return v < p.lo || v > p.hi || (!d.one && !d.divides(uint64(v)))
}

// packedDivisor returns a divisor of nearly all values: the greatest common
// divisor of a sample of them when few values are not its multiples (those
// become exceptions), else the divisor of all values.
func packedDivisor(src []int64) divisor {
	const sampleLen = 64
	g := gcdOf(src[:min(len(src), sampleLen)])
	if g <= 1 {
		return newDivisor(1)
	}
	d, miss := newDivisor(g), 0
	for _, v := range src {
		miss += b2i(!d.divides(uint64(v)))
	}
	switch {
	case miss == 0:
		d.one = true // no value needs testing again
	case miss > len(src)/64:
		d = newDivisor(gcdOf(src))
		d.one = true
	}
	return d
}

func gcdOf(src []int64) uint64 {
	return commonDivisor(func(yield func(uint64) bool) {
		for _, v := range src {
			if !yield(uint64(v)) {
				return
			}
		}
	})
}

func uvarintLen(v uint64) int { return (bits.Len64(v|1) + 6) / 7 }

// appendPacked appends src as patched frame-of-reference miniblocks.
// d must be packedDivisor(src).
func appendPacked(dst []byte, src []int64, d divisor) []byte {
	dst = binary.AppendUvarint(dst, d.g)
	var exc [MiniBlockLen]uint8
	prevW := -1
	for len(src) > 0 {
		m := src[:min(len(src), MiniBlockLen)]
		src = src[len(m):]
		p := plan(m, d, prevW)
		prevW = int(p.w)
		dst = binary.AppendUvarint(dst, Zigzag(p.lo))
		wAt := len(dst)
		dst = append(dst, byte(p.w))
		var k int
		dst, k = packBits(dst, m, &p, d, &exc)
		if k > 0 {
			dst[wAt] |= excFlag
			dst = append(dst, byte(k))
			for _, i := range exc[:k] {
				dst = append(dst, i)
				dst = binary.AppendUvarint(dst, Zigzag(m[i]-p.lo))
			}
		}
	}
	return dst
}

// packBits appends uint64(v-lo)/g of each v in w bits, LSB first, and
// returns the positions of exceptions, whose slots hold 0, in exc[:k].
// Whole groups of 8 slots are packed by packGroups (w bytes a group); the
// rest, byte-aligned after them, one slot at a time.
func packBits(dst []byte, src []int64, p *miniPlan, d divisor, exc *[MiniBlockLen]uint8) (_ []byte, k int) {
	w := p.w
	if w == 0 {
		if !p.whole {
			for i, v := range src {
				if p.excepts(v, d) {
					exc[k&(MiniBlockLen-1)] = uint8(i)
					k++
				}
			}
		}
		return dst, k
	}
	var slots [MiniBlockLen]uint64
	s := slots[:len(src)]
	switch {
	case p.whole && d.g == 1:
		for i, v := range src {
			s[i] = uint64(v - p.lo)
		}
	case p.whole:
		for i, v := range src {
			s[i] = d.div(uint64(v - p.lo))
		}
	default:
		for i, v := range src {
			if p.excepts(v, d) {
				exc[k&(MiniBlockLen-1)] = uint8(i)
				k++
				s[i] = 0
			} else {
				s[i] = d.div(uint64(v - p.lo))
			}
		}
	}
	dst = slices.Grow(dst, (len(s)*int(w)+7)/8+8)
	whole := len(s) &^ 7
	dst = packGroups(dst, s[:whole], w)
	var acc uint64
	var nb uint // bits held in acc
	for _, x := range s[whole:] {
		acc |= x << (nb & 63) // nb < 64 here; the mask spares Go's shift fix-up
		nb += w
		if nb >= 64 {
			dst = binary.LittleEndian.AppendUint64(dst, acc)
			nb -= 64
			acc = x >> (w - nb) // 0 when nb == 0: x < 2^w, or w == 64
		}
	}
	for ; nb > 0; nb -= min(nb, 8) {
		dst = append(dst, byte(acc))
		acc >>= 8
	}
	return dst, k
}
