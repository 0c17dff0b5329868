package tsq

import (
	"context"
	"fmt"
	"time"
)

// DropReasonField is the field a series drop row carries its reason in
// (e.g. "sync", "deleted", "retired"): the row is kept forever, so the
// reason stays in the raw view beside it.
const DropReasonField = "reason"

// DropSeries appends a series tombstone: a drop row for series, at
// time now (UTC), with reason in its DropReasonField. Every put of the
// series with a lower seq leaves the folded view at once and is removed
// by compaction; samples and keyed puts alike. It returns the drop's
// seq. An empty reason is refused (ErrInvalidRecord): a drop says why.
// Appending a Record with Op OpDrop does the same without the check.
func (s *Store) DropSeries(ctx context.Context, stream, series, reason string) (uint64, error) {
	if reason == "" {
		return 0, fmt.Errorf("%w: drop of series %q in stream %q: empty reason", ErrInvalidRecord, series, stream)
	}
	seqs, err := s.Append(ctx, stream, Record{Time: time.Now().UnixNano(), Series: series, Op: OpDrop,
		Fields: []Field{{DropReasonField, Str(reason)}}})
	if err != nil {
		return 0, err
	}
	return seqs[0], nil
}
