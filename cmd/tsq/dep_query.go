package main

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	tsq "github.com/tsqdb/tsq"
)

// runQuery runs one statement; the caller releases the reader.
func runQuery(ctx context.Context, s *tsq.Store, text string) (array.RecordReader, error) {
	return nil, errUnavailable("query", "the query engine")
}

// streamSchema returns the raw view schema of a stream.
func streamSchema(s *tsq.Store, stream string) (*arrow.Schema, error) {
	return nil, errUnavailable("schema", "the query engine")
}

// streamSeries returns up to limit series names of a stream.
func streamSeries(s *tsq.Store, stream string, limit int) ([]string, error) {
	return nil, errUnavailable("series", "the query engine")
}
