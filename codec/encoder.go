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
	dict  map[string]int32
	keys  []string
	// AppendDict compaction
	remap   []int32
	codes32 []int32
	dense   Strings
}

// Decoder holds scratch space reused across calls. The zero value is ready;
// it is not safe for concurrent use.
type Decoder struct {
	ints  []int64
	lens  []int64
	sufs  []int64
	gaps  []int64
	diffs []int64
}
