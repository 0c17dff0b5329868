package tsq

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/tsqdb/tsq/query"
)

// createTable runs CREATE TABLE name AS SELECT ...: INSERT INTO name
// SELECT ... into a stream the statement creates, atomically (all the
// result's rows or, on failure, no stream). A stream of that name is
// ErrStreamExists, or with IF NOT EXISTS a result of 0 rows inserted.
func (s *Store) createTable(ctx context.Context, stmt *query.Statement, text string, o *query.Options) (array.RecordReader, error) {
	if s.o.ReadOnly {
		return nil, streamErr(stmt.Stream, fmt.Errorf("CREATE TABLE: %w", ErrReadOnly))
	}
	if err := ValidateStreamName(stmt.Stream); err != nil {
		return nil, nameErrAt(text, stmt.Create.Pos, err)
	}
	exists := func() error {
		return query.ErrorAt(text, stmt.Create.Pos, ErrStreamExists, "stream %q already exists (INSERT INTO %s SELECT ... appends to it; DROP TABLE %s removes it)",
			stmt.Stream, stmt.Stream, stmt.Stream)
	}
	if names, err := s.Streams(); err != nil {
		return nil, err
	} else if slices.Contains(names, stmt.Stream) {
		if stmt.Create.IfNotExists {
			return oneRow(InsertedSchema, 0, 0, 0), nil
		}
		return nil, exists()
	}
	ins := *stmt
	ins.Create, ins.Insert = nil, &query.Insert{Select: stmt.Create.Select}
	rr, err := s.insertSelect(ctx, &ins, text, o, true)
	if errors.Is(err, ErrStreamExists) { // made meanwhile
		if stmt.Create.IfNotExists {
			return oneRow(InsertedSchema, 0, 0, 0), nil
		}
		return nil, exists()
	}
	return rr, err
}

// DroppedSchema is the schema of a DROP TABLE statement's result: a row
// per stream removed, with the rows, segments and bytes it held.
var DroppedSchema = arrow.NewSchema([]arrow.Field{{Name: "stream", Type: arrow.BinaryTypes.String},
	{Name: "rows", Type: arrow.PrimitiveTypes.Uint64}, {Name: "segments", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "bytes", Type: arrow.PrimitiveTypes.Uint64}}, nil)

// dropTables runs DROP TABLE name, ...: every name is checked first (a
// stream not found is ErrStreamNotFound, unless IF EXISTS skips it), so
// that a misspelt name drops nothing; then each stream is dropped as
// DropStream does, in order, stopping at the first failure (whose error
// names the streams dropped before it).
func (s *Store) dropTables(ctx context.Context, stmt *query.Statement, text string) (array.RecordReader, error) {
	d := stmt.Drop
	if s.o.ReadOnly {
		return nil, fmt.Errorf("tsq: DROP TABLE %s: %w", strings.Join(d.Streams, ", "), ErrReadOnly)
	}
	names, err := s.Streams()
	if err != nil {
		return nil, err
	}
	var todo []string
	for i, n := range d.Streams {
		if err := ValidateStreamName(n); err != nil {
			return nil, nameErrAt(text, d.Pos[i], err)
		}
		switch {
		case slices.Contains(todo, n):
		case slices.Contains(names, n):
			todo = append(todo, n)
		case !d.IfExists:
			return nil, query.ErrorAt(text, d.Pos[i], ErrStreamNotFound, "stream %q not found: nothing was dropped (DROP TABLE IF EXISTS skips it; %s)", n, streamList(names))
		}
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, DroppedSchema)
	defer b.Release()
	var done []string
	for _, n := range todo {
		rows, err := s.Count(n)
		if err != nil && !errors.Is(err, ErrStreamNotFound) {
			return nil, err
		}
		ds, err := s.DropStream(ctx, n)
		if errors.Is(err, ErrStreamNotFound) && d.IfExists { // dropped meanwhile
			continue
		}
		if err != nil {
			if len(done) > 0 { // say what is gone already
				return nil, fmt.Errorf("tsq: DROP TABLE: dropped %s, then %s failed: %w", strings.Join(done, ", "), n, err)
			}
			return nil, err
		}
		done = append(done, n)
		b.Field(0).(*array.StringBuilder).Append(n)
		b.Field(1).(*array.Uint64Builder).Append(uint64(rows))
		b.Field(2).(*array.Uint64Builder).Append(uint64(ds.Segments))
		b.Field(3).(*array.Uint64Builder).Append(uint64(ds.Bytes))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	return array.NewRecordReader(DroppedSchema, []arrow.RecordBatch{rec})
}

// nameErrAt is err, a stream name's fault, as a query error at the
// name's position pos in text.
func nameErrAt(text string, pos int, err error) error {
	return query.ErrorAt(text, pos, err, "%s", strings.TrimPrefix(err.Error(), "tsq: "))
}
