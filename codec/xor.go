package codec

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// Gorilla XOR floats (Pelkonen et al., VLDB 2015), bits written most
// significant first. After the tag byte: the first value's 64 bits, then per
// value its XOR with the previous one as
//
//	'0'                                   equal to the previous value
//	'10' <meaningful bits>                same leading/trailing window as before
//	'11' <5b leading> <6b length> <bits>  new window; length 0 means 64
//
// padded with zero bits to a whole byte.

// bitWriter appends bits MSB-first.
type bitWriter struct {
	dst []byte
	acc uint64
	n   uint // bits in acc, < 64
}

func (w *bitWriter) write(v uint64, nbits uint) {
	if nbits == 0 {
		return
	}
	v &= (1<<nbits - 1) | -(uint64(nbits>>6) & 1) // mask, all ones for 64
	free := 64 - w.n
	if nbits < free {
		w.acc |= v << (free - nbits)
		w.n += nbits
		return
	}
	over := nbits - free
	w.acc |= v >> over
	w.dst = binary.BigEndian.AppendUint64(w.dst, w.acc)
	w.acc, w.n = 0, over
	if over > 0 {
		w.acc = v << (64 - over)
	}
}

func (w *bitWriter) flush() []byte {
	for ; w.n > 0; w.n -= min(w.n, 8) {
		w.dst = append(w.dst, byte(w.acc>>56))
		w.acc <<= 8
	}
	return w.dst
}

// bitReader reads bits MSB-first; reading past the end sets over.
type bitReader struct {
	src  []byte
	pos  uint // bit position
	over bool
}

func (r *bitReader) read(nbits uint) uint64 {
	if nbits == 0 {
		return 0
	}
	end := r.pos + nbits
	if end > uint(len(r.src))*8 {
		r.over = true
		return 0
	}
	var v uint64
	off := r.pos >> 3
	sh := r.pos & 7
	if int(off)+9 <= len(r.src) || (int(off)+8 <= len(r.src) && sh+nbits <= 64) {
		hi := binary.BigEndian.Uint64(r.src[off:])
		v = hi << sh
		if sh+nbits > 64 {
			v |= uint64(r.src[off+8]) >> (8 - sh)
		}
		v >>= 64 - nbits
	} else {
		for i := uint(0); i < nbits; i++ {
			b := r.pos + i
			v = v<<1 | uint64(r.src[b>>3]>>(7-b&7)&1)
		}
	}
	r.pos = end
	return v
}

func appendXOR(dst []byte, src []float64) []byte {
	dst = append(dst, byte(FloatXOR))
	if len(src) == 0 {
		return dst
	}
	w := bitWriter{dst: dst}
	prev := math.Float64bits(src[0])
	w.write(prev, 64)
	lead, trail := uint(0xff), uint(0)
	for _, f := range src[1:] {
		cur := math.Float64bits(f)
		x := cur ^ prev
		prev = cur
		if x == 0 {
			w.write(0, 1)
			continue
		}
		l := uint(min(bits.LeadingZeros64(x), 31))
		t := uint(bits.TrailingZeros64(x))
		if lead != 0xff && l >= lead && t >= trail {
			w.write(0b10, 2)
			w.write(x>>trail, 64-lead-trail)
			continue
		}
		lead, trail = l, t
		sig := 64 - l - t
		w.write(0b11, 2)
		w.write(uint64(l), 5)
		w.write(uint64(sig&63), 6)
		w.write(x>>t, sig)
	}
	return w.flush()
}

func decodeXOR(dst []float64, src []byte, n int) ([]float64, int, error) {
	if n == 0 {
		return dst[:0], 0, nil
	}
	if uint64(n) > 8*uint64(len(src)) {
		return dst[:0], 0, corrupt("xor", 0, "%d values need at least %d bits, have %d", n, n, 8*len(src))
	}
	dst = grow(dst, n)
	r := bitReader{src: src}
	prev := r.read(64)
	dst[0] = math.Float64frombits(prev)
	lead, trail := uint(0xff), uint(0)
	for i := 1; i < n && !r.over; i++ {
		if r.read(1) == 1 {
			if r.read(1) == 1 {
				lead = uint(r.read(5))
				sig := uint(r.read(6))
				if sig == 0 {
					sig = 64
				}
				if lead+sig > 64 {
					return dst[:0], int(r.pos / 8), corrupt("xor", int(r.pos/8), "value %d: window %d+%d exceeds 64 bits", i, lead, sig)
				}
				trail = 64 - lead - sig
			} else if lead == 0xff {
				return dst[:0], int(r.pos / 8), corrupt("xor", int(r.pos/8), "value %d reuses a window before any was set", i)
			}
			prev ^= r.read(64-lead-trail) << trail
		}
		dst[i] = math.Float64frombits(prev)
	}
	if r.over {
		return dst[:0], len(src), corrupt("xor", len(src), "truncated: %d values need more than %d bytes", n, len(src))
	}
	return dst, int((r.pos + 7) / 8), nil
}
