package tsq

import (
	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/tsqdb/tsq/compact"
)

// compactSoftDeleted returns the stream's soft-deleted seqs for a pass,
// nil if none. Caller holds st.mu.
func (st *stream) compactSoftDeleted() compact.SeqSet { return nil }

// forgetCompacted tells the index which rows a pass removed physically:
// soft-deleted ones and superseded ones.
func (st *stream) forgetCompacted(softDeleted, superseded *roaring64.Bitmap) error { return nil }
