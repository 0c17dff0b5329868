// Package parquet adds Parquet output to package export. Import it for its
// side effect:
//
//	import _ "github.com/tsqdb/tsq/export/parquet"
//
// It is a separate package because pqarrow adds about a minute of cold build
// time and ~40 MB of binary that the core library should not pay for.
//
// Files are written with pqarrow: zstd compression, dictionary encoding,
// column statistics, Parquet format 2.6 (timestamp[ns] keeps nanoseconds),
// row groups of Options.RowGroupRows rows, and the Arrow schema stored in the
// file metadata. String dictionary columns (series, op) are written as plain
// strings, which Parquet dictionary-encodes per column chunk anyway; a
// duration[ns] column (a span of time) as int64 nanoseconds, Parquet having
// no duration type (the stored Arrow schema says int64 too, so that every
// reader gets the same column). A duration of another unit is refused.
package parquet

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/tsqdb/tsq/export"
)

func init() {
	export.Register(export.Parquet, NewWriter)
	export.RegisterPartitioned(WritePartitioned)
}

// Writer writes one Parquet file. Memory: one encoded row group plus one
// input batch.
type Writer struct {
	plain  *export.Plain
	spans  []int         // duration columns, written as int64
	schema *arrow.Schema // what pqarrow writes
	fw     *pqarrow.FileWriter
	rg     int64 // rows per row group
	rgRows int64 // rows in the open row group
}

// NewWriter returns a Parquet writer for batches of schema writing to w.
func NewWriter(w io.Writer, schema *arrow.Schema, o *export.Options) (export.BatchWriter, error) {
	return newWriter(w, schema, o)
}

func newWriter(w io.Writer, schema *arrow.Schema, o *export.Options) (*Writer, error) {
	p, err := export.NewPlain(schema)
	if err != nil {
		return nil, err
	}
	rg := int64(o.RowGroups())
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithMaxRowGroupLength(rg),
		parquet.WithDictionaryDefault(true),
		parquet.WithStats(true),
		parquet.WithVersion(parquet.V2_LATEST),
		parquet.WithCreatedBy("tsq"),
	)
	out := &Writer{plain: p, rg: rg, schema: p.Schema()}
	fields := p.Schema().Fields()
	for i, f := range fields {
		if dt, ok := f.Type.(*arrow.DurationType); ok {
			if dt.Unit != arrow.Nanosecond {
				return nil, fmt.Errorf("parquet: column %q: %v (durations are written as int64 nanoseconds)", f.Name, dt)
			}
			fields[i].Type = arrow.PrimitiveTypes.Int64
			out.spans = append(out.spans, i)
		}
	}
	if len(out.spans) > 0 {
		md := p.Schema().Metadata()
		out.schema = arrow.NewSchema(fields, &md)
	}
	fw, err := pqarrow.NewFileWriter(out.schema, w, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return nil, fmt.Errorf("parquet: %w", err)
	}
	out.fw = fw
	return out, nil
}

// Write appends rec, starting a new row group each RowGroupRows rows.
func (w *Writer) Write(rec arrow.RecordBatch) error {
	out, err := w.plain.Record(rec)
	if err != nil {
		return err
	}
	if len(w.spans) > 0 {
		spans := w.int64Spans(out)
		out.Release()
		out = spans
	}
	defer out.Release()
	n := out.NumRows()
	for off := int64(0); off < n; {
		if w.rgRows >= w.rg { // WriteBuffered opens the first one itself
			if err := w.fw.NewBufferedRowGroupChecked(); err != nil {
				return fmt.Errorf("parquet: %w", err)
			}
			w.rgRows = 0
		}
		k := min(n-off, w.rg-w.rgRows)
		part := out
		if off != 0 || k != n {
			part = out.NewSlice(off, off+k)
		}
		err := w.fw.WriteBuffered(part)
		if part != out {
			part.Release()
		}
		if err != nil {
			return fmt.Errorf("parquet: %w", err)
		}
		w.rgRows += k
		off += k
	}
	return nil
}

// int64Spans returns rec with its duration columns as int64 columns of the
// same buffers; the caller releases it.
func (w *Writer) int64Spans(rec arrow.RecordBatch) arrow.RecordBatch {
	cols := make([]arrow.Array, rec.NumCols())
	copy(cols, rec.Columns())
	var owned []arrow.Array
	for _, i := range w.spans {
		d := cols[i].Data()
		nd := array.NewData(arrow.PrimitiveTypes.Int64, d.Len(), d.Buffers(), nil, d.NullN(), d.Offset())
		cols[i] = array.MakeFromData(nd)
		nd.Release()
		owned = append(owned, cols[i])
	}
	out := array.NewRecordBatch(w.schema, cols, rec.NumRows())
	for _, c := range owned {
		c.Release()
	}
	return out
}

// Close flushes the last row group and writes the footer.
func (w *Writer) Close() error {
	if err := w.fw.Close(); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	return nil
}
