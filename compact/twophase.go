package compact

import "context"

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

// ready tells a waiting rewrite that block i's plan is final.
func (sc *scanner) ready(i int) {
	if sc.readyCh != nil {
		close(sc.readyCh[i])
	}
}
