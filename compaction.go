package tsq

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/tsqdb/tsq/compact"
	"github.com/tsqdb/tsq/seg"
)

// Compaction physically removes the rows that tombstones supersede and
// the soft-deleted rows (package compact holds the pass). Each writable
// stream has a durable watermark W (the WATERMARK file): below W every
// superseded row is gone. A pass force-rotates the active segment,
// reconciles the resident segment metadata with the files, then runs
// compact.Run over the sealed segments; after each segment it rewrites,
// the segment's metadata is reloaded and its cached blocks are made
// unreachable (its generation goes up) before W is committed.
//
// Background: with CompactInterval > 0 a goroutine runs a pass over every
// open writable stream each interval, and early for a stream whose live
// set (tombstones appended since W, fed by the append path) reaches
// CompactTombstoneCap, at most once per CompactMinSpacing; an early pass
// restarts the interval. A failed pass is logged and retried at the next
// one; appends never stop for it. CompactInterval 0 disables all of it;
// Store.Compact still runs a pass on request.

// Compaction defaults.
const (
	// CompactDefault as Options.CompactInterval selects the default
	// interval, DefaultCompactInterval.
	CompactDefault         time.Duration = -1
	DefaultCompactInterval               = 4 * time.Hour
	DefaultCompactSpacing                = 30 * time.Second
)

func (o *Options) compactionDefaults() error {
	switch {
	case o.CompactInterval == CompactDefault:
		o.CompactInterval = DefaultCompactInterval
	case o.CompactInterval < 0:
		return fmt.Errorf("%w: CompactInterval %v: use a positive interval, 0 to disable or CompactDefault", ErrInvalidOptions, o.CompactInterval)
	}
	switch {
	case o.CompactTombstoneCap == 0:
		o.CompactTombstoneCap = compact.DefaultTombstoneCap
	case o.CompactTombstoneCap < 0 || o.CompactTombstoneCap > compact.MaxTombstoneCap:
		return fmt.Errorf("%w: CompactTombstoneCap %d is outside 1..%d (0 for the default)", ErrInvalidOptions, o.CompactTombstoneCap, compact.MaxTombstoneCap)
	}
	switch {
	case o.CompactMinSpacing == 0:
		o.CompactMinSpacing = DefaultCompactSpacing
	case o.CompactMinSpacing < 0:
		return fmt.Errorf("%w: CompactMinSpacing %v is negative", ErrInvalidOptions, o.CompactMinSpacing)
	}
	if o.CompactPageCache && o.CompactDirect {
		return fmt.Errorf("%w: CompactPageCache and CompactDirect both set: choose one way to write rewritten segments", ErrInvalidOptions)
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return nil
}

// compactWrites is the way the options say rewritten segments are
// written.
func (o *Options) compactWrites() compact.WriteMode {
	switch {
	case o.CompactPageCache:
		return compact.WritesCached
	case o.CompactDirect:
		return compact.WritesDirect
	}
	return compact.WritesDropBehind
}

// CompactStats report one pass over a stream.
type CompactStats struct {
	// Watermark is W after the pass; Start W before it; Target the
	// largest sealed seq it aimed at.
	Start, Target, Watermark uint64
	Chunks                   int
	SegmentsExamined         int
	SegmentsRewritten        int
	SegmentsClean            int
	SegmentsSkipped          int // ruled out by seq bounds, the series bloom or the key span
	Reconciled               int // segments whose metadata disagreed with disk, reloaded
	// Rows dropped: superseded by a later delete (record), by a later put
	// of the key (update), by a drop of the series (series); soft deleted
	// by Delete (soft delete) and by retention (retention).
	RowsRecord, RowsUpdate, RowsSeries, RowsSoftDeleted, RowsRetention int64
	// Tombstones folded, by kind: deletes, keyed puts, drops.
	TombstonesRecord, TombstonesUpdate, TombstonesSeries int64
	// BytesRead counts the block bytes read, BytesWritten the bytes of
	// the rewritten files (header, frames, index, bloom, footer).
	BytesRead, BytesWritten int64
	Duration                time.Duration
	// FoldTime and RewriteTime split the pass: folding tombstone
	// snapshots, and scanning and rewriting segments. In a single-chunk
	// pass FoldTime is reading and deciding the window (segments already
	// decided are rewritten meanwhile), RewriteTime the rest.
	FoldTime, RewriteTime time.Duration
	// SnapshotEntries and SnapshotBytes size the largest chunk's
	// tombstone snapshot (its hash tables).
	SnapshotEntries int
	SnapshotBytes   int64
	// HeldBytes: the most bytes of re-encoded blocks held at once for
	// their segment's rewrite (at most 64 MiB; blocks past it are read
	// again by the rewrite).
	HeldBytes int64
}

// streamCompaction is a stream's compaction state.
type streamCompaction struct {
	pass sync.Mutex // one pass at a time; guards init
	init bool       // W loaded or floored
	// old are read handles of files replaced by rewrites, closed once
	// no read can still use them (retiredGrace); guarded by stream.mu.
	old  []retiredFile
	live *compact.LiveSet // nil when background compaction is off
	// superseded holds the seqs of puts the live set found superseded
	// by a later row (observeTombstone) since the last pass took them
	// (preparePass), for the tombstoned bitmap; guarded by stream.mu.
	superseded *roaring64.Bitmap
	w          atomic.Uint64             // committed W
	crash      func(compact.Point) error // tests
}

// initCompaction floors W and rebuilds the live set from the rows above
// it; run when a writable stream opens, st.mu not needed (unpublished).
func (st *stream) initCompaction() error {
	st.cmp = &streamCompaction{}
	if st.s.o.CompactInterval == 0 {
		return nil
	}
	st.cmp.live = compact.NewLiveSet()
	if err := st.loadWatermark(); err != nil {
		return err
	}
	return st.rebuildLive()
}

// loadWatermark reads W, writing the floor for a stream that has none:
// one below the first seq stored. Caller holds cmp.pass or owns st.
func (st *stream) loadWatermark() error {
	c := st.cmp
	if c.init {
		return nil
	}
	floor := st.next - 1
	if v := st.view.Load(); v != nil && len(v.segs) > 0 {
		floor = v.segs[0].firstSeq - 1
	}
	w, err := compact.InitWatermark(st.s.fs, st.dir, floor)
	if err != nil {
		return streamErr(st.name, err)
	}
	c.w.Store(w)
	c.init = true
	return nil
}

// rebuildLive folds the tombstones above W into the live set: the cost
// is the rows above W, not the archive.
func (st *stream) rebuildLive() error {
	v := st.view.Load()
	if v == nil {
		return nil
	}
	w := st.cmp.w.Load()
	for _, sf := range v.segs {
		for j := range sf.blocks {
			m := &sf.blocks[j]
			if m.Rows == 0 || m.MaxSeq <= w {
				continue
			}
			blk, err := st.decodeBlockMode(sf, j, cacheLookup)
			if err != nil {
				return err
			}
			for row := range blk.Rows {
				r := RecordAt(blk, row)
				if r.Seq > w {
					st.observeTombstone(r.Seq, &r)
				}
			}
		}
	}
	return nil
}

// observeTombstone feeds a written record to the live set, notes the put
// it supersedes (superseded), and asks for an early pass when the set
// reaches the cap. Called by the append path under stream.mu, and by
// rebuildLive for the rows above W at open.
func (st *stream) observeTombstone(seq uint64, r *Record) {
	c := st.cmp
	if c == nil || c.live == nil || (r.Key == "" && r.Op != OpDrop) {
		return
	}
	op := r.Op
	if op == 0 {
		op = OpPut
	}
	n, sup := c.live.Observe(seq, r.Series, r.Key, uint8(op))
	if sup != 0 {
		if c.superseded == nil {
			c.superseded = roaring64.New()
		}
		c.superseded.Add(sup)
	}
	if n >= st.s.o.CompactTombstoneCap {
		st.s.cm.trigger(st.name)
	}
}

// Compact runs one compaction pass over stream now and returns what it
// did. It works whatever CompactInterval says. A cancelled ctx stops it
// with W where the finished work ends.
func (s *Store) Compact(ctx context.Context, stream string) (CompactStats, error) {
	if s.o.ReadOnly {
		return CompactStats{}, fmt.Errorf("tsq: compact %q: %w", stream, ErrReadOnly)
	}
	st, err := s.stream(stream, false)
	if err != nil {
		return CompactStats{}, err
	}
	return st.compact(ctx, false)
}

// compact runs a pass; early says the live set triggered it.
func (st *stream) compact(ctx context.Context, early bool) (CompactStats, error) {
	c := st.cmp
	c.pass.Lock()
	defer c.pass.Unlock()
	if st.dropped.Load() {
		return CompactStats{}, streamErr(st.name, ErrStreamNotFound)
	}
	start := time.Now()
	out, err := st.runPass(ctx)
	out.Duration = time.Since(start)
	st.s.cm.note(&out, err, early)
	if err != nil {
		return out, fmt.Errorf("tsq: compact %q: %w", st.name, err)
	}
	return out, nil
}

func (st *stream) runPass(ctx context.Context) (CompactStats, error) {
	c := st.cmp
	segs, deleted, marks, err := st.preparePass()
	if err != nil {
		return CompactStats{}, err
	}
	var retained *roaring64.Bitmap // taken after deleted: a subset of it
	if deleted != nil {
		retained = st.compactRetained()
	}
	var out CompactStats
	if out.Reconciled, err = st.reconcile(segs); err != nil {
		st.restoreMarks(marks)
		return out, err
	}
	cfg := compact.Config{
		FS: st.s.fs, Dir: st.dir, Watermark: c.w.Load(),
		TombstoneCap: st.s.o.CompactTombstoneCap, SoftDeleted: deleted, Retained: retained, Live: c.live,
		OnRewritten: st.refreshSegment, Crash: c.crash, Writes: st.s.o.compactWrites(),
		TwoPhase: st.s.o.compactTwoPhase,
	}
	for _, sf := range segs {
		cfg.Segments = append(cfg.Segments, compact.Segment{Path: sf.path, FirstSeq: sf.firstSeq, MaxSeq: lastSeq(sf.blocks)})
	}
	ps, err := compact.Run(ctx, cfg)
	c.w.Store(ps.Watermark)
	out.Start, out.Target, out.Watermark, out.Chunks = ps.Start, ps.Target, ps.Watermark, ps.Chunks
	out.SegmentsExamined, out.SegmentsRewritten, out.SegmentsClean, out.SegmentsSkipped =
		ps.SegmentsExamined, ps.SegmentsRewritten, ps.SegmentsClean, ps.SegmentsSkipped
	out.RowsRecord, out.RowsUpdate = ps.Dropped(compact.ReasonRecord), ps.Dropped(compact.ReasonUpdate)
	out.RowsSeries, out.RowsSoftDeleted = ps.Dropped(compact.ReasonSeries), ps.Dropped(compact.ReasonSoftDelete)
	out.RowsRetention = ps.Dropped(compact.ReasonRetention)
	out.TombstonesRecord = ps.Tombstones[compact.ReasonRecord]
	out.TombstonesUpdate = ps.Tombstones[compact.ReasonUpdate]
	out.TombstonesSeries = ps.Tombstones[compact.ReasonSeries]
	out.BytesRead, out.BytesWritten = ps.BytesRead, ps.BytesWritten
	out.FoldTime, out.RewriteTime = ps.FoldTime, ps.ChunkTime
	out.SnapshotEntries, out.SnapshotBytes, out.HeldBytes = ps.MaxSnapshot, ps.MaxSnapshotBytes, ps.MaxHeldBytes
	// Rows physically gone leave the index bitmaps, even after a failure:
	// their rewrites are durable.
	if ferr := st.forgetCompacted(ps.GoneSoftDeleted, ps.GoneSuperseded); ferr != nil {
		err = errors.Join(err, ferr)
	}
	if merr := st.noteSuperseded(marks, ps.GoneSoftDeleted, ps.GoneSuperseded); merr != nil {
		err = errors.Join(err, merr)
	}
	return out, err
}

// noteSuperseded adds to the tombstoned bitmap (persisted) the puts of
// marks, found superseded by the appends since the pass before, that
// the pass did not remove (gone): a pass that completes removes them
// all, and writes nothing. Their superseding rows are durable
// (preparePass took the marks after syncing every sealed segment). On
// failure they go back to the next pass.
func (st *stream) noteSuperseded(marks *roaring64.Bitmap, gone ...*roaring64.Bitmap) error {
	if marks == nil {
		return nil
	}
	for _, g := range gone {
		if g != nil {
			marks.AndNot(g)
		}
	}
	if marks.IsEmpty() {
		return nil
	}
	if err := st.markTombstoned(marks); err != nil {
		st.restoreMarks(marks)
		return streamErr(st.name, err)
	}
	return nil
}

// restoreMarks gives back marks that preparePass took and no pass noted.
func (st *stream) restoreMarks(marks *roaring64.Bitmap) {
	if marks == nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.cmp.superseded == nil {
		st.cmp.superseded = marks
	} else {
		st.cmp.superseded.Or(marks)
	}
}

// preparePass seals the active segment (its rows become compactable),
// waits for merges of sealed segments so that no other rewrite touches
// them during the pass, removes stale temp files and returns the sealed
// segments, the soft-deleted seqs as of now and the puts found
// superseded since the last pass (their superseding rows now durable).
func (st *stream) preparePass() ([]*segFile, *roaring64.Bitmap, *roaring64.Bitmap, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return nil, nil, nil, fmt.Errorf("stream %q: %w", st.name, ErrClosed)
	}
	if st.broken != nil {
		if err := st.recover(); err != nil {
			return nil, nil, nil, err
		}
	}
	if err := st.loadWatermark(); err != nil {
		return nil, nil, nil, err
	}
	if err := st.writePending(); err != nil {
		return nil, nil, nil, err
	}
	if st.w != nil && len(st.blocks) > 0 {
		if err := st.roll(); err != nil {
			st.broken = err
			return nil, nil, nil, err
		}
	}
	if err := st.syncUndurable(); err != nil { // the target must be durable (durable.go)
		st.broken = err
		return nil, nil, nil, err
	}
	st.merge.wg.Wait() // merges take no st.mu
	st.applyMerges()
	if err := st.cmp.closeRetired(time.Now()); err != nil {
		st.s.o.Logger.Warn("tsq: close replaced segment handles", "stream", st.name, "err", err)
	}
	st.publish()
	if _, err := seg.RemoveStaleTmp(st.s.fs, st.dir); err != nil {
		return nil, nil, nil, err
	}
	var segs []*segFile
	for _, sf := range st.segs {
		if sf.sealed && len(sf.blocks) > 0 {
			segs = append(segs, sf)
		}
	}
	superseded := st.cmp.superseded
	st.cmp.superseded = nil
	return segs, st.compactSoftDeleted(), superseded, nil
}
