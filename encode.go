package tsq

import (
	"fmt"
	"sync"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/seg"
)

// Background encoding (SyncInterval, SyncNever). A full frame is handed
// with its builder to a goroutine that encodes it, and the append goes on
// filling a spare builder: the encoding, the larger part of an append's
// cost, runs on another core. Encoded frames are placed (written, or
// queued behind background rolls) in seq order, by the appends: each
// commit places those that are done, without waiting, and a flush waits
// for the oldest when maxEncoding are running. Everything that writes
// the pending frame first (reads, ticks, compaction, imports, Close)
// places them all (writePending). Until placed, a frame's rows count as
// buffered: a failure loses them like the builder's (fail).

// maxEncoding bounds the frames handed to the encoders and not yet placed
// per stream.
const maxEncoding = 3

// frameJob is a frame being encoded: its builder, owned by the job until
// the frame is placed, and the encoded block.
type frameJob struct {
	b       builder
	enc     *sharedEncoder
	encoder int // which of enc's
	meta    seg.BlockMeta
	buf     []byte
	err     error
	stream  string
	done    chan struct{} // capacity 1: a token per encoding, reused
	ended   bool          // the token was taken
}

// frameEncoders is the number of encoders of a stream: frames take them
// in turn, so that two frames are encoded at once. With one appender
// encoding is the longer part of the work; two encoders keep up with it
// on two cores.
const frameEncoders = 2

// sharedEncoder is a stream's background encoders, reused.
type sharedEncoder struct {
	encs [frameEncoders]struct {
		mu  sync.Mutex
		enc chunk.Encoder
	}
	next int // the encoder of the next frame
}

func (j *frameJob) encode() {
	blk := j.b.block()
	var err error
	e := &j.enc.encs[j.encoder]
	e.mu.Lock()
	j.buf, err = e.enc.Append(j.buf[:0], &blk, nil)
	e.mu.Unlock()
	if err != nil {
		j.err = fmt.Errorf("tsq: stream %q: encode block: %w", j.stream, err)
	}
	j.done <- struct{}{}
}

// finished reports whether the encoding is done, waiting for it if
// wait.
func (j *frameJob) finished(wait bool) bool {
	if j.ended {
		return true
	}
	if wait {
		<-j.done
	} else {
		select {
		case <-j.done:
		default:
			return false
		}
	}
	j.ended = true
	return true
}

// flushAsync hands the builder's rows to a background encoder and gives
// the stream a spare builder. Caller holds mu.
func (st *stream) flushAsync() error {
	if len(st.encq) >= maxEncoding {
		if err := st.placeEncoded(true); err != nil {
			return err
		}
	}
	if st.encShared == nil {
		// The first full frame: every job and spare builder at once, so
		// that the rotation allocates nothing later.
		st.encShared = &sharedEncoder{}
		// Warm the encoders the first frame does not use by encoding it
		// with them too, once: their buffers grow now, not later.
		blk := st.b.block()
		for i := 1; i < frameEncoders; i++ {
			e := &st.encShared.encs[i]
			if _, err := e.enc.Append(nil, &blk, nil); err != nil {
				return fmt.Errorf("tsq: stream %q: encode block: %w", st.name, err)
			}
		}
		st.encq = make([]*frameJob, 0, maxEncoding)
		for range maxEncoding {
			j := &frameJob{stream: st.name, enc: st.encShared, done: make(chan struct{}, 1)}
			j.b.init(st.b.maxRows)
			j.b.presize(&st.b)
			st.encFree = append(st.encFree, j)
		}
	}
	j := st.encFree[len(st.encFree)-1]
	st.encFree = st.encFree[:len(st.encFree)-1]
	j.meta = st.b.frameMeta()
	j.b, st.b = st.b, j.b // st.b gets the spare, reset builder
	j.err, j.ended = nil, false
	j.encoder = st.encShared.next
	st.encShared.next = (st.encShared.next + 1) % frameEncoders
	st.encq = append(st.encq, j)
	st.pending.Store(true)
	go j.encode()
	return nil
}

// placeEncoded places the encoded frames in order: the done ones, or,
// with wait, at least the oldest, waiting for it. Caller holds mu.
func (st *stream) placeEncoded(wait bool) error {
	for len(st.encq) > 0 {
		j := st.encq[0]
		if !j.finished(wait) {
			break
		}
		wait = false
		if j.err != nil {
			return j.err
		}
		kept, err := st.place(j.buf, true, j.meta, j.b.day, j.b.seriesSet, &j.b.keys)
		if err != nil {
			return err
		}
		if kept {
			j.buf = nil // the queue's now
		}
		n := copy(st.encq, st.encq[1:])
		st.encq[n] = nil
		st.encq = st.encq[:n]
		j.b.reset()
		st.encFree = append(st.encFree, j)
	}
	return nil
}

// placeAll waits for every frame being encoded and places it. Caller
// holds mu.
func (st *stream) placeAll() error {
	for len(st.encq) > 0 {
		if err := st.placeEncoded(true); err != nil {
			return err
		}
	}
	return nil
}

// dropEncoding waits for the frames being encoded and drops them: after
// a failure, or before the stream reloads. Caller holds mu.
func (st *stream) dropEncoding() {
	for _, j := range st.encq {
		j.finished(true)
		j.b.reset()
		st.encFree = append(st.encFree, j)
	}
	clear(st.encq)
	st.encq = st.encq[:0]
}
