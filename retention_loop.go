package tsq

import (
	"context"
	"errors"
	"path/filepath"
	"time"
)

// maintenance is the retention loop of a writable Store.
type maintenance struct {
	cancel context.CancelFunc // stops the loop and a pass in progress
	done   chan struct{}      // closed when the loop has returned
}

// startRetention starts the retention loop (writable stores, unless
// Options.RetentionInterval is NoRetentionLoop).
func (s *Store) startRetention() {
	if s.o.ReadOnly || s.o.RetentionInterval <= 0 {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.retention = maintenance{cancel: cancel, done: make(chan struct{})}
	go s.retentionLoop(ctx, s.o.RetentionInterval)
}

// stopRetention stops the loop and waits for it (Close).
func (s *Store) stopRetention() {
	if s.retention.cancel == nil {
		return
	}
	s.retention.cancel()
	<-s.retention.done
}

func (s *Store) retentionLoop(ctx context.Context, every time.Duration) {
	defer close(s.retention.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.applyAllRetention(ctx)
	}
}

// applyAllRetention applies the retention rule of every stream that has
// one: the streams open in this Store, and the others whose directory
// holds a retention file (opened for writing here; a stream another
// process writes is then skipped with a logged lock error). Errors are
// logged and counted, never fatal; the next tick retries.
func (s *Store) applyAllRetention(ctx context.Context) {
	names, err := s.Streams()
	if err != nil {
		s.o.Logger.Error("tsq: retention: list streams", "err", err)
		return
	}
	for _, name := range names {
		if ctx.Err() != nil {
			return
		}
		s.mu.Lock()
		st := s.streams[name]
		s.mu.Unlock()
		if st == nil {
			if _, err := s.fs.Stat(filepath.Join(s.streamsDir(), name, retentionFile)); err != nil {
				continue
			}
		} else if st.soft.rule.Load() == nil {
			continue
		}
		stats, err := s.ApplyRetention(ctx, name)
		switch {
		case errors.Is(err, context.Canceled) || errors.Is(err, ErrClosed):
			return
		case err != nil:
			s.o.Logger.Error("tsq: retention failed; retrying at the next tick", "stream", name, "err", err)
		case stats.ByAge+stats.ByCount > 0:
			s.o.Logger.Debug("tsq: retention", "stream", name, "by_age", stats.ByAge, "by_count", stats.ByCount, "protected", stats.Protected)
		}
	}
}
