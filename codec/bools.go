package codec

import (
	"encoding/binary"
	"fmt"
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
				at := r.off
				g := r.uvarint()
				if r.err == nil && g >= uint64(n-1-last) {
					r.off = at
					r.fail("sparse bool position %d: gap %d after position %d of %d values", j, g, last, n)
				}
				if r.err != nil {
					break
				}
				last += int(g) + 1
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
