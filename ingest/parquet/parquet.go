// Package parquet reads a Parquet file as the Arrow IPC stream that
// package ingest (and so tsq.Store.Import) reads: import a Parquet file
// by handing Import the reader NewStream returns.
//
// It is a separate package because pqarrow adds about a minute of cold
// build time and ~40 MB of binary that the core library should not pay
// for. Parquet needs its footer, at the end of the file, before any row:
// it is read from a file (an io.ReaderAt), never from a pipe.
//
// Columns keep the types the file's Arrow schema (stored by pqarrow
// writers: tsq, pyarrow, polars) or its Parquet logical types give;
// package ingest says what each becomes. Memory: one batch of rows at a
// time (NewStream's batchBytes), plus the pages being decoded.
package parquet

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/tsqdb/tsq/ingest"
)

// Magic starts (and ends) a Parquet file.
const Magic = "PAR1"

// Stream is a Parquet file's rows as an Arrow IPC stream.
type Stream struct {
	pr   *io.PipeReader
	done chan struct{}
	Rows int64 // the file's rows, from its footer
}

func (s *Stream) Read(p []byte) (int, error) { return s.pr.Read(p) }

// Close stops the conversion and waits for it to end.
func (s *Stream) Close() error {
	s.pr.CloseWithError(errors.New("parquet: stream closed"))
	<-s.done
	return nil
}

// NewStream opens the Parquet file r of size bytes and returns its rows
// as an Arrow IPC stream, converted on a goroutine as the stream is
// read, in record batches of about batchBytes (by the file's average
// row size and its columns; 1,024 to 65,536 rows). A corrupt file fails here (its
// footer) or as a read error of the stream (its pages).
func NewStream(ctx context.Context, r io.ReaderAt, size int64, batchBytes int) (s *Stream, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("parquet: corrupt file: %v", p)
		}
	}()
	if size < 12 {
		return nil, fmt.Errorf("parquet: a file of %d bytes is too short for a Parquet file", size)
	}
	props := parquet.NewReaderProperties(memory.DefaultAllocator)
	props.BufferedStreamEnabled = true // pages read in buffers, not whole column chunks
	props.BufferSize = 64 << 10        // per column: a wide file has hundreds
	fr, err := file.NewParquetReader(io.NewSectionReader(r, 0, size), file.WithReadProps(props))
	if err != nil {
		return nil, fmt.Errorf("parquet: %w", err)
	}
	md := fr.MetaData()
	if err := checkArrowSchema(md.KeyValueMetadata().FindValue("ARROW:schema")); err != nil {
		fr.Close()
		return nil, err
	}
	rows := md.NumRows
	var bytes int64
	for i := range fr.NumRowGroups() {
		bytes += fr.MetaData().RowGroup(i).TotalByteSize()
	}
	// A row costs its average size plus, in each column's reader,
	// offsets, validity and levels reserved for the batch, null or not
	// (a wide, sparse file is mostly that).
	rowBytes := 16 * int64(md.Schema.NumColumns())
	if rows > 0 {
		rowBytes += bytes / rows
	}
	batch := min(max(int64(batchBytes)/max(rowBytes, 1), 1024), 65536)
	ar, err := pqarrow.NewFileReader(fr, pqarrow.ArrowReadProperties{BatchSize: batch}, memory.DefaultAllocator)
	if err != nil {
		fr.Close()
		return nil, fmt.Errorf("parquet: %w", err)
	}
	rr, err := ar.GetRecordReader(ctx, nil, nil)
	if err != nil {
		fr.Close()
		return nil, fmt.Errorf("parquet: %w", err)
	}
	pr, pw := io.Pipe()
	s = &Stream{pr: pr, done: make(chan struct{}), Rows: rows}
	go func() {
		defer close(s.done)
		defer fr.Close()
		defer rr.Release()
		pw.CloseWithError(convert(rr, pw))
	}()
	return s, nil
}

// convert writes the batches of rr to w as an Arrow IPC stream.
func convert(rr pqarrow.RecordReader, w io.Writer) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("parquet: corrupt file: %v", p)
		}
	}()
	iw := ipc.NewWriter(w, ipc.WithSchema(rr.Schema()))
	for rr.Next() {
		if err := iw.Write(rr.RecordBatch()); err != nil {
			return err
		}
	}
	if err := rr.Err(); err != nil && err != io.EOF {
		return fmt.Errorf("parquet: %w", err)
	}
	return iw.Close()
}

// checkArrowSchema checks the Arrow schema a writer stored in the file's
// metadata (ARROW:schema: base64 of an IPC schema message), which the
// Arrow decoder trusts: a corrupt vector length there makes it allocate
// without bound. Undecodable base64 is left to pqarrow, which refuses it.
func checkArrowSchema(s *string) error {
	if s == nil {
		return nil
	}
	var raw []byte
	var err error
	if len(*s)%4 == 0 {
		raw, err = base64.StdEncoding.DecodeString(*s)
	}
	if len(raw) == 0 || err != nil {
		if raw, err = base64.RawStdEncoding.DecodeString(*s); err != nil {
			return nil
		}
	}
	if err := ingest.CheckArrowSchema(raw); err != nil {
		return fmt.Errorf("parquet: corrupt file: its ARROW:schema metadata: %w", err)
	}
	return nil
}
