package seg

import (
	"bytes"
	"encoding/binary"
	"sort"
)

const sectionKeys = "key spans"

// MaxSpanKey bounds the bytes a key span keeps of each bound: longer keys
// are cut to their first MaxSpanKey bytes, which still bound every key
// once cut the same way (cutting keeps byte order: a <= b gives
// cut(a) <= cut(b)). Part of the format; do not change.
const MaxSpanKey = 64

// maxSpanEntry is the longest entry of the key spans section: the state
// and two bounds with their uvarint lengths.
const maxSpanEntry = 1 + 2*(1+MaxSpanKey)

// maxKeySpansLen bounds the key spans section of a segment of n blocks:
// the count, the entries, the CRC.
func maxKeySpansLen(n int64) int64 { return 10 + n*maxSpanEntry + crcLen }

// Key span states, the section's first byte. Part of the format; do not
// change.
const (
	spanUnknown = 0 // the segment may hold any key
	spanNone    = 1 // no keyed row
	spanBounds  = 2 // every keyed row's key, cut, lies in [lo, hi]
)

// KeySpan bounds the keys of a block's or a segment's keyed rows (rows
// with a non-empty key: puts and deletes): the least and the greatest
// key seen, each cut to MaxSpanKey bytes. The zero KeySpan has seen no
// key. Sealed segments keep one a block: compaction passes over a
// segment when no tombstone key of a pass falls in its span
// (MayHoldAny), a query over the blocks that cannot hold the keys it
// asks for.
type KeySpan struct {
	lo, hi  []byte
	some    bool // a key was added
	unknown bool // keys were not tracked: any key may be present
}

// UnknownKeys is the span of a segment whose keys were not tracked.
func UnknownKeys() KeySpan { return KeySpan{unknown: true} }

func cutKey(k []byte) []byte { return k[:min(len(k), MaxSpanKey)] }

// Add widens the span to hold key, a keyed row's key.
func (s *KeySpan) Add(key []byte) { widen(s, key) }

// AddString is Add of a string key.
func (s *KeySpan) AddString(key string) { widen(s, key) }

// widen is Add of a key of either kind, without copying it unless it
// becomes a bound.
func widen[S ~string | ~[]byte](s *KeySpan, key S) {
	k := key[:min(len(key), MaxSpanKey)]
	if !s.some {
		s.lo, s.hi, s.some = append(s.lo[:0], k...), append(s.hi[:0], k...), true
		return
	}
	if string(k) < string(s.lo) {
		s.lo = append(s.lo[:0], k...)
	} else if string(k) > string(s.hi) {
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

// Empty reports whether the span is known to hold no keyed row.
func (s *KeySpan) Empty() bool { return !s.unknown && !s.some }

// Bounds returns the least and greatest key, cut to MaxSpanKey bytes,
// when the span is known and holds a key.
func (s *KeySpan) Bounds() (lo, hi []byte, ok bool) {
	return s.lo, s.hi, s.some && !s.unknown
}

// MayHold reports whether a row of key may lie in the span.
func (s *KeySpan) MayHold(key []byte) bool {
	if s.unknown {
		return true
	}
	k := cutKey(key)
	return s.some && bytes.Compare(k, s.lo) >= 0 && bytes.Compare(k, s.hi) <= 0
}

// MayOverlap reports whether a row whose key k, cut to MaxSpanKey bytes,
// lies in [lo, hi] (nil: unbounded; compared cut as well) may lie in the
// span.
func (s *KeySpan) MayOverlap(lo, hi []byte) bool {
	if s.unknown {
		return true
	}
	return s.some && (lo == nil || bytes.Compare(cutKey(lo), s.hi) <= 0) && (hi == nil || bytes.Compare(s.lo, cutKey(hi)) <= 0)
}

// MayHoldAny reports whether a row of one of keys, sorted in ascending
// byte order, may lie in the span: a binary search.
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

// appendSpan appends a block's entry of the key spans section: the
// state, and the bounds of state spanBounds.
func appendSpan(dst []byte, s *KeySpan) []byte {
	switch {
	case s == nil || s.unknown:
		return append(dst, spanUnknown)
	case !s.some:
		return append(dst, spanNone)
	}
	dst = append(dst, spanBounds)
	dst = binary.AppendUvarint(dst, uint64(len(s.lo)))
	dst = append(dst, s.lo...)
	dst = binary.AppendUvarint(dst, uint64(len(s.hi)))
	return append(dst, s.hi...)
}

// appendKeySpans appends the key spans section: the block count, an
// entry a block (nil: unknown), the CRC.
func appendKeySpans(dst []byte, spans []*KeySpan) []byte {
	start := len(dst)
	dst = binary.AppendUvarint(dst, uint64(len(spans)))
	for _, s := range spans {
		dst = appendSpan(dst, s)
	}
	return binary.LittleEndian.AppendUint32(dst, checksum(dst[start:]))
}

// decodeKeySpans parses a key spans section read from file offset off,
// which must hold one entry for each of the segment's blocks. The
// bounds alias buf.
func decodeKeySpans(buf []byte, path string, off int64, blocks int) ([]KeySpan, error) {
	c := cursor{buf: buf, base: off, path: path, section: sectionKeys}
	if len(buf) < crcLen {
		c.fail("truncated: %d bytes", len(buf))
		return nil, c.err
	}
	// The CRC first: a damaged count must not size anything.
	body := len(buf) - crcLen
	if got, want := checksum(buf[:body]), binary.LittleEndian.Uint32(buf[body:]); got != want {
		c.fail("key spans CRC-32C of %d bytes is %08x, stored %08x", body, got, want)
		return nil, c.err
	}
	c.buf = buf[:body]
	if n := c.uvarint("block count"); c.err == nil && n != uint64(blocks) {
		c.off = 0
		c.fail("%d entries for %d blocks", n, blocks)
	}
	if c.err != nil {
		return nil, c.err
	}
	spans := make([]KeySpan, blocks)
	for i := range spans {
		s := &spans[i]
		at := c.off
		switch state := c.u8("state"); {
		case c.err != nil:
		case state == spanUnknown:
			s.unknown = true
		case state == spanNone:
		case state == spanBounds:
			s.some = true
			for j, what := range []string{"least key", "greatest key"} {
				lat := c.off
				n := c.uvarint(what + " length")
				if c.err == nil && n > MaxSpanKey {
					c.off = lat
					c.fail("block %d: %s of %d bytes exceeds %d", i, what, n, MaxSpanKey)
				}
				b := c.bytes(int(min(n, MaxSpanKey)), what)
				if j == 0 {
					s.lo = b
				} else {
					s.hi = b
				}
			}
			if c.err == nil && bytes.Compare(s.lo, s.hi) > 0 {
				c.off = at
				c.fail("block %d: least key %q above the greatest %q", i, s.lo, s.hi)
			}
		default:
			c.off = at
			c.fail("block %d: state %d, want %d, %d or %d", i, state, spanUnknown, spanNone, spanBounds)
		}
		if c.err != nil {
			return nil, c.err
		}
	}
	if c.off != len(c.buf) {
		c.fail("%d bytes after the key spans", len(c.buf)-c.off)
		return nil, c.err
	}
	return spans, nil
}
