package codec

import (
	"encoding/binary"
	"fmt"
	"math"
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
	return c.appendInts(dst, src, e, false)
}

// appendInts appends src in encoding e; with haveDeltas, c.d and c.dd
// already hold the deltas of src.
func (c *Encoder) appendInts(dst []byte, src []int64, e IntEncoding, haveDeltas bool) []byte {
	dst = append(dst, byte(e))
	packed := func(dst []byte, seq []int64) []byte {
		return appendPacked(dst, seq, packedDivisor(seq))
	}
	switch e {
	case IntPacked:
		return packed(dst, src)
	case IntDelta:
		if len(src) == 0 {
			return dst
		}
		dst = binary.AppendUvarint(dst, Zigzag(src[0]))
		if !haveDeltas {
			c.deltas(src)
		}
		return packed(dst, c.d)
	case IntDoD:
		if len(src) < 2 {
			return AppendVarints(dst, src)
		}
		dst = binary.AppendUvarint(dst, Zigzag(src[0]))
		dst = binary.AppendUvarint(dst, Zigzag(src[1]-src[0]))
		if !haveDeltas {
			c.dods(src)
		}
		return packed(dst, c.dd)
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

// AppendInts appends src in whichever int encoding it estimates smallest
// (see bestInts); ties go to the faster decoder.
func (c *Encoder) AppendInts(dst []byte, src []int64) []byte {
	if len(src) >= 3 {
		if step, ok := constantStep(src); ok {
			return appendSteady(dst, src, step)
		}
	}
	return c.appendIntsGeneral(dst, src)
}

// appendIntsGeneral is AppendInts without the constant-step shortcut.
func (c *Encoder) appendIntsGeneral(dst []byte, src []int64) []byte {
	e := c.bestInts(src)
	return c.appendInts(dst, src, e, true)
}

// constantStep reports whether every delta of src (len >= 2) is the same,
// wrapping: regular timestamps and constants. It reads no further than the
// first irregular delta.
func constantStep(src []int64) (int64, bool) {
	step := src[1] - src[0]
	prev := src[1]
	for _, v := range src[2:] {
		if v-prev != step {
			return 0, false
		}
		prev = v
	}
	return step, true
}

// appendSteady writes what bestInts and appendInts write for a constant
// step, without deriving the deltas: one run for a constant, else
// delta-of-delta with every miniblock of the zero deltas of deltas empty
// (divisor 1, lo 0, width 0). TestAppendIntsSteady holds it to the general
// path byte for byte.
func appendSteady(dst []byte, src []int64, step int64) []byte {
	if step == 0 {
		dst = append(dst, byte(IntRLE), 1)
		dst = binary.AppendUvarint(dst, Zigzag(src[0]))
		return binary.AppendUvarint(dst, uint64(len(src)-1))
	}
	dst = append(dst, byte(IntDoD))
	dst = binary.AppendUvarint(dst, Zigzag(src[0]))
	dst = binary.AppendUvarint(dst, Zigzag(step))
	dst = append(dst, 1) // divisor
	for range (len(src) - 2 + MiniBlockLen - 1) / MiniBlockLen {
		dst = append(dst, 0, 0) // zigzag(lo) 0, width 0
	}
	return dst
}

// bestInts ranks the candidates by size: exact for run-length and
// varints, and from the exact plans of a sample of miniblocks for the packed
// encodings. It leaves the deltas and deltas of deltas in c.d and c.dd.
func (c *Encoder) bestInts(src []int64) IntEncoding {
	n := len(src)
	if n < 3 {
		return IntPacked
	}
	first := uvarintLen(Zigzag(src[0]))
	runs, regular := c.derive(src)
	seqs := [3][]int64{src, c.d, c.dd}
	if regular {
		// Constant step (regular timestamps, constants): deltas of deltas
		// are all zero and cost 2 bytes a miniblock; only a constant
		// column does better, as a single run.
		if seqs[1][0] == 0 {
			return IntRLE
		}
		return IntDoD
	}
	heads := [3]int{0, first, first + uvarintLen(Zigzag(src[1]-src[0]))}
	skip := c.screen(seqs)
	best, bestSize := IntPacked, math.MaxInt
	for k, e := range [3]IntEncoding{IntPacked, IntDelta, IntDoD} {
		if skip[k] {
			continue
		}
		if size := heads[k] + sampledSize(seqs[k]); size < bestSize {
			best, bestSize = e, size
		}
	}
	if runs <= n/4 {
		if rs := rleSize(src); rs < bestSize {
			best, bestSize = IntRLE, rs
		}
	}
	// Varints win on short inputs, where miniblock headers weigh, and on
	// wild ones.
	if n <= 2*MiniBlockLen || bestSize > 2*n {
		vs := first
		for _, d := range seqs[1] {
			vs += uvarintLen(Zigzag(d))
		}
		if vs < bestSize {
			best = IntVarint
		}
	}
	return best
}

// screen rules out, from the spread of a prefix of each sequence, the
// packed candidates that cannot come close to the best: a sequence whose
// prefix spans over four times the narrowest one's range needs two more bits
// a value. The narrowest is never ruled out.
func (c *Encoder) screen(seqs [3][]int64) (skip [3]bool) {
	const prefix = 2 * MiniBlockLen
	var span [3]uint64
	for k, s := range seqs {
		s = s[:min(len(s), prefix)]
		if len(s) == 0 {
			continue
		}
		lo, hi := s[0], s[0]
		for _, v := range s[1:] {
			lo, hi = min(lo, v), max(hi, v)
		}
		span[k] = uint64(hi - lo)
	}
	narrow := min(span[0], span[1], span[2])
	for k := range span {
		skip[k] = span[k]/4 > narrow
	}
	return skip
}

// derive fills c.d and c.dd with the deltas and deltas of deltas of src
// (len(src) >= 2) in one pass, counting runs of equal values and whether
// every delta is the same.
func (c *Encoder) derive(src []int64) (runs int, regular bool) {
	n := len(src)
	c.d = grow(c.d, n-1)
	c.dd = grow(c.dd, max(n-2, 0))
	d, dd := c.d, c.dd
	prev, prevD := src[1], src[1]-src[0]
	d[0] = prevD
	runs = 1 + b2i(prevD != 0)
	var nonzero int64 // OR of the deltas of deltas: 0 iff the step is constant
	src = src[2:n]
	d, dd = d[1:n-1], dd[:n-2]
	for i, v := range src {
		x := v - prev
		y := x - prevD
		d[i], dd[i] = x, y
		runs += b2i(x != 0)
		nonzero |= y
		prev, prevD = v, x
	}
	return runs, nonzero == 0
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

// appendRLE appends src as runs. The runs are found once: they are
// written after room for their count, which then takes its place.
func appendRLE(dst []byte, src []int64) []byte {
	start := len(dst)
	dst = append(dst, make([]byte, binary.MaxVarintLen64)...)
	body := len(dst)
	runs, prev := 0, int64(0)
	for i := 0; i < len(src); {
		v := src[i]
		j := i + 1
		for j+4 <= len(src) && src[j] == v && src[j+1] == v && src[j+2] == v && src[j+3] == v {
			j += 4
		}
		for j < len(src) && src[j] == v {
			j++
		}
		dst = binary.AppendUvarint(dst, Zigzag(v-prev))
		dst = binary.AppendUvarint(dst, uint64(j-i-1))
		prev = v
		runs++
		i = j
	}
	k := len(binary.AppendUvarint(dst[start:start], uint64(runs)))
	n := copy(dst[start+k:], dst[body:])
	return dst[:start+k+n]
}

// DecodeInts decodes n values written by AppendInts or AppendIntsAs into
// dst and returns them with the bytes consumed.
func (c *Decoder) DecodeInts(dst []int64, src []byte, n int) ([]int64, int, error) {
	dst, k, _, err := c.decodeInts(dst, src, n, false)
	return dst, k, err
}

// decodeInts is DecodeInts; with keepDeltas, a delta-encoded input is
// returned as its first value followed by the deltas (summed reports so),
// for a caller that sums them while it converts.
func (c *Decoder) decodeInts(dst []int64, src []byte, n int, keepDeltas bool) (_ []int64, _ int, deltas bool, _ error) {
	if err := checkCount("ints", n); err != nil {
		return dst[:0], 0, false, err
	}
	dst = dst[:0]
	r := reader{buf: src, section: "ints"}
	e := IntEncoding(r.byte())
	if r.err != nil {
		return dst, 0, false, r.err
	}
	// Every encoding needs at least one byte per miniblock or per run.
	if need := (n + MiniBlockLen - 1) / MiniBlockLen * 2; e != IntRLE && e != IntVarint && need > len(src) {
		return dst, 0, false, corrupt("ints", 0, "%d values need at least %d bytes, have %d", n, need, len(src))
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
		if keepDeltas {
			deltas = true
		} else {
			prefixSum(dst)
		}
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
		if k, ok := zeroPacked(r.rest(), n-2); ok {
			// Constant step: an arithmetic progression.
			r.off += k
			progression(dst, dst[0], dst[1])
			break
		}
		r.nested(func(b []byte) (int, error) { return decodePacked(dst[2:], b) })
		d := dst[1] // the first delta
		v := dst[0] + d
		dst[1] = v
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
			return dst, 0, false, corrupt("ints", 0, "%d varints need at least %d bytes, have %d", n, n, len(src))
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
		return dst[:0], r.off, false, r.err
	}
	return dst, r.off, deltas, nil
}

// progression sets dst[i] = v + i*d (wrapping) in four independent chains.
func progression(dst []int64, v, d int64) {
	i := 0
	if len(dst) >= 4 {
		v0, v1, v2, v3, d4 := v, v+d, v+2*d, v+3*d, 4*d
		for ; i+4 <= len(dst); i += 4 {
			s := dst[i : i+4 : i+4]
			s[0], s[1], s[2], s[3] = v0, v1, v2, v3
			v0, v1, v2, v3 = v0+d4, v1+d4, v2+d4, v3+d4
		}
		v = v0
	}
	for ; i < len(dst); i++ {
		dst[i] = v
		v += d
	}
}

// fill sets every element of dst to v: memclr for 0, else doubling copies
// (memmove) once the run is long enough to pay.
func fill(dst []int64, v int64) {
	switch {
	case v == 0:
		clear(dst)
	case len(dst) < 16:
		for i := range dst {
			dst[i] = v
		}
	default:
		dst[0] = v
		for n := 1; n < len(dst); n *= 2 {
			copy(dst[n:], dst[:n])
		}
	}
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
		fill(dst[i:i+int(l)+1], v)
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
