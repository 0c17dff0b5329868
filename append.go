package tsq

import (
	"context"
	"fmt"
)

// Append stores recs in stream, creating the stream if needed, and
// returns the seqs assigned, strictly increasing and consecutive within
// the call. Record.Seq is ignored; a zero Op means OpPut.
//
// Under SyncAlways Append returns once the records are fsynced: appends
// waiting together share one frame and one fsync (group commit). Under
// SyncInterval and SyncNever it returns once they are in the stream's
// in-memory frame, written when full, at the next interval tick, before
// any read of this Store, and at Close. In either case the records are then visible to this Store's
// reads. An error after validation means the outcome is unknown: the
// records may or may not be stored (with the seqs they would have had);
// seqs handed out are never handed out again by this Store.
//
// A cancelled ctx withdraws an append still waiting for the committer.
func (s *Store) Append(ctx context.Context, stream string, recs ...Record) ([]uint64, error) {
	if len(recs) == 0 {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	schema, err := validateRecords(recs)
	if err != nil {
		return nil, fmt.Errorf("tsq: append to %q: %w", stream, err)
	}
	st, err := s.stream(stream, true)
	if err != nil {
		return nil, err
	}
	r := &request{recs: recs, schema: schema, seqs: make([]uint64, len(recs))}
	if err := st.submit(ctx, r); err != nil {
		return nil, err // names the stream
	}
	s.m.appends.Add(1)
	s.m.records.Add(uint64(len(recs)))
	return r.seqs, nil
}

// AppendSamples stores one sample per time: records of op put, no key
// and one float64 field "value". It returns the seq of the first; the
// others follow consecutively. It writes straight into reusable column
// buffers: no allocation per sample. Durability is as for Append.
func (s *Store) AppendSamples(ctx context.Context, stream, series string, times []int64, values []float64) (firstSeq uint64, err error) {
	if err := checkSamples(stream, series, times, values); err != nil {
		return 0, err
	}
	if len(times) == 0 {
		return 0, nil
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	st, err := s.stream(stream, true)
	if err != nil {
		return 0, err
	}
	var r *request
	if st.c == nil {
		// Direct write under st.mu: the stream's request is reused.
		st.mu.Lock()
		r = &st.sreq
		*r = request{series: series, times: times, values: values, schema: sampleSchema}
		st.one[0] = r
		err = st.commit(st.one[:], false)
		firstSeq = r.first
		*r = request{}
		st.one[0] = nil
		st.mu.Unlock()
	} else {
		r = &request{series: series, times: times, values: values, schema: sampleSchema}
		err = st.submit(ctx, r)
		firstSeq = r.first
	}
	if err != nil {
		return 0, err // names the stream
	}
	s.m.appends.Add(1)
	s.m.records.Add(uint64(len(times)))
	return firstSeq, nil
}
