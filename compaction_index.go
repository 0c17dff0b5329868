package tsq

import "github.com/tsqdb/tsq/compact"

// compactSoftDeleted returns the stream's soft-deleted seqs for a pass,
// nil if none. Caller holds st.mu.
func (st *stream) compactSoftDeleted() compact.SeqSet { return nil }

// forgetCompacted tells the index which rows a pass removed physically:
// soft-deleted ones and superseded ones.
func (st *stream) forgetCompacted(softDeleted, superseded []uint64) error { return nil }
