package codec

import (
	"encoding/binary"
	"math/bits"
)

// Patched frame-of-reference bit packing. A packed run of int64 values is
//
//	<uvarint g> miniblock...
//
// where g >= 1 is a divisor common to nearly all values. The values are cut
// into miniblocks of MiniBlockLen values (the last may be
// shorter), each
//
//	<uvarint zigzag(lo)> <1b flags|width> [<1b k> k × (<1b pos> <uvarint zigzag(v - lo)>)] <packed>
//
// Width (low 7 bits, 0..64) is the bit width of the packed slots; flag 0x80
// says k exceptions follow. Packed holds ceil(count*width/8) bytes: for each
// value v, uint64(v - lo) / g (wrapping) in width bits, least significant bit
// first, little-endian. Exceptions are values outside the window the width
// covers (spikes) or not multiples of g: their slot holds 0 and the listed
// position (0..count-1, strictly increasing) gets lo + (v - lo) from the list
// instead. A width of 0 without exceptions means every value equals lo.

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
	nexc   int
	size   int
}

// plan picks the window [lo, hi] that minimises the miniblock's size,
// trying to except up to maxExcTail outliers at either end.
func plan(m []int64, d divisor) miniPlan {
	var bot, top [maxExcTail + 1]int64 // smallest and largest, sorted outward
	nb := 0
	forced := 0 // values that g does not divide
	for _, v := range m {
		if !d.divides(uint64(v)) {
			forced++
			continue
		}
		if nb < len(bot) {
			bot[nb], top[nb] = v, v
			nb++
			for i := nb - 1; i > 0 && bot[i] < bot[i-1]; i-- {
				bot[i], bot[i-1] = bot[i-1], bot[i]
			}
			for i := nb - 1; i > 0 && top[i] > top[i-1]; i-- {
				top[i], top[i-1] = top[i-1], top[i]
			}
			continue
		}
		if v < bot[nb-1] {
			i := nb - 1
			for ; i > 0 && v < bot[i-1]; i-- {
				bot[i] = bot[i-1]
			}
			bot[i] = v
		}
		if v > top[nb-1] {
			i := nb - 1
			for ; i > 0 && v > top[i-1]; i-- {
				top[i] = top[i-1]
			}
			top[i] = v
		}
	}
	if nb == 0 { // nothing is a multiple of g: every value is an exception
		bot[0], top[0], nb = 0, -1, 1
	}
	best := miniPlan{lo: bot[0], hi: top[0]}
	bestEst := 1 << 62
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
				est += 3 * forced
				est++
			}
			if est < bestEst {
				bestEst = est
				best = miniPlan{lo: lo, hi: hi, w: w}
			}
		}
	}
	// Exact size: duplicates of a dropped outlier may stay inside the window.
	best.size = uvarintLen(Zigzag(best.lo)) + 1 + (len(m)*int(best.w)+7)/8
	for _, v := range m {
		if best.excepts(v, d) {
			best.nexc++
			best.size += 1 + uvarintLen(Zigzag(v-best.lo))
		}
	}
	if best.nexc > 0 {
		best.size++
	}
	return best
}

// excepts reports whether v is listed as an exception.
func (p *miniPlan) excepts(v int64, d divisor) bool {
	return v < p.lo || v > p.hi || !d.divides(uint64(v))
}

// packedSize returns the encoded size of src and its divisor.
func packedSize(src []int64) (size int, g uint64) {
	g = packedDivisor(src)
	size = uvarintLen(g)
	d := newDivisor(g)
	for len(src) > 0 {
		m := src[:min(len(src), MiniBlockLen)]
		src = src[len(m):]
		size += plan(m, d).size
	}
	return size, g
}

// packedDivisor returns a divisor of nearly all values: the greatest common
// divisor of a sample of them when few values are not its multiples (those
// become exceptions), else the divisor of all values.
func packedDivisor(src []int64) uint64 {
	const sampleLen = 64
	g := gcdOf(src[:min(len(src), sampleLen)])
	if g <= 1 {
		return 1
	}
	d, miss := newDivisor(g), 0
	for _, v := range src {
		if !d.divides(uint64(v)) {
			miss++
		}
	}
	if miss <= len(src)/64 {
		return g
	}
	return gcdOf(src)
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
// g must be packedDivisor(src).
func appendPacked(dst []byte, src []int64, g uint64) []byte {
	dst = binary.AppendUvarint(dst, g)
	d := newDivisor(g)
	for len(src) > 0 {
		m := src[:min(len(src), MiniBlockLen)]
		src = src[len(m):]
		p := plan(m, d)
		dst = binary.AppendUvarint(dst, Zigzag(p.lo))
		if p.nexc == 0 {
			dst = append(dst, byte(p.w))
		} else {
			dst = append(dst, byte(p.w)|excFlag, byte(p.nexc))
			for i, v := range m {
				if p.excepts(v, d) {
					dst = append(dst, byte(i))
					dst = binary.AppendUvarint(dst, Zigzag(v-p.lo))
				}
			}
		}
		dst = packBits(dst, m, &p, d)
	}
	return dst
}

// packBits appends uint64(v-lo)/g of each v in w bits, LSB first; slots
// of exceptions hold 0.
func packBits(dst []byte, src []int64, p *miniPlan, d divisor) []byte {
	w := p.w
	if w == 0 {
		return dst
	}
	var acc uint64
	var nb uint // bits held in acc
	for _, v := range src {
		var x uint64
		if !p.excepts(v, d) {
			x = d.div(uint64(v - p.lo))
		}
		acc |= x << nb
		if nb+w >= 64 {
			dst = binary.LittleEndian.AppendUint64(dst, acc)
			spill := nb + w - 64
			acc = 0
			if spill > 0 {
				acc = x >> (w - spill)
			}
			nb = spill
		} else {
			nb += w
		}
	}
	for ; nb > 0; nb -= min(nb, 8) {
		dst = append(dst, byte(acc))
		acc >>= 8
	}
	return dst
}

// decodePacked decodes len(dst) values from src and returns the bytes
// consumed.
func decodePacked(dst []int64, src []byte) (int, error) {
	g, off := binary.Uvarint(src)
	if off <= 0 {
		return 0, corrupt("packed", 0, "bad divisor varint")
	}
	if g == 0 {
		return 0, corrupt("packed", 0, "divisor 0")
	}
	var tmp [MiniBlockLen*8 + 8]byte // packed bytes plus room for 8-byte loads
	for len(dst) > 0 {
		m := dst[:min(len(dst), MiniBlockLen)]
		dst = dst[len(m):]
		zz, k := binary.Uvarint(src[off:])
		if k <= 0 {
			return off, corrupt("packed", off, "bad miniblock base varint")
		}
		lo := Unzigzag(zz)
		off += k
		if off >= len(src) {
			return off, corrupt("packed", off, "truncated: need miniblock width")
		}
		wb := src[off]
		w := uint(wb &^ excFlag)
		if w > 64 {
			return off, corrupt("packed", off, "bit width %d exceeds 64", w)
		}
		off++
		excAt := off
		if wb&excFlag != 0 {
			r := reader{buf: src, off: off, section: "packed"}
			for range int(r.byte()) {
				r.byte()
				r.uvarint()
			}
			if r.err != nil {
				return r.off, r.err
			}
			off = r.off
		}
		nb := (len(m)*int(w) + 7) / 8
		if nb > len(src)-off {
			return off, corrupt("packed", off, "truncated: %d values of %d bits need %d bytes, have %d", len(m), w, nb, len(src)-off)
		}
		copy(tmp[:], src[off:off+nb])
		off += nb
		unpackBits(m, &tmp, lo, w, g)
		if wb&excFlag != 0 {
			r := reader{buf: src, off: excAt, section: "packed"}
			applyExceptions(m, &r, lo)
			if r.err != nil {
				return r.off, r.err
			}
		}
	}
	return off, nil
}

// applyExceptions overwrites the listed positions of m.
func applyExceptions(m []int64, r *reader, lo int64) {
	k := int(r.byte())
	if k == 0 || k > len(m) {
		r.fail("%d exceptions in a miniblock of %d", k, len(m))
		return
	}
	last := -1
	for range k {
		at := r.off
		pos := int(r.byte())
		v := r.varint()
		if r.err != nil {
			return
		}
		if pos <= last || pos >= len(m) {
			r.off = at
			r.fail("exception position %d after %d in a miniblock of %d", pos, last, len(m))
			return
		}
		m[pos] = lo + v
		last = pos
	}
}

// unpackBits is the inverse of packBits. p holds the miniblock's packed
// bytes followed by at least 8 bytes of any content.
func unpackBits(dst []int64, p *[MiniBlockLen*8 + 8]byte, lo int64, w uint, g uint64) {
	if len(dst) > MiniBlockLen {
		panic("codec: miniblock too long")
	}
	mask := uint64(1)<<w - 1 // all ones when w == 64
	switch {
	case w == 0:
		for i := range dst {
			dst[i] = lo
		}
	case w <= 56 && g == 1:
		// One unaligned 8-byte load covers each value.
		bit := uint(0)
		for i := range dst {
			dst[i] = lo + int64(binary.LittleEndian.Uint64(p[(bit>>3)&1023:])>>(bit&7)&mask)
			bit += w
		}
	case w <= 56:
		bit := uint(0)
		for i := range dst {
			dst[i] = lo + int64(binary.LittleEndian.Uint64(p[(bit>>3)&1023:])>>(bit&7)&mask*g)
			bit += w
		}
	default:
		bit := uint(0)
		for i := range dst {
			off, s := (bit>>3)&1023, bit&7
			v := binary.LittleEndian.Uint64(p[off:]) >> s
			if s > 0 {
				v |= uint64(p[off+8]) << (64 - s)
			}
			dst[i] = lo + int64(v&mask*g)
			bit += w
		}
	}
}
