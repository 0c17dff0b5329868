// Package query parses and runs tsq's SQL-like query language over a
// stream's blocks and returns the results as Arrow record batches.
//
// A query names one stream, raw (every record) or folded (the current
// state: the latest put of each (series, key) and the samples no drop
// removed), filters it, and either projects columns or aggregates into
// groups (time buckets, series, labels). docs/QUERY.md describes the
// language.
//
// The package does not read files itself: the store hands it a Source
// (segments with their block indexes and series bloom filters, a block
// reader and the soft-deleted seqs). The planner prunes segments and
// blocks by their seq and time ranges and by the bloom filters before
// reading, decodes only the columns the query uses, and scans blocks on
// every core. Raw results stream in seq order in batches of
// Options.BatchRows rows with a bounded number of blocks in flight.
//
// Run is safe for concurrent use; the RecordReader it returns is not.
//
//	rr, err := query.Run(ctx, src, "SELECT avg(value) FROM m GROUP BY time(5m), series", nil)
//	if err != nil { ... }
//	defer rr.Release()
//	for rr.Next() { use(rr.RecordBatch()) }
//	if err := rr.Err(); err != nil { ... }
package query
