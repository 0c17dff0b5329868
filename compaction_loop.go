package tsq

import (
	"context"
	"errors"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// storeCompaction is a Store's background compactor and its metrics.
type storeCompaction struct {
	trig   chan string // streams whose live set reached the cap; coalesced
	cancel context.CancelFunc
	done   chan struct{}

	// noteMu makes a pass's counters change together: a snapshot never
	// sees a pass counted in one and not yet in another.
	noteMu                                                      sync.Mutex
	passes, failed, early, reconciles                           atomic.Uint64
	examined, rewritten, clean                                  atomic.Uint64
	rowsRecord, rowsUpdate, rowsSeries, rowsSoft, rowsRetention atomic.Uint64
	tombRecord, tombUpdate, tombSeries                          atomic.Uint64
	bytesRead, bytesWritten                                     atomic.Uint64
	hist                                                        [passBuckets]atomic.Uint64
	durSum                                                      atomic.Int64 // ns
}

// passBuckets is the size of the pass duration histogram: upper bounds
// 10ms·2^i for i < 15, then +Inf.
const passBuckets = 16

// PassBucketBound returns the upper bound of histogram bucket i.
func PassBucketBound(i int) time.Duration {
	if i >= passBuckets-1 {
		return time.Duration(math.MaxInt64)
	}
	return 10 * time.Millisecond << i
}

// trigger asks for an early pass of stream, without blocking.
func (c *storeCompaction) trigger(stream string) {
	if c.trig == nil {
		return
	}
	select {
	case c.trig <- stream:
	default:
	}
}

func (c *storeCompaction) note(s *CompactStats, err error, early bool) {
	c.noteMu.Lock()
	defer c.noteMu.Unlock()
	c.passes.Add(1)
	if err != nil {
		c.failed.Add(1)
	}
	if early {
		c.early.Add(1)
	}
	c.reconciles.Add(uint64(s.Reconciled))
	c.examined.Add(uint64(s.SegmentsExamined))
	c.rewritten.Add(uint64(s.SegmentsRewritten))
	c.clean.Add(uint64(s.SegmentsClean))
	c.rowsRecord.Add(uint64(s.RowsRecord))
	c.rowsUpdate.Add(uint64(s.RowsUpdate))
	c.rowsSeries.Add(uint64(s.RowsSeries))
	c.rowsSoft.Add(uint64(s.RowsSoftDeleted))
	c.rowsRetention.Add(uint64(s.RowsRetention))
	c.tombRecord.Add(uint64(s.TombstonesRecord))
	c.tombUpdate.Add(uint64(s.TombstonesUpdate))
	c.tombSeries.Add(uint64(s.TombstonesSeries))
	c.bytesRead.Add(uint64(s.BytesRead))
	c.bytesWritten.Add(uint64(s.BytesWritten))
	i := 0
	for i < passBuckets-1 && s.Duration > PassBucketBound(i) {
		i++
	}
	c.hist[i].Add(1)
	c.durSum.Add(int64(s.Duration))
}

// startCompactor starts the background loop unless compaction is off.
func (s *Store) startCompactor() {
	if s.o.ReadOnly || s.o.CompactInterval == 0 {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cm.trig, s.cm.cancel, s.cm.done = make(chan string, 1), cancel, make(chan struct{})
	go s.compactLoop(ctx)
}

// stopCompactor cancels a running pass and waits for the loop to end.
func (s *Store) stopCompactor() {
	if s.cm.cancel == nil {
		return
	}
	s.cm.cancel()
	<-s.cm.done
}

// compactLoop runs a pass over every open writable stream each
// interval, and an early pass of a stream whose live set reached the cap,
// at most once per CompactMinSpacing; an early pass restarts the
// interval.
func (s *Store) compactLoop(ctx context.Context) {
	defer close(s.cm.done)
	interval, spacing := s.o.CompactInterval, s.o.CompactMinSpacing
	tick := time.NewTimer(interval)
	defer tick.Stop()
	var lastEarly time.Time
	var deferred <-chan time.Time // a trigger that came too soon
	pending := map[string]bool{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			for _, st := range s.openStreams() {
				s.passLogged(ctx, st, false)
			}
			tick.Reset(interval)
			continue
		case name := <-s.cm.trig:
			pending[name] = true
		case <-deferred:
			deferred = nil
		}
		if len(pending) == 0 || deferred != nil {
			continue
		}
		if wait := spacing - time.Since(lastEarly); !lastEarly.IsZero() && wait > 0 {
			deferred = time.After(wait)
			continue
		}
		lastEarly = time.Now()
		for name := range pending {
			delete(pending, name)
			if st := s.openStream(name); st != nil {
				s.passLogged(ctx, st, true)
			}
		}
		if !tick.Stop() {
			select {
			case <-tick.C:
			default:
			}
		}
		tick.Reset(interval)
	}
}

// passLogged runs a pass and logs its failure; it never stops appends.
func (s *Store) passLogged(ctx context.Context, st *stream, early bool) {
	if ctx.Err() != nil {
		return
	}
	// ErrClosed: the stream was removed meanwhile (a failed import
	// created it), or the store is closing; or it was dropped.
	if _, err := st.compact(ctx, early); err != nil && ctx.Err() == nil && !errors.Is(err, ErrClosed) && !st.dropped.Load() {
		s.o.Logger.Error("tsq: compaction pass failed; retrying at the next pass", "stream", st.name, "err", err)
	}
}

func (s *Store) openStreams() []*stream {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*stream, 0, len(s.streams))
	for _, st := range s.streams {
		if st.writable && st.cmp != nil {
			out = append(out, st)
		}
	}
	return out
}

func (s *Store) openStream(name string) *stream {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.streams[name]; st != nil && st.writable && st.cmp != nil {
		return st
	}
	return nil
}

// CompactionMetrics are the compaction counters and gauges of a Store.
type CompactionMetrics struct {
	// Per open writable stream: the committed watermark; the watermark
	// lag in seconds, the event-time span of the sealed rows above W
	// (0 when W covers every sealed row); the live set's entries and
	// approximate bytes.
	Watermark    map[string]uint64
	LagSeconds   map[string]float64
	LiveSetLen   map[string]int
	LiveSetBytes map[string]int64
	// Counters since Open.
	Passes, FailedPasses, EarlyPasses uint64
	Reconciles                        uint64 // segments reloaded because their metadata disagreed with disk
	SegmentsExamined                  uint64
	SegmentsRewritten                 uint64
	SegmentsClean                     uint64
	// Rows dropped by reason: superseded by a delete, a put, a drop;
	// soft deleted by Delete, by retention.
	RowsRecord, RowsUpdate, RowsSeries, RowsSoftDeleted, RowsRetention uint64
	// Tombstones folded by kind.
	TombstonesRecord, TombstonesUpdate, TombstonesSeries uint64
	BytesRead, BytesWritten                              uint64
	// PassDuration[i] counts passes that took at most PassBucketBound(i)
	// (and more than the bound before); PassDurationSum is their total.
	PassDuration    [passBuckets]uint64
	PassDurationSum time.Duration
}

// CompactionMetrics returns a snapshot of the compaction metrics.
func (s *Store) CompactionMetrics() CompactionMetrics {
	c := &s.cm
	c.noteMu.Lock()
	out := CompactionMetrics{
		Watermark: map[string]uint64{}, LagSeconds: map[string]float64{},
		LiveSetLen: map[string]int{}, LiveSetBytes: map[string]int64{},
		Passes: c.passes.Load(), FailedPasses: c.failed.Load(), EarlyPasses: c.early.Load(),
		Reconciles: c.reconciles.Load(), SegmentsExamined: c.examined.Load(),
		SegmentsRewritten: c.rewritten.Load(), SegmentsClean: c.clean.Load(),
		RowsRecord: c.rowsRecord.Load(), RowsUpdate: c.rowsUpdate.Load(),
		RowsSeries: c.rowsSeries.Load(), RowsSoftDeleted: c.rowsSoft.Load(), RowsRetention: c.rowsRetention.Load(),
		TombstonesRecord: c.tombRecord.Load(), TombstonesUpdate: c.tombUpdate.Load(),
		TombstonesSeries: c.tombSeries.Load(), BytesRead: c.bytesRead.Load(),
		BytesWritten: c.bytesWritten.Load(), PassDurationSum: time.Duration(c.durSum.Load()),
	}
	for i := range out.PassDuration {
		out.PassDuration[i] = c.hist[i].Load()
	}
	c.noteMu.Unlock()
	for _, st := range s.openStreams() {
		w := st.cmp.w.Load()
		out.Watermark[st.name] = w
		out.LagSeconds[st.name] = lagSeconds(st.view.Load(), w)
		if st.cmp.live != nil {
			out.LiveSetLen[st.name] = st.cmp.live.Len()
			out.LiveSetBytes[st.name] = st.cmp.live.Bytes()
		}
	}
	return out
}

// lagSeconds is the event-time span of the sealed blocks above w.
func lagSeconds(v *view, w uint64) float64 {
	if v == nil {
		return 0
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, sf := range v.segs {
		if !sf.sealed {
			continue
		}
		for j := range sf.blocks {
			if m := &sf.blocks[j]; m.MaxSeq > w && m.Rows > 0 {
				lo, hi = min(lo, m.MinTime), max(hi, m.MaxTime)
			}
		}
	}
	if hi < lo {
		return 0
	}
	return time.Duration(hi - lo).Seconds()
}
