package tsq

import "github.com/RoaringBitmap/roaring/v2/roaring64"

// deletedSnapshot returns the stream's soft-deleted seqs, nil if none.
// Queries hide them. Stub until soft deletes land.
func (st *stream) deletedSnapshot() *roaring64.Bitmap { return nil }
