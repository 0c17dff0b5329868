package codec

import "encoding/binary"

// Varints are unsigned LEB128 as in encoding/binary: 7 bits per byte, least
// significant group first, high bit set on every byte but the last, at most
// 10 bytes for a uint64. Signed values are zigzag-mapped first.

// Zigzag maps signed to unsigned so that small magnitudes stay small:
// 0→0, -1→1, 1→2, -2→3, ...
func Zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

// Unzigzag inverts Zigzag.
func Unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// AppendUvarints appends each value of src as a uvarint.
func AppendUvarints(dst []byte, src []uint64) []byte {
	for _, v := range src {
		dst = binary.AppendUvarint(dst, v)
	}
	return dst
}

// DecodeUvarints decodes n uvarints from src into dst (reusing its capacity)
// and returns the values and the bytes consumed.
func DecodeUvarints(dst []uint64, src []byte, n int) ([]uint64, int, error) {
	if err := checkCount("uvarints", n); err != nil {
		return dst[:0], 0, err
	}
	if n > len(src) {
		return dst[:0], 0, corrupt("uvarints", 0, "%d values need at least %d bytes, have %d", n, n, len(src))
	}
	dst = grow(dst, n)
	r := reader{buf: src, section: "uvarints"}
	for i := range dst {
		dst[i] = r.uvarint()
	}
	return dst, r.off, r.err
}

// AppendVarints appends each value of src zigzag-mapped as a uvarint.
func AppendVarints(dst []byte, src []int64) []byte {
	for _, v := range src {
		dst = binary.AppendUvarint(dst, Zigzag(v))
	}
	return dst
}

// DecodeVarints decodes n zigzag varints from src into dst.
func DecodeVarints(dst []int64, src []byte, n int) ([]int64, int, error) {
	if err := checkCount("varints", n); err != nil {
		return dst[:0], 0, err
	}
	if n > len(src) {
		return dst[:0], 0, corrupt("varints", 0, "%d values need at least %d bytes, have %d", n, n, len(src))
	}
	dst = grow(dst, n)
	r := reader{buf: src, section: "varints"}
	for i := range dst {
		dst[i] = Unzigzag(r.uvarint())
	}
	return dst, r.off, r.err
}

// grow returns s resliced to length n, reallocating only if needed.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func appendUvarint(dst []byte, v uint64) []byte { return binary.AppendUvarint(dst, v) }
