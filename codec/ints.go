package codec

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
)

// IntEncoding tags an int64 column encoding. The numeric values are part of
// the format; do not change them.
type IntEncoding uint8

const (
	// IntPacked: frame-of-reference miniblocks over the values.
	IntPacked IntEncoding = 1
	// IntDelta: <varint first> then miniblocks over the n-1 deltas.
	IntDelta IntEncoding = 2
	// IntDoD: <varint first> <varint first delta> then miniblocks over the
	// n-2 deltas of deltas. Regular timestamps cost ~0 bits each.
	IntDoD IntEncoding = 3
	// IntRLE: <uvarint runs> then per run <varint value - previous run value>
	// <uvarint length-1>.
	IntRLE IntEncoding = 4
	// IntVarint: <varint first> then n-1 zigzag varint deltas.
	IntVarint IntEncoding = 5
)

func (e IntEncoding) String() string {
	switch e {
	case IntPacked:
		return "packed"
	case IntDelta:
		return "delta"
	case IntDoD:
		return "delta-of-delta"
	case IntRLE:
		return "rle"
	case IntVarint:
		return "varint-delta"
	}
	return fmt.Sprintf("IntEncoding(%d)", uint8(e))
}

// AppendIntsAs appends src in encoding e, tag first.
func (c *Encoder) AppendIntsAs(dst []byte, src []int64, e IntEncoding) []byte {
	dst = append(dst, byte(e))
	switch e {
	case IntPacked:
		return appendPacked(dst, src, packedDivisor(src))
	case IntDelta:
		if len(src) == 0 {
			return dst
		}
		dst = binary.AppendUvarint(dst, Zigzag(src[0]))
		d := c.deltas(src)
		return appendPacked(dst, d, packedDivisor(d))
	case IntDoD:
		if len(src) < 2 {
			return AppendVarints(dst, src)
		}
		dst = binary.AppendUvarint(dst, Zigzag(src[0]))
		dst = binary.AppendUvarint(dst, Zigzag(src[1]-src[0]))
		dd := c.dods(src)
		return appendPacked(dst, dd, packedDivisor(dd))
	case IntRLE:
		return appendRLE(dst, src)
	case IntVarint:
		if len(src) == 0 {
			return dst
		}
		dst = binary.AppendUvarint(dst, Zigzag(src[0]))
		return AppendVarints(dst, c.deltas(src))
	}
	panic(fmt.Sprintf("codec: unknown %v", e))
}

// AppendInts appends src in whichever int encoding is smallest for it; ties
// go to the faster decoder.
func (c *Encoder) AppendInts(dst []byte, src []int64) []byte {
	return c.AppendIntsAs(dst, src, c.bestInts(src))
}

// bestInts ranks the candidates by an estimate of their size made in one
// pass: per miniblock, the bit width of the raw values, the deltas and the
// deltas of deltas after dividing by a divisor found on a prefix, ignoring
// exceptions and values the divisor does not divide.
func (c *Encoder) bestInts(src []int64) IntEncoding {
	n := len(src)
	if n < 3 {
		return IntPacked
	}
	const sample = 64
	var gs [3]uint64
	gs[0] = gcdOf(src[:min(n, sample)])
	gs[1] = gcdOf(c.deltas(src[:min(n, sample+1)]))
	gs[2] = gcdOf(c.dods(src[:min(n, sample+2)]))
	var ds [3]divisor
	for k := range ds {
		ds[k] = newDivisor(gs[k])
	}
	var size [3]int
	runs := 1
	prev, prevD := src[0], src[1]-src[0]
	for s := 0; s < n; s += MiniBlockLen {
		m := src[s:min(n, s+MiniBlockLen)]
		dd0 := int64(0)
		if s > 0 {
			dd0 = m[0] - prev - prevD
		}
		lo0, hi0, lo1, hi1, lo2, hi2 := m[0], m[0], prevD, prevD, dd0, dd0
		for _, v := range m {
			d := v - prev
			dd := d - prevD
			if d != 0 {
				runs++
			}
			lo0, hi0 = min(lo0, v), max(hi0, v)
			lo1, hi1 = min(lo1, d), max(hi1, d)
			lo2, hi2 = min(lo2, dd), max(hi2, dd)
			prev, prevD = v, d
		}
		size[0] += uvarintLen(Zigzag(lo0)) + 1 + (len(m)*bits.Len64(ds[0].div(uint64(hi0-lo0)))+7)/8
		size[1] += uvarintLen(Zigzag(lo1)) + 1 + (len(m)*bits.Len64(ds[1].div(uint64(hi1-lo1)))+7)/8
		size[2] += uvarintLen(Zigzag(lo2)) + 1 + (len(m)*bits.Len64(ds[2].div(uint64(hi2-lo2)))+7)/8
	}
	best, bestSize := IntPacked, math.MaxInt
	for k, e := range []IntEncoding{IntPacked, IntDelta, IntDoD} {
		if size[k] < bestSize {
			best, bestSize = e, size[k]
		}
	}
	if runs <= n/4 {
		if rs := rleSize(src); rs < bestSize {
			best, bestSize = IntRLE, rs
		}
	}
	if n <= 2*MiniBlockLen { // miniblock headers weigh on short inputs
		vs := uvarintLen(Zigzag(src[0]))
		for i := 1; i < n; i++ {
			vs += uvarintLen(Zigzag(src[i] - src[i-1]))
		}
		if vs < bestSize {
			best = IntVarint
		}
	}
	return best
}

func countRuns(src []int64) int {
	if len(src) == 0 {
		return 0
	}
	runs := 1
	for i := 1; i < len(src); i++ {
		if src[i] != src[i-1] {
			runs++
		}
	}
	return runs
}

// deltas returns src[i+1]-src[i] (wrapping) in scratch space.
func (c *Encoder) deltas(src []int64) []int64 {
	c.d = grow(c.d, len(src)-1)
	for i := range c.d {
		c.d[i] = src[i+1] - src[i]
	}
	return c.d
}

// dods returns the deltas of deltas of src in scratch space.
func (c *Encoder) dods(src []int64) []int64 {
	c.dd = grow(c.dd, len(src)-2)
	for i := range c.dd {
		c.dd[i] = (src[i+2] - src[i+1]) - (src[i+1] - src[i])
	}
	return c.dd
}

func rleSize(src []int64) int {
	size, runs, prev := 0, 0, int64(0)
	for i := 0; i < len(src); {
		j := i + 1
		for j < len(src) && src[j] == src[i] {
			j++
		}
		size += uvarintLen(Zigzag(src[i]-prev)) + uvarintLen(uint64(j-i-1))
		prev = src[i]
		runs++
		i = j
	}
	return size + uvarintLen(uint64(runs))
}

func appendRLE(dst []byte, src []int64) []byte {
	dst = binary.AppendUvarint(dst, uint64(countRuns(src)))
	prev := int64(0)
	for i := 0; i < len(src); {
		j := i + 1
		for j < len(src) && src[j] == src[i] {
			j++
		}
		dst = binary.AppendUvarint(dst, Zigzag(src[i]-prev))
		dst = binary.AppendUvarint(dst, uint64(j-i-1))
		prev = src[i]
		i = j
	}
	return dst
}

// DecodeInts decodes n values written by AppendInts or AppendIntsAs into
// dst and returns them with the bytes consumed.
func (c *Decoder) DecodeInts(dst []int64, src []byte, n int) ([]int64, int, error) {
	dst = dst[:0]
	if n < 0 {
		return dst, 0, corrupt("ints", 0, "negative count %d", n)
	}
	r := reader{buf: src, section: "ints"}
	e := IntEncoding(r.byte())
	if r.err != nil {
		return dst, 0, r.err
	}
	// Every encoding needs at least one byte per miniblock or per run.
	if need := (n + MiniBlockLen - 1) / MiniBlockLen; e != IntRLE && e != IntVarint && need > len(src) {
		return dst, 0, corrupt("ints", 0, "%d values need at least %d bytes, have %d", n, need, len(src))
	}
	r.enc = e
	switch e {
	case IntPacked:
		dst = grow(dst, n)
		r.nested(func(b []byte) (int, error) { return decodePacked(dst, b) })
	case IntDelta:
		dst = grow(dst, n)
		if n == 0 {
			break
		}
		dst[0] = r.varint()
		r.nested(func(b []byte) (int, error) { return decodePacked(dst[1:], b) })
		prefixSum(dst)
	case IntDoD:
		if n < 2 {
			r.nested(func(b []byte) (int, error) {
				var err error
				var k int
				dst, k, err = DecodeVarints(dst, b, n)
				return k, err
			})
			break
		}
		dst = grow(dst, n)
		dst[0] = r.varint()
		dst[1] = r.varint()
		r.nested(func(b []byte) (int, error) { return decodePacked(dst[2:], b) })
		v, d := dst[1], dst[1]-dst[0]
		for i := 2; i < len(dst); i++ {
			d += dst[i]
			v += d
			dst[i] = v
		}
	case IntRLE:
		r.nested(func(b []byte) (int, error) {
			var err error
			var k int
			dst, k, err = decodeRLE(dst, b, n)
			return k, err
		})
	case IntVarint:
		if n == 0 {
			break
		}
		if n > len(src) {
			return dst, 0, corrupt("ints", 0, "%d varints need at least %d bytes, have %d", n, n, len(src))
		}
		dst = grow(dst, n)
		for i := range dst {
			dst[i] = r.varint()
		}
		prefixSum(dst)
	default:
		r.off = 0
		r.fail("unknown int encoding %d", uint8(e))
	}
	if r.err != nil {
		return dst[:0], r.off, r.err
	}
	return dst, r.off, nil
}

// prefixSum turns s[0], d1, d2, ... into running sums in place.
func prefixSum(s []int64) {
	for i := 1; i < len(s); i++ {
		s[i] += s[i-1]
	}
}

func decodeRLE(dst []int64, src []byte, n int) ([]int64, int, error) {
	r := reader{buf: src, section: "rle"}
	runs := r.count("run count", n)
	if r.err == nil && n > 0 && runs == 0 {
		r.fail("0 runs for %d values", n)
	}
	if r.err == nil && 2*runs > len(src) {
		r.fail("%d runs need at least %d bytes, have %d", runs, 2*runs, len(src))
	}
	if r.err != nil {
		return dst[:0], r.off, r.err
	}
	dst = grow(dst, n)
	i, v := 0, int64(0)
	for range runs {
		v += r.varint()
		at := r.off
		l := r.uvarint()
		if r.err != nil {
			break
		}
		if l >= uint64(n-i) {
			r.off = at
			r.fail("run of %d overflows %d values", l+1, n)
			break
		}
		for k := i; k <= i+int(l); k++ {
			dst[k] = v
		}
		i += int(l) + 1
	}
	if r.err == nil && i != n {
		r.fail("runs cover %d of %d values", i, n)
	}
	if r.err != nil {
		return dst[:0], r.off, r.err
	}
	return dst, r.off, nil
}
