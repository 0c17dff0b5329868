package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq/internal/termplot"
)

// maxPlotPoints bounds the points a plot collects; a longer result should
// be aggregated with GROUP BY time(...).
const maxPlotPoints = 2_000_000

// plot runs stmt and draws its result.
func (s *session) plot(ctx context.Context, stmt string) error {
	s.last = stmt
	rr, err := runQuery(ctx, s.e, s.st, stmt)
	if err != nil {
		return err
	}
	defer rr.Release()
	return drawPlot(s.out, withContext(ctx, rr), termplot.Options{Color: s.color && s.outFile == nil, Zone: s.zone}, s.width())
}

// drawPlot draws rr as a line chart sized to a terminal of width columns
// (0: a default).
func drawPlot(w io.Writer, rr array.RecordReader, o termplot.Options, width int) error {
	series, err := plotSeries(rr)
	if err != nil {
		return err
	}
	if width > 30 {
		o.Width = min(width-14, 120)
	}
	return termplot.Line(w, series, o)
}

// plotSeries picks a result's columns for a chart: x is the first
// timestamp column; each numeric column other than seq is a value; a
// "series" column (or else the first text column other than key and op)
// splits the values into one line per distinct name.
func plotSeries(rr array.RecordReader) ([]termplot.Series, error) {
	sc := rr.Schema()
	tcol, gcol := -1, -1
	var vcols []int
	for i, f := range sc.Fields() {
		switch {
		case f.Type.ID() == arrow.TIMESTAMP && tcol < 0:
			tcol = i
		case isNumeric(f.Type) && f.Name != "seq":
			vcols = append(vcols, i)
		case f.Name == "series":
			gcol = i
		case isText(f.Type) && gcol < 0 && f.Name != "key" && f.Name != "op":
			gcol = i
		}
	}
	if tcol < 0 {
		return nil, errors.New("plot: the result has no time column (select time, or GROUP BY time(...))")
	}
	if len(vcols) == 0 {
		return nil, errors.New("plot: the result has no numeric column to draw")
	}
	index := map[string]int{}
	var out []termplot.Series
	points := 0
	for rr.Next() {
		rec := rr.RecordBatch()
		times := rec.Column(tcol).(*array.Timestamp)
		unit := sc.Field(tcol).Type.(*arrow.TimestampType).Unit
		for r := 0; r < int(rec.NumRows()); r++ {
			if times.IsNull(r) {
				continue
			}
			t := int64(times.Value(r))
			t *= unitNanos(unit)
			group := ""
			if gcol >= 0 {
				group = format1(rec.Column(gcol), r)
			}
			for _, vc := range vcols {
				v, ok := numberAt(rec.Column(vc), r)
				if !ok {
					continue
				}
				name := group
				if len(vcols) > 1 || name == "" {
					name = join(group, sc.Field(vc).Name)
				}
				if sc.Field(vc).Type.ID() == arrow.DURATION {
					name += " (s)"
				}
				i, ok := index[name]
				if !ok {
					i = len(out)
					index[name] = i
					out = append(out, termplot.Series{Name: name})
				}
				out[i].Times = append(out[i].Times, t)
				out[i].Values = append(out[i].Values, v)
				if points++; points > maxPlotPoints {
					return nil, fmt.Errorf("plot: more than %d points; aggregate first, e.g. GROUP BY time(1h)", maxPlotPoints)
				}
			}
		}
	}
	if err := rr.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("plot: the result has no rows with values")
	}
	return out, nil
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}

func unitNanos(u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Second:
		return 1e9
	case arrow.Millisecond:
		return 1e6
	case arrow.Microsecond:
		return 1e3
	}
	return 1
}

func isNumeric(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16,
		arrow.UINT32, arrow.UINT64, arrow.FLOAT32, arrow.FLOAT64, arrow.DURATION:
		return true
	}
	return false
}

func isText(dt arrow.DataType) bool {
	if d, ok := dt.(*arrow.DictionaryType); ok {
		dt = d.ValueType
	}
	return dt.ID() == arrow.STRING || dt.ID() == arrow.LARGE_STRING
}

// numberAt returns row r of a numeric column as a float64.
func numberAt(a arrow.Array, r int) (float64, bool) {
	if a.IsNull(r) {
		return 0, false
	}
	switch c := a.(type) {
	case *array.Duration: // a span, in seconds (the series says so)
		return float64(c.Value(r)) * float64(c.DataType().(*arrow.DurationType).Unit.Multiplier()) / 1e9, true
	case *array.Float64:
		return c.Value(r), true
	case *array.Float32:
		return float64(c.Value(r)), true
	case *array.Int64:
		return float64(c.Value(r)), true
	case *array.Int32:
		return float64(c.Value(r)), true
	case *array.Int16:
		return float64(c.Value(r)), true
	case *array.Int8:
		return float64(c.Value(r)), true
	case *array.Uint64:
		return float64(c.Value(r)), true
	case *array.Uint32:
		return float64(c.Value(r)), true
	case *array.Uint16:
		return float64(c.Value(r)), true
	case *array.Uint8:
		return float64(c.Value(r)), true
	}
	return 0, false
}

// format1 returns row r of a text column.
func format1(a arrow.Array, r int) string {
	if a.IsNull(r) {
		return "NULL"
	}
	switch c := a.(type) {
	case *array.Dictionary:
		return format1(c.Dictionary(), c.GetValueIndex(r))
	case *array.String:
		return c.Value(r)
	case *array.LargeString:
		return c.Value(r)
	}
	return a.ValueStr(r)
}
