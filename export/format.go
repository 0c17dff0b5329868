package export

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Format is an output file format. The zero value is not a format.
type Format int

const (
	ArrowFile   Format = iota + 1 // Arrow IPC file (.arrow)
	ArrowStream                   // Arrow IPC stream (.arrows)
	Parquet                       // Parquet, zstd (.parquet); needs export/parquet
	CSV                           // CSV with a header row (.csv)
	JSONL                         // JSON lines, one object per row (.jsonl, .ndjson)
)

var formatNames = map[Format]string{
	ArrowFile:   "arrow",
	ArrowStream: "arrows",
	Parquet:     "parquet",
	CSV:         "csv",
	JSONL:       "jsonl",
}

// String returns the format's short name, which ParseFormat accepts.
func (f Format) String() string {
	if s, ok := formatNames[f]; ok {
		return s
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat parses a format name: arrow, arrows (or arrow-stream), parquet,
// csv, jsonl (or ndjson, json).
func ParseFormat(name string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "arrow", "ipc", "feather":
		return ArrowFile, nil
	case "arrows", "arrow-stream", "ipc-stream":
		return ArrowStream, nil
	case "parquet":
		return Parquet, nil
	case "csv":
		return CSV, nil
	case "jsonl", "ndjson", "json":
		return JSONL, nil
	}
	return 0, fmt.Errorf("export: unknown format %q (want arrow, arrows, parquet, csv or jsonl)", name)
}

// FormatFromPath picks the format from a file name's extension:
// .arrow (file), .arrows (stream), .parquet, .csv, .jsonl or .ndjson.
func FormatFromPath(path string) (Format, error) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".arrow", ".feather", ".ipc":
		return ArrowFile, nil
	case ".arrows":
		return ArrowStream, nil
	case ".parquet":
		return Parquet, nil
	case ".csv":
		return CSV, nil
	case ".jsonl", ".ndjson":
		return JSONL, nil
	case "":
		return 0, fmt.Errorf("export: %q has no extension; use .arrow, .arrows, .parquet, .csv, .jsonl or .ndjson", path)
	}
	return 0, fmt.Errorf("export: unknown extension %q of %q; use .arrow, .arrows, .parquet, .csv, .jsonl or .ndjson", ext, path)
}

func (f Format) valid() bool { _, ok := formatNames[f]; return ok }
