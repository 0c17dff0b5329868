package main

import (
	"context"
	"fmt"

	tsq "github.com/tsqdb/tsq"
)

// compactStream runs one compaction pass and describes what it did.
func compactStream(ctx context.Context, s *tsq.Store, stream string) (string, error) {
	c, err := s.Compact(ctx, stream)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("watermark %d -> %d; %s examined, %d rewritten, %d clean, %d skipped; "+
		"rows dropped: %d deleted, %d updated, %d dropped series, %d soft-deleted; %s read, %s written in %s",
		c.Start, c.Watermark, countOf(c.SegmentsExamined, "segment"), c.SegmentsRewritten, c.SegmentsClean, c.SegmentsSkipped,
		c.RowsRecord, c.RowsUpdate, c.RowsSeries, c.RowsSoftDeleted,
		humanBytes(c.BytesRead), humanBytes(c.BytesWritten), c.Duration.Round(1e6)), nil
}
