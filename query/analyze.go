package query

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// EXPLAIN ANALYZE runs the statement, reads its result to the end and
// gives the plan EXPLAIN gives, then what the run did: the rows and
// batches it returned and the time that took, and over every scan it
// made (a subquery's, a join's sides', a union's SELECTs', an IN's) the
// blocks decoded, their bytes, the rows decoded and the rows kept by the
// bounds, soft deletes, the fold and WHERE. It changes nothing: a DELETE
// or INSERT is refused.

// runStats counts what the scans of one run do; nil counts nothing.
type runStats struct {
	blocks, bytes, decoded, kept atomic.Int64
}

// scanned counts a block processed into b.
func (s *runStats) scanned(b *batch) {
	if s == nil || b == nil {
		return
	}
	s.blocks.Add(1)
	s.bytes.Add(int64(b.bytes))
	s.decoded.Add(int64(b.rows))
	s.kept.Add(int64(len(b.sel)))
}

func execAnalyze(ctx context.Context, st *Statement, text string, open Opener, o *Options) (array.RecordReader, error) {
	if st.Delete || st.Insert != nil {
		return nil, errAt(text, st.writePos, "EXPLAIN ANALYZE runs the statement, and this one changes the store: EXPLAIN shows its plan")
	}
	e := *st
	e.Analyze = false
	lines, err := explainLinesOf(ctx, &e, text, open, o)
	if err != nil {
		return nil, err
	}
	run := e
	run.Explain = false
	ro := o.withDefaults()
	ro.stats = &runStats{}
	t0 := time.Now()
	rr, err := exec(ctx, &run, text, open, &ro)
	if err != nil {
		return nil, err
	}
	var rows, batches int64
	for rr.Next() {
		rows += rr.RecordBatch().NumRows()
		batches++
	}
	err = rr.Err()
	rr.Release()
	if err != nil {
		return nil, err
	}
	took := time.Since(t0)
	s := ro.stats
	bw := "record batches"
	if batches == 1 {
		bw = "record batch"
	}
	lines = append(lines,
		fmt.Sprintf("analyze: %s in %s, %d %s", countWord(int(rows), "row"), took.Round(time.Microsecond), batches, bw),
		fmt.Sprintf("analyze: scans decoded %s (%.1f MiB read), %s; %s kept by bounds, deletes and WHERE",
			countWord(int(s.blocks.Load()), "block"), float64(s.bytes.Load())/(1<<20), countWord(int(s.decoded.Load()), "row"), countWord(int(s.kept.Load()), "row")))
	out := make([][]value, len(lines))
	for i, l := range lines {
		out[i] = []value{{s: l}}
	}
	pr := newRowsReader(o.withDefaults(), []outCol{{name: "plan", kind: kString}}, out)
	pr.schema = ExplainSchema
	return pr, nil
}
