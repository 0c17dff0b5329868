// Package codec holds tsq's pure column encoders and decoders. They work
// slice-at-a-time over caller-owned buffers and know nothing of files.
//
// Encoders append: AppendX(dst, src) appends the encoding of src to dst and
// returns the extended slice; dst's prefix is never modified. Decoders take
// the value count n from the caller (the chunk layer validates it against
// its own limits first), decode into a caller's slice, grow it only when its
// capacity is short, and return the number of bytes consumed. Decoders never
// write into src, which may be read-only memory.
//
// Every decoder meets arbitrary bytes with either a value or an error that
// wraps ErrCorrupt and says what was wrong and at which offset; none panics.
// No decoder allocates more than O(n) elements of its output type plus
// O(len(src)) bytes, where n is the caller's count.
//
// The self-describing entry points pick the smallest of their encodings and
// write a one-byte tag first: AppendInts/DecodeInts, AppendFloats/DecodeFloats,
// AppendBools/DecodeBools and AppendStrings/DecodeStrings. The byte layout of
// every encoding is specified in docs/FORMAT.md.
//
// An Encoder or Decoder holds scratch buffers so that repeated use does not
// allocate; neither is safe for concurrent use. The zero value is ready.
package codec
