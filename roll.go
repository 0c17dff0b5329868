package tsq

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/tsqdb/tsq/seg"
)

// Background rolls (SyncInterval, SyncNever). Sealing a segment and
// making its successor durable cost three fsyncs; replaying history rolls
// once per UTC day of data. So under the buffered policies the append
// that needs a roll only creates the next segment's file (header written,
// not synced) and hands the old Writer to a goroutine that seals it
// (trailer, fsync), syncs the directory and then the new header. Frames
// for the new segment are encoded and queued in memory meanwhile, and
// written only once that job is done: the new segment never holds a frame
// before the old one is durable, so a crash still keeps a prefix of the
// seqs. One job runs at a time; the next roll, a read, a tick, a
// compaction or import pass, a recovery and Close wait for it
// (settleRoll). The old segment stays in the view, unsealed, its blocks
// readable, until the job is settled.

// rollJob is a seal running in the background.
type rollJob struct {
	done chan struct{} // closed when err is set
	err  error
	sf   *segFile    // the segment being sealed, as in st.segs
	w    *seg.Writer // its writer (closed by the job)
}

// queuedFrame is an encoded frame waiting for the roll job.
type queuedFrame struct {
	data   []byte
	meta   seg.BlockMeta
	series []string
}

// rollState is a stream's background roll: at most one job, and the
// frames of the active segment queued behind it.
type rollState struct {
	job   *rollJob
	queue []queuedFrame
	bytes int64 // framed bytes queued
}

// rollAsync seals the active segment in the background and makes a new
// one, unsynced, for frames of day from firstSeq on. Caller holds mu;
// the active segment has frames and no job is running.
func (st *stream) rollAsync(day int64, firstSeq uint64) error {
	old, sf := st.w, st.active
	name := segName(day, firstSeq)
	nw, err := seg.CreateUnsynced(st.s.fs, filepath.Join(st.dir, name), st.name, 1, firstSeq)
	if err != nil {
		return fmt.Errorf("tsq: stream %q: %w", st.name, err)
	}
	nsf, err := st.newSegFile(name)
	if err != nil {
		_ = nw.Close()
		return err
	}
	sealing := *sf
	sealing.blocks, sealing.rows = st.blocks, sumRows(st.blocks)
	st.segs = append(st.segs, &sealing)
	st.w, st.active, st.blocks = nw, nsf, nil
	job := &rollJob{done: make(chan struct{}), sf: &sealing, w: old}
	st.bgRoll.job = job
	st.pending.Store(true) // reads wait for the job and the queue
	fsys, dir := st.s.fs, st.dir
	go func() {
		defer close(job.done)
		err := old.Seal()
		if cerr := old.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = fsys.SyncDir(dir) // the new file's entry
		}
		if err == nil {
			err = nw.Sync() // the new header, before any frame
		}
		if err != nil {
			job.err = fmt.Errorf("tsq: stream %q: seal in the background: %w", st.name, err)
		}
	}()
	return nil
}

// rollDone reports whether no roll job is running, settling a finished
// one. Caller holds mu.
func (st *stream) rollDone() (bool, error) {
	j := st.bgRoll.job
	if j == nil {
		return true, nil
	}
	select {
	case <-j.done:
	default:
		return false, nil
	}
	return true, st.settleRoll()
}

// settleRoll waits for the running roll job, if any, marks its segment
// sealed (merging it if its frames are small) and writes the queued
// frames. A failed job fails the stream: the queued frames are lost and
// the next append recovers from the files. Caller holds mu.
func (st *stream) settleRoll() error {
	j := st.bgRoll.job
	if j == nil {
		return nil
	}
	<-j.done
	st.bgRoll.job = nil
	if j.err != nil {
		st.noteUnsynced(j.w, j.sf.blocks) // a failed seal fsync: cut at recovery
		st.dropUnsynced()
		return j.err
	}
	st.s.m.rolled.Add(1)
	sealed := *j.sf
	sealed.sealed = true
	if k := slices.Index(st.segs, j.sf); k >= 0 {
		st.segs = slices.Clone(st.segs) // published views share the old array
		st.segs[k] = &sealed
	}
	if shouldMerge(sealed.blocks, st.s.o.BlockRows) {
		st.startMerge(&sealed)
	}
	for i := range st.bgRoll.queue {
		q := &st.bgRoll.queue[i]
		if err := st.writeFrame(q.data, q.meta, q.series); err != nil {
			return err
		}
	}
	clear(st.bgRoll.queue)
	st.bgRoll.queue, st.bgRoll.bytes = st.bgRoll.queue[:0], 0
	st.pending.Store(st.b.rows > 0)
	return nil
}

// enqueue keeps a copy of an encoded frame until the roll job is done.
func (st *stream) enqueue(data []byte, meta seg.BlockMeta) {
	q := queuedFrame{data: slices.Clone(data), meta: meta}
	for s := range st.b.seriesSet {
		q.series = append(q.series, s)
	}
	st.bgRoll.queue = append(st.bgRoll.queue, q)
	st.bgRoll.bytes += int64(len(data) + seg.FrameHeaderLen)
}

// waitRoll waits for a running roll job and drops what it leaves: the
// caller reloads the stream from its files. Caller holds mu.
func (st *stream) waitRoll() {
	if j := st.bgRoll.job; j != nil {
		<-j.done
		st.bgRoll.job = nil
	}
	clear(st.bgRoll.queue)
	st.bgRoll.queue, st.bgRoll.bytes = st.bgRoll.queue[:0], 0
}

// unwritten returns the first seq that is not yet in a file: queued or
// in the builder (0 if none).
func (st *stream) unwritten() uint64 {
	if len(st.bgRoll.queue) > 0 {
		return st.bgRoll.queue[0].meta.MinSeq
	}
	if st.b.rows > 0 {
		return uint64(st.b.seq[0])
	}
	return 0
}

// dropUnsynced removes the active segment after its roll job failed: it
// holds only a header that may not be durable, nor its directory entry,
// so frames written to it later could vanish in a crash. The recovery
// that follows reopens the old segment instead. Caller holds mu.
func (st *stream) dropUnsynced() {
	sf := st.active
	if st.w != nil {
		_ = st.w.Close()
		st.w = nil
	}
	if sf == nil {
		return
	}
	if f := st.files[sf.name]; f != nil {
		_ = f.Close()
		delete(st.files, sf.name)
	}
	_ = st.s.fs.Remove(sf.path) // best effort: a torn create is removed at open
	st.active, st.blocks = nil, nil
}
