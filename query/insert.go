package query

import (
	"slices"
	"strings"
	"time"
)

// Insert is INSERT INTO stream (columns) VALUES (...), (...): records to
// append, which Store.Query appends.
type Insert struct {
	Cols   []*ColRef
	Rows   [][]*Lit
	rowPos []int
	// Select: INSERT INTO stream SELECT ...: the result's rows, its
	// columns taken by name (time and series needed); nil with VALUES.
	Select *Statement
}

// InsertRow is a row of an INSERT with its values resolved.
type InsertRow struct {
	Time   int64
	Series string
	Key    string
	Op     string // put, delete or drop
	Fields []InsertField
}

// InsertField is a field of an InsertRow; NULLs are left out.
type InsertField struct {
	Name  string
	Value any // int64, float64, string or bool
}

// maxInsertRows bounds the rows of one INSERT.
const maxInsertRows = 100_000

// insertStmt parses the rest of INSERT INTO stream (cols) VALUES ...
func (p *parser) insertStmt(st *Statement, pos int) {
	st.Insert = &Insert{}
	st.writePos = pos
	p.expectKw("into")
	st.Stream, st.streamPos = p.streamName()
	if t := p.peek(); isKw(t, "select") || isKw(t, "with") {
		sel := &Statement{Limit: -1}
		p.selectStmt(sel)
		st.Insert.Select = sel
		return
	}
	if t := p.peek(); isKw(t, "values") {
		p.fail(t.pos, "INSERT needs its columns named before VALUES: INSERT INTO %s (time, series, value) VALUES (...)", st.Stream)
	}
	p.expectPunct("(")
	for {
		c := p.colRef()
		if slices.ContainsFunc(st.Insert.Cols, func(o *ColRef) bool { return o.Name == c.Name }) {
			p.fail(c.Pos, "column %q named twice", c.Name)
		}
		if c.Name == ColSeq {
			p.fail(c.Pos, "seq is assigned by the store; it cannot be inserted")
		}
		st.Insert.Cols = append(st.Insert.Cols, c)
		if !p.acceptPunct(",") {
			break
		}
	}
	p.expectPunct(")")
	if t := p.peek(); isKw(t, "select") {
		p.fail(t.pos, "INSERT ... SELECT takes the result's columns by name: leave out the column list (rename with AS)")
	}
	p.expectKw("values")
	for {
		row, t := p.literalRow()
		if len(row) != len(st.Insert.Cols) {
			p.fail(t.pos, "%d values for %d columns", len(row), len(st.Insert.Cols))
		}
		if len(st.Insert.Rows) == maxInsertRows {
			p.fail(t.pos, "more than %d rows in one INSERT: import a file instead", maxInsertRows)
		}
		st.Insert.Rows = append(st.Insert.Rows, row)
		st.Insert.rowPos = append(st.Insert.rowPos, t.pos)
		if !p.acceptPunct(",") {
			break
		}
	}
	p.acceptPunct(";")
	if t := p.peek(); t.kind != tEOF {
		p.fail(t.pos, "unexpected %s after the statement", t.describe())
	}
}

// InsertRows resolves the rows of an INSERT statement (text is its
// source, now the time of now() and of rows without a time column):
// times from nanoseconds, text or now() ± durations; a column holding
// integers and numbers takes them all as numbers. Errors are *Error at
// the offending value.
func (st *Statement) InsertRows(text string, now time.Time) ([]InsertRow, error) {
	ins := st.Insert
	if ins == nil || ins.Select != nil {
		return nil, errAt(text, 0, "not an INSERT ... VALUES statement")
	}
	p := &plan{src: text, now: now.UnixNano()}
	floats := make([]bool, len(ins.Cols)) // columns with a number: ints become numbers
	for _, row := range ins.Rows {
		for c, l := range row {
			floats[c] = floats[c] || l.Kind == LitFloat
		}
	}
	out := make([]InsertRow, len(ins.Rows))
	for i, row := range ins.Rows {
		r := &out[i]
		r.Time, r.Op = now.UnixNano(), "put"
		for c, l := range row {
			name := ins.Cols[c].Name
			var err error
			switch name {
			case ColTime:
				if l.Kind == LitNull {
					return nil, p.errAt(l.Pos, "time cannot be NULL (leave the column out for the time of the statement)")
				}
				r.Time, err = p.timeOf(l)
			case ColSeries, ColKey, ColOp:
				var s string
				switch l.Kind {
				case LitString:
					s = l.Str
				case LitNull:
				default:
					return nil, p.errAt(l.Pos, "%s takes a string, found %s", name, litKindName(l.Kind))
				}
				switch name {
				case ColSeries:
					r.Series = s
				case ColKey:
					r.Key = s
				default:
					if r.Op = strings.ToLower(s); r.Op != "put" && r.Op != "delete" && r.Op != "drop" {
						return nil, p.errAt(l.Pos, "op is 'put', 'delete' or 'drop', found %s", l.String())
					}
				}
			default:
				var v any
				switch l.Kind {
				case LitInt:
					v = l.Int
					if floats[c] {
						v = float64(l.Int)
					}
				case LitFloat:
					v = l.Float
				case LitString:
					v = l.Str
				case LitBool:
					v = l.Bool
				case LitNull:
					continue
				default:
					return nil, p.errAt(l.Pos, "field %q takes a number, a string, true, false or NULL, found %s", name, litKindName(l.Kind))
				}
				r.Fields = append(r.Fields, InsertField{Name: name, Value: v})
			}
			if err != nil {
				return nil, err
			}
		}
		if r.Series == "" {
			return nil, p.errAt(ins.rowPos[i], "every record needs a series: name the series column and give it a string")
		}
	}
	return out, nil
}
