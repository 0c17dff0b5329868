package tsq

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/seg"
)

// request is one Append or AppendSamples call on its way to the file.
type request struct {
	// Append: the validated records, their schema and the seqs assigned.
	recs   []Record
	schema []fieldType
	seqs   []uint64
	// AppendSamples: one series, times and values; first is the seq of
	// the first sample.
	series string
	times  []int64
	values []float64
	first  uint64

	err   error
	done  chan struct{} // closed when err and the seqs are set (group commit)
	state atomic.Int32  // reqQueued, reqTaken or reqCancelled
}

const (
	reqQueued int32 = iota
	reqTaken
	reqCancelled
)

// maxHeaderLen bounds a segment header's length.
const maxHeaderLen = 12 + seg.MaxStreamLen + 20

// fixedEncodings encode small frames (see flush).
var fixedEncodings = chunk.Options{Fixed: true}

var sampleSchema = []fieldType{{"value", chunk.Float64}}

// submit writes r: through the committer under SyncAlways, directly
// otherwise. A context cancelled while r waits in the queue withdraws it;
// once the committer has taken it, submit waits for the outcome.
func (st *stream) submit(ctx context.Context, r *request) error {
	if st.c == nil {
		st.mu.Lock()
		defer st.mu.Unlock()
		st.one[0] = r
		err := st.commit(st.one[:], false)
		st.one[0] = nil
		return err
	}
	r.done = make(chan struct{})
	st.c.active.Add(1)
	defer st.c.active.Add(-1)
	if err := st.c.submit(r); err != nil {
		return err
	}
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		if r.state.CompareAndSwap(reqQueued, reqCancelled) {
			return ctx.Err()
		}
		<-r.done
		return r.err
	}
}

// committer is a stream's group-commit goroutine: it takes every queued
// request, writes them as few frames as it can, fsyncs once and releases
// them all. The appends that arrive while it writes and fsyncs form the
// next group, so the slower the fsync the larger the groups.
type committer struct {
	st      *stream
	mu      sync.Mutex
	queue   []*request
	spare   []*request // the committer's, swapped with queue
	stopped bool
	// active counts appenders inside submit, queued or not. More than are
	// queued means some are about to enqueue, or were just released and
	// may append again: the committer waits a moment for them (gather).
	active atomic.Int64
	wake   chan struct{} // capacity 1
	done   chan struct{} // closed when run returns
}

func newCommitter(st *stream) *committer {
	c := &committer{st: st, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go c.run()
	return c
}

func (c *committer) submit(r *request) error {
	c.mu.Lock()
	if c.stopped {
		c.mu.Unlock()
		return streamErr(c.st.name, ErrClosed)
	}
	c.queue = append(c.queue, r)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
	return nil
}

// stop commits what is queued and ends the goroutine.
func (c *committer) stop() {
	c.mu.Lock()
	if c.stopped {
		c.mu.Unlock()
		<-c.done
		return
	}
	c.stopped = true
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
	<-c.done
}

// maxGatherDelay bounds how long the committer waits for arriving
// appenders to join a group before it writes and fsyncs.
const maxGatherDelay = 100 * time.Microsecond

// gather waits, yielding the processor, while appenders inside submit
// are not all queued yet, for at most maxGatherDelay, so that they share
// the next fsync. Without it, appenders released by one fsync miss the
// group the committer takes next and groups settle at half the
// appenders. A lone appender is always queued and never waits. Caller
// holds c.mu.
func (c *committer) gather() {
	var start time.Time
	for int64(len(c.queue)) < c.active.Load() {
		if start.IsZero() {
			start = time.Now()
		} else if time.Since(start) > maxGatherDelay {
			return
		}
		c.mu.Unlock()
		runtime.Gosched()
		c.mu.Lock()
	}
}

func (c *committer) run() {
	defer close(c.done)
	for {
		c.mu.Lock()
		for len(c.queue) == 0 && !c.stopped {
			c.mu.Unlock()
			<-c.wake
			c.mu.Lock()
		}
		if len(c.queue) == 0 {
			c.mu.Unlock()
			return
		}
		c.gather()
		batch := c.queue
		c.queue = c.spare[:0]
		c.mu.Unlock()

		live := batch[:0]
		for _, r := range batch {
			if r.state.CompareAndSwap(reqQueued, reqTaken) {
				live = append(live, r)
			}
		}
		if len(live) > 0 {
			c.st.mu.Lock()
			err := c.st.commit(live, true)
			c.st.mu.Unlock()
			c.st.s.m.noteGroup(len(live))
			for _, r := range live {
				r.err = err
				close(r.done)
			}
		}
		clear(batch)
		c.spare = batch[:0]
	}
}

// commit writes the requests as frames to the active segment, rolling
// segments as needed, fsyncs if syncNow, and publishes the new blocks.
// Any failure fails every request and marks the stream broken: the next
// commit reopens the active segment first. Caller holds mu.
func (st *stream) commit(reqs []*request, syncNow bool) error {
	st.waitImport() // appends wait while an import holds the stream
	if st.closed {
		return streamErr(st.name, ErrClosed)
	}
	if st.broken != nil {
		if err := st.recover(); err != nil {
			return err
		}
	}
	st.applyMerges()
	if err := st.writeAll(reqs); err != nil {
		return st.fail(err)
	}
	st.ackedNext = st.next // acknowledged when commit returns
	if syncNow {
		if err := st.sync(); err != nil {
			return st.fail(err)
		}
	}
	st.publishIfChanged()
	return nil
}

// fail marks the stream broken after a write or sync error. Rows that
// earlier appends left buffered (acknowledged, never written) are lost
// with the builder: Close reports it, as it reports a failed background
// fsync.
func (st *stream) fail(err error) error {
	st.broken = err
	if first := st.unwritten(); first != 0 && first < st.ackedNext {
		st.s.m.syncErrors.Add(1)
		if st.syncErr == nil {
			st.syncErr = fmt.Errorf("tsq: stream %q: %d acknowledged rows buffered in memory were lost: %w", st.name, st.ackedNext-first, err)
		}
	}
	st.b.reset()
	st.dropEncoding()
	st.waitRoll()
	st.pending.Store(false)
	if st.cmp != nil {
		// Rows that may not have landed may have superseded some.
		st.cmp.superseded = nil
	}
	st.s.m.appendErrors.Add(1)
	return err
}

// buffered reports whether a frame that is not full stays in memory
// across appends (SyncInterval, SyncNever) instead of being written at
// the end of each append (SyncAlways, where every append is fsynced).
func (st *stream) buffered() bool { return st.c == nil }

// writePending writes the frame that appends left in memory, so that a
// read, a tick, a roll or Close finds every acknowledged row in the
// file. Caller holds mu.
func (st *stream) writePending() error {
	if st.closed || st.broken != nil {
		return nil
	}
	if !st.hasPending() {
		return nil
	}
	if err := st.flush(); err != nil {
		return st.fail(err)
	}
	if err := st.placeAll(); err != nil {
		return st.fail(err)
	}
	if err := st.settleRoll(); err != nil {
		return st.fail(err)
	}
	st.pending.Store(st.hasPending())
	st.publish()
	return nil
}

// hasPending reports whether acknowledged rows are not yet in a file:
// in the builder, being encoded, or queued behind background rolls.
// Caller holds mu.
func (st *stream) hasPending() bool {
	return st.b.rows > 0 || len(st.encq) > 0 || st.rolling()
}

// flushForRead writes the buffered frame, if any, before a read of this
// Store: reads see every acknowledged row.
func (st *stream) flushForRead() error {
	if !st.pending.Load() {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.writePending()
}

// writeAll assigns seqs and writes the requests' rows as frames.
// Under SyncAlways every row is written before it returns. Otherwise
// the last frame stays in the builder unless it is full (see buffered).
func (st *stream) writeAll(reqs []*request) error {
	b := &st.b
	if !st.buffered() {
		b.reset()
	}
	for _, r := range reqs {
		if b.conflicts(r.schema) {
			if err := st.flush(); err != nil {
				return err
			}
		}
		if r.recs != nil {
			for i := range r.recs {
				rec := &r.recs[i]
				day, size := dayOf(rec.Time), recordSize(rec)
				if b.full(day, size) {
					if err := st.flush(); err != nil {
						return err
					}
				}
				r.seqs[i] = st.next
				b.addRecord(st.next, rec, day, size)
				st.observeTombstone(st.next, rec)
				st.next++
			}
			continue
		}
		r.first = st.next
		col := b.col("value", chunk.Float64)
		times, values := r.times, r.values
		for len(times) > 0 {
			day := dayOf(times[0])
			if b.full(day, 16) {
				if err := st.flush(); err != nil {
					return err
				}
				col = b.col("value", chunk.Float64)
			}
			if b.rows > 0 {
				day = b.day // the frame's, no earlier than this sample's
			}
			// The run of samples up to the frame's day that it takes.
			n := runUpTo(times[:min(len(times), b.maxRows-b.rows, (maxFrameBytes-b.bytes)/16)], day)
			b.addSamples(st.next, r.series, times[:n], values[:n], day, col)
			st.next += uint64(n)
			times, values = times[n:], values[n:]
		}
	}
	if st.buffered() {
		if b.rows >= b.maxRows {
			if err := st.flush(); err != nil {
				return err
			}
		}
		if len(st.encq) > 0 {
			if err := st.placeEncoded(false); err != nil {
				return err
			}
		}
		st.pending.Store(st.hasPending())
		return nil
	}
	return st.flush()
}

// runUpTo returns how many of times, from the first (of UTC day day
// or earlier), are of day day or earlier: the run a frame of day takes.
func runUpTo(times []int64, day int64) int {
	n := 1
	if day > -100_000 && day < 100_000 { // (day+1)*nsPerDay does not overflow
		hi := (day + 1) * nsPerDay
		for n < len(times) && times[n] < hi {
			n++
		}
		return n
	}
	for n < len(times) && dayOf(times[n]) <= day {
		n++
	}
	return n
}

// flush encodes the builder's rows and appends them as one frame. Under
// the buffered policies the encoding runs in the background (encode.go).
func (st *stream) flush() error {
	b := &st.b
	if b.rows == 0 {
		return nil
	}
	if st.buffered() {
		return st.flushAsync()
	}
	blk := b.block()
	var opts *chunk.Options
	if b.rows < st.s.o.BlockRows/2 {
		// A small group-commit frame is likely rewritten by the merge at
		// seal: skip the encoding search. (Buffered streams write full
		// frames, which are not merged, and few small ones.)
		opts = &fixedEncodings
	}
	var err error
	if st.buf, err = st.enc.Append(st.buf[:0], &blk, opts); err != nil {
		return fmt.Errorf("tsq: stream %q: encode block: %w", st.name, err)
	}
	if _, err := st.place(st.buf, false, b.frameMeta(), b.day, b.seriesSet, &b.keys); err != nil {
		return err
	}
	b.reset()
	st.pending.Store(st.hasPending())
	return nil
}

// frameMeta returns the block meta of the builder's rows, checking that
// their seqs are consecutive.
func (b *builder) frameMeta() seg.BlockMeta {
	first, last := uint64(b.seq[0]), uint64(b.seq[b.rows-1])
	if last-first != uint64(b.rows-1) {
		// Readers rely on a block holding exactly MinSeq..MaxSeq.
		panic(fmt.Sprintf("tsq: frame of %d rows holds seqs %d..%d", b.rows, first, last))
	}
	return seg.BlockMeta{Rows: b.rows, MinSeq: first, MaxSeq: last, MinTime: b.minTime, MaxTime: b.maxTime}
}

// place appends an encoded frame of day holding the series of set to
// the active segment, rolling as needed, or queues it behind the
// background rolls. owned says the queue may keep data. Caller holds mu.
// It reports whether the queue kept data.
func (st *stream) place(data []byte, owned bool, meta seg.BlockMeta, day int64, set map[string]struct{}, keys *seg.KeySpan) (kept bool, err error) {
	if err := st.ensureSegment(day, int64(len(data)+seg.FrameHeaderLen), meta.MinSeq); err != nil {
		return false, err
	}
	done, err := st.rollDone()
	if err != nil {
		return false, err
	}
	if done {
		return false, st.writeFrame(data, meta, nil, set, keys)
	}
	st.enqueue(data, owned, meta, set, keys) // behind the background seals (roll.go)
	return owned, nil
}

// writeFrame appends an encoded frame to the active segment holding the
// series listed or in set and keyed rows of the keys in keys. Caller
// holds mu.
func (st *stream) writeFrame(data []byte, meta seg.BlockMeta, series []string, set map[string]struct{}, keys *seg.KeySpan) error {
	if err := st.w.Append(data, meta); err != nil {
		return streamErr(st.name, err)
	}
	st.w.SetLastKeys(keys)
	for s := range set {
		st.w.AddSeries(s)
	}
	for _, s := range series {
		st.w.AddSeries(s)
	}
	wb := st.w.Blocks()
	st.blocks = append(st.blocks, wb[len(wb)-1])
	st.s.m.frames.Add(1)
	st.s.m.bytes.Add(uint64(len(data) + seg.FrameHeaderLen))
	return nil
}

// ensureSegment makes the active segment one that takes a frame of day
// and frameLen bytes, rolling or creating as needed. A segment's day is
// the latest of its frames' (each frame's is its latest row's): a frame
// of a later day rolls, one of an earlier day (late or out-of-order
// data) joins the segment, and a segment rolled for size keeps the day
// of the one before (newSegDay), so that out-of-order data makes no more
// segments than ordered data does.
func (st *stream) ensureSegment(day, frameLen int64, firstSeq uint64) error {
	newDay := st.newSegDay(day)
	if n := st.bgRoll.next; n != nil {
		// Segment n is being created: queue the frame for it if it fits
		// (within the largest header), else roll it too.
		if len(st.bgRoll.queue) == 0 || day <= n.day && st.bgRoll.bytes+frameLen+maxHeaderLen <= st.s.o.SegmentMaxBytes {
			if day <= n.day {
				return nil
			}
			if err := st.settleRoll(); err != nil { // n would hold no frame
				return err
			}
		} else {
			if len(st.bgRoll.jobs) >= maxRollJobs {
				if err := st.settleJob(); err != nil {
					return err
				}
			}
			st.rollNext(newDay, firstSeq)
			return nil
		}
	}
	if st.w != nil && (day > st.active.day ||
		(len(st.blocks) > 0 && st.w.Size()+frameLen > st.s.o.SegmentMaxBytes)) {
		if err := st.settleRoll(); err != nil { // nothing runs while st.w is set
			return err
		}
		if st.buffered() && len(st.blocks) > 0 {
			st.rollAsync(newDay, firstSeq)
			return nil
		}
		if err := st.roll(); err != nil {
			return err
		}
	}
	if st.w != nil {
		return nil
	}
	name := segName(newDay, firstSeq)
	w, err := seg.Create(st.s.fs, filepath.Join(st.dir, name), st.name, 1, firstSeq)
	if err != nil {
		return streamErr(st.name, err)
	}
	sf, err := st.newSegFile(name)
	if err != nil {
		_ = w.Close()
		return err
	}
	st.w, st.active, st.blocks = w, sf, nil
	return nil
}

// newSegDay returns the day of a segment created for a frame of day: the
// latest of day and the days of the stream's segments so far.
func (st *stream) newSegDay(day int64) int64 {
	if n := st.bgRoll.next; n != nil {
		day = max(day, n.day)
	}
	if st.active != nil {
		day = max(day, st.active.day)
	}
	if k := len(st.segs); k > 0 {
		day = max(day, st.segs[k-1].day)
	}
	return day
}

// roll seals the active segment, or removes it if it holds no frame.
func (st *stream) roll() error {
	w, sf := st.w, st.active
	if len(st.blocks) == 0 {
		if err := w.Close(); err != nil {
			return streamErr(st.name, err)
		}
		st.w, st.active = nil, nil
		if f := st.files[sf.name]; f != nil {
			_ = f.Close()
			delete(st.files, sf.name)
		}
		if err := st.s.fs.Remove(sf.path); err != nil {
			return fmt.Errorf("tsq: stream %q: remove empty segment: %w", st.name, err)
		}
		if err := st.s.fs.SyncDir(st.dir); err != nil {
			return streamErr(st.name, err)
		}
		return nil
	}
	if err := w.Seal(); err != nil {
		return fmt.Errorf("tsq: stream %q: seal: %w", st.name, err)
	}
	st.s.m.rolled.Add(1)
	sealed := *sf
	sealed.sealed, sealed.blocks, sealed.rows = true, st.blocks, sumRows(st.blocks)
	st.segs = append(st.segs, &sealed)
	if shouldMerge(sealed.blocks, st.s.o.BlockRows) {
		st.startMerge(&sealed)
	}
	st.w, st.active, st.blocks = nil, nil, nil
	if err := w.Close(); err != nil {
		return streamErr(st.name, err)
	}
	return nil
}

// recover reopens the stream's segments after a failed write or sync:
// a segment whose fsync failed is cut back to its last durable size
// (unsynced.go), the active segment's torn tail is cut (seg.OpenWriter). Seqs assigned
// before the failure are not reused in this process.
func (st *stream) recover() error {
	st.waitRoll() // fail has usually done it
	if st.w != nil {
		st.noteUnsynced(st.w, st.blocks)
		_ = st.w.Close()
		st.w = nil
	}
	if err := st.cutUnsynced(); err != nil { // unsynced.go
		return fmt.Errorf("%w (recovering from: %w)", err, st.broken)
	}
	st.rec = Recovery{}
	if err := st.load(); err != nil {
		return fmt.Errorf("%w (recovering from: %w)", err, st.broken)
	}
	st.s.m.noteRecovery(&st.rec)
	st.broken = nil
	return nil
}
