package query

import (
	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/tsqdb/tsq/seg"
)

// Source is one stream as a query reads it: a consistent snapshot of its
// segments. The store implements it; its methods must be safe for
// concurrent use.
type Source interface {
	// Segments returns the snapshot's segments in seq order.
	Segments() []Segment
	// Deleted returns the soft-deleted seqs, invisible to queries; nil
	// if none. The bitmap must not change while the query runs.
	Deleted() *roaring64.Bitmap
}

// Segment is one segment file of a Source.
type Segment interface {
	// Name is the segment's file name, for EXPLAIN.
	Name() string
	// Key identifies the segment file's content (its path and
	// generation) for caches: a longer Blocks() of the same Key extends
	// the shorter one. An empty Key is not cached (a segment a query
	// holds in memory).
	Key() string
	// Blocks returns the block index in seq order; it must not be
	// modified.
	Blocks() []seg.BlockMeta
	// MayContainSeries reports whether the segment may hold the series;
	// false means it certainly does not (a bloom filter).
	MayContainSeries(series string) bool
	// ReadBlock returns the checked bytes of block i, to be decoded with
	// chunk.Decoder; they must not be modified.
	ReadBlock(i int) ([]byte, error)
}

// Opener returns the Source of a stream, or an error (an unknown stream).
type Opener func(stream string) (Source, error)
