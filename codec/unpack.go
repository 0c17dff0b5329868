package codec

import "encoding/binary"

// Decoding of the packed runs laid out in bitpack.go.

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
		nb := (len(m)*int(w) + 7) / 8
		if nb > len(src)-off {
			return off, corrupt("packed", off, "truncated: %d values of %d bits need %d bytes, have %d", len(m), w, nb, len(src)-off)
		}
		// Unpacking reads 8 bytes at a time: straight from src when it
		// extends far enough, else from a padded copy.
		p := src[off:]
		if len(p) < nb+8 {
			copy(tmp[:], p[:nb])
			p = tmp[:]
		}
		off += nb
		unpackBits(m, p[:nb+8], lo, w, g)
		if wb&excFlag != 0 {
			r := reader{buf: src, off: off, section: "packed exceptions"}
			applyExceptions(m, &r, lo)
			if r.err != nil {
				return r.off, r.err
			}
			off = r.off
		}
	}
	return off, nil
}

// zeroPacked reports whether src starts with a packed run of n zeros in
// its shortest form (divisor 1, every miniblock lo 0 and width 0), and its
// length: the shape regular timestamps give their deltas of deltas.
func zeroPacked(src []byte, n int) (int, bool) {
	mbs := (n + MiniBlockLen - 1) / MiniBlockLen
	if len(src) < 1+2*mbs || src[0] != 1 {
		return 0, false
	}
	for _, b := range src[1 : 1+2*mbs] {
		if b != 0 {
			return 0, false
		}
	}
	return 1 + 2*mbs, true
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
// bytes followed by 8 bytes of any content.
func unpackBits(dst []int64, p []byte, lo int64, w uint, g uint64) {
	if len(dst) > MiniBlockLen {
		panic("codec: miniblock too long")
	}
	mask := uint64(1)<<w - 1 // all ones when w == 64
	switch {
	case w == 0:
		fill(dst, lo)
	case w <= 56:
		// Groups of 8 values with constant shifts, then the tail.
		i := unpackGroups(dst, p, lo, int64(g), w)
		bit := uint(i) * w
		for ; i < len(dst); i++ {
			dst[i] = lo + int64(binary.LittleEndian.Uint64(p[bit>>3:])>>(bit&7)&mask)*int64(g)
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
