package tsq

import (
	"errors"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
)

// compactSoftDeleted returns the stream's soft-deleted seqs for a pass,
// nil if none. Caller holds st.mu.
func (st *stream) compactSoftDeleted() *roaring64.Bitmap {
	if bm := st.deletedSnapshot(); bm != nil && !bm.IsEmpty() {
		return bm
	}
	return nil
}

// compactRetained returns the soft-deleted seqs retention deleted, for a
// pass to count apart (nil if none).
func (st *stream) compactRetained() *roaring64.Bitmap {
	if bm := st.retainedSnapshot(); bm != nil && !bm.IsEmpty() {
		return bm
	}
	return nil
}

// forgetCompacted tells the index which rows a pass removed physically,
// soft-deleted ones and superseded ones, after the rewritten segments
// were published: the deleted and tombstoned bitmaps shrink.
func (st *stream) forgetCompacted(softDeleted, superseded *roaring64.Bitmap) error {
	return errors.Join(st.forgetDeleted(softDeleted), st.forgetTombstoned(superseded))
}
