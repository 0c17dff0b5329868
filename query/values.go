package query

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// FROM (VALUES (a, b), (c, d), ...) [AS name [(x, y)]]: rows written out,
// read as a subquery's result (a small lookup table to join, say). Its
// columns are named col0, col1, ... unless the alias names them; each
// takes the type of its values: integers, numbers (integers beside a
// number are numbers), text, bools or times (now() and the like, and
// text beside them or in a column named time); NULL goes with any.

// Values is the rows of a VALUES list and its columns' names.
type Values struct {
	Rows  [][]*Lit
	Names []string
	Pos   int
}

// maxValuesRows bounds the rows of a VALUES list.
const maxValuesRows = 100_000

// valuesList parses the rest of (VALUES ...) after VALUES (at pos).
func (p *parser) valuesList(pos int) *Values {
	v := &Values{Pos: pos}
	for {
		row, t := p.literalRow()
		if len(v.Rows) > 0 && len(row) != len(v.Rows[0]) {
			p.fail(t.pos, "VALUES: this row has %d values, the first %d", len(row), len(v.Rows[0]))
		}
		if len(v.Rows) == maxValuesRows {
			p.fail(t.pos, "VALUES: more than %d rows: import them into a stream", maxValuesRows)
		}
		v.Rows = append(v.Rows, row)
		if !p.acceptPunct(",") {
			break
		}
	}
	for i := range v.Rows[0] {
		v.Names = append(v.Names, fmt.Sprintf("col%d", i))
	}
	return v
}

// literalRow parses (literal, ...): a row of VALUES, and its "(".
func (p *parser) literalRow() ([]*Lit, token) {
	t := p.expectPunct("(")
	var row []*Lit
	for {
		row = append(row, p.literal())
		if !p.acceptPunct(",") {
			break
		}
	}
	p.expectPunct(")")
	return row, t
}

// columnNames parses (x, y, ...) after a VALUES list's alias: its
// columns' names.
func (p *parser) columnNames(v *Values) {
	t := p.peek()
	var names []string
	for {
		n := p.advance()
		if n.kind != tIdent && n.kind != tQuoted {
			p.fail(n.pos, "expected a column name, found %s", n.describe())
		}
		names = append(names, n.text)
		if !p.acceptPunct(",") {
			break
		}
	}
	p.expectPunct(")")
	if len(names) != len(v.Names) {
		p.fail(t.pos, "VALUES has %d columns and the alias names %d", len(v.Names), len(names))
	}
	v.Names = names
}

// valuesReader returns the rows of v as a result.
func valuesReader(v *Values, text string, now int64, mem memory.Allocator) (array.RecordReader, error) {
	fields := make([]arrow.Field, len(v.Names))
	for c, name := range v.Names {
		var kind LitKind = LitNull
		for _, row := range v.Rows {
			k := row[c].Kind
			if k == LitDuration {
				k = LitInt
			}
			switch {
			case k == LitNull || k == kind:
			case kind == LitNull:
				kind = k
			case k == LitInt && kind == LitFloat, k == LitFloat && kind == LitInt:
				kind = LitFloat
			case k == LitString && kind == LitTime && isTimeText(row[c].Str), k == LitTime && kind == LitString:
				kind = LitTime // now() - 1h beside '2024-01-01': times (checked below)
			default:
				return nil, errAt(text, row[c].Pos, "VALUES: column %s holds %s and %s; one type a column", name, litKindName(kind), litKindName(k))
			}
		}
		if name == ColTime && kind == LitString { // a row's time: text that is times
			kind = LitTime
		}
		fields[c] = arrow.Field{Name: name, Type: valuesType(kind), Nullable: true}
	}
	sc := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	for _, row := range v.Rows {
		for c, l := range row {
			fb := b.Field(c)
			switch fb := fb.(type) {
			case *array.Int64Builder:
				if l.Kind == LitNull {
					fb.AppendNull()
				} else {
					fb.Append(l.Int)
				}
			case *array.Float64Builder:
				switch l.Kind {
				case LitNull:
					fb.AppendNull()
				case LitInt:
					fb.Append(float64(l.Int))
				default:
					fb.Append(l.Float)
				}
			case *array.StringBuilder:
				if l.Kind == LitNull {
					fb.AppendNull()
				} else {
					fb.Append(l.Str)
				}
			case *array.BooleanBuilder:
				if l.Kind == LitNull {
					fb.AppendNull()
				} else {
					fb.Append(l.Bool)
				}
			case *array.TimestampBuilder:
				if l.Kind == LitNull {
					fb.AppendNull()
					break
				}
				t := l.shifted(now)
				if !l.Now {
					ns, ok := parseTime(l.Str)
					if !ok {
						return nil, errAt(text, l.Pos, "VALUES: %q is not a time, and its column holds times", l.Str)
					}
					t = l.shifted(ns)
				}
				fb.Append(arrow.Timestamp(t))
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	return array.NewRecordReader(sc, []arrow.RecordBatch{rec})
}

func isTimeText(s string) bool {
	_, ok := parseTime(s)
	return ok
}

// valuesType is the column type of values of kind k.
func valuesType(k LitKind) arrow.DataType {
	switch k {
	case LitFloat:
		return arrow.PrimitiveTypes.Float64
	case LitString:
		return arrow.BinaryTypes.String
	case LitBool:
		return arrow.FixedWidthTypes.Boolean
	case LitTime:
		return TimeType
	}
	return arrow.PrimitiveTypes.Int64
}
