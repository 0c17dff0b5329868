package codec

import (
	"encoding/binary"
	"fmt"
	"math"
)

// FloatEncoding tags a float64 column encoding. The numeric values are part
// of the format; do not change them.
type FloatEncoding uint8

const (
	// FloatRaw: n × 8-byte little-endian IEEE 754 bits.
	FloatRaw FloatEncoding = 1
	// FloatXOR: Gorilla XOR, see xor.go.
	FloatXOR FloatEncoding = 2
	// FloatDecimal: lossless decimal mantissas plus patches, see decimal.go.
	FloatDecimal FloatEncoding = 3
)

func (e FloatEncoding) String() string {
	switch e {
	case FloatRaw:
		return "raw"
	case FloatXOR:
		return "xor"
	case FloatDecimal:
		return "decimal"
	}
	return fmt.Sprintf("FloatEncoding(%d)", uint8(e))
}

// AppendFloats appends src in whichever float encoding is smallest for it.
// Every bit pattern, NaN payloads and -0 included, round-trips exactly.
func (c *Encoder) AppendFloats(dst []byte, src []float64) []byte {
	start := len(dst)
	dst = c.appendDecimal(dst, src, chooseExp(src))
	size := len(dst) - start
	if size <= 4*len(src) { // XOR rarely beats 4 bytes a value; skip its cost
		return dst
	}
	c.x = appendXOR(c.x[:0], src)
	if len(c.x) < size {
		dst = append(dst[:start], c.x...)
		size = len(c.x)
	}
	if size > 1+8*len(src) {
		dst = c.AppendFloatsAs(dst[:start], src, FloatRaw)
	}
	return dst
}

// AppendFloatsAs appends src in encoding e, tag first.
func (c *Encoder) AppendFloatsAs(dst []byte, src []float64, e FloatEncoding) []byte {
	switch e {
	case FloatRaw:
		dst = append(dst, byte(FloatRaw))
		for _, f := range src {
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
		}
		return dst
	case FloatXOR:
		return appendXOR(dst, src)
	case FloatDecimal:
		return c.appendDecimal(dst, src, chooseExp(src))
	}
	panic(fmt.Sprintf("codec: unknown %v", e))
}

// DecodeFloats decodes n values written by AppendFloats or AppendFloatsAs.
func (c *Decoder) DecodeFloats(dst []float64, src []byte, n int) ([]float64, int, error) {
	if err := checkCount("floats", n); err != nil {
		return dst[:0], 0, err
	}
	dst = dst[:0]
	r := reader{buf: src, section: "floats"}
	e := FloatEncoding(r.byte())
	if r.err != nil {
		return dst, 0, r.err
	}
	r.enc = e
	switch e {
	case FloatRaw:
		b := r.bytes(8 * n)
		if r.err == nil {
			dst = grow(dst, n)
			for i := range dst {
				dst[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
			}
		}
	case FloatXOR:
		r.nested(func(b []byte) (int, error) {
			var k int
			var err error
			dst, k, err = decodeXOR(dst, b, n)
			return k, err
		})
	case FloatDecimal:
		dst = c.decodeDecimal(dst, &r, n)
	default:
		r.off = 0
		r.fail("unknown float encoding %d", uint8(e))
	}
	if r.err != nil {
		return dst[:0], r.off, r.err
	}
	return dst, r.off, nil
}
