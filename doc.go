// Package tsq is an embedded time-series store: writers append records to
// named streams, durably, from many goroutines; records are stored in
// append-only segment files of columnar, checksummed blocks (package seg
// over package chunk); readers scan by seq or time range.
//
// A store is a directory. It holds streams, each a log of records ordered
// by a store-assigned seq. A record has a time (ns since the Unix epoch,
// UTC), a series, an optional key, an op and typed, nullable fields; a
// metric sample is a record of series, time and one float64 field "value".
//
// The layout of the files is in docs/FORMAT.md, the write and read paths
// and the durability each sync policy gives in docs/ARCHITECTURE.md.
package tsq
