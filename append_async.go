package tsq

import (
	"context"
	"fmt"
)

// Pending is an append handed to its stream without waiting for the
// outcome (AppendSamplesAsync). Wait returns it.
type Pending struct {
	s     *Store
	st    *stream
	r     *request
	n     int // samples
	first uint64
	err   error
	ended bool // the outcome is in first and err
}

// AppendSamplesAsync is AppendSamples without the wait under SyncAlways:
// it queues the samples for the stream's next group commit and returns
// at once; Wait returns the first seq once they are fsynced (or the
// error). A writer can thus keep several appends in flight, and a group
// commit takes every one queued, whichever goroutine made it: fsyncs are
// shared by appends, not only by goroutines. The appends of one
// goroutine get their seqs in the order it made them. times and values
// must not change until Wait returns. Under SyncInterval and SyncNever
// the append is made at once, as by AppendSamples, and Wait returns its
// outcome.
func (s *Store) AppendSamplesAsync(ctx context.Context, stream, series string, times []int64, values []float64) (*Pending, error) {
	if err := checkSamples(stream, series, times, values); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st, err := s.stream(stream, true)
	if err != nil {
		return nil, err
	}
	p := &Pending{s: s, st: st, n: len(times)}
	if st.c == nil || len(times) == 0 {
		p.first, p.err = s.AppendSamples(ctx, stream, series, times, values)
		p.ended = true
		return p, nil
	}
	p.r = &request{series: series, times: times, values: values, schema: sampleSchema, done: make(chan struct{})}
	if err := st.c.submit(p.r); err != nil {
		return nil, err // names the stream
	}
	return p, nil
}

// Wait waits for the append's outcome: its first seq once the samples
// are durable (SyncAlways) or in the stream's frame (the buffered
// policies). A cancelled ctx withdraws an append still queued (the
// error is then ctx's and nothing was stored); once the committer has
// taken it, Wait waits for the outcome. Wait may be called again: it
// returns the same outcome.
func (p *Pending) Wait(ctx context.Context) (firstSeq uint64, err error) {
	if p.ended {
		return p.first, p.err
	}
	select {
	case <-p.r.done:
		p.first, p.err = p.r.first, p.r.err
	case <-ctx.Done():
		if !p.r.state.CompareAndSwap(reqQueued, reqCancelled) {
			<-p.r.done
			p.first, p.err = p.r.first, p.r.err
			break
		}
		p.first, p.err = 0, ctx.Err()
	}
	p.ended = true
	if p.err == nil {
		p.s.m.appends.Add(1)
		p.s.m.records.Add(uint64(p.n))
	} else {
		p.first = 0
	}
	p.r = nil
	return p.first, p.err
}

// checkSamples validates the arguments of AppendSamples.
func checkSamples(stream, series string, times []int64, values []float64) error {
	if len(times) != len(values) {
		return fmt.Errorf("tsq: append samples to %q: %w: %d times, %d values", stream, ErrInvalidRecord, len(times), len(values))
	}
	if len(times) > 0 && (series == "" || len(series)+32 > MaxRecordBytes) {
		return fmt.Errorf("tsq: append samples to %q: %w: series must be 1 to %d bytes", stream, ErrInvalidRecord, MaxRecordBytes-32)
	}
	return nil
}
