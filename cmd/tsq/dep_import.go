package main

import (
	"context"
	"io"

	tsq "github.com/tsqdb/tsq"
)

// importOptions are the flags of tsq import.
type importOptions struct {
	format, timeField, seriesField, keyField, opField string
	skipBad                                           bool
	rejects                                           string
	progress                                          func(bytes, rows int64)
}

// importStats is what an import reports.
type importStats struct {
	Rows, Bytes, Rejected int64
}

func importStream(ctx context.Context, s *tsq.Store, stream string, r io.Reader, o importOptions) (importStats, error) {
	return importStats{}, errUnavailable("import", "bounded-memory import")
}

func gcStore(ctx context.Context, s *tsq.Store) (string, error) {
	return "", errUnavailable("gc", "bounded-memory import")
}
