package main

import (
	"context"
	"fmt"
	"io"
	"time"

	tsq "github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/ingest"
)

// importOptions are the flags of tsq import, already parsed.
type importOptions struct {
	format    ingest.Format
	mapping   ingest.Mapping
	skipBad   bool
	guessTime bool // take the time from a field named like one when no --time
	rejects   io.Writer
	budget    int64
	source    string
	size      int64
	progress  func(tsq.ImportProgress)
	noted     *notes // the notes printed, in a run of several files
}

// notes are the guesses an import run noted, each said once for the
// files of a run.
type notes struct {
	time   string // the time field
	fields string // the series, key and op fields
}

// importStats is what an import reports.
type importStats struct {
	Rows, Bytes, Rejected int64
	ReadBytes             int64
	Compression           ingest.Compression
	UTF16                 bool
	Format                ingest.Format
	TimeField             string
	RecordFields          []string // series, key and op, as guessed ("" none)
	MinTime, MaxTime      int64
	Segments              int
	FirstSeq, LastSeq     uint64
	PeakHeap              uint64
	Total                 time.Duration
}

func importStream(ctx context.Context, s *tsq.Store, stream string, r io.Reader, o importOptions) (importStats, error) {
	io := &tsq.ImportOptions{Format: o.format, Mapping: o.mapping, GuessTime: o.guessTime, GuessSeries: true, SkipBad: o.skipBad, Rejects: o.rejects,
		MemoryBudget: o.budget, Source: o.source, Size: o.size}
	if o.progress != nil {
		io.Progress = o.progress
	}
	st, err := s.Import(ctx, stream, r, io)
	return importStats{Rows: st.Rows, Bytes: st.Bytes, ReadBytes: st.ReadBytes, Compression: st.Compression, UTF16: st.UTF16, Format: st.Format, TimeField: st.TimeField, RecordFields: []string{st.SeriesField, st.KeyField, st.OpField}, MinTime: st.MinTime, MaxTime: st.MaxTime, Rejected: st.Rejected, Segments: st.Segments,
		FirstSeq: st.FirstSeq, LastSeq: st.LastSeq, PeakHeap: st.PeakHeap, Total: st.Total}, err
}

// gcStore cleans the import staging area and describes what it did.
func gcStore(ctx context.Context, s *tsq.Store) (string, error) {
	g, err := s.GC(ctx)
	if err != nil {
		return "", err
	}
	msg := fmtGC(g.Removed, g.RolledForward, g.Expired, g.Skipped)
	if g.RemovedStreams > 0 {
		msg += fmt.Sprintf("; %d streams of uncommitted imports removed", g.RemovedStreams)
	}
	return msg, nil
}
