package main

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq/export"
	_ "github.com/tsqdb/tsq/export/parquet" // registers Parquet
)

// checkExportPath checks that path names a format export can write.
func checkExportPath(path string) error {
	_, err := export.FormatFromPath(path)
	return err
}

// exportFile writes rr to path, its format from the extension, atomically.
func exportFile(ctx context.Context, path string, rr array.RecordReader, progress func(rows, bytes int64)) (rows, bytes int64, err error) {
	f, err := export.FormatFromPath(path)
	if err != nil {
		return 0, 0, err
	}
	st, err := export.WriteFile(ctx, path, f, rr, &export.Options{Progress: progress})
	return st.Rows, st.Bytes, err
}

// exportPartitioned writes rr as Parquet partitioned by stream and UTC date
// under dir.
func exportPartitioned(ctx context.Context, dir, stream string, rr array.RecordReader, progress func(rows, bytes int64)) (rows, bytes int64, err error) {
	st, err := export.WritePartitioned(ctx, dir, stream, rr, &export.Options{Progress: progress})
	return st.Rows, st.Bytes, err
}
