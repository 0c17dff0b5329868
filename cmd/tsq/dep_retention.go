package main

import (
	"context"
	"time"

	tsq "github.com/tsqdb/tsq"
)

// retentionSpec is a stream's retention as the command line gives it.
type retentionSpec struct {
	MaxAge        time.Duration
	MaxCount      int64
	ProtectField  string
	ProtectValues []string
}

func setRetention(s *tsq.Store, stream string, r retentionSpec) error {
	return errUnavailable("retention", "retention")
}

func getRetention(s *tsq.Store, stream string) (retentionSpec, error) {
	return retentionSpec{}, errUnavailable("retention", "retention")
}

// applyRetention applies a stream's retention now and describes the result.
func applyRetention(ctx context.Context, s *tsq.Store, stream string) (string, error) {
	return "", errUnavailable("retention", "retention")
}
