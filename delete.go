package tsq

import (
	"context"
	"errors"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/tsqdb/tsq/chunk"
)

// ErrTombstoneRow: Delete was asked to soft-delete a delete or drop row.
// Tombstone rows are kept forever (readers folding the raw stream need
// them, and hiding one would bring back the rows it removed).
var ErrTombstoneRow = errors.New("tsq: tombstone rows cannot be soft-deleted")

// deleteReason says who soft-deleted rows, for Metrics.
type deleteReason uint8

const (
	byDelete deleteReason = iota
	byRetention
)

// Delete soft-deletes the records with the given seqs: it adds them to
// the stream's deleted bitmap, persists the bitmap (written atomically and
// fsynced) and then publishes it, so when Delete returns the records are
// durably gone from every read: Get (ErrNotFound), Scan, Count, OldestIDs,
// IDsOlderThan and retention. Compaction removes the rows from disk later.
//
// Every seq must name a stored put record: a seq never stored (or already
// removed by compaction) gives an error matching ErrNotFound, a delete or
// drop record ErrTombstoneRow, and then nothing is deleted. Seqs already
// soft-deleted are accepted and ignored. Rows appended under SyncInterval
// or SyncNever are fsynced first, so a crash cannot keep the deletion and
// lose the row (its seq could then be handed out again).
func (s *Store) Delete(ctx context.Context, stream string, seqs ...uint64) error {
	if s.o.ReadOnly {
		return fmt.Errorf("tsq: stream %q: delete: %w", stream, ErrReadOnly)
	}
	st, err := s.stream(stream, false)
	if err != nil {
		return err
	}
	if len(seqs) == 0 {
		return nil
	}
	add := roaring64.New()
	add.AddMany(seqs)
	_, err = st.softDelete(ctx, add, true)
	return err
}

// softDelete soft-deletes the seqs of add (which it may change) and
// returns how many were not soft-deleted before. Strict, every seq must
// name a stored put row; else seqs no longer stored are left out (a
// DELETE statement's rows that a compaction removed since the selection).
func (st *stream) softDelete(ctx context.Context, add *roaring64.Bitmap, strict bool) (uint64, error) {
	if add.IsEmpty() {
		return 0, nil
	}
	if err := st.syncFor(add.Maximum()); err != nil {
		return 0, err
	}
	st.soft.mu.Lock()
	defer st.soft.mu.Unlock()
	// Checked under softState.mu against the view of now: a row that a
	// concurrent compaction removes is then either refused here or
	// cleared from the bitmap by the forget that follows the rewrite.
	if cur := st.deletedSnapshot(); cur != nil {
		add.AndNot(cur)
	}
	if add.IsEmpty() {
		return 0, nil
	}
	var missing *roaring64.Bitmap
	if !strict {
		missing = roaring64.New()
	}
	if err := st.checkPuts(ctx, add, missing); err != nil {
		return 0, err
	}
	if missing != nil {
		add.AndNot(missing)
		if add.IsEmpty() {
			return 0, nil
		}
	}
	return st.addDeleted(ctx, add, byDelete)
}

// addDeleted persists and publishes deleted ∪ add and counts the rows
// newly deleted for why. Caller holds soft.mu.
func (st *stream) addDeleted(ctx context.Context, add *roaring64.Bitmap, why deleteReason) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	n, err := st.addBits(&st.soft.deleted, add)
	if err != nil {
		return 0, err
	}
	if why == byRetention {
		// After deleted: retained never names a seq deleted does not.
		// It only tells compaction's counts apart: the rows are deleted
		// now whatever becomes of it, and a failure (as a crash between
		// the two) leaves them counted as soft deletes.
		if _, err := st.addBits(&st.soft.retained, add); err != nil {
			st.s.o.Logger.Warn("tsq: retention: rows deleted, but not noted as retention's: compaction will count them as soft deletes",
				"stream", st.name, "rows", n, "err", err)
		}
		st.s.m.retentionDeletes.Add(n)
	} else {
		st.s.m.softDeletes.Add(n)
	}
	return n, nil
}

// syncFor fsyncs the active segment if it holds maxSeq or later seqs
// that may not be durable yet (SyncInterval, SyncNever).
func (st *stream) syncFor(maxSeq uint64) error {
	if st.s.o.Sync == SyncAlways {
		return nil // acknowledged = fsynced
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return ErrClosed
	}
	if err := st.writePending(); err != nil {
		return err
	}
	if st.active == nil || maxSeq < st.active.firstSeq {
		return nil
	}
	if st.broken != nil {
		return fmt.Errorf("tsq: stream %q: delete: the active segment failed and awaits recovery: %w", st.name, st.broken)
	}
	return st.sync()
}

// checkPuts checks that every seq of add names a stored put row of the
// current view; it decodes the seq and op columns of the blocks touched.
// With missing non-nil, a seq not stored (compaction removed it since it
// was selected) goes into missing instead of failing the check.
func (st *stream) checkPuts(ctx context.Context, add, missing *roaring64.Bitmap) error {
	v := st.view.Load()
	if v == nil {
		v = &view{}
	}
	notFound := func(seq uint64) error {
		if missing == nil {
			return fmt.Errorf("tsq: stream %q: delete seq %d: %w", st.name, seq, ErrNotFound)
		}
		missing.Add(seq)
		return nil
	}
	it := add.Iterator()
	for it.HasNext() {
		seq := it.Next()
		sf, j, ok := v.locate(seq)
		if !ok {
			if err := notFound(seq); err != nil {
				return err
			}
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		seqs, ops, err := st.seqOps(sf, j)
		if err != nil {
			return err
		}
		// Check every seq of add that falls in this block.
		m := &sf.blocks[j]
		k := 0
		for {
			for k < len(seqs) && uint64(seqs[k]) < seq {
				k++
			}
			if k == len(seqs) || uint64(seqs[k]) != seq {
				if err := notFound(seq); err != nil {
					return err
				}
			} else if op := Op(ops[k]); op != OpPut {
				return fmt.Errorf("tsq: stream %q: delete seq %d: a %v row: %w", st.name, seq, op, ErrTombstoneRow)
			}
			if !it.HasNext() || it.PeekNext() > m.MaxSeq {
				break
			}
			seq = it.Next()
		}
	}
	return nil
}

// seqOps decodes only the seq and op columns of block i of sf.
func (st *stream) seqOps(sf *segFile, i int) (seqs, ops []int64, err error) {
	data, err := st.readBlock(sf, i, cacheFill)
	if err != nil {
		return nil, nil, err
	}
	var dec chunk.Decoder
	var sc, oc chunk.Column
	if err = dec.Reset(data); err == nil {
		err = decodeNamed(&dec, colSeq, &sc)
	}
	if err == nil {
		err = decodeNamed(&dec, colOp, &oc)
	}
	if err == nil && len(oc.Ints) != len(sc.Ints) {
		err = fmt.Errorf("%w: %d ops for %d seqs", chunk.ErrCorrupt, len(oc.Ints), len(sc.Ints))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("tsq: stream %q: %s block %d: %w", st.name, sf.path, i, err)
	}
	return sc.Ints, oc.Ints, nil
}
