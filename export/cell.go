package export

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq/internal/numtext"
)

// A cell appends the text of row i of one column (not null) to dst and
// reports whether it is text (to be quoted in JSON, maybe in CSV) rather
// than a number or boolean.
type cell func(dst []byte, i int) ([]byte, bool)

// newCell returns the formatter of a column:
//   - timestamps: RFC 3339 with nanoseconds, always in UTC ("Z");
//   - floats: shortest text that parses back to the same value; NaN, +Inf
//     and -Inf as the text "NaN", "+Inf", "-Inf";
//   - binary: standard base64;
//   - dictionaries: the value the index points at;
//   - anything else: arrow-go's ValueStr.
func newCell(arr arrow.Array) (cell, error) {
	switch a := arr.(type) {
	case *array.Boolean:
		return func(dst []byte, i int) ([]byte, bool) { return strconv.AppendBool(dst, a.Value(i)), false }, nil
	case *array.Int8:
		return func(dst []byte, i int) ([]byte, bool) { return strconv.AppendInt(dst, int64(a.Value(i)), 10), false }, nil
	case *array.Int16:
		return func(dst []byte, i int) ([]byte, bool) { return strconv.AppendInt(dst, int64(a.Value(i)), 10), false }, nil
	case *array.Int32:
		return func(dst []byte, i int) ([]byte, bool) { return strconv.AppendInt(dst, int64(a.Value(i)), 10), false }, nil
	case *array.Int64:
		return func(dst []byte, i int) ([]byte, bool) { return strconv.AppendInt(dst, a.Value(i), 10), false }, nil
	case *array.Uint8:
		return func(dst []byte, i int) ([]byte, bool) { return strconv.AppendUint(dst, uint64(a.Value(i)), 10), false }, nil
	case *array.Uint16:
		return func(dst []byte, i int) ([]byte, bool) { return strconv.AppendUint(dst, uint64(a.Value(i)), 10), false }, nil
	case *array.Uint32:
		return func(dst []byte, i int) ([]byte, bool) { return strconv.AppendUint(dst, uint64(a.Value(i)), 10), false }, nil
	case *array.Uint64:
		return func(dst []byte, i int) ([]byte, bool) { return strconv.AppendUint(dst, a.Value(i), 10), false }, nil
	case *array.Float32:
		return func(dst []byte, i int) ([]byte, bool) { return appendFloat(dst, float64(a.Value(i)), 32) }, nil
	case *array.Float64:
		return func(dst []byte, i int) ([]byte, bool) { return appendFloat(dst, a.Value(i), 64) }, nil
	case *array.String:
		return func(dst []byte, i int) ([]byte, bool) { return append(dst, a.Value(i)...), true }, nil
	case *array.LargeString:
		return func(dst []byte, i int) ([]byte, bool) { return append(dst, a.Value(i)...), true }, nil
	case *array.StringView:
		return func(dst []byte, i int) ([]byte, bool) { return append(dst, a.Value(i)...), true }, nil
	case *array.Binary:
		return func(dst []byte, i int) ([]byte, bool) { return base64.StdEncoding.AppendEncode(dst, a.Value(i)), true }, nil
	case *array.LargeBinary:
		return func(dst []byte, i int) ([]byte, bool) { return base64.StdEncoding.AppendEncode(dst, a.Value(i)), true }, nil
	case *array.FixedSizeBinary:
		return func(dst []byte, i int) ([]byte, bool) { return base64.StdEncoding.AppendEncode(dst, a.Value(i)), true }, nil
	case *array.Duration:
		unit := a.DataType().(*arrow.DurationType).Unit
		return func(dst []byte, i int) ([]byte, bool) {
			return numtext.AppendDuration(dst, int64(a.Value(i))*int64(unit.Multiplier())), true
		}, nil
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		return func(dst []byte, i int) ([]byte, bool) {
			return a.Value(i).ToTime(unit).UTC().AppendFormat(dst, time.RFC3339Nano), true
		}, nil
	case *array.Date32:
		return func(dst []byte, i int) ([]byte, bool) {
			return a.Value(i).ToTime().UTC().AppendFormat(dst, time.DateOnly), true
		}, nil
	case *array.Date64:
		return func(dst []byte, i int) ([]byte, bool) {
			return a.Value(i).ToTime().UTC().AppendFormat(dst, time.DateOnly), true
		}, nil
	case *array.Dictionary:
		vals := a.Dictionary()
		inner, err := newCell(vals)
		if err != nil {
			return nil, err
		}
		return func(dst []byte, i int) ([]byte, bool) {
			j := a.GetValueIndex(i)
			if j < 0 || j >= vals.Len() {
				return append(dst, fmt.Sprintf("<bad dictionary index %d>", j)...), true
			}
			if vals.IsNull(j) {
				return dst, true
			}
			return inner(dst, j)
		}, nil
	}
	switch arr.DataType().ID() {
	case arrow.LIST, arrow.LARGE_LIST, arrow.STRUCT, arrow.MAP, arrow.FIXED_SIZE_LIST:
		return nil, fmt.Errorf("nested type %v is not supported in text output", arr.DataType())
	}
	return func(dst []byte, i int) ([]byte, bool) { return append(dst, arr.ValueStr(i)...), true }, nil
}

// appendFloat appends v (numtext's text) and reports whether it is NaN
// or an infinity, which JSON writes as a string.
func appendFloat(dst []byte, v float64, bits int) ([]byte, bool) {
	return numtext.AppendFloat(dst, v, bits), math.IsNaN(v) || math.IsInf(v, 0)
}

// rowCells returns the formatters of every column of rec.
func rowCells(rec arrow.RecordBatch) ([]cell, error) {
	cells := make([]cell, rec.NumCols())
	for i := range cells {
		c, err := newCell(rec.Column(i))
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", rec.ColumnName(i), err)
		}
		cells[i] = c
	}
	return cells, nil
}
