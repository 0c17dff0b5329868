package seg

import (
	"bytes"
	"encoding/binary"
	"sort"
)

const sectionKeys = "key span"

// MaxSpanKey bounds the bytes a key span keeps of each bound: longer keys
// are cut to their first MaxSpanKey bytes, which still bound every key
// once cut the same way (cutting keeps byte order: a <= b gives
// cut(a) <= cut(b)). Part of the format; do not change.
const MaxSpanKey = 256

// maxKeySpanLen bounds the key span section: the state, two bounds with
// their uvarint lengths, the CRC.
const maxKeySpanLen = 1 + 2*(2+MaxSpanKey) + crcLen

// Key span states, the section's first byte. Part of the format; do not
// change.
const (
	spanUnknown = 0 // the segment may hold any key
	spanNone    = 1 // no keyed put
	spanBounds  = 2 // every keyed put's key, cut, lies in [lo, hi]
)

// KeySpan bounds the keys of keyed puts (rows of op put with a key, the
// only rows a later put or delete of their key can supersede): the least
// and the greatest key seen, each cut to MaxSpanKey bytes. The zero
// KeySpan has seen no key. A sealed segment's span lets compaction pass
// over it when no tombstone key of a pass falls inside (MayHoldAny).
type KeySpan struct {
	lo, hi  []byte
	some    bool // a key was added
	unknown bool // keys were not tracked: any key may be present
}

// UnknownKeys is the span of a segment whose keys were not tracked.
func UnknownKeys() KeySpan { return KeySpan{unknown: true} }

func cutKey(k []byte) []byte { return k[:min(len(k), MaxSpanKey)] }

// Add widens the span to hold key, a keyed put's key.
func (s *KeySpan) Add(key []byte) {
	k := cutKey(key)
	if !s.some {
		s.lo, s.hi, s.some = append(s.lo[:0], k...), append(s.hi[:0], k...), true
		return
	}
	if bytes.Compare(k, s.lo) < 0 {
		s.lo = append(s.lo[:0], k...)
	} else if bytes.Compare(k, s.hi) > 0 {
		s.hi = append(s.hi[:0], k...)
	}
}

// AddString is Add of a string key.
func (s *KeySpan) AddString(key string) {
	k := key[:min(len(key), MaxSpanKey)]
	if !s.some {
		s.lo, s.hi, s.some = append(s.lo[:0], k...), append(s.hi[:0], k...), true
		return
	}
	if k < string(s.lo) {
		s.lo = append(s.lo[:0], k...)
	} else if k > string(s.hi) {
		s.hi = append(s.hi[:0], k...)
	}
}

// Merge widens s to hold every key of o.
func (s *KeySpan) Merge(o *KeySpan) {
	if o.unknown {
		s.unknown = true
	}
	if o.some {
		s.Add(o.lo)
		s.Add(o.hi)
	}
}

// Reset empties the span, keeping its buffers.
func (s *KeySpan) Reset() { *s = KeySpan{lo: s.lo[:0], hi: s.hi[:0]} }

// Known reports whether the span was tracked: when false, every key may
// be present.
func (s *KeySpan) Known() bool { return !s.unknown }

// Empty reports whether the span is known to hold no keyed put.
func (s *KeySpan) Empty() bool { return !s.unknown && !s.some }

// Bounds returns the least and greatest key, cut to MaxSpanKey bytes,
// when the span is known and holds a key.
func (s *KeySpan) Bounds() (lo, hi []byte, ok bool) {
	return s.lo, s.hi, s.some && !s.unknown
}

// MayHold reports whether a keyed put of key may lie in the span.
func (s *KeySpan) MayHold(key []byte) bool {
	if s.unknown {
		return true
	}
	k := cutKey(key)
	return s.some && bytes.Compare(k, s.lo) >= 0 && bytes.Compare(k, s.hi) <= 0
}

// MayHoldAny reports whether a keyed put of one of keys, sorted in
// ascending byte order, may lie in the span: a binary search.
func (s *KeySpan) MayHoldAny(keys [][]byte) bool {
	if s.unknown {
		return true
	}
	if !s.some {
		return false
	}
	// cutKey keeps the order, so the keys cut are sorted too.
	i := sort.Search(len(keys), func(i int) bool { return bytes.Compare(cutKey(keys[i]), s.lo) >= 0 })
	return i < len(keys) && bytes.Compare(cutKey(keys[i]), s.hi) <= 0
}

// appendKeySpan appends the key span section: the state, the bounds of
// state spanBounds, the CRC.
func appendKeySpan(dst []byte, s *KeySpan) []byte {
	start := len(dst)
	switch {
	case s.unknown:
		dst = append(dst, spanUnknown)
	case !s.some:
		dst = append(dst, spanNone)
	default:
		dst = append(dst, spanBounds)
		dst = binary.AppendUvarint(dst, uint64(len(s.lo)))
		dst = append(dst, s.lo...)
		dst = binary.AppendUvarint(dst, uint64(len(s.hi)))
		dst = append(dst, s.hi...)
	}
	return binary.LittleEndian.AppendUint32(dst, checksum(dst[start:]))
}

// decodeKeySpan parses a key span section read from file offset off.
func decodeKeySpan(buf []byte, path string, off int64) (KeySpan, error) {
	c := cursor{buf: buf, base: off, path: path, section: sectionKeys}
	var s KeySpan
	switch state := c.u8("state"); {
	case c.err != nil:
	case state == spanUnknown:
		s.unknown = true
	case state == spanNone:
	case state == spanBounds:
		s.some = true
		for i, what := range []string{"least key", "greatest key"} {
			at := c.off
			n := c.uvarint(what + " length")
			if c.err == nil && n > MaxSpanKey {
				c.off = at
				c.fail("%s of %d bytes exceeds %d", what, n, MaxSpanKey)
			}
			b := c.bytes(int(min(n, MaxSpanKey)), what)
			if i == 0 {
				s.lo = b
			} else {
				s.hi = b
			}
		}
	default:
		c.off = 0
		c.fail("state %d, want %d, %d or %d", state, spanUnknown, spanNone, spanBounds)
	}
	c.crc(0, "key span")
	if c.err == nil && c.off != len(buf) {
		c.fail("%d bytes after the key span", len(buf)-c.off)
	}
	if c.err == nil && s.some && bytes.Compare(s.lo, s.hi) > 0 {
		c.off = 1
		c.fail("least key %q above the greatest %q", s.lo, s.hi)
	}
	return s, c.err
}
