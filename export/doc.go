// Package export writes the Arrow record batches of a query result to files
// other tools read: Arrow IPC file and stream, CSV, JSON lines, and (with the
// blank import of github.com/tsqdb/tsq/export/parquet) Parquet, single-file or
// partitioned by stream and UTC date.
//
// Every writer streams: it holds one input batch (plus, for Parquet, one
// encoded row group) at a time, so memory is bounded whatever the result
// size. WriteFile and WritePartitioned are atomic per file: data goes to a
// temporary file in the destination directory which is fsynced and renamed
// into place only after the last batch; on any error or context cancellation
// nothing is left behind. docs/EXPORT.md describes type mapping and layout.
//
// The package depends on arrow-go only, never on the root tsq package.
package export
