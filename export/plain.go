package export

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Plain rewrites top-level dictionary<_, utf8|large_utf8> columns as plain
// utf8 columns, for outputs that cannot change a dictionary between batches.
// Other columns pass through untouched (no copy).
type Plain struct {
	schema *arrow.Schema // output schema
	dict   []bool        // column i is rewritten
	any    bool
}

// PlainSchema returns schema with string dictionary columns as plain utf8,
// as written to Arrow IPC files and Parquet.
func PlainSchema(schema *arrow.Schema) (*arrow.Schema, error) {
	p, err := NewPlain(schema)
	if err != nil {
		return nil, err
	}
	return p.schema, nil
}

// Schema is the output schema.
func (p *Plain) Schema() *arrow.Schema { return p.schema }

// NewPlain returns the rewriter of batches of schema.
func NewPlain(schema *arrow.Schema) (*Plain, error) {
	if err := checkSchema(schema); err != nil {
		return nil, err
	}
	p := &Plain{dict: make([]bool, schema.NumFields())}
	fields := make([]arrow.Field, schema.NumFields())
	for i, f := range schema.Fields() {
		fields[i] = f
		dt, ok := f.Type.(*arrow.DictionaryType)
		if !ok {
			continue
		}
		switch dt.ValueType.ID() {
		case arrow.STRING, arrow.LARGE_STRING:
		default:
			return nil, fmt.Errorf("column %q: dictionary of %v is not supported (only string dictionaries)", f.Name, dt.ValueType)
		}
		fields[i].Type = arrow.BinaryTypes.String
		p.dict[i], p.any = true, true
	}
	md := schema.Metadata()
	p.schema = arrow.NewSchema(fields, &md)
	return p, nil
}

// Record returns rec with dictionary columns made plain; the caller releases it.
func (p *Plain) Record(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	if int(rec.NumCols()) != len(p.dict) {
		return nil, fmt.Errorf("batch has %d columns, schema has %d", rec.NumCols(), len(p.dict))
	}
	if !p.any {
		rec.Retain()
		return rec, nil
	}
	cols := make([]arrow.Array, rec.NumCols())
	var owned []arrow.Array
	defer func() {
		for _, c := range owned {
			c.Release()
		}
	}()
	for i := range cols {
		c := rec.Column(i)
		if !p.dict[i] || c.DataType().ID() == arrow.STRING { // already plain
			cols[i] = c
			continue
		}
		d, ok := c.(*array.Dictionary)
		if !ok {
			return nil, fmt.Errorf("column %q: want a dictionary or utf8 array, got %v", rec.ColumnName(i), c.DataType())
		}
		out, err := plainStrings(d)
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", rec.ColumnName(i), err)
		}
		owned = append(owned, out)
		cols[i] = out
	}
	return array.NewRecordBatch(p.schema, cols, rec.NumRows()), nil
}

type stringValues interface {
	arrow.Array
	Value(int) string
	ValueLen(int) int
}

// plainStrings decodes a string dictionary array into a utf8 array.
func plainStrings(d *array.Dictionary) (arrow.Array, error) {
	vals, ok := d.Dictionary().(stringValues)
	if !ok {
		return nil, fmt.Errorf("dictionary values are %v, not strings", d.Dictionary().DataType())
	}
	n := d.Len()
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	size := 0
	for i := 0; i < n; i++ {
		if d.IsNull(i) {
			continue
		}
		j := d.GetValueIndex(i)
		if j < 0 || j >= vals.Len() {
			return nil, fmt.Errorf("row %d: dictionary index %d out of range [0,%d)", i, j, vals.Len())
		}
		size += vals.ValueLen(j)
	}
	b.Reserve(n)
	b.ReserveData(size)
	for i := 0; i < n; i++ {
		if d.IsNull(i) {
			b.AppendNull()
			continue
		}
		j := d.GetValueIndex(i)
		if vals.IsNull(j) {
			b.AppendNull()
			continue
		}
		b.Append(vals.Value(j))
	}
	return b.NewArray(), nil
}
