// Package ingest parses JSON lines, JSON arrays, CSV, InfluxDB line
// protocol, Prometheus/OpenMetrics text and Arrow IPC straight into
// reusable column batches, ready to be encoded as chunk blocks.
//
// A Parser reads an io.Reader once, front to back, through a bounded
// buffer: memory does not grow with the input, only with the size of one
// line (bounded by Options.MaxLineBytes) and of one Batch (bounded by
// Options.BatchRows and Options.BatchBytes). Values are copied into the
// batch's byte arena; strings are spans of it, so filling a batch does
// not allocate per row once the batch's slices have grown.
//
// A Mapping says which input field is the record's time, series, key and
// op; every other field becomes a typed column (int64, float64, string,
// bool). Nested JSON objects are flattened to dotted names ("a.b.c"), or
// kept as JSON text with Mapping.Nested = NestedJSON; arrays are kept as
// JSON text. Names that collide with the record columns (seq, time,
// series, key, op) get a trailing underscore.
//
// A field's type is inferred from its values within one batch: integers
// give int64, a fractional number widens the column to float64, true
// and false (also True, TRUE, False, FALSE in CSV) give bool, text (or a
// mix of kinds) makes it a string column. A number is digits with
// an optional sign, point and exponent, or NaN, Inf, inf, Infinity (with
// a sign): "Nan" or "INF" stay text; one past float64's range is ±Inf.
// Numbers read before a column turns to text within a batch show with the
// fewest digits that read back as their value (1.50 as 1.5), without an
// exponent from 1e-4 to 1e21; Mapping.Types keeps a column text as given. The last type seen is
// kept for the next batch, but batches parsed on different goroutines
// infer independently, so a field can be int64 in one block and float64
// in another; Mapping.Types fixes a field's type.
//
// CSV (RFC 4180) takes its field separator from the header: a comma when
// the header has one, else a tab (TSV), else a semicolon (spreadsheets
// where the decimal separator is a comma, and where a number written so,
// 1,5 or 1.234,5, is read as that number); an empty header name becomes
// column<i> (i from 0) and a repeated one gets _1, _2... Input of any
// format may start with a UTF-8 byte order mark. Text is kept as the
// bytes given; a field name that is not UTF-8 gets U+FFFD for each run of
// invalid bytes.
//
// An Arrow IPC stream or file (Format Arrow, told by IsArrow) is read
// one record batch at a time, bounded by Options.MaxRecordBytes; its
// columns keep their Arrow types (see docs/OPERATIONS.md for each), and
// tsq's own exported schema maps itself to the record columns. Package
// ingest/parquet turns a Parquet file into such a stream.
//
// DetectCompression and Decompress read inputs compressed with gzip,
// zstd (with a bounded window) or bzip2, and name the inputs no parser
// reads (xz, zip, Parquet through a pipe, Feather 1, ORC, Avro);
// DetectUTF16 and
// NewUTF16Reader read UTF-16 text as UTF-8.
//
// Errors name the line, the byte offset of the line's start and a
// snippet of it (*Error). With Options.SkipBad, a bad row is written to
// Options.Rejects (its raw bytes and a newline) and counted instead.
package ingest
