package tsq

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// Background rolls (SyncInterval, SyncNever). Sealing a segment and
// creating its successor cost three fsyncs and two file opens; replaying
// history rolls once per UTC day of data. So under the buffered policies
// a roll does not wait for them: it hands the old segment to a seal job
// and starts creating the next segment (seg.Create: header, fsync,
// directory fsync; then its read handle) in the background, side by
// side. The frames of the next segment are encoded and queued in memory
// meanwhile. If the next roll comes before all that is done, the
// segment still in memory becomes a seal job of its own: once its file
// exists and the previous job is done, the job writes its frames and
// seals it. Jobs thus form a chain, at most maxRollJobs long (a roll
// beyond waits for the oldest): a segment holds no frame before every
// earlier segment is sealed and durable, so a crash keeps a prefix of the
// seqs (it may leave segments holding only a header, which opening
// removes). A read, a tick, a compaction or import pass, a recovery and
// Close settle every job (settleRoll), then write the queue to the new
// segment, which becomes the active one. Until a job is settled its
// segment is not in the view, or is there unsealed (the segment that
// was active when the chain began); while jobs run or the next segment
// is created the stream has no active Writer (st.w is nil).

// maxRollJobs bounds the seal jobs running at once.
const maxRollJobs = 16

// nextSeg is a segment being created in the background.
type nextSeg struct {
	done     chan struct{} // closed when err, nw and f are set
	err      error
	day      int64
	firstSeq uint64
	name     string
	nw       *seg.Writer
	f        vfs.File
}

// rollJob seals one segment in the background: either the segment that
// was active (w: its frames are written) or one created by a nextSeg
// (create), whose frames it writes first, after prev is done.
type rollJob struct {
	done chan struct{} // closed when err and blocks are set
	err  error
	prev *rollJob // the job before, nil if none runs

	w  *seg.Writer
	sf *segFile // w's segment, as in st.segs

	create *nextSeg
	frames []queuedFrame
	blocks []seg.BlockMeta // create's segment, once written
}

// queuedFrame is an encoded frame waiting for its segment.
type queuedFrame struct {
	data   []byte
	meta   seg.BlockMeta
	series []string
	keys   seg.KeySpan // its own copy
}

// rollState is a stream's background rolls: the seal jobs, oldest
// first, and the segment being created with the frames queued for it.
type rollState struct {
	jobs  []*rollJob
	next  *nextSeg
	queue []queuedFrame
	bytes int64 // framed bytes queued
}

// rolling reports whether background rolls are outstanding. Caller holds
// mu.
func (st *stream) rolling() bool {
	return len(st.bgRoll.jobs) > 0 || st.bgRoll.next != nil
}

// startCreate creates segment day/firstSeq in the background.
func (st *stream) startCreate(day int64, firstSeq uint64) *nextSeg {
	n := &nextSeg{done: make(chan struct{}), day: day, firstSeq: firstSeq, name: segName(day, firstSeq)}
	fsys, path, stream := st.s.fs, filepath.Join(st.dir, n.name), st.name
	go func() {
		defer close(n.done)
		nw, err := seg.CreateUnsynced(fsys, path, stream, 1, firstSeq) // synced by the tick (durable.go)
		if err == nil {
			if n.f, err = fsys.Open(path); err != nil {
				_ = nw.Close()
				_ = fsys.Remove(path) // best effort: a header alone is removed at open
			} else {
				n.nw = nw
			}
		}
		if err != nil {
			n.err = fmt.Errorf("tsq: stream %q: create a segment in the background: %w", stream, err)
		}
	}()
	return n
}

// rollAsync seals the active segment in the background and starts
// creating the next one, for frames of day from firstSeq on. Caller
// holds mu; the active segment has frames and no job runs.
func (st *stream) rollAsync(day int64, firstSeq uint64) {
	old, sf := st.w, st.active
	sealing := *sf
	sealing.blocks, sealing.rows = st.blocks, sumRows(st.blocks)
	st.segs = append(st.segs, &sealing)
	st.w, st.active, st.blocks = nil, nil, nil
	j := &rollJob{done: make(chan struct{}), w: old, sf: &sealing}
	st.bgRoll.jobs = append(st.bgRoll.jobs, j)
	st.bgRoll.next = st.startCreate(day, firstSeq)
	st.pending.Store(true) // reads wait for the jobs and the queue
	go j.run(st.name)
}

// rollNext makes the segment being created, with the frames queued for
// it, a seal job, and starts creating the next one. Caller holds mu;
// frames are queued and fewer than maxRollJobs jobs run.
func (st *stream) rollNext(day int64, firstSeq uint64) {
	r := &st.bgRoll
	j := &rollJob{done: make(chan struct{}), create: r.next, frames: r.queue}
	if len(r.jobs) > 0 {
		j.prev = r.jobs[len(r.jobs)-1]
	}
	r.jobs = append(r.jobs, j)
	r.queue, r.bytes = nil, 0 // the job's now
	r.next = st.startCreate(day, firstSeq)
	st.pending.Store(true)
	go j.run(st.name)
}

func (j *rollJob) run(stream string) {
	defer close(j.done)
	w := j.w
	if w == nil {
		<-j.create.done
		if err := j.create.err; err != nil {
			j.err = err
			return
		}
		w = j.create.nw
	}
	err := func() error {
		if j.prev != nil {
			if <-j.prev.done; j.prev.err != nil {
				return errors.New("an earlier seal failed")
			}
		}
		for i := range j.frames {
			q := &j.frames[i]
			if err := w.Append(q.data, q.meta); err != nil {
				return err
			}
			for _, s := range q.series {
				w.AddSeries(s)
			}
			w.SetLastKeys(&q.keys)
		}
		return w.SealUnsynced() // synced by the tick (durable.go)
	}()
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	j.blocks = w.Blocks()
	if err != nil {
		j.err = fmt.Errorf("tsq: stream %q: seal in the background: %w", stream, err)
	}
}

// rollDone settles the roll jobs that are done, oldest first, without
// waiting, and reports whether none is outstanding any more (then the
// active segment takes frames directly). Caller holds mu.
func (st *stream) rollDone() (bool, error) {
	r := &st.bgRoll
	for len(r.jobs) > 0 && closed(r.jobs[0].done) {
		if err := st.settleJob(); err != nil {
			return false, err
		}
	}
	if len(r.jobs) > 0 || (r.next != nil && !closed(r.next.done)) {
		return false, nil
	}
	return true, st.settleRoll()
}

func closed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// settleJob waits for the oldest roll job and makes its segment a sealed
// one of the view (merging it if its frames are small). A failed job
// fails the stream: what it and the later jobs held is lost and the next
// append recovers from the files. Caller holds mu.
func (st *stream) settleJob() error {
	r := &st.bgRoll
	j := r.jobs[0]
	<-j.done
	if j.err != nil {
		return j.err
	}
	r.jobs[0] = nil
	r.jobs = r.jobs[1:]
	st.s.m.rolled.Add(1)
	sealed := &segFile{}
	if j.w != nil {
		st.noteUndurable(j.sf.name, false, j.w.Synced())
		*sealed = *j.sf
		sealed.sealed = true
		if k := slices.Index(st.segs, j.sf); k >= 0 {
			st.segs = slices.Clone(st.segs) // published views share the old array
			st.segs[k] = sealed
		}
	} else {
		c := j.create
		st.noteUndurable(c.name, true, 0)
		st.files[c.name] = c.f
		*sealed = segFile{name: c.name, path: filepath.Join(st.dir, c.name), day: c.day, firstSeq: c.firstSeq,
			sealed: true, f: c.f, blocks: j.blocks, rows: sumRows(j.blocks), gen: c.nw.Header().Generation}
		if st.writable {
			sealed.cacheID = st.newCacheID()
		}
		st.segs = append(st.segs, sealed)
		for i := range j.frames {
			st.s.m.frames.Add(1)
			st.s.m.bytes.Add(uint64(len(j.frames[i].data) + seg.FrameHeaderLen))
		}
	}
	if shouldMerge(sealed.blocks, st.s.o.BlockRows) {
		st.startMerge(sealed)
	}
	return nil
}

// settleRoll waits for every roll job and settles it, then makes the
// created segment the active one and writes the frames queued for it.
// Caller holds mu.
func (st *stream) settleRoll() error {
	r := &st.bgRoll
	for len(r.jobs) > 0 {
		if err := st.settleJob(); err != nil {
			return err
		}
	}
	n := r.next
	if n == nil {
		return nil
	}
	<-n.done
	if n.err != nil {
		return n.err
	}
	r.next = nil
	st.noteUndurable(n.name, true, 0)
	st.files[n.name] = n.f
	sf := &segFile{name: n.name, path: filepath.Join(st.dir, n.name), day: n.day, firstSeq: n.firstSeq, f: n.f}
	if st.writable {
		sf.cacheID = st.newCacheID()
	}
	st.w, st.active, st.blocks = n.nw, sf, nil
	for i := range r.queue {
		q := &r.queue[i]
		if err := st.writeFrame(q.data, q.meta, q.series, nil, &q.keys); err != nil {
			return err
		}
	}
	clear(r.queue)
	r.queue, r.bytes = r.queue[:0], 0
	st.pending.Store(st.hasPending())
	return nil
}

// enqueue keeps an encoded frame until its segment exists: data itself
// if owned, else a copy.
func (st *stream) enqueue(data []byte, owned bool, meta seg.BlockMeta, set map[string]struct{}, keys *seg.KeySpan) {
	if !owned {
		data = slices.Clone(data)
	}
	q := queuedFrame{data: data, meta: meta}
	q.keys.Merge(keys) // a copy: the caller's builder is reused
	for s := range set {
		q.series = append(q.series, s)
	}
	st.bgRoll.queue = append(st.bgRoll.queue, q)
	st.bgRoll.bytes += int64(len(data) + seg.FrameHeaderLen)
}

// waitRoll waits for the roll jobs and the creation running and drops
// what they leave, noting a segment whose seal fsync failed: the caller
// reloads the stream from its files. Caller holds mu.
func (st *stream) waitRoll() {
	r := &st.bgRoll
	for _, j := range r.jobs {
		<-j.done
		if j.w != nil {
			st.noteUndurable(j.sf.name, false, j.w.Synced())
		} else if j.create.err == nil {
			st.noteUndurable(j.create.name, true, 0)
		}
		if j.err != nil { // a failed seal fsync: cut at recovery (unsynced.go)
			if j.w != nil {
				st.noteUnsynced(j.w, j.sf.blocks)
			} else if j.create.nw != nil {
				st.noteUnsynced(j.create.nw, j.blocks)
			}
		}
		if c := j.create; c != nil && c.f != nil {
			_ = c.f.Close()
		}
	}
	clear(r.jobs)
	r.jobs = r.jobs[:0]
	if n := r.next; n != nil {
		<-n.done
		if n.nw != nil {
			st.noteUndurable(n.name, true, 0)
			_ = n.nw.Close()
			_ = n.f.Close()
		}
		r.next = nil
	}
	clear(r.queue)
	r.queue, r.bytes = r.queue[:0], 0
}

// unwritten returns the first seq that is not yet in a file, or not
// settled: held by a roll job, queued or in the builder (0 if none).
func (st *stream) unwritten() uint64 {
	for _, j := range st.bgRoll.jobs {
		if len(j.frames) > 0 {
			return j.frames[0].meta.MinSeq
		}
	}
	if len(st.bgRoll.queue) > 0 {
		return st.bgRoll.queue[0].meta.MinSeq
	}
	if len(st.encq) > 0 {
		return st.encq[0].meta.MinSeq
	}
	if st.b.rows > 0 {
		return uint64(st.b.seq[0])
	}
	return 0
}
