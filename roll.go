package tsq

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// Background rolls (SyncInterval, SyncNever). Sealing a segment and
// creating its successor cost three fsyncs and two file opens; replaying
// history rolls once per UTC day of data. So under the buffered policies
// the append that needs a roll only hands the old Writer to a goroutine
// that seals it (trailer, fsync), then creates the next segment
// (seg.Create: header, fsync, directory fsync) and opens its read handle.
// Frames for the new segment are encoded and queued in memory meanwhile,
// and written only once that job is done: the new segment does not exist
// before the old one is durable, so a crash still keeps a prefix of the
// seqs. One job runs at a time; the next roll, a read, a tick, a
// compaction or import pass, a recovery and Close wait for it
// (settleRoll). The old segment stays in the view, unsealed, its blocks
// readable, until the job is settled; while the job runs the stream has
// no active Writer (st.w is nil).

// rollJob is a seal running in the background.
type rollJob struct {
	done chan struct{} // closed when err, nw and f are set
	err  error
	sf   *segFile // the segment being sealed, as in st.segs
	// The next segment: its day, first seq and name, and, once done
	// without error, its Writer and read handle.
	day      int64
	firstSeq uint64
	name     string
	nw       *seg.Writer
	f        vfs.File
}

// queuedFrame is an encoded frame waiting for the roll job.
type queuedFrame struct {
	data   []byte
	meta   seg.BlockMeta
	series []string
}

// rollState is a stream's background roll: at most one job, and the
// frames of the next segment queued behind it.
type rollState struct {
	job   *rollJob
	queue []queuedFrame
	bytes int64 // framed bytes queued
}

// rollAsync seals the active segment in the background and creates the
// next one, for frames of day from firstSeq on. Caller holds mu; the
// active segment has frames and no job is running.
func (st *stream) rollAsync(day int64, firstSeq uint64) {
	old, sf := st.w, st.active
	sealing := *sf
	sealing.blocks, sealing.rows = st.blocks, sumRows(st.blocks)
	st.segs = append(st.segs, &sealing)
	st.w, st.active, st.blocks = nil, nil, nil
	job := &rollJob{done: make(chan struct{}), sf: &sealing, day: day, firstSeq: firstSeq, name: segName(day, firstSeq)}
	st.bgRoll.job = job
	st.pending.Store(true) // reads wait for the job and the queue
	fsys, path, name := st.s.fs, filepath.Join(st.dir, job.name), st.name
	go func() {
		defer close(job.done)
		err := old.Seal()
		if cerr := old.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			job.nw, err = seg.Create(fsys, path, name, 1, firstSeq)
		}
		if err == nil {
			if job.f, err = fsys.Open(path); err != nil {
				_ = job.nw.Close()
				job.nw = nil
				_ = fsys.Remove(path) // best effort: an empty segment is harmless
			}
		}
		if err != nil {
			job.err = fmt.Errorf("tsq: stream %q: seal in the background: %w", name, err)
		}
	}()
}

// takeNext makes the finished job's new segment the active one. Caller
// holds mu.
func (st *stream) takeNext(j *rollJob) {
	st.files[j.name] = j.f
	sf := &segFile{name: j.name, path: filepath.Join(st.dir, j.name), day: j.day, firstSeq: j.firstSeq, f: j.f}
	if st.writable {
		sf.cacheID = st.newCacheID()
	}
	st.w, st.active, st.blocks = j.nw, sf, nil
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
		return j.err
	}
	st.s.m.rolled.Add(1)
	st.takeNext(j)
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
		if j.nw != nil {
			_ = j.nw.Close()
			_ = j.f.Close()
		}
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
