package export

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// BatchWriter writes record batches of one schema to one output. Close
// finishes the output (footer, end-of-stream marker, flush); after an error
// the output is unusable and Close need not be called.
type BatchWriter interface {
	Write(rec arrow.RecordBatch) error
	Close() error
}

// WriterFunc creates a BatchWriter for one format writing to w.
type WriterFunc func(w io.Writer, schema *arrow.Schema, o *Options) (BatchWriter, error)

// PartitionedFunc implements WritePartitioned; export/parquet registers it.
type PartitionedFunc func(ctx context.Context, dir, stream string, rr array.RecordReader, o *Options) (Stats, error)

var (
	regMu       sync.RWMutex
	writers     = map[Format]WriterFunc{}
	partitioned PartitionedFunc
)

func init() {
	Register(ArrowFile, newArrowFileWriter)
	Register(ArrowStream, newArrowStreamWriter)
	Register(CSV, newCSVWriter)
	Register(JSONL, newJSONLWriter)
}

// Register installs the writer of a format, replacing any earlier one.
// export/parquet calls it from init for Parquet.
func Register(f Format, fn WriterFunc) {
	regMu.Lock()
	defer regMu.Unlock()
	writers[f] = fn
}

// RegisterPartitioned installs the implementation of WritePartitioned.
func RegisterPartitioned(fn PartitionedFunc) {
	regMu.Lock()
	defer regMu.Unlock()
	partitioned = fn
}

// ErrParquetNotLinked is returned for Parquet output when the program does
// not import github.com/tsqdb/tsq/export/parquet.
var ErrParquetNotLinked = errors.New(`export: Parquet support is not linked in; add import _ "github.com/tsqdb/tsq/export/parquet"`)

// NewWriter returns a BatchWriter of format f writing batches of schema to w.
func NewWriter(w io.Writer, f Format, schema *arrow.Schema, o *Options) (BatchWriter, error) {
	if !f.valid() {
		return nil, fmt.Errorf("export: invalid format %v", f)
	}
	if schema == nil {
		return nil, errors.New("export: nil schema")
	}
	regMu.RLock()
	fn := writers[f]
	regMu.RUnlock()
	if fn == nil {
		if f == Parquet {
			return nil, ErrParquetNotLinked
		}
		return nil, fmt.Errorf("export: no writer registered for %v", f)
	}
	return fn(w, schema, o)
}

// Write streams every batch of rr to w in format f and finishes the output.
// It does not release rr. On error the bytes already written to w are an
// incomplete output; use WriteFile for all-or-nothing files.
func Write(ctx context.Context, w io.Writer, f Format, rr array.RecordReader, o *Options) (Stats, error) {
	if rr == nil {
		return Stats{}, errors.New("export: nil record reader")
	}
	if w == nil {
		return Stats{}, errors.New("export: nil writer")
	}
	cw := &countingWriter{w: w}
	bw, err := NewWriter(cw, f, rr.Schema(), o)
	if err != nil {
		return Stats{}, err
	}
	st, err := copyBatches(ctx, bw, rr, o, func() int64 { return cw.n })
	if err != nil {
		return st, fmt.Errorf("export %v: %w", f, err)
	}
	if err := bw.Close(); err != nil {
		return st, fmt.Errorf("export %v: finishing output after %d rows: %w", f, st.Rows, err)
	}
	st.Bytes, st.Files = cw.n, 1
	o.progress(st.Rows, st.Bytes)
	return st, nil
}

// copyBatches writes the batches of rr to bw, checking ctx before each.
func copyBatches(ctx context.Context, bw BatchWriter, rr array.RecordReader, o *Options, bytes func() int64) (Stats, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	var st Stats
	for {
		if err := ctx.Err(); err != nil {
			return st, fmt.Errorf("cancelled after %d rows: %w", st.Rows, err)
		}
		if !rr.Next() {
			break
		}
		rec := rr.RecordBatch()
		if rec == nil {
			continue
		}
		if err := bw.Write(rec); err != nil {
			return st, fmt.Errorf("writing batch at row %d: %w", st.Rows, err)
		}
		st.Rows += rec.NumRows()
		st.Bytes = bytes()
		o.progress(st.Rows, st.Bytes)
	}
	if err := rr.Err(); err != nil {
		return st, fmt.Errorf("reading input after %d rows: %w", st.Rows, err)
	}
	if err := ctx.Err(); err != nil {
		return st, fmt.Errorf("cancelled after %d rows: %w", st.Rows, err)
	}
	return st, nil
}

// WritePartitioned writes rr as Parquet files dir/stream=<stream>/date=<yyyy-mm-dd>/part-N.parquet,
// split by the UTC date of the "time" column. It needs the blank import of
// export/parquet; see that package for details.
func WritePartitioned(ctx context.Context, dir, stream string, rr array.RecordReader, o *Options) (Stats, error) {
	regMu.RLock()
	fn := partitioned
	regMu.RUnlock()
	if fn == nil {
		return Stats{}, ErrParquetNotLinked
	}
	return fn(ctx, dir, stream, rr, o)
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
