package codec

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// Front coding (StringPrefix): each value is stored as the length of the
// prefix it shares with the value before it and the rest of its bytes.
// Sorted or sequential keys ("obj00012345", "obj00012346", ...) shrink
// to a byte or two a value before any compression, which then has far
// less to do.

// sharedPrefix returns the length of the common prefix of a and b,
// comparing 8 bytes at a time; the last 1-7 bytes of a value of 8 or
// more are compared as the word ending at its end, whose bytes before
// them are known equal.
func sharedPrefix[S string | []byte](a, b S) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := load64(a[i:]) ^ load64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	if i == n {
		return n
	}
	if n >= 8 {
		if x := load64(a[n-8:]) ^ load64(b[n-8:]); x != 0 {
			return n - 8 + bits.TrailingZeros64(x)/8
		}
		return n
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// load64 reads 8 bytes of s little-endian (len(s) >= 8).
func load64[S string | []byte](s S) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// buildFront builds the front-coded values of lens and sufs (checked:
// each prefix no longer than the value before, the suffixes data) in
// buf (room for every value and 16 bytes more), setting offs[i] to the
// end of value i. A value of at most 16 bytes is built in two words from
// the value before it (kept in lo, hi) and a 16-byte load of its suffix,
// then stored whole: no load of bytes just stored, which the CPU cannot
// forward from the two stores that wrote them. Bytes past a value's end
// are overwritten by the next value or lie past the data.
//
// It reports whether the values strictly increase, as the front coding
// tells it: each is longer than the prefix it shares with the value
// before and, unless that prefix is the whole value before, its next
// byte (its suffix's first) is greater than that value's byte there (an
// equal byte, a prefix shorter than the common one, is not told: false).
func buildFront(buf, data []byte, lens, sufs []int64, offs []int32) (ascending bool) {
	sufs, offs = sufs[:len(lens)], offs[:len(lens)]
	var lo, hi uint64 // the first 16 bytes of the value before
	off, at := 0, 0   // the next value's offset in buf, its suffix's in data
	ascending = true
	prevLen := 0 // the value before's length
	for i, p := range lens {
		s := int(sufs[i])
		if i > 0 && ascending {
			switch {
			case s == 0:
				ascending = false
			case int(p) < prevLen:
				var before byte // the value before's byte p
				if p < 16 {
					w := lo
					if p >= 8 {
						w = hi
					}
					before = byte(w >> (8 * (uint(p) & 7)))
				} else {
					before = buf[off-prevLen+int(p)]
				}
				ascending = data[at] > before
			}
		}
		if p < 16 && p+int64(s) <= 16 && at+16 <= len(data) && off+16 <= len(buf) {
			d := data[at : at+16]
			lo, hi = frontWords(lo, hi, uint(p), binary.LittleEndian.Uint64(d), binary.LittleEndian.Uint64(d[8:]))
			b := buf[off : off+16]
			binary.LittleEndian.PutUint64(b, lo)
			binary.LittleEndian.PutUint64(b[8:], hi)
		} else {
			start := 0
			if i > 0 {
				start = int(offs[i-1]) - int(lens[i-1]) - int(sufs[i-1])
			}
			next := copyShort(buf, off, buf[start:start+int(p)])
			copyShort(buf, next, data[at:at+s])
			lo, hi = binary.LittleEndian.Uint64(buf[off:]), binary.LittleEndian.Uint64(buf[off+8:])
		}
		off += int(p) + s
		at += s
		offs[i] = int32(off)
		prevLen = int(p) + s
	}
	return ascending
}

// Ascending reports whether the values the last DecodeStrings decoded
// strictly increase, bytewise, as their front coding tells it
// (StringPrefix); false when they do not, or it does not tell.
func (c *Decoder) Ascending() bool { return c.ascending }

// frontWords returns the 16 bytes (two little-endian words) of the
// first p bytes (p < 16) of the value lo, hi followed by the suffix
// slo, shi.
func frontWords(lo, hi uint64, p uint, slo, shi uint64) (uint64, uint64) {
	if p < 8 {
		sh := 8 * p & 63
		return lo&lowBytes[p&7] | slo<<sh, shi<<sh | (slo>>1)>>(63-sh)
	}
	sh := 8 * (p - 8) & 63
	return lo, hi&lowBytes[(p-8)&7] | slo<<sh
}

// lowBytes[k] keeps the low k bytes of a word.
var lowBytes = [8]uint64{0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xff_ffffffff, 0xffff_ffffffff, 0xffffff_ffffffff}

// copyShort copies src to dst[off:] and returns the offset after it.
// Values of front coding are mostly a few bytes: up to 16 are moved as
// two 8-byte words when dst has room past them (the bytes written past
// len(src) are overwritten by what follows or lie beyond the data).
func copyShort(dst []byte, off int, src []byte) int {
	if n := len(src); n <= 16 && off+16 <= len(dst) && cap(src) >= 16 {
		*(*[16]byte)(dst[off : off+16]) = *(*[16]byte)(src[:16])
		return off + n
	}
	return off + copy(dst[off:], src)
}

// prefixPays reports whether front coding src saves at least a quarter
// of its bytes, and a byte a value: what the two length lists cost
// beyond plain's one is then well paid.
func prefixPays(src []string) bool {
	shared, total := 0, 0
	for i, s := range src {
		total += len(s)
		if i > 0 {
			shared += sharedPrefix(src[i-1], s)
		}
	}
	return shared >= len(src) && 4*shared >= total
}

// appendPrefixStrings appends src front coded, from the tag on.
func (c *Encoder) appendPrefixStrings(dst []byte, src []string) []byte {
	c.lens, c.sufs = grow(c.lens, len(src)), grow(c.sufs, len(src))
	prev := ""
	for i, s := range src {
		p := sharedPrefix(prev, s)
		c.lens[i], c.sufs[i] = int64(p), int64(len(s)-p)
		prev = s
	}
	dst = append(dst, byte(StringPrefix))
	dst = c.AppendInts(dst, c.lens)
	dst = c.AppendInts(dst, c.sufs)
	for i, s := range src {
		dst = append(dst, s[c.lens[i]:]...)
	}
	return dst
}

// appendPrefixCodes appends the values dict.At(codes[i]) front coded,
// from the tag on. The suffixes are gathered in c.sufData as the prefixes
// are found, and appended after the lengths in one copy.
func (c *Encoder) appendPrefixCodes(dst []byte, dict *Strings, codes []int32) []byte {
	if len(dict.front) > 0 && len(dict.front) == dict.Len() {
		if out, ok := c.appendFrontPicked(dst, dict, codes); ok {
			return out
		}
	}
	c.lens, c.sufs = grow(c.lens, len(codes)), grow(c.sufs, len(codes))
	var prev []byte
	buf := c.sufData[:0]
	offs, data := dict.Offsets, dict.Data
	for i, code := range codes {
		v := data[offs[code]:offs[code+1]]
		p := sharedPrefix(prev, v)
		c.lens[i], c.sufs[i] = int64(p), int64(len(v)-p)
		suf := v[p:]
		if cap(buf)-len(buf) < len(suf)+16 {
			buf = slices.Grow(buf, len(suf)+16)
		}
		at := len(buf)
		buf = buf[:copyShort(buf[:cap(buf)], at, suf)]
		prev = v
	}
	c.sufData = buf
	dst = append(dst, byte(StringPrefix))
	dst = c.appendNested(dst, c.lens, 0)
	dst = c.appendNested(dst, c.sufs, 1)
	return append(dst, buf...)
}

// appendFrontPicked is appendPrefixCodes for codes that strictly
// increase, of a dictionary whose values strictly increase and share
// with the value before them the prefixes dict.front says (a decoded
// front-coded column): in increasing values, the prefix value b shares
// with value a < b is the least of those shared by the values a+1..b with
// the value before them, so the prefixes are found without comparing a
// byte (a filtered column: the kept rows' codes). The output is the
// same. It reports false, having appended nothing, if codes do not
// strictly increase.
func (c *Encoder) appendFrontPicked(dst []byte, dict *Strings, codes []int32) ([]byte, bool) {
	front, offs, data := dict.front, dict.Offsets, dict.Data
	lens, sufs := grow(c.lens, len(codes))[:len(codes)], grow(c.sufs, len(codes))[:len(codes)]
	c.lens, c.sufs = lens, sufs
	// The values taken are distinct: their suffixes fit in len(data),
	// and 16 bytes more let copyShort move them as whole words.
	buf := slices.Grow(c.sufData[:0], len(data)+16)[:len(data)+16]
	at, prev := 0, int32(-1)
	for i, code := range codes {
		if code <= prev || int(code) >= len(front) {
			return dst, false
		}
		p := int32(0)
		if prev >= 0 {
			p = front[code]
			for _, q := range front[prev+1 : code] {
				p = min(p, q)
			}
		}
		lo, hi := offs[code]+p, offs[code+1]
		lens[i], sufs[i] = int64(p), int64(hi-lo)
		at = copyShort(buf, at, data[lo:hi])
		prev = code
	}
	c.sufData = buf[:at]
	dst = append(dst, byte(StringPrefix))
	dst = c.appendNested(dst, lens, 0)
	dst = c.appendNested(dst, sufs, 1)
	return append(dst, buf[:at]...), true
}

// decodePrefix decodes n front-coded values after the tag read by r
// into dict, every value an entry, codes the identity. The lengths are
// checked before any value is built: no prefix longer than the value
// before it, at most maxBytes bytes in all.
func (c *Decoder) decodePrefix(dict *Strings, codes []int32, r *reader, n, maxBytes int) ([]int32, int, error) {
	c.nested[0] = r.peekEncoding()
	r.nestedInts(c, &c.lens, n)
	c.nested[1] = r.peekEncoding()
	r.nestedInts(c, &c.sufs, n)
	if r.err != nil {
		return codes, r.off, r.err
	}
	total, suffixes, prev := int64(0), int64(0), int64(0)
	sufs, limit := c.sufs[:len(c.lens)], uint64(maxBytes)
	for i, p := range c.lens {
		// One test of the three (as unsigned, a negative length is
		// past any limit; total stays far from overflowing: each step
		// adds at most twice the limit before the test fails).
		s := sufs[i]
		bad := uint64(p) > uint64(prev) || uint64(s) > limit || uint64(total+p+s) > limit
		if bad {
			switch {
			case p < 0 || p > prev:
				r.fail("string %d: prefix length %d, the value before it has %d bytes", i, p, prev)
			case s < 0 || s > int64(maxBytes):
				r.fail("string %d: suffix length %d", i, s)
			default:
				r.fail("string %d: length %d makes %d bytes, limit %d", i, p+s, total+p+s, maxBytes)
			}
			return codes, r.off, r.err
		}
		prev = p + s
		total += prev
		suffixes += s
	}
	data := r.bytes(int(suffixes))
	if r.err != nil {
		return codes, r.off, r.err
	}
	buf := grow(dict.Data, int(total)+16) // room for 16-byte stores
	base := len(dict.Offsets)             // 1: the offset 0 of a reset dict
	dict.Offsets = slices.Grow(dict.Offsets, n)[:base+n]
	c.ascending = buildFront(buf, data, c.lens, c.sufs, dict.Offsets[base:])
	dict.Data = buf[:total]
	if c.ascending && base == 1 { // every value of dict is of this column
		front := slices.Grow(dict.front[:0], n)[:n]
		for i, p := range c.lens[:n] {
			front[i] = int32(p)
		}
		dict.front = front
	}
	codes = grow(codes, n)
	for i := range codes {
		codes[i] = int32(i)
	}
	return codes, r.off, nil
}
