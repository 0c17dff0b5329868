package codec

// Encoder holds scratch space reused across calls. The zero value is ready;
// it is not safe for concurrent use.
type Encoder struct {
	d, dd []int64 // deltas, deltas of deltas
	m     []int64 // decimal mantissas
	gaps  []int64 // decimal patch gaps
	diffs []int64 // decimal patch bit differences
	x     []byte  // XOR candidate
	codes []int64
	lens  []int64
	sufs  []int64 // front coding's suffix lengths
	// sufData gathers front coding's suffixes.
	sufData []byte
	dict    map[string]int32
	keys    []string
	// AppendDict compaction
	remap   []int32
	codes32 []int32
	dense   Strings
	// nested, during AppendStringsNested, are the encodings of the int
	// sequences nested in the string encoding (see NestedInts).
	nested NestedInts
}

// Decoder holds scratch space reused across calls. The zero value is ready;
// it is not safe for concurrent use.
type Decoder struct {
	nested NestedInts // of the last DecodeStrings
	// ascending: the last DecodeStrings found its values strictly
	// increasing (see Ascending)
	ascending bool
	ints      []int64
	lens      []int64
	sufs      []int64
	gaps      []int64
	diffs     []int64
}

// NestedInts are the encodings of the two int sequences a string encoding
// holds: the lengths and the codes (dictionary), the prefix and the
// suffix lengths (prefix), the lengths (plain); 0 where there is none.
type NestedInts [2]IntEncoding

// appendNested appends src, sequence k of a string encoding, in the
// encoding c.nested[k] when one is set, else in the one AppendInts
// picks. A sequence that was regular (delta-of-delta) is likely not any
// more (a filtered column): its encoding is picked again.
func (c *Encoder) appendNested(dst []byte, src []int64, k int) []byte {
	if e := c.nested[k]; e != 0 && e != IntDoD {
		return c.AppendIntsAs(dst, src, e)
	}
	return c.AppendInts(dst, src)
}

// Nested returns the encodings of the int sequences nested in what
// DecodeStrings last decoded.
func (c *Decoder) Nested() NestedInts { return c.nested }
