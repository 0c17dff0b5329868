package main

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// checkExportPath checks that path names a format export can write.
func checkExportPath(path string) error {
	return errUnavailable("export", "Arrow/Parquet export")
}

// exportFile writes rr to path, its format from the extension, atomically.
func exportFile(ctx context.Context, path string, rr array.RecordReader, progress func(rows, bytes int64)) (rows, bytes int64, err error) {
	return 0, 0, errUnavailable("export", "Arrow/Parquet export")
}
