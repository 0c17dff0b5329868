package main

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq/export"
	_ "github.com/tsqdb/tsq/export/parquet" // registers Parquet
)

// exportFormat is an export's output format.
type exportFormat = export.Format

// binary reports whether f is not text (no terminal should get it).
func binaryFormat(f exportFormat) bool { return f != export.CSV && f != export.JSONL }

// exportFormatOf returns the format path's extension names.
func exportFormatOf(path string) (exportFormat, error) { return export.FormatFromPath(path) }

// parseExportFormat parses a --format name.
func parseExportFormat(name string) (exportFormat, error) { return export.ParseFormat(name) }

// exportFile writes rr to path in format f, atomically.
func exportFile(ctx context.Context, path string, f exportFormat, rr array.RecordReader, progress func(rows, bytes int64)) (rows, bytes int64, err error) {
	st, err := export.WriteFile(ctx, path, f, rr, &export.Options{Progress: progress})
	return st.Rows, st.Bytes, err
}

// exportTo streams rr to w in format f.
func exportTo(ctx context.Context, w io.Writer, f exportFormat, rr array.RecordReader) (rows int64, err error) {
	st, err := export.Write(ctx, w, f, rr, nil)
	return st.Rows, err
}

// exportPartitioned writes rr as Parquet partitioned by stream and UTC date
// under dir.
func exportPartitioned(ctx context.Context, dir, stream string, rr array.RecordReader, progress func(rows, bytes int64)) (rows, bytes int64, err error) {
	st, err := export.WritePartitioned(ctx, dir, stream, rr, &export.Options{Progress: progress})
	return st.Rows, st.Bytes, err
}
