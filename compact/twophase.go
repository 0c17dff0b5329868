package compact

import (
	"bytes"
	"context"
	"slices"

	"github.com/tsqdb/tsq/chunk"
)

// The two-phase single chunk. The single-chunk fold (single.go) decides
// a block once every newer row is observed, so it takes the window
// newest first, and a segment's file, written in block order, can only
// be written once its first block is decided: the pass ends with the
// oldest segment's whole write. When most of the window's blocks are
// fresh (their keys are no older row's: see freshBlocks), the window is
// read twice instead:
//
//   - phaseObserve enters in the snapshot the tombstones of every block
//     that is not fresh (read, decoded and hashed whole, newest first as
//     in the fold), and reads only the op column of the fresh ones (their
//     header and that column's body, seg.Reader.ReadBlockPart): a fresh
//     block holding a series drop is read whole and observed, and is not
//     fresh from then on;
//   - phaseDecide then takes each segment's blocks in file order, newest
//     segment first: the snapshot already holds every tombstone that can
//     drop a row of the window (a fresh block's keys are no older row's,
//     and its rows look their keys up: see tableOp), so a block is
//     decided as soon as it is read, and the segment's rewrite starts
//     with its first block that drops rows and writes each block as it
//     is decided and re-encoded (scanner.wait).
//
// A fresh block's keys are read once, and the window's writes overlap
// its decisions to the last block. The blocks that are not fresh are
// read twice, which is why the default takes this way only when at most
// half of the window's rows are in them.

// phase is what a run of the folder does (folder.run).
type phase uint8

const (
	phaseFold    phase = iota // observe and decide, newest first
	phaseObserve              // observe the tombstones only
	phaseDecide               // decide, in file order, with the snapshot observed
)

// TwoPhaseMode chooses between the single-chunk fold and the two-phase
// single chunk (Config.TwoPhase).
type TwoPhaseMode uint8

const (
	TwoPhaseAuto   TwoPhaseMode = iota // two-phase when at most half the window's rows are in blocks that are not fresh
	TwoPhaseNever                      // the fold
	TwoPhaseAlways                     // two-phase; for tests
)

// twoPhase reports whether a window of rows rows, of which inserts are
// in blocks that are not fresh, is taken in two phases.
func twoPhase(m TwoPhaseMode, inserts, rows uint64) bool {
	switch m {
	case TwoPhaseNever:
		return false
	case TwoPhaseAlways:
		return true
	}
	return rows > 0 && 2*inserts <= rows
}

// await has the rewrite of j's segment wait for each block's plan: the
// block is decided (and re-encoded) while the file is written.
func (sc *scanner) await(ctx context.Context, j *segJob) {
	sc.readyCh, sc.settled = make([]chan struct{}, len(sc.plans)), make(chan struct{})
	for i := range sc.readyCh {
		sc.readyCh[i] = make(chan struct{})
		if !sc.inChunk(&j.blocks[i]) { // never decided: written as it is
			close(sc.readyCh[i])
		}
	}
	sc.wait = func(i int) error {
		select {
		case <-sc.readyCh[i]:
			return j.getErr()
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// isReady reports whether block i's plan is final (await).
func (sc *scanner) isReady(i int) bool {
	select {
	case <-sc.readyCh[i]:
		return true
	default:
		return false
	}
}

// ready tells a waiting rewrite that block i's plan is final.
func (sc *scanner) ready(i int) {
	if sc.readyCh != nil {
		close(sc.readyCh[i])
	}
}

// lookupOnly reports whether, of block i of j, a fresh block whose keys
// strictly increase, only the rows whose keys phaseObserve listed can
// drop: there is no series drop, no soft-deleted seq within its seqs,
// and the keys were listed (not too many). phaseObserve listed every
// keyed row's of the blocks that are not fresh, the only rows whose
// keys a fresh block may share; the snapshot is not written while
// phaseDecide runs. Such a block is untouched when no listed key lies in
// its key span, and its rows whose keys are listed are its only ones
// decided otherwise, by the tombstones listed with them (decideHits).
func (f *folder) lookupOnly(j *segJob, i int) bool {
	d, snap := f.d, f.d.snap
	if snap.drops.len() > 0 || snap.keys == nil || snap.keys.many {
		return false
	}
	if m := &j.blocks[i]; d.deleted != nil {
		it := d.deleted.Iterator()
		it.AdvanceIfNeeded(m.MinSeq)
		if it.HasNext() && it.PeekNext() <= min(m.MaxSeq, d.chunkEnd) {
			return false
		}
	}
	return true
}

// keyedRows appends to dst the keyed puts and deletes of rw up to seq
// end, and reports whether their keys strictly increase with the rows
// (prep's sorted).
func keyedRows(rw *rows, end uint64, dst []int32) ([]int32, bool) {
	ascending := rw.kc.Ascending // every key above the one before: no compare
	if ascending && rw.kc.Valid == nil && rw.n > 0 && allKeyed(rw, end) {
		// Every row is a put or delete with a key, save the first when
		// its key is empty: the only key below every other.
		first := 0
		if len(rw.keyAt(0)) == 0 {
			first = 1
		}
		for k := first; k < rw.n; k++ {
			dst = append(dst, int32(k))
		}
		return dst, true
	}
	var prev []byte
	for k := range rw.n {
		if op := rw.op[k]; (op == OpPut || op == OpDelete) && uint64(rw.seq[k]) <= end {
			if key := rw.keyAt(k); len(key) > 0 {
				if !ascending && prev != nil && bytes.Compare(prev, key) >= 0 {
					return dst, false
				}
				prev = key
				dst = append(dst, int32(k))
			}
		}
	}
	return dst, true
}

// allKeyed reports whether every row of rw is a put or a delete at or
// below seq end, checked without a branch a row.
func allKeyed(rw *rows, end uint64) bool {
	var other uint64 // not 0 once an op is neither OpPut nor OpDelete
	var top uint64
	for k, op := range rw.op[:rw.n] {
		other |= uint64(op-OpPut) >> 1
		top = max(top, uint64(rw.seq[k]))
	}
	return other == 0 && top <= end
}

// opsHoldDrop reads the header and the op column of block t.i of t.job
// and reports whether a row is a series drop, or the column could not be
// read this way: then the block is read whole (and checked) instead.
// Nothing here is checked against the block's CRC; phaseDecide reads
// the whole block, checked, and fails the pass if it shows a drop after
// all (tableOp).
func (f *folder) opsHoldDrop(t *blockTask) (bool, error) {
	j := t.job
	n := j.blocks[t.i].BlockLen()
	t.buf = slices.Grow(t.buf[:0], n)[:n]
	head := min(n, 4<<10)
	if err := j.r.ReadBlockPart(t.i, 0, t.buf[:head]); err != nil {
		return false, err
	}
	t.readPart = int64(head)
	if t.dec.ResetHeader(t.buf, head) != nil {
		return true, nil
	}
	k := t.dec.Find(colOp)
	if k < 0 {
		return true, nil
	}
	info := t.dec.Info(k)
	if from, to := max(info.Offset, head), info.Offset+info.Stored; from < to {
		if err := j.r.ReadBlockPart(t.i, from, t.buf[from:to]); err != nil {
			return false, err
		}
		t.readPart += int64(to - from)
	}
	if t.dec.Column(k, &t.rw.oc) != nil || info.Type != chunk.Int64 {
		return true, nil
	}
	for _, op := range t.rw.oc.Ints {
		if op == OpDrop {
			return true, nil
		}
	}
	return false, nil
}
