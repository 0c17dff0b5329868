package main

import (
	"context"
	"fmt"
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
	return s.SetRetention(stream, tsq.Retention{MaxAge: r.MaxAge, MaxCount: r.MaxCount,
		ProtectField: r.ProtectField, ProtectValues: r.ProtectValues})
}

func getRetention(s *tsq.Store, stream string) (retentionSpec, error) {
	r, err := s.Retention(stream)
	return retentionSpec{MaxAge: r.MaxAge, MaxCount: r.MaxCount, ProtectField: r.ProtectField,
		ProtectValues: r.ProtectValues}, err
}

// applyRetention applies a stream's retention now and describes the result.
func applyRetention(ctx context.Context, s *tsq.Store, stream string) (string, error) {
	st, err := s.ApplyRetention(ctx, stream)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("soft-deleted %d rows by age and %d by count; %d protected", st.ByAge, st.ByCount, st.Protected), nil
}
