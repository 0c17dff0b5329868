package export

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// The IPC file format allows one dictionary per field for the whole file
// (arrow-go's file writer rejects both replacement and deltas), while a
// query's batches each carry their own dictionary. Unifying them would hold
// every distinct value in memory, so the file writer instead stores
// dictionary<_, utf8> columns as plain utf8: memory stays one batch.
type arrowFileWriter struct {
	w      *ipc.FileWriter
	plain  *Plain
	schema *arrow.Schema
}

func newArrowFileWriter(w io.Writer, schema *arrow.Schema, _ *Options) (BatchWriter, error) {
	p, err := NewPlain(schema)
	if err != nil {
		return nil, err
	}
	fw, err := ipc.NewFileWriter(w, ipc.WithSchema(p.schema))
	if err != nil {
		return nil, fmt.Errorf("arrow file: %w", err)
	}
	return &arrowFileWriter{w: fw, plain: p, schema: p.schema}, nil
}

func (a *arrowFileWriter) Write(rec arrow.RecordBatch) error {
	out, err := a.plain.Record(rec)
	if err != nil {
		return err
	}
	defer out.Release()
	return a.w.Write(out)
}

func (a *arrowFileWriter) Close() error { return a.w.Close() }

// The IPC stream format allows a dictionary to change between batches: the
// writer emits a delta when the new dictionary extends the last one written
// and a replacement otherwise, so dictionary columns keep their type and
// memory stays one batch.
type arrowStreamWriter struct {
	w      *ipc.Writer
	schema *arrow.Schema
}

func newArrowStreamWriter(w io.Writer, schema *arrow.Schema, _ *Options) (BatchWriter, error) {
	if err := checkSchema(schema); err != nil {
		return nil, err
	}
	return &arrowStreamWriter{
		w:      ipc.NewWriter(w, ipc.WithSchema(schema), ipc.WithDictionaryDeltas(true)),
		schema: schema,
	}, nil
}

func (a *arrowStreamWriter) Write(rec arrow.RecordBatch) error {
	if !rec.Schema().Equal(a.schema) {
		return fmt.Errorf("batch schema %v differs from the reader's schema %v", rec.Schema(), a.schema)
	}
	return a.w.Write(rec)
}

func (a *arrowStreamWriter) Close() error { return a.w.Close() }

func checkSchema(s *arrow.Schema) error {
	if s.NumFields() == 0 {
		return fmt.Errorf("schema has no columns")
	}
	return nil
}
