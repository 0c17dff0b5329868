package main

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	tsq "github.com/tsqdb/tsq"
)

// runQuery runs one statement; the caller releases the reader.
func runQuery(ctx context.Context, s *tsq.Store, text string) (array.RecordReader, error) {
	return s.Query(ctx, text, nil)
}

// streamSchema returns the raw view schema of a stream.
func streamSchema(s *tsq.Store, stream string) (*arrow.Schema, error) {
	return s.Schema(stream)
}

// streamSeries returns up to limit series names of a stream.
func streamSeries(s *tsq.Store, stream string, limit int) ([]string, error) {
	return s.Series(stream, limit)
}
