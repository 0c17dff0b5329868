package main

import (
	"context"

	tsq "github.com/tsqdb/tsq"
)

// compactStream runs one compaction pass and describes what it did.
func compactStream(ctx context.Context, s *tsq.Store, stream string) (string, error) {
	return "", errUnavailable("compact", "compaction")
}
