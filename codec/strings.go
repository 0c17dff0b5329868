package codec

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// StringEncoding tags a string (or bytes) column encoding. The numeric
// values are part of the format; do not change them.
type StringEncoding uint8

const (
	// StringPlain: <ints: n lengths> <the n values' bytes, concatenated>.
	StringPlain StringEncoding = 1
	// StringDict: <uvarint d> <ints: d lengths> <the d distinct values'
	// bytes> <ints: n codes>, code i indexing the distinct values in order
	// of first appearance.
	StringDict StringEncoding = 2
	// StringPrefix (front coding): <ints: n prefix lengths> <ints: n
	// suffix lengths> <the n suffixes' bytes, concatenated>; value i is
	// the first prefix[i] bytes of value i-1 followed by suffix i
	// (prefix[0] = 0). For sorted or sequential keys ("order-000123").
	StringPrefix StringEncoding = 3
)

func (e StringEncoding) String() string {
	switch e {
	case StringPlain:
		return "plain"
	case StringDict:
		return "dict"
	case StringPrefix:
		return "prefix"
	}
	return fmt.Sprintf("StringEncoding(%d)", uint8(e))
}

// Strings is a list of byte strings stored back to back, as Arrow does:
// value i is Data[Offsets[i]:Offsets[i+1]]. The zero value is empty.
type Strings struct {
	Data    []byte
	Offsets []int32 // len = Len()+1 once non-empty; Offsets[0] == 0
	// front, when it holds a length a value, says that the values
	// strictly increase and that value i shares exactly its first
	// front[i] bytes with value i-1: decoding front coding that found so
	// (see buildFront) sets it; Reset and the appends empty it.
	front []int32
}

// Len returns the number of values.
func (s *Strings) Len() int { return max(len(s.Offsets)-1, 0) }

// At returns value i; the bytes alias s.Data.
func (s *Strings) At(i int) []byte { return s.Data[s.Offsets[i]:s.Offsets[i+1]] }

// Reset empties s, keeping its capacity.
func (s *Strings) Reset() {
	s.Data = s.Data[:0]
	s.Offsets = append(s.Offsets[:0], 0)
	s.front = s.front[:0]
}

// Append adds a value.
func (s *Strings) Append(v []byte) {
	if len(s.Offsets) == 0 {
		s.Offsets = append(s.Offsets, 0)
	}
	s.Data = append(s.Data, v...)
	s.Offsets = append(s.Offsets, int32(len(s.Data)))
	s.front = s.front[:0]
}

// AppendString adds a value.
func (s *Strings) AppendString(v string) {
	if len(s.Offsets) == 0 {
		s.Offsets = append(s.Offsets, 0)
	}
	s.Data = append(s.Data, v...)
	s.Offsets = append(s.Offsets, int32(len(s.Data)))
	s.front = s.front[:0]
}

// AppendStrings appends src, as a dictionary when that is smaller. The
// caller's value i is src[i].
func (c *Encoder) AppendStrings(dst []byte, src []string) []byte {
	if c.dict == nil {
		c.dict = make(map[string]int32)
	}
	clear(c.dict)
	if c.sampledDistinct(src) {
		return c.appendDistinct(dst, src)
	}
	c.keys = c.keys[:0]
	c.codes = grow(c.codes, len(src))
	total := 0
	for i, s := range src {
		total += len(s)
		if i > 0 && s == src[i-1] { // runs (one series per batch) skip the map
			c.codes[i] = c.codes[i-1]
			continue
		}
		code, ok := c.dict[s]
		if !ok {
			if 2*(len(c.keys)+1) > len(src) {
				// mostly distinct: the dictionary cannot pay; stop
				// filling it (the map and keys would only grow)
				c.keys = append(c.keys, s)
				break
			}
			code = int32(len(c.keys))
			c.dict[s] = code
			c.keys = append(c.keys, s)
		}
		c.codes[i] = int64(code)
	}
	if 2*len(c.keys) > len(src) { // mostly distinct: the dictionary cannot pay
		return c.appendDistinct(dst, src)
	}
	dst = append(dst, byte(StringDict))
	dst = appendUvarint(dst, uint64(len(c.keys)))
	dst = c.appendStringList(dst, c.keys)
	return c.AppendInts(dst, c.codes)
}

// appendDistinct appends src, whose values are mostly distinct, front
// coded or plain.
func (c *Encoder) appendDistinct(dst []byte, src []string) []byte {
	if prefixPays(src) {
		return c.appendPrefixStrings(dst, src)
	}
	dst = append(dst, byte(StringPlain))
	return c.appendStringList(dst, src)
}

// sampleMin is the fewest values sampledDistinct samples.
const sampleMin = 1024

// sampledDistinct reports whether the values of k pairs of neighbours,
// one pair at a pseudo-random place in each of k equal stretches of src,
// all differ, so that the dictionary would not pay and building it (a
// map entry for each of up to half the values) can be skipped: keys,
// ids, messages. A column where the dictionary pays holds each value
// twice on average or more; m = 2k ≥ √(32n) of its n values, neighbours
// among them (runs), then all differ with probability about
// e^(−m²/2n) ≤ e^−16 whatever their order (a miss costs the dictionary's
// saving, never correctness): 512 values of 8192. The places are the
// same for every call: the output depends on the input alone. c.dict
// must be empty; it is left empty.
func (c *Encoder) sampledDistinct(src []string) bool {
	n := len(src)
	if n < sampleMin {
		return false
	}
	k := int(math.Sqrt(8*float64(n))) + 1 // stretches of at least 11 values
	defer clear(c.dict)
	x := uint64(0x9e3779b97f4a7c15)
	for i := range k {
		lo, hi := i*n/k, (i+1)*n/k
		x ^= x << 13 // xorshift64
		x ^= x >> 7
		x ^= x << 17
		off, _ := bits.Mul64(x, uint64(hi-lo-1))
		for _, s := range src[lo+int(off) : lo+int(off)+2] {
			if _, ok := c.dict[s]; ok {
				return false
			}
			c.dict[s] = 0
		}
	}
	return true
}

// AppendDict appends a column given as a dictionary and per-value codes,
// which must index dict. The encoding is StringDict. The dictionary written
// holds only the entries the codes use: dict as it is when they use every
// entry, else the used entries in order of first use (a column filtered by
// compaction keeps no value of the rows it left out).
func (c *Encoder) AppendDict(dst []byte, dict *Strings, codes []int32) []byte {
	// The entries are numbered in order of first use, and the codes
	// written so numbered, until every entry is seen: the codes are then
	// written as they are, and the dictionary too.
	n := dict.Len()
	c.remap = grow(c.remap, n)
	for i := range c.remap {
		c.remap[i] = -1
	}
	c.codes = grow(c.codes, len(codes))
	next, same := int32(0), true // same: every entry numbered as it is
	i := 0
	for ; i < len(codes) && int(next) < n; i++ {
		r := c.remap[codes[i]]
		if r < 0 {
			r = next
			c.remap[codes[i]] = r
			same = same && r == codes[i]
			next++
		}
		c.codes[i] = int64(r)
	}
	if int(next) == n { // every entry used
		if !same {
			i = 0
		}
		for ; i < len(codes); i++ {
			c.codes[i] = int64(codes[i])
		}
	} else { // the used entries, in order of first use
		c.codes32 = grow(c.codes32, int(next))
		for e, r := range c.remap {
			if r >= 0 {
				c.codes32[r] = int32(e)
			}
		}
		c.dense.Reset()
		for _, e := range c.codes32 {
			c.dense.Append(dict.At(int(e)))
		}
		dict = &c.dense
	}
	dst = append(dst, byte(StringDict))
	dst = appendUvarint(dst, uint64(dict.Len()))
	c.lens = grow(c.lens, dict.Len())
	for i := range c.lens {
		c.lens[i] = int64(dict.Offsets[i+1] - dict.Offsets[i])
	}
	dst = c.appendNested(dst, c.lens, 0)
	if dict.Len() > 0 {
		dst = append(dst, dict.Data[:dict.Offsets[dict.Len()]]...)
	}
	return c.appendNested(dst, c.codes, 1)
}

func (c *Encoder) appendStringList(dst []byte, src []string) []byte {
	c.lens = grow(c.lens, len(src))
	for i, s := range src {
		c.lens[i] = int64(len(s))
	}
	dst = c.AppendInts(dst, c.lens)
	for _, s := range src {
		dst = append(dst, s...)
	}
	return dst
}

// DecodeStrings decodes n values into dict (the distinct values, or all
// values for the plain encoding) and codes (value i is dict.At(codes[i])).
// At most maxBytes bytes of string data are accepted.
func (c *Decoder) DecodeStrings(dict *Strings, codes []int32, src []byte, n, maxBytes int) ([]int32, int, error) {
	if err := checkCount("strings", n); err != nil {
		return codes[:0], 0, err
	}
	dict.Reset()
	codes = codes[:0]
	c.nested, c.ascending = NestedInts{}, false
	r := reader{buf: src, section: "strings"}
	e := StringEncoding(r.byte())
	r.enc = e
	d := n
	switch e {
	case StringPrefix:
		return c.decodePrefix(dict, codes, &r, n, maxBytes)
	case StringPlain:
	case StringDict:
		d = r.count("dictionary size", n)
	default:
		if r.err == nil {
			r.off = 0
			r.fail("unknown string encoding %d", uint8(e))
		}
	}
	c.nested = NestedInts{r.peekEncoding(), 0}
	r.nestedInts(c, &c.lens, d)
	if r.err != nil {
		return codes, r.off, r.err
	}
	total := 0
	for i, l := range c.lens {
		if l < 0 || int64(total)+l > int64(maxBytes) {
			r.fail("string %d: length %d makes %d bytes, limit %d", i, l, int64(total)+l, maxBytes)
			return codes, r.off, r.err
		}
		total += int(l)
	}
	data := r.bytes(total)
	if r.err != nil {
		return codes, r.off, r.err
	}
	dict.Data = append(dict.Data, data...)
	for _, l := range c.lens {
		dict.Offsets = append(dict.Offsets, dict.Offsets[len(dict.Offsets)-1]+int32(l))
	}
	codes = grow(codes, n)
	if e == StringPlain {
		for i := range codes {
			codes[i] = int32(i)
		}
		return codes, r.off, nil
	}
	codesAt := r.off
	c.nested[1] = r.peekEncoding()
	r.nestedInts(c, &c.ints, n)
	if r.err != nil {
		return codes[:0], r.off, r.err
	}
	for i, v := range c.ints {
		if uint64(v) >= uint64(d) {
			r.off = codesAt
			r.fail("code %d of value %d outside dictionary of %d", v, i, d)
			return codes[:0], r.off, r.err
		}
		codes[i] = int32(v)
	}
	return codes, r.off, nil
}

// AppendStringsNested is AppendStringsAs with the int sequences nested in
// encoding e in the encodings nested (as Decoder.Nested returns them; 0:
// picked).
func (c *Encoder) AppendStringsNested(dst []byte, dict *Strings, codes []int32, e StringEncoding, nested NestedInts) []byte {
	c.nested = nested
	defer func() { c.nested = NestedInts{} }()
	return c.AppendStringsAs(dst, dict, codes, e)
}

// AppendStringsAs appends the values dict.At(codes[i]) in encoding e,
// without trying the others: StringPlain writes every value, StringDict
// the dictionary as AppendDict does, StringPrefix every value front
// coded. codes must index dict.
func (c *Encoder) AppendStringsAs(dst []byte, dict *Strings, codes []int32, e StringEncoding) []byte {
	switch e {
	case StringDict:
		return c.AppendDict(dst, dict, codes)
	case StringPrefix:
		return c.appendPrefixCodes(dst, dict, codes)
	case StringPlain:
		dst = append(dst, byte(StringPlain))
		c.lens = grow(c.lens, len(codes))
		for i, code := range codes {
			c.lens[i] = int64(dict.Offsets[code+1] - dict.Offsets[code])
		}
		dst = c.appendNested(dst, c.lens, 0)
		total := 0
		for _, l := range c.lens {
			total += int(l)
		}
		dst = slices.Grow(dst, total)
		// Consecutive codes (a plain column filtered: ascending with
		// gaps) are copied as one range.
		for i := 0; i < len(codes); {
			lo := codes[i]
			hi := lo + 1
			for i++; i < len(codes) && codes[i] == hi; i++ {
				hi++
			}
			dst = append(dst, dict.Data[dict.Offsets[lo]:dict.Offsets[hi]]...)
		}
		return dst
	}
	panic(fmt.Sprintf("codec: unknown %v", e))
}

// FilterPlain appends the values keep (ascending indexes below n) of src,
// a StringPlain encoding of n values from its tag on, exactly as
// AppendStringsAs(StringPlain) encodes them, without decoding the values:
// the kept byte ranges are copied from src. It returns the bytes of src
// the encoding spans. dec decodes the lengths; at most maxBytes bytes of
// string data are accepted.
func (c *Encoder) FilterPlain(dst, src []byte, n int, keep []int32, dec *Decoder, maxBytes int) ([]byte, int, error) {
	if err := checkCount("strings", n); err != nil {
		return dst, 0, err
	}
	r := reader{buf: src, section: "strings"}
	e := StringEncoding(r.byte())
	r.enc = e
	if r.err == nil && e != StringPlain {
		r.off = 0
		r.fail("encoding %d, want plain", uint8(e))
	}
	r.nestedInts(dec, &dec.lens, n)
	if r.err != nil {
		return dst, r.off, r.err
	}
	lens := dec.lens
	total := 0
	for i, l := range lens {
		if l < 0 || int64(total)+l > int64(maxBytes) {
			r.fail("string %d: length %d makes %d bytes, limit %d", i, l, int64(total)+l, maxBytes)
			return dst, r.off, r.err
		}
		total += int(l)
	}
	data := r.bytes(total)
	if r.err != nil {
		return dst, r.off, r.err
	}
	c.lens = grow(c.lens, len(keep))
	prev := int32(-1)
	for j, i := range keep {
		if i <= prev || int(i) >= n {
			return dst, r.off, fmt.Errorf("codec: filter: row %d after %d, of %d", i, prev, n)
		}
		c.lens[j], prev = lens[i], i
	}
	dst = append(dst, byte(StringPlain))
	dst = c.AppendInts(dst, c.lens)
	// Runs of consecutive kept rows are copied as one range.
	off, at := 0, 0 // off: where value at starts in data
	for j := 0; j < len(keep); {
		i := int(keep[j])
		for ; at < i; at++ {
			off += int(lens[at])
		}
		start := off
		for j < len(keep) && int(keep[j]) == at {
			off += int(lens[at])
			at++
			j++
		}
		dst = append(dst, data[start:off]...)
	}
	return dst, r.off, nil
}
