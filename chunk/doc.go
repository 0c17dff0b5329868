// Package chunk encodes one columnar block: up to MaxRows rows of named,
// typed, nullable columns, each column in the smallest of its codec
// encodings, optionally passed through zstd or s2 when that pays, the whole
// block covered by one CRC-32C. A reader can decode any one column without
// decoding the others.
//
// The store writes the record columns of a stream (seq, time, series, key,
// op) and its fields as one block per DefaultRows rows; this package does
// not know those names, only columns.
//
// Usage:
//
//	var enc chunk.Encoder
//	blk := chunk.Block{Rows: n, Columns: []chunk.Column{
//		{Name: "time", Type: chunk.Int64, Ints: times},
//		{Name: "value", Type: chunk.Float64, Floats: values},
//	}}
//	buf, err := enc.Append(buf[:0], &blk, nil)
//
//	var dec chunk.Decoder
//	if err := dec.Reset(buf); err != nil { ... } // checks the CRC
//	var values chunk.Column
//	err = dec.Column(dec.Find("value"), &values)
//
// Encoder and Decoder reuse their buffers across calls and are not safe for
// concurrent use; their zero values are ready. The byte layout is in
// docs/FORMAT.md.
package chunk
