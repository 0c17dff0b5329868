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
// --skip-corrupt, corrupt blocks are left out, each said on stderr. A
// DELETE or INSERT is refused: it changes the store and has no rows (see
// runWrite).
func runQuery(ctx context.Context, e *env, s *tsq.Store, text string) (array.RecordReader, error) {
	if w := writes(text); w != "" {
		return nil, fmt.Errorf("%s changes the store and gives no rows to plot or export: run it as a statement, in the shell or with tsq query -c", w)
	}
	return withQueryFiles(ctx, e, queryOptions(e), func(o *query.Options) (array.RecordReader, error) { return s.Query(ctx, text, o) })
}

// writes returns DELETE, INSERT, CREATE TABLE or DROP TABLE when text
// is such a statement (not EXPLAIN), else "".
func writes(text string) string {
	st, err := query.Parse(text)
	switch {
	case err != nil:
		return ""
	case st.Delete && !st.Explain:
		return "DELETE"
	case st.Insert != nil:
		return "INSERT"
	case st.Create != nil:
		return "CREATE TABLE"
	case st.Drop != nil:
		return "DROP TABLE"
	}
	return ""
}

// runWrite runs a statement that writes (see writes) on the store opened for
// writing (it takes the writer lock for the statement's time) and
// returns its result.
func runWrite(ctx context.Context, e *env, text string) (array.RecordReader, error) {
	w, err := e.openStore(false)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	// INSERT ... SELECT FROM 'x.csv' reads the file; the statement is
	// done when Query returns, its result held
	return withQueryFiles(ctx, e, queryOptions(e), func(o *query.Options) (array.RecordReader, error) { return w.Query(ctx, text, o) })
}

// queryOptions are the options of --skip-corrupt.
func queryOptions(e *env) *query.Options {
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
	return o
}

// streamSchema returns the raw view schema of a stream.
func streamSchema(s *tsq.Store, stream string) (*arrow.Schema, error) {
	return s.Schema(stream)
}

// streamSeries returns up to limit series names of a stream.
func streamSeries(s *tsq.Store, stream string, limit int) ([]string, error) {
	return s.Series(stream, limit)
}
