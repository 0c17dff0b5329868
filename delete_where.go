package tsq

import (
	"context"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/tsqdb/tsq/query"
)

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
	b := array.NewUint64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.Append(n)
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(DeletedSchema, []arrow.Array{col}, 1)
	defer rec.Release()
	return array.NewRecordReader(DeletedSchema, []arrow.RecordBatch{rec})
}
