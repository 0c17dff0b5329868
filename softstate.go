package tsq

import (
	"errors"
	"io/fs"
	"math"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/index"
)

// Names of a stream's state files (format in docs/FORMAT.md, "State
// files"). They are replaced atomically through a temp file ending in
// index.TmpSuffix, which loadSoft removes at open.
const (
	deletedFile    = "deleted.bitmap"
	tombstonedFile = "tombstoned.bitmap"
	retainedFile   = "retained.bitmap"
	retentionFile  = "retention.rule"
)

// fileStamp tells whether a state file changed since it was loaded (a
// read-only stream reloads it then).
type fileStamp struct {
	size  int64
	mtime time.Time
	found bool
}

// bitmapState is one persisted bitmap of a stream.
type bitmapState struct {
	kind  index.Kind
	file  string
	cur   atomic.Pointer[roaring64.Bitmap] // immutable once published; nil = empty
	seq   uint64                           // write sequence of the file; guarded by softState.mu
	stamp fileStamp                        // read-only streams; guarded by softState.mu
}

// softState holds a stream's soft-delete and retention state.
//
// Lock order: mu may be taken while holding stream.mu (compaction calls
// forgetDeleted under it), so nothing holding mu ever takes stream.mu.
type softState struct {
	mu         sync.Mutex // serialises changes and reloads of the state files, and retention passes
	deleted    bitmapState
	tombstoned bitmapState
	// retained holds the seqs of deleted that retention deleted:
	// compaction counts their rows apart (RowsRetention). Written after
	// deleted, so it never names a seq deleted does not.
	retained  bitmapState
	rule      atomic.Pointer[index.Rule] // nil = no rule
	ruleSeq   uint64
	ruleStamp fileStamp
	// hook, set by tests, stops a state file write at a crash point.
	hook index.Hook
}

func (ss *softState) init() {
	ss.deleted.kind, ss.deleted.file = index.KindDeleted, deletedFile
	ss.tombstoned.kind, ss.tombstoned.file = index.KindTombstoned, tombstonedFile
	ss.retained.kind, ss.retained.file = index.KindRetained, retainedFile
}

// deletedSnapshot returns the stream's soft-deleted seqs: an immutable
// bitmap the caller must not modify, nil if none. A read must take it
// before the view it filters: compaction publishes the rewritten segments
// before it calls forgetDeleted, so a bitmap taken first names every
// soft-deleted row the later view may still hold.
func (st *stream) deletedSnapshot() *roaring64.Bitmap { return st.soft.deleted.cur.Load() }

// retainedSnapshot returns the soft-deleted seqs retention deleted
// (immutable, nil if none).
func (st *stream) retainedSnapshot() *roaring64.Bitmap { return st.soft.retained.cur.Load() }

// tombstonedSnapshot returns the seqs known superseded (immutable, nil if
// none). They stay visible to raw reads; compaction removes them.
func (st *stream) tombstonedSnapshot() *roaring64.Bitmap { return st.soft.tombstoned.cur.Load() }

// statePath returns the path of a state file of the stream.
func (st *stream) statePath(name string) string { return filepath.Join(st.dir, name) }

// loadSoft reads the state files of a stream opened for writing. Seqs at
// or above the next seq (deleted under SyncNever or SyncInterval, then
// lost in a crash before they were durable) are dropped from the bitmaps
// and the trimmed bitmaps persisted, so that a reassigned seq is never
// born deleted.
func (st *stream) loadSoft() error {
	ss := &st.soft
	ss.mu.Lock()
	defer ss.mu.Unlock()
	removed, err := index.RemoveStaleTmp(st.s.fs, st.dir, deletedFile, tombstonedFile, retainedFile, retentionFile, durableFile)
	if err != nil {
		return streamErr(st.name, err)
	}
	st.rec.RemovedTmp = append(st.rec.RemovedTmp, removed...)
	for _, b := range []*bitmapState{&ss.deleted, &ss.tombstoned, &ss.retained} {
		if _, err := st.reloadBitmap(b); err != nil {
			return err
		}
		bm := b.cur.Load()
		if bm == nil || bm.Maximum() < st.next {
			continue
		}
		trimmed := bm.Clone()
		trimmed.RemoveRange(st.next, bm.Maximum()+1)
		if err := st.storeBitmap(b, trimmed); err != nil {
			return err
		}
	}
	// retained names only seqs deleted names: a crash between the two
	// forgets, or an older tsq's compaction (which knows no retained
	// bitmap), may leave others.
	if r, d := ss.retained.cur.Load(), ss.deleted.cur.Load(); r != nil && !r.IsEmpty() {
		kept := roaring64.New()
		if d != nil {
			kept = roaring64.And(r, d)
		}
		if kept.GetCardinality() != r.GetCardinality() {
			if err := st.storeBitmap(&ss.retained, kept); err != nil {
				return err
			}
		}
	}
	_, err = st.reloadRule()
	return err
}

// refreshSoft reloads the state files that changed on disk (read-only
// streams, following a writer in another process).
func (st *stream) refreshSoft() error {
	ss := &st.soft
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, b := range []*bitmapState{&ss.deleted, &ss.tombstoned, &ss.retained} {
		if _, err := st.reloadBitmap(b); err != nil {
			return err
		}
	}
	_, err := st.reloadRule()
	return err
}

// stampOf stats a state file; a missing file is a zero stamp.
func (st *stream) stampOf(name string) (fileStamp, error) {
	fi, err := st.s.fs.Stat(st.statePath(name))
	if errors.Is(err, fs.ErrNotExist) {
		return fileStamp{}, nil
	}
	if err != nil {
		return fileStamp{}, streamErr(st.name, err)
	}
	return fileStamp{size: fi.Size(), mtime: fi.ModTime(), found: true}, nil
}

// coarseMtime: a file modified this recently may have been rewritten
// again within the file system's timestamp granularity with the same
// size, so its stamp alone does not prove it unchanged.
const coarseMtime = 2 * time.Second

// unchanged reports whether the state file name is still the one loaded
// with stamp old and write sequence seq.
func (st *stream) unchanged(name string, stamp, old fileStamp, seq uint64) bool {
	if stamp.found != old.found || stamp.size != old.size || !stamp.mtime.Equal(old.mtime) {
		return false
	}
	if !stamp.found || time.Since(stamp.mtime) > coarseMtime {
		return true
	}
	got, err := index.ReadSeq(st.s.fs, st.statePath(name))
	return err == nil && got == seq
}

// reloadBitmap reads b's file if it changed since last loaded. Caller
// holds soft.mu.
func (st *stream) reloadBitmap(b *bitmapState) (changed bool, err error) {
	stamp, err := st.stampOf(b.file)
	if err != nil || st.unchanged(b.file, stamp, b.stamp, b.seq) {
		return false, err
	}
	var bm *roaring64.Bitmap
	var seq uint64
	if stamp.found {
		bm, seq, err = index.ReadBitmap(st.s.fs, st.statePath(b.file), b.kind)
		if errors.Is(err, fs.ErrNotExist) {
			bm, err = nil, nil // removed since the stat
		}
		if err != nil {
			return false, streamErr(st.name, err)
		}
	}
	if bm != nil && bm.IsEmpty() {
		bm = nil
	}
	b.cur.Store(bm)
	b.seq, b.stamp = seq, stamp
	return true, nil
}

// storeBitmap persists bm as b's file, then publishes it. On an error the
// published bitmap and the file stay as they were. Caller holds soft.mu
// and must not modify bm afterwards.
func (st *stream) storeBitmap(b *bitmapState, bm *roaring64.Bitmap) error {
	if st.s.o.ReadOnly {
		return streamErr(st.name, ErrReadOnly)
	}
	if st.dropped.Load() {
		return streamErr(st.name, ErrStreamNotFound)
	}
	bm.RunOptimize()
	if err := index.WriteBitmap(st.s.fs, st.statePath(b.file), b.kind, b.seq+1, bm, st.soft.hook); err != nil {
		return streamErr(st.name, err)
	}
	b.seq++
	if bm.IsEmpty() {
		bm = nil
	}
	b.cur.Store(bm)
	b.stamp, _ = st.stampOf(b.file)
	return nil
}

// addBits persists and publishes b ∪ add; it returns how many seqs were
// new. Caller holds soft.mu.
func (st *stream) addBits(b *bitmapState, add *roaring64.Bitmap) (uint64, error) {
	next := roaring64.New()
	if cur := b.cur.Load(); cur != nil {
		next = cur.Clone()
	}
	before := next.GetCardinality()
	next.Or(add)
	n := next.GetCardinality() - before
	if n == 0 {
		return 0, nil
	}
	return n, st.storeBitmap(b, next)
}

// removeBits persists and publishes b \ gone. Caller holds soft.mu.
func (st *stream) removeBits(b *bitmapState, gone *roaring64.Bitmap) error {
	cur := b.cur.Load()
	if cur == nil || gone == nil || !cur.Intersects(gone) {
		return nil
	}
	next := cur.Clone()
	next.AndNot(gone)
	return st.storeBitmap(b, next)
}

// forgetDeleted removes the seqs of rows that are physically gone
// (compaction rewrote their segments) from the deleted bitmap, persists
// it and publishes it, so the bitmap shrinks. Call it only after the
// rewritten segments are published to readers (see deletedSnapshot).
//
// Both forget calls clear gone from both bitmaps: a row that is gone is
// neither deleted nor tombstoned any more, whatever removed it. This
// also clears a seq that a Delete validated against the view from before
// a rewrite that removed its row as superseded (Delete validates under
// softState.mu, so such a seq is in the bitmap before the forget runs).
func (st *stream) forgetDeleted(gone *roaring64.Bitmap) error { return st.forget(gone) }

// forgetTombstoned removes the seqs of rows physically gone from the
// tombstoned (and deleted) bitmap and persists it.
func (st *stream) forgetTombstoned(gone *roaring64.Bitmap) error { return st.forget(gone) }

func (st *stream) forget(gone *roaring64.Bitmap) error {
	st.soft.mu.Lock()
	defer st.soft.mu.Unlock()
	return errors.Join(st.removeBits(&st.soft.deleted, gone), st.removeBits(&st.soft.tombstoned, gone),
		st.removeBits(&st.soft.retained, gone))
}

// markTombstoned records seqs of rows known superseded by a later put,
// delete or drop; they stay visible to raw reads until compaction removes
// them. The bitmap is persisted before markTombstoned returns.
func (st *stream) markTombstoned(seqs *roaring64.Bitmap) error {
	st.soft.mu.Lock()
	defer st.soft.mu.Unlock()
	_, err := st.addBits(&st.soft.tombstoned, seqs)
	return err
}

func cardinality(bm *roaring64.Bitmap) uint64 {
	if bm == nil {
		return 0
	}
	return bm.GetCardinality()
}

// deletedCursor answers, for seq ranges visited in increasing order,
// whether and how many deleted seqs they hold, with one iterator over
// the bitmap instead of a search per range.
type deletedCursor struct {
	bm *roaring64.Bitmap
	it roaring64.IntPeekable64
}

func newDeletedCursor(bm *roaring64.Bitmap) *deletedCursor {
	c := &deletedCursor{bm: bm}
	if bm != nil {
		c.it = bm.Iterator()
	}
	return c
}

// any reports whether [lo, hi] holds a deleted seq. Successive calls must
// not decrease lo.
func (c *deletedCursor) any(lo, hi uint64) bool {
	if c.it == nil {
		return false
	}
	c.it.AdvanceIfNeeded(lo)
	return c.it.HasNext() && c.it.PeekNext() <= hi
}

// count returns the number of deleted seqs in [lo, hi].
func (c *deletedCursor) count(lo, hi uint64) uint64 {
	if c.bm == nil || hi < lo {
		return 0
	}
	n := c.bm.Rank(hi)
	if lo > 0 {
		n -= c.bm.Rank(lo - 1)
	}
	return n
}

// dropDeleted removes the rows of b whose seq is in del, in place (b is
// the caller's, freshly decoded). The seqs of a block increase, so one
// iterator walks the bitmap along the rows.
func dropDeleted(b *chunk.Block, del *roaring64.Bitmap) {
	seqs := column(b, colSeq).Ints
	if len(seqs) == 0 {
		return
	}
	it := del.Iterator()
	it.AdvanceIfNeeded(uint64(seqs[0]))
	next := func() uint64 {
		if it.HasNext() {
			return it.Next()
		}
		return math.MaxUint64
	}
	// One iterator step per deleted seq, one comparison per row.
	d := next()
	keep := make([]int, 0, len(seqs))
	for i, q := range seqs {
		for d < uint64(q) {
			d = next()
		}
		if d == uint64(q) {
			d = next()
			continue
		}
		keep = append(keep, i)
	}
	if len(keep) == len(seqs) {
		return
	}
	for k := range b.Columns {
		c := &b.Columns[k]
		c.Valid, c.Ints, c.Floats = keepIn(c.Valid, keep), keepIn(c.Ints, keep), keepIn(c.Floats, keep)
		c.Bools, c.Codes, c.Strs = keepIn(c.Bools, keep), keepIn(c.Codes, keep), keepIn(c.Strs, keep)
	}
	b.Rows = len(keep)
}

// keepIn moves the entries of s at keep (increasing) to its front and
// cuts it there; nil stays nil.
func keepIn[T any](s []T, keep []int) []T {
	if len(s) == 0 {
		return s
	}
	for j, i := range keep {
		s[j] = s[i]
	}
	return s[:len(keep)]
}
