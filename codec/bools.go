package codec

import (
	"encoding/binary"
	"fmt"
	"sort"
)

// BoolEncoding tags a bool column encoding (also used for null bitmaps).
// The numeric values are part of the format; do not change them.
type BoolEncoding uint8

const (
	// BoolBitmap: ceil(n/8) bytes, value i in bit i%8 of byte i/8 (LSB
	// first), unused high bits of the last byte zero.
	BoolBitmap BoolEncoding = 1
	// BoolConst: one byte, 0 or 1, the value of all n.
	BoolConst BoolEncoding = 2
	// BoolSparse: <1b v> <uvarint k> then k uvarint gaps: the values
	// at k positions are v, the others !v; each position is the one
	// before plus its gap plus one, the first its gap. A null bitmap
	// with a few present values (an optional field of wide JSON rows)
	// takes a few bytes instead of n/8. Block format version 3.
	BoolSparse BoolEncoding = 3
)

func (e BoolEncoding) String() string {
	switch e {
	case BoolBitmap:
		return "bitmap"
	case BoolConst:
		return "const"
	case BoolSparse:
		return "sparse"
	}
	return fmt.Sprintf("BoolEncoding(%d)", uint8(e))
}

// AppendBools appends src as one byte when all are equal, as the
// positions of the rarer value when that is smaller than a bitmap, else
// as a bitmap.
func AppendBools(dst []byte, src []bool) []byte {
	if len(src) > 0 && allEqual(src) {
		return append(dst, byte(BoolConst), b2u(src[0]))
	}
	if v, k, size, ok := sparseSize(src); ok && size < 1+(len(src)+7)/8 {
		return appendSparse(dst, src, v, k)
	}
	dst = append(dst, byte(BoolBitmap))
	for i := 0; i < len(src); i += 8 {
		var b byte
		for j, v := range src[i:min(i+8, len(src))] {
			b |= b2u(v) << j
		}
		dst = append(dst, b)
	}
	return dst
}

// sparseSize returns the rarer value of src (true on a tie), how many
// values are it, and the bytes of BoolSparse listing them; ok is false
// when that value is at least one in eight, where a bitmap is never
// larger.
func sparseSize(src []bool) (v bool, k, size int, ok bool) {
	t := 0
	for _, x := range src {
		t += int(b2u(x))
	}
	v, k = true, t
	if 2*t > len(src) {
		v, k = false, len(src)-t
	}
	if 8*k >= len(src) {
		return v, k, 0, false
	}
	size, last := 2+uvarintLen(uint64(k)), -1
	for i, x := range src {
		if x == v {
			size += uvarintLen(uint64(i - last - 1))
			last = i
		}
	}
	return v, k, size, true
}

// appendSparse appends src in BoolSparse listing the positions of v,
// which k values are.
func appendSparse(dst []byte, src []bool, v bool, k int) []byte {
	dst = append(dst, byte(BoolSparse), b2u(v))
	dst = binary.AppendUvarint(dst, uint64(k))
	last := -1
	for i, x := range src {
		if x == v {
			dst = binary.AppendUvarint(dst, uint64(i-last-1))
			last = i
		}
	}
	return dst
}

func allEqual(s []bool) bool {
	for _, v := range s[1:] {
		if v != s[0] {
			return false
		}
	}
	return true
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// DecodeBools decodes n values written by AppendBools into dst.
func DecodeBools(dst []bool, src []byte, n int) ([]bool, int, error) {
	if err := checkCount("bools", n); err != nil {
		return dst[:0], 0, err
	}
	dst = dst[:0]
	r := reader{buf: src, section: "bools"}
	e := BoolEncoding(r.byte())
	switch e {
	case BoolConst:
		b := r.bit("constant bool byte")
		if r.err == nil {
			dst = grow(dst, n)
			for i := range dst {
				dst[i] = b == 1
			}
		}
	case BoolBitmap:
		p := r.bytes((n + 7) / 8)
		if r.err == nil && n%8 != 0 && p[len(p)-1]>>(n%8) != 0 {
			r.off--
			r.fail("bitmap padding bits set")
		}
		if r.err == nil {
			dst = grow(dst, n)
			for i := range dst {
				dst[i] = p[i>>3]>>(i&7)&1 == 1
			}
		}
	case BoolSparse:
		b := r.bit("sparse bool value byte")
		k := r.count("sparse bool positions", n)
		if r.err == nil {
			dst = grow(dst, n)
			for i := range dst {
				dst[i] = b == 0
			}
			last := -1 // the position before
			for j := range k {
				if last = r.sparsePosition(j, last, n); r.err != nil {
					break
				}
				dst[last] = b == 1
			}
		}
	default:
		if r.err == nil {
			r.off = 0
			r.fail("unknown bool encoding %d", uint8(e))
		}
	}
	if r.err != nil {
		return dst[:0], r.off, r.err
	}
	return dst, r.off, nil
}

// sparsePosition reads the gap before position j of a sparse list of n
// values and returns the position, after last; it fails the reader when
// the position would reach n.
func (r *reader) sparsePosition(j, last, n int) int {
	at := r.off
	g := r.uvarint()
	if r.err == nil && g >= uint64(n-1-last) {
		r.off = at
		r.fail("sparse bool position %d: gap %d after position %d of %d values", j, g, last, n)
	}
	if r.err != nil {
		return last
	}
	return last + int(g) + 1
}

// bit reads a byte that must be 0 or 1 (what names it in the error).
func (r *reader) bit(what string) byte {
	at := r.off
	b := r.byte()
	if r.err == nil && b > 1 {
		r.off = at
		r.fail("%s %d", what, b)
	}
	return b
}

// FilterTrue appends what AppendBools writes for the values at the rows
// keep (ascending, each < n) of src, an encoding of n bools, reading only
// the positions src lists, when src is a constant or a sparse list of the
// true values, none of which lies outside keep. It returns the bytes of
// src the encoding spans. ok is false, with dst as it was, when src is a
// bitmap or lists false values, when a true value lies outside keep
// (then left is true), or when AppendBools would write a bitmap: decode
// then.
func FilterTrue(dst, src []byte, n int, keep []int32) (_ []byte, used int, ok, left bool, err error) {
	if err := checkCount("bools", n); err != nil {
		return dst, 0, false, false, err
	}
	r := reader{buf: src, section: "bools"}
	switch BoolEncoding(r.byte()) {
	case BoolConst:
		b := r.bit("constant bool byte")
		if r.err != nil {
			return dst, r.off, false, false, r.err
		}
		if b == 1 && len(keep) < n {
			return dst, r.off, false, true, nil
		}
		return append(dst, byte(BoolConst), b), r.off, true, false, nil
	case BoolSparse:
	default:
		return dst, 0, false, false, nil
	}
	if b := r.bit("sparse bool value byte"); r.err != nil || b != 1 {
		return dst, r.off, false, false, r.err
	}
	k := r.count("sparse bool positions", n)
	if r.err != nil {
		return dst, r.off, false, false, r.err
	}
	m := len(keep)
	start := len(dst)
	if k == 0 {
		dst = append(dst, byte(BoolConst), 0)
	} else {
		dst = append(dst, byte(BoolSparse), 1)
		dst = binary.AppendUvarint(dst, uint64(k))
	}
	last, lastKept, from := -1, -1, 0
	for j := range k {
		if last = r.sparsePosition(j, last, n); r.err != nil {
			return dst[:start], r.off, false, false, r.err
		}
		// Its place among the kept rows, searched after the last one's.
		i := from + sort.Search(m-from, func(x int) bool { return int(keep[from+x]) >= last })
		if i == m || int(keep[i]) != last {
			return dst[:start], r.off, false, true, nil
		}
		dst = binary.AppendUvarint(dst, uint64(i-lastKept-1))
		lastKept, from = i, i+1
	}
	// AppendBools writes a constant for values all false or all true,
	// else a sparse list when true is the rarer value, under one in
	// eight, and the list is smaller than a bitmap.
	if k > 0 && k == m {
		return append(dst[:start], byte(BoolConst), 1), r.off, true, false, nil
	}
	if k > 0 && (8*k >= m || len(dst)-start >= 1+(m+7)/8) {
		return dst[:start], r.off, false, false, nil
	}
	return dst, r.off, true, false, nil
}
