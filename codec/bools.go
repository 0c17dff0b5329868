package codec

import "fmt"

// BoolEncoding tags a bool column encoding (also used for null bitmaps).
// The numeric values are part of the format; do not change them.
type BoolEncoding uint8

const (
	// BoolBitmap: ceil(n/8) bytes, value i in bit i%8 of byte i/8 (LSB
	// first), unused high bits of the last byte zero.
	BoolBitmap BoolEncoding = 1
	// BoolConst: one byte, 0 or 1, the value of all n.
	BoolConst BoolEncoding = 2
)

func (e BoolEncoding) String() string {
	switch e {
	case BoolBitmap:
		return "bitmap"
	case BoolConst:
		return "const"
	}
	return fmt.Sprintf("BoolEncoding(%d)", uint8(e))
}

// AppendBools appends src as a bitmap, or as one byte when all are equal.
func AppendBools(dst []byte, src []bool) []byte {
	if len(src) > 0 && allEqual(src) {
		return append(dst, byte(BoolConst), b2u(src[0]))
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
		at := r.off
		b := r.byte()
		if r.err == nil && b > 1 {
			r.off = at
			r.fail("constant bool byte %d", b)
		}
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
