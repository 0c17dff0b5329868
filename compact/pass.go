package compact

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// Defaults of Config.
const (
	DefaultTombstoneCap = 32_000_000
	DefaultBloomCutoff  = 100_000
	// DefaultHeldBytes bounds the re-encoded blocks a pass holds for
	// their rewrite (Config.HeldBytes).
	DefaultHeldBytes = 64 << 20
	// MaxTombstoneCap bounds Config.TombstoneCap.
	MaxTombstoneCap = 1 << 30
	maxWorkers      = 8
)

// Point names a place a test may stop a pass at, to see what a crash
// there leaves. The seg.CrashPoint values of a rewrite come through too.
type Point string

// The pass's own crash points.
const (
	// CrashRewriteBeforeWatermark: a chunk's segments are rewritten and
	// refreshed; the watermark is not committed.
	CrashRewriteBeforeWatermark Point = "rewrite-before-watermark"
	// CrashWatermarkBeforeEvict: the watermark is committed; the live
	// set is not evicted.
	CrashWatermarkBeforeEvict Point = "watermark-before-evict"
)

// Points lists every crash point of a pass that rewrites: the rewrite's,
// then the pass's.
func Points() []Point {
	var ps []Point
	for _, p := range seg.CrashPoints() {
		ps = append(ps, Point(p))
	}
	return append(ps, CrashRewriteBeforeWatermark, CrashWatermarkBeforeEvict)
}

// Segment is a sealed segment a pass may read and rewrite.
type Segment struct {
	Path     string
	FirstSeq uint64 // the header's first seq: no row below it
	MaxSeq   uint64 // the last block's max seq
}

// Config is one pass over a stream's sealed segments.
type Config struct {
	FS  vfs.FS
	Dir string // the stream directory, holding WATERMARK
	// Segments are the sealed segments in seq order. The active segment
	// must not be among them.
	Segments []Segment
	// Watermark is the committed W the pass starts from.
	Watermark uint64
	// TombstoneCap bounds a chunk's snapshot entries (default
	// DefaultTombstoneCap); a chunk may pass it by one block's rows.
	TombstoneCap int
	// BloomCutoff: above this many series in a chunk every segment is
	// scanned; at or below, segments the bloom rules out are skipped
	// (default DefaultBloomCutoff).
	BloomCutoff int
	// Workers scanning and rewriting segments (default min(NumCPU, 8)).
	Workers int
	// HeldBytes bounds, about, the bytes of blocks a single-chunk pass
	// re-encodes as it decides them and holds until their segment is
	// rewritten (default DefaultHeldBytes; < 0: none); past it a block
	// is read and re-encoded again by the rewrite.
	HeldBytes int64
	// SoftDeleted holds soft-deleted seqs, nil if none; it must not
	// change during the pass.
	SoftDeleted *roaring64.Bitmap
	// Retained holds the seqs of SoftDeleted that retention deleted, nil
	// if none: their rows drop as soft deleted, counted under
	// ReasonRetention. It must not change during Run either.
	Retained *roaring64.Bitmap
	// Live is evicted up to each committed watermark; may be nil.
	Live *LiveSet
	// OnRewritten is called after each segment's rewrite is durable, with
	// the new file's metadata (as seg.Open would load it), to refresh the
	// caller's and invalidate its cached blocks; an error fails the pass
	// before W moves.
	OnRewritten func(path string, m seg.Meta) error
	// Writes chooses how the rewritten segments are written (default
	// WritesDropBehind).
	Writes WriteMode
	// Chunked makes the pass fold chunk by chunk, then decide, even when
	// the window fits one chunk (see runSingle); for tests.
	Chunked bool
	// TwoPhase chooses how a single-chunk pass reads its window (see
	// twophase.go); the default chooses by the window's fresh blocks.
	TwoPhase TwoPhaseMode
	// Crash, when set, is called at each Point; an error stops the pass
	// there, as a crash would, and is returned.
	Crash func(Point) error
}

// Stats report a pass.
type Stats struct {
	Start, Target, Watermark uint64 // W before, the target, W after
	Chunks                   int
	SegmentsExamined         int // scanned for drops
	SegmentsRewritten        int
	SegmentsClean            int // scanned, nothing to drop
	SegmentsSkipped          int // ruled out by bloom or seq bounds
	RowsDropped              [numReasons]int64
	Tombstones               [numReasons]int64 // snapshot entries by kind (record, update, series)
	// GoneSoftDeleted and GoneSuperseded are the seqs physically removed
	// because soft deleted and because superseded (compressed bitmaps:
	// a pass may drop billions of rows).
	GoneSoftDeleted, GoneSuperseded *roaring64.Bitmap
	// BytesRead counts the block bytes read; BytesWritten the bytes of
	// the rewritten files (header, blocks, index, bloom, footer).
	BytesRead, BytesWritten int64
	MaxSnapshot             int   // largest chunk snapshot, entries
	MaxSnapshotBytes        int64 // its tables' memory
	// MaxHeldBytes: the most bytes of re-encoded blocks held at once for
	// their rewrite (Config.HeldBytes).
	MaxHeldBytes int64
	Duration     time.Duration
	// FoldTime and ChunkTime: folding snapshots; scanning and rewriting
	// segments. In a single-chunk pass (runSingle) FoldTime is reading
	// and deciding the window, while decided segments are rewritten;
	// ChunkTime the rest.
	FoldTime, ChunkTime time.Duration
}

// Dropped returns the rows dropped for reason r.
func (s *Stats) Dropped(r Reason) int64 { return s.RowsDropped[r] }

func (c *Config) defaults() {
	if c.TombstoneCap <= 0 {
		c.TombstoneCap = DefaultTombstoneCap
	}
	c.TombstoneCap = min(c.TombstoneCap, MaxTombstoneCap)
	if c.BloomCutoff <= 0 {
		c.BloomCutoff = DefaultBloomCutoff
	}
	if c.Workers <= 0 {
		c.Workers = min(runtime.NumCPU(), maxWorkers)
	}
	if c.HeldBytes == 0 {
		c.HeldBytes = DefaultHeldBytes
	}
}

// Run runs one pass: from cfg.Watermark up to the largest seq of the
// sealed segments, chunk by chunk. It returns the stats and the error
// that stopped it; W was committed up to Stats.Watermark whatever the
// error.
func Run(ctx context.Context, cfg Config) (Stats, error) {
	cfg.defaults()
	start := time.Now()
	st := Stats{Start: cfg.Watermark, Watermark: cfg.Watermark,
		GoneSoftDeleted: roaring64.New(), GoneSuperseded: roaring64.New()}
	defer func() { st.Duration = time.Since(start) }()
	for _, s := range cfg.Segments {
		st.Target = max(st.Target, s.MaxSeq)
	}
	budget := newByteSem(0)
	for _, s := range cfg.Segments {
		if fi, err := cfg.FS.Stat(s.Path); err == nil {
			budget.cap = max(budget.cap, fi.Size())
		}
	}
	if st.Watermark >= st.Target && cfg.SoftDeleted != nil && cfg.SoftDeleted.Rank(min(st.Watermark, st.Target)) > 0 {
		// Nothing new to fold, but soft-deleted rows at or below W may
		// go now (see decider.decide); W does not move.
		d := &decider{snap: NewSnapshot(), chunkEnd: min(st.Watermark, st.Target), wStart: cfg.Watermark, deleted: cfg.SoftDeleted, retained: cfg.Retained}
		if err := runChunk(ctx, &cfg, d, budget, &st); err != nil {
			return st, err
		}
		return st, ctx.Err()
	}
	for st.Watermark < st.Target {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		end, err := runNext(ctx, &cfg, budget, &st)
		if err != nil {
			return st, err
		}
		if err := ctx.Err(); err != nil {
			// A worker may have returned early without an error: the
			// chunk's rewrites are not all done, W must not move.
			return st, err
		}
		if err := cfg.crash(CrashRewriteBeforeWatermark); err != nil {
			return st, err
		}
		if err := StoreWatermark(cfg.FS, cfg.Dir, end); err != nil {
			return st, err
		}
		st.Watermark = end
		if err := cfg.crash(CrashWatermarkBeforeEvict); err != nil {
			return st, err
		}
		if cfg.Live != nil {
			cfg.Live.Evict(end)
		}
	}
	return st, nil
}

// runNext runs the next chunk from st.Watermark and returns its end.
func runNext(ctx context.Context, cfg *Config, budget *byteSem, st *Stats) (uint64, error) {
	if singleChunk(cfg, st.Watermark, st.Target) {
		return st.Target, runSingle(ctx, cfg, budget, st)
	}
	t0 := time.Now()
	snap, end, err := fold(ctx, cfg.FS, cfg.Segments, st.Watermark, st.Target, cfg.TombstoneCap, cfg.BloomCutoff)
	st.FoldTime += time.Since(t0)
	if err != nil {
		return 0, err
	}
	st.Chunks++
	st.MaxSnapshot = max(st.MaxSnapshot, snap.Len())
	st.MaxSnapshotBytes = max(st.MaxSnapshotBytes, snap.Bytes())
	dels, puts := snap.counts()
	st.Tombstones[ReasonRecord] += dels
	st.Tombstones[ReasonUpdate] += puts
	st.Tombstones[ReasonSeries] += int64(snap.drops.len())
	d := &decider{snap: snap, chunkEnd: end, wStart: cfg.Watermark, deleted: cfg.SoftDeleted, retained: cfg.Retained}
	t0 = time.Now()
	err = runChunk(ctx, cfg, d, budget, st)
	st.ChunkTime += time.Since(t0)
	return end, err
}

func (c *Config) crash(p Point) error {
	if c.Crash == nil {
		return nil
	}
	return c.Crash(p)
}

// runChunk processes every segment that may hold a row the chunk drops.
func runChunk(ctx context.Context, cfg *Config, d *decider, budget *byteSem, st *Stats) error {
	todo, skipped, err := candidates(cfg, d)
	if err != nil {
		return err
	}
	st.SegmentsSkipped += skipped
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	next := make(chan string)
	for range min(cfg.Workers, max(len(todo), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for path := range next {
				res, err := processSegment(ctx, cfg, path, d, budget)
				if err == nil && res.rewritten && cfg.OnRewritten != nil {
					if err = cfg.OnRewritten(path, res.meta); err != nil {
						err = fmt.Errorf("compact: refresh after rewriting %s: %w", path, err)
					}
				}
				mu.Lock()
				st.record(&res, err)
				if err != nil {
					errs = append(errs, err)
					cancel()
				}
				mu.Unlock()
			}
		}()
	}
	for _, p := range todo {
		select {
		case next <- p:
			continue
		case <-ctx.Done():
		}
		break
	}
	close(next)
	wg.Wait()
	return errors.Join(errs...)
}

// record adds what processing a segment did (err its error) to st.
func (st *Stats) record(res *segResult, err error) {
	st.SegmentsExamined++
	st.BytesRead += res.readBytes
	// Soft-deleted seqs found absent are gone even when nothing was
	// rewritten (an earlier pass removed them).
	addSeqs(st.GoneSoftDeleted, res.absent)
	if res.rewritten {
		st.SegmentsRewritten++
		st.BytesWritten += res.wrote
		for r, n := range res.dropped {
			st.RowsDropped[r] += n
		}
		addSeqs(st.GoneSoftDeleted, res.gone)
		addSeqs(st.GoneSuperseded, res.goneSup)
	} else if err == nil {
		st.SegmentsClean++
	}
}

// addSeqs adds the seqs s to b in ascending order, reordering s: roaring
// inserts a value into an array container by moving the values above
// it, so values out of order cost a move each (a segment's list from
// the single-chunk fold is descending: 3 ms a pass of 40,000 seqs).
func addSeqs(b *roaring64.Bitmap, s []uint64) {
	switch {
	case slices.IsSorted(s):
	case slices.IsSortedFunc(s, func(a, b uint64) int { return cmp.Compare(b, a) }):
		slices.Reverse(s)
	default:
		slices.Sort(s)
	}
	b.AddMany(s)
}

// candidates returns the segments that may hold a row the chunk drops,
// and how many were ruled out: by seq bounds, by the series bloom, or by
// the key span when the snapshot lists its record tombstones' keys and
// the segment's bloom holds none of the dropped series.
func candidates(cfg *Config, d *decider) (todo []string, skipped int, err error) {
	var names, drops []string
	useBloom := d.snap.Series() <= cfg.BloomCutoff
	if useBloom {
		d.snap.EachSeries(func(s string) bool { names = append(names, s); return true })
	}
	keys := d.snap.keys
	if keys != nil && d.snap.drops.len() > 0 && d.snap.manyDrops {
		keys = nil // a drop may touch any segment: no ruling out by keys
	}
	for s := range d.snap.dropNames {
		drops = append(drops, s)
	}
	take := make([]bool, len(cfg.Segments))
	var byKeys []int // segments only their key span may rule out
	var spans []seg.KeySpan
	for i, s := range cfg.Segments {
		if s.FirstSeq > d.chunkEnd {
			continue
		}
		if d.deleted != nil && d.deleted.Rank(min(s.MaxSeq, d.chunkEnd)) > rankBelow(d.deleted, s.FirstSeq) {
			take[i] = true
			continue
		}
		if s.FirstSeq >= d.snap.MaxSeq() { // no tombstone above any of its rows
			continue
		}
		if !useBloom && keys == nil {
			take[i] = true
			continue
		}
		hit, span, err := mayHit(cfg.FS, s.Path, useBloom, names, keys, drops)
		switch {
		case err != nil:
			return nil, 0, err
		case hit:
			take[i] = true
		case span.Known() && keys != nil:
			byKeys, spans = append(byKeys, i), append(spans, span)
		}
	}
	if len(byKeys) > 0 {
		for j, hit := range keys.hits(spans) {
			take[byKeys[j]] = hit
		}
	}
	for i, s := range cfg.Segments {
		if take[i] {
			todo = append(todo, s.Path)
		} else {
			skipped++
		}
	}
	return todo, skipped, nil
}

// mayHit reports whether the segment may hold a row a tombstone of the
// chunk supersedes, as far as its series tell: with useBloom, its series
// bloom must hold one of names (the series of every tombstone); with
// keys, it must hold one of drops (the dropped series). When only keys
// may still tell (hit false, keys not nil), it returns the segment's key
// span for the caller to decide (tombKeys.hits): a segment whose span is
// unknown is a hit.
func mayHit(fsys vfs.FS, path string, useBloom bool, names []string, keys *tombKeys, drops []string) (bool, seg.KeySpan, error) {
	r, err := seg.Open(fsys, path)
	if err != nil {
		return false, seg.KeySpan{}, err
	}
	defer r.Close()
	if useBloom && !slices.ContainsFunc(names, r.MayContainSeries) {
		return false, seg.KeySpan{}, nil
	}
	if keys == nil || slices.ContainsFunc(drops, r.MayContainSeries) {
		return true, seg.KeySpan{}, nil
	}
	span := r.Keys()
	return !span.Known(), span, nil
}

func rankBelow(s *roaring64.Bitmap, seq uint64) uint64 {
	if seq == 0 {
		return 0
	}
	return s.Rank(seq - 1)
}
