package compact

import (
	"context"
	"sync"
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
