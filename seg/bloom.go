package seg

import (
	"encoding/binary"
	"math"
)

const sectionBloom = "bloom"

// maxBloomLen bounds the bloom section: k, a 10-byte uvarint m, the bits
// and the CRC.
const maxBloomLen = 1 + 10 + MaxBloomBits/8 + crcLen

// bloom is the series bloom filter of a sealed segment. Series s sets the
// k bits (h1 + i·h2) mod m, i = 0..k-1, in uint64 wrapping arithmetic,
// where h1 = FNV-1a 64 of s's bytes and h2 = mix64(h1) | 1. Bit j is bit
// j mod 8 (least significant first) of byte ⌊j/8⌋. m = 0 (with k = 0)
// means the segment has no filter: every series may be present.
type bloom struct {
	k    int
	m    uint64
	bits []byte
}

// FNV-1a 64 parameters. Part of the format; do not change.
const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

// seriesHash is h1: FNV-1a 64 of s.
func seriesHash(s string) uint64 {
	h := uint64(fnvOffset64)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime64
	}
	return h
}

// mix64 is the SplitMix64 finalizer. Part of the format; do not change.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// newBloom returns a filter sized for n distinct series at false-positive
// rate p: m = ⌈n·ln(1/p)/ln²2⌉ rounded up to whole bytes, at most
// MaxBloomBits, and k = round(m/n·ln 2) within 1..MaxBloomHashes. With
// n = 0 it returns the empty filter (m = 0).
func newBloom(n int, p float64) *bloom {
	if n == 0 {
		return &bloom{}
	}
	m := uint64(math.Ceil(float64(n) * math.Log(1/p) / (math.Ln2 * math.Ln2)))
	m = min((m+7)&^7, MaxBloomBits)
	k := int(math.Round(float64(m) / float64(n) * math.Ln2))
	k = min(max(k, 1), MaxBloomHashes)
	return &bloom{k: k, m: m, bits: make([]byte, m/8)}
}

// add sets the bits of the series with hash h1.
func (b *bloom) add(h1 uint64) {
	h2 := mix64(h1) | 1
	for i := range uint64(b.k) {
		j := (h1 + i*h2) % b.m
		b.bits[j/8] |= 1 << (j % 8)
	}
}

// mayContain reports whether series s may have been added.
func (b *bloom) mayContain(s string) bool {
	if b.m == 0 {
		return true
	}
	h1 := seriesHash(s)
	h2 := mix64(h1) | 1
	for i := range uint64(b.k) {
		j := (h1 + i*h2) % b.m
		if b.bits[j/8]&(1<<(j%8)) == 0 {
			return false
		}
	}
	return true
}

// appendBloom appends the filter section: k, m, the bits and their CRC.
func appendBloom(dst []byte, b *bloom) []byte {
	start := len(dst)
	dst = append(dst, byte(b.k))
	dst = binary.AppendUvarint(dst, b.m)
	dst = append(dst, b.bits...)
	return binary.LittleEndian.AppendUint32(dst, checksum(dst[start:]))
}

// decodeBloom parses a filter section read from file offset off.
func decodeBloom(buf []byte, path string, off int64) (*bloom, error) {
	c := cursor{buf: buf, base: off, path: path, section: sectionBloom}
	b := &bloom{k: int(c.u8("hash count"))}
	at := c.off
	b.m = c.uvarint("bit count")
	switch {
	case c.err != nil:
	case b.m > MaxBloomBits:
		c.off = at
		c.fail("bit count %d exceeds limit %d", b.m, MaxBloomBits)
	case (b.m == 0) != (b.k == 0) || b.k > MaxBloomHashes:
		c.off = 0
		c.fail("%d hashes over %d bits; want 1..%d hashes, or none over 0 bits", b.k, b.m, MaxBloomHashes)
	}
	b.bits = c.bytes(int((b.m+7)/8), "bits")
	c.crc(0, "bloom")
	if c.err == nil && c.off != len(buf) {
		c.fail("%d bytes after the filter", len(buf)-c.off)
	}
	if c.err == nil && b.m%8 != 0 && b.bits[len(b.bits)-1]>>(b.m%8) != 0 {
		c.off -= crcLen + 1
		c.fail("padding bits after bit %d are set", b.m)
	}
	if c.err != nil {
		return nil, c.err
	}
	return b, nil
}
