package main

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// ctxReader stops a RecordReader once ctx is done: Next returns false and
// Err the context's error, so a result cancelled with Ctrl-C is not shown
// even when the engine had already computed it.
type ctxReader struct {
	array.RecordReader
	ctx context.Context
	err error
}

func withContext(ctx context.Context, rr array.RecordReader) array.RecordReader {
	return &ctxReader{RecordReader: rr, ctx: ctx}
}

func (r *ctxReader) Next() bool {
	if r.err = r.ctx.Err(); r.err != nil {
		return false
	}
	if !r.RecordReader.Next() {
		return false
	}
	if r.err = r.ctx.Err(); r.err != nil {
		return false
	}
	return true
}

func (r *ctxReader) Err() error {
	if r.err != nil {
		return r.err
	}
	return r.RecordReader.Err()
}

func (r *ctxReader) RecordBatch() arrow.RecordBatch { return r.RecordReader.RecordBatch() }

// Record is the deprecated name of RecordBatch, kept by the interface.
func (r *ctxReader) Record() arrow.RecordBatch { return r.RecordReader.RecordBatch() }
