package compact

import (
	"context"
	"sync"
	"sync/atomic"
)

// byteSem bounds the bytes of segments being rewritten at once, so that
// temp files never take more than one segment's worth of extra disk: a
// rewrite takes its segment's size; the largest always fits alone.
type byteSem struct {
	mu   sync.Mutex
	cond *sync.Cond
	cap  int64
	used int64
}

func newByteSem(cap int64) *byteSem {
	s := &byteSem{cap: cap}
	s.cond = sync.NewCond(&s.mu)
	return s
}

func (s *byteSem) acquire(ctx context.Context, n int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.used > 0 && s.used+n > s.cap {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.cond.Wait()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	s.used += n
	return nil
}

func (s *byteSem) release(n int64) {
	s.mu.Lock()
	s.used -= n
	s.mu.Unlock()
	s.cond.Broadcast()
}

// heldBytes bounds the bytes of re-encoded blocks a single-chunk pass
// holds while their segments wait for their rewrite (the fold decides a
// segment's blocks newest first, and a segment's file is written only
// once its first block is decided). A block that does not fit is left
// to the rewrite, which reads it again: the pass's memory stays bounded
// whatever the segments' size.
type heldBytes struct {
	n, max atomic.Int64
	cap    int64 // < 0: hold nothing
}

// hold reserves n bytes and reports whether they fit.
func (h *heldBytes) hold(n int64) bool {
	for {
		cur := h.n.Load()
		if h.cap < 0 || cur+n > h.cap {
			return false
		}
		if h.n.CompareAndSwap(cur, cur+n) {
			for m := h.max.Load(); cur+n > m && !h.max.CompareAndSwap(m, cur+n); m = h.max.Load() {
			}
			return true
		}
	}
}

// release returns n reserved bytes.
func (h *heldBytes) release(n int64) { h.n.Add(-n) }
