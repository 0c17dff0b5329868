package query

import (
	"context"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq/internal/numtext"
)

// SUMMARIZE <stream> or SUMMARIZE SELECT ..., as DuckDB has it: a row
// for each column of the stream's raw view (or of the statement's
// result) with its type, how many values it has and the share of NULLs
// (a percentage, to 0.01),
// its least and greatest value (as text) and, for numbers, the mean and
// the standard deviation. One scan, whatever the columns.

// summarizeStmt parses the rest of SUMMARIZE (at pos).
func (p *parser) summarizeStmt(st *Statement, pos int) {
	st.writePos, st.Show = pos, ShowSummary
	if t := p.peek(); isKw(t, "select") || isKw(t, "with") {
		q := &Statement{Limit: -1}
		p.selectStmt(q)
		st.Sub = q
		return
	}
	if t := p.peek(); isKw(t, "pivot") || isKw(t, "unpivot") {
		q := &Statement{Limit: -1}
		p.pivotOrUnpivot(q)
		p.end()
		st.Sub = q
		return
	}
	if !p.fileSource(st, p.peek()) { // DESCRIBE 'x.csv', read_parquet('y.parquet'): a file's
		st.Stream, st.streamPos = p.streamName()
	}
	p.end()
}

// summaryFigures are the aggregates taken of a column of each kind.
func summaryFigures(t arrow.DataType) []string {
	switch t.ID() {
	case arrow.INT64, arrow.FLOAT64:
		return []string{"min", "max", "avg", "stddev"}
	case arrow.UINT64, arrow.TIMESTAMP, arrow.DURATION, arrow.STRING, arrow.DICTIONARY: // seq: no mean
		return []string{"min", "max"}
	case arrow.BOOL:
		return []string{"bool_and", "bool_or"}
	}
	return nil
}

// figuresOf is summaryFigures of field f (op's by its names: delete <
// drop < put).
func figuresOf(f arrow.Field) []string { return summaryFigures(f.Type) }

func summarize(ctx context.Context, st *Statement, text string, open Opener, o Options) (array.RecordReader, error) {
	src := st.Sub
	if src == nil {
		src = &Statement{Star: true, Stream: st.Stream, streamPos: st.streamPos, Limit: -1}
	}
	// The columns, then one aggregate statement over them all.
	e := *src
	e.Limit, e.Offset = 0, 0
	rr, err := exec(ctx, &e, text, open, &o)
	if err != nil {
		return nil, err
	}
	fields := rr.Schema().Fields()
	rr.Release()
	agg := &Statement{Sub: st.Sub, Stream: "(subquery)", streamPos: st.writePos, Limit: -1}
	if st.Sub == nil { // the stream itself, not a held copy of it
		agg.Sub, agg.Stream, agg.streamPos = nil, st.Stream, st.streamPos
	}
	agg.Items = append(agg.Items, SelectItem{Agg: &Call{Func: "count", Star: true, Pos: st.writePos}, Alias: "\x00rows"})
	type figure struct{ col, item int }
	var figs [][]figure // per column: count, then summaryFigures
	for c, f := range fields {
		col := &ColRef{Name: f.Name, Pos: st.writePos}
		fs := []figure{{c, len(agg.Items)}}
		agg.Items = append(agg.Items, SelectItem{Agg: &Call{Func: "count", Arg: col, Pos: st.writePos}, Alias: "\x00count " + f.Name})
		for _, fn := range figuresOf(f) {
			fs = append(fs, figure{c, len(agg.Items)})
			agg.Items = append(agg.Items, SelectItem{Agg: &Call{Func: fn, Arg: col, Pos: st.writePos}, Alias: "\x00" + fn + " " + f.Name})
		}
		figs = append(figs, fs)
	}
	rr, err = exec(ctx, agg, text, open, &o)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	var cells []arrow.Array
	for rr.Next() {
		if rec := rr.RecordBatch(); rec.NumRows() == 1 {
			cells = rec.Columns()
			for _, c := range cells {
				c.Retain()
				defer c.Release()
			}
		}
	}
	if err := rr.Err(); err != nil {
		return nil, err
	}
	var rows [][]value
	for c, f := range fields {
		row := []value{{s: f.Name}, {s: arrowTypeName(f.Type)}, nullValue, nullValue, nullValue, nullValue, nullValue, nullValue}
		if cells != nil {
			n, count := cells[0].(*array.Int64).Value(0), cells[figs[c][0].item].(*array.Int64).Value(0)
			row[2] = value{i: count}
			if n > 0 {
				row[3] = fv(math.Round(10000*float64(n-count)/float64(n)) / 100) // a percentage, to 0.01
			}
			for k := range figuresOf(f) {
				v := cells[figs[c][k+1].item]
				switch {
				case v.IsNull(0):
				case k < 2: // the least and the greatest, as text
					row[4+k] = value{s: cellText(v)}
				default:
					row[4+k] = cellValue(v, 0, kFloat)
				}
			}
		}
		rows = append(rows, row)
	}
	cols := []outCol{{name: "column", kind: kString}, {name: "type", kind: kString}, {name: "count", kind: kInt},
		{name: "null_percentage", kind: kFloat, nullable: true}, {name: "min", kind: kString, nullable: true}, {name: "max", kind: kString, nullable: true},
		{name: "avg", kind: kFloat, nullable: true}, {name: "std", kind: kFloat, nullable: true}}
	return newRowsReader(o, cols, rows), nil
}

// cellText is row 0 of a as text: numbers as the shell writes them
// (numtext), instants in RFC 3339 (UTC).
func cellText(a arrow.Array) string {
	switch c := a.(type) {
	case *array.Int64:
		return strconv.FormatInt(c.Value(0), 10)
	case *array.Uint64:
		return strconv.FormatUint(c.Value(0), 10)
	case *array.Float64:
		return string(numtext.AppendFloat(nil, c.Value(0), 64))
	case *array.Boolean:
		return strconv.FormatBool(c.Value(0))
	case *array.Timestamp:
		return time.Unix(0, int64(c.Value(0))).UTC().Format(time.RFC3339Nano)
	case *array.Duration:
		return durationText(int64(c.Value(0)))
	}
	if s, _, err := textAt(a, 0); err == nil {
		return s
	}
	return strings.TrimSpace(a.String())
}
