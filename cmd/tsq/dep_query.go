package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	tsq "github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/query"
)

// runQuery runs one statement; the caller releases the reader. With
// --skip-corrupt, corrupt blocks are left out, each said on stderr.
func runQuery(ctx context.Context, e *env, s *tsq.Store, text string) (array.RecordReader, error) {
	var o *query.Options
	if e.skipCorrupt {
		o = &query.Options{OnCorrupt: func(b query.CorruptBlock) {
			what := fmt.Sprintf("corrupt block %d of segment %s: %v", b.Block, b.Segment, b.Err)
			if msg := b.Err.Error(); strings.Contains(msg, "corrupt block") { // the store's message names it
				what = msg[strings.Index(msg, "corrupt block"):]
			}
			fmt.Fprintf(e.stderr, "tsq: warning: left out %s, seqs %d..%d: %s\n", countOf(b.Rows, "row"), b.MinSeq, b.MaxSeq, what)
		}}
	}
	return s.Query(ctx, text, o)
}

// streamSchema returns the raw view schema of a stream.
func streamSchema(s *tsq.Store, stream string) (*arrow.Schema, error) {
	return s.Schema(stream)
}

// streamSeries returns up to limit series names of a stream.
func streamSeries(s *tsq.Store, stream string, limit int) ([]string, error) {
	return s.Series(stream, limit)
}
