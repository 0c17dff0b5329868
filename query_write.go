package tsq

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/tsqdb/tsq/ingest"
	"github.com/tsqdb/tsq/query"
)

// InsertedSchema is the schema of an INSERT statement's result: one row,
// the records appended and their first and last seqs.
var InsertedSchema = arrow.NewSchema([]arrow.Field{{Name: "inserted", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "first_seq", Type: arrow.PrimitiveTypes.Uint64}, {Name: "last_seq", Type: arrow.PrimitiveTypes.Uint64}}, nil)

// insert runs an INSERT statement: its rows become records appended as
// one Append (durable as appends are, per the store's Sync).
func (s *Store) insert(ctx context.Context, stmt *query.Statement, text string, o *query.Options) (array.RecordReader, error) {
	if s.o.ReadOnly {
		return nil, fmt.Errorf("tsq: stream %q: INSERT: %w", stmt.Stream, ErrReadOnly)
	}
	now := time.Now()
	if o != nil && !o.Now.IsZero() {
		now = o.Now
	}
	if stmt.Insert.Select != nil {
		return s.insertSelect(ctx, stmt, text, o, false)
	}
	rows, err := stmt.InsertRows(text, now)
	if err != nil {
		return nil, err
	}
	recs := make([]Record, len(rows))
	for i, r := range rows {
		rec := Record{Time: r.Time, Series: r.Series, Key: r.Key}
		switch r.Op {
		case "delete":
			rec.Op = OpDelete
		case "drop":
			rec.Op = OpDrop
		}
		for _, f := range r.Fields {
			var v Value
			switch x := f.Value.(type) {
			case int64:
				v = Int(x)
			case float64:
				v = Float(x)
			case string:
				v = Str(x)
			case bool:
				v = Bool(x)
			}
			rec.Fields = append(rec.Fields, Field{f.Name, v})
		}
		recs[i] = rec
	}
	seqs, err := s.Append(ctx, stmt.Stream, recs...)
	if err != nil {
		return nil, err
	}
	return oneRow(InsertedSchema, uint64(len(seqs)), seqs[0], seqs[len(seqs)-1]), nil
}

// insertSelect runs INSERT INTO stream SELECT ...: the result streams
// as Arrow IPC into an import of the stream, so it is staged on disk
// with bounded memory and commits atomically, as one journal record.
// The result's columns are taken by name: time (a timestamp) and series
// (text) are needed; key and op are used when present, seq is dropped,
// every other column becomes a field. With create, the import must
// create the stream (ImportOptions.Create).
func (s *Store) insertSelect(ctx context.Context, stmt *query.Statement, text string, o *query.Options, create bool) (array.RecordReader, error) {
	sel := stmt.Insert.Select
	what := "INSERT ... SELECT"
	if create {
		what = "CREATE TABLE ... AS SELECT"
	}
	rr, err := query.Exec(ctx, sel, text, s.opener, o)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	sc := rr.Schema()
	if query.IsExplain(sc) {
		return nil, fmt.Errorf("tsq: stream %q: %s of an EXPLAIN", stmt.Stream, what)
	}
	for _, need := range []struct {
		name string
		ok   func(arrow.DataType) bool
	}{
		{"time", func(t arrow.DataType) bool { return t.ID() == arrow.TIMESTAMP }},
		{"series", func(t arrow.DataType) bool {
			if d, ok := t.(*arrow.DictionaryType); ok {
				t = d.ValueType
			}
			return t.ID() == arrow.STRING
		}},
	} {
		if i := sc.FieldIndices(need.name); len(i) != 1 || !need.ok(sc.Field(i[0]).Type) {
			return nil, fmt.Errorf("tsq: stream %q: %s needs a %s column in the result (select it, or GROUP BY it); the result has: %s",
				stmt.Stream, what, need.name, strings.Join(fieldNames(sc), ", "))
		}
	}
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		w := ipc.NewWriter(pw, ipc.WithSchema(sc))
		var err error
		for err == nil && rr.Next() {
			err = w.Write(rr.RecordBatch())
		}
		err = errors.Join(err, rr.Err(), w.Close())
		pw.CloseWithError(err)
	}()
	st, err := s.Import(ctx, stmt.Stream, pr, &ImportOptions{Format: ingest.Arrow, Source: what, Create: create})
	pr.CloseWithError(errors.New("import ended")) // stops the writer if the import failed early
	<-done                                        // before rr is released
	if err != nil {
		return nil, err
	}
	return oneRow(InsertedSchema, uint64(st.Rows), st.FirstSeq, st.LastSeq), nil
}

func fieldNames(sc *arrow.Schema) []string {
	names := make([]string, sc.NumFields())
	for i, f := range sc.Fields() {
		names[i] = f.Name
	}
	return names
}

// oneRow is a result of one row of uint64 columns.
func oneRow(schema *arrow.Schema, vals ...uint64) array.RecordReader {
	cols := make([]arrow.Array, len(vals))
	for i, v := range vals {
		b := array.NewUint64Builder(memory.DefaultAllocator)
		b.Append(v)
		cols[i] = b.NewArray()
		b.Release()
	}
	rec := array.NewRecordBatch(schema, cols, 1)
	for _, c := range cols {
		c.Release()
	}
	defer rec.Release()
	rr, _ := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	return rr
}

// DeletedSchema is the schema of a DELETE statement's result: one row,
// the rows it soft-deleted.
var DeletedSchema = arrow.NewSchema([]arrow.Field{{Name: "deleted", Type: arrow.PrimitiveTypes.Uint64}}, nil)

// deleteMatching runs a DELETE statement: it selects the seqs of the put
// rows that match (in a compressed bitmap: a delete of billions of rows
// holds little), then soft-deletes those still stored.
func (s *Store) deleteMatching(ctx context.Context, stmt *query.Statement, text string, o *query.Options) (array.RecordReader, error) {
	if s.o.ReadOnly {
		return nil, fmt.Errorf("tsq: stream %q: DELETE: %w", stmt.Stream, ErrReadOnly)
	}
	rr, err := query.Matching(ctx, stmt, text, s.opener, o)
	if err != nil {
		return nil, err
	}
	st, err := s.stream(stmt.Stream, false)
	if err != nil {
		rr.Release()
		return nil, err
	}
	add := roaring64.New()
	for rr.Next() {
		add.AddMany(rr.RecordBatch().Column(0).(*array.Uint64).Uint64Values())
	}
	err = rr.Err()
	rr.Release()
	if err != nil {
		return nil, err
	}
	n, err := st.softDelete(ctx, add, false)
	if err != nil {
		return nil, err
	}
	return oneRow(DeletedSchema, n), nil
}
