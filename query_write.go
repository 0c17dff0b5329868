package tsq

import (
	"context"
	"fmt"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
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
