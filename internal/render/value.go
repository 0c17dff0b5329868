// Package render prints Arrow record batches for people: go-pretty tables
// (column types under the header, numbers right-aligned, times in RFC 3339
// UTC, NULL set apart, long results truncated with a count), CSV, JSON and
// sqlite-style line mode. It reads the batches as they stream and holds at
// most MaxRows rows of a table; the other modes hold one row.
package render

import (
	"encoding/base64"
	"math"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq/internal/numtext"
)

// kind is how a column's values are laid out.
type kind uint8

const (
	kText kind = iota
	kNumber
	kTime
	kBool
)

// kindOf classifies an Arrow type; dictionaries take their value type's kind.
func kindOf(dt arrow.DataType) kind {
	if d, ok := dt.(*arrow.DictionaryType); ok {
		return kindOf(d.ValueType)
	}
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128, arrow.DECIMAL256:
		return kNumber
	case arrow.TIMESTAMP, arrow.DATE32, arrow.DATE64:
		return kTime
	case arrow.BOOL:
		return kBool
	}
	return kText
}

// TypeName is the short name of a column type shown under a table header.
func TypeName(dt arrow.DataType) string {
	switch t := dt.(type) {
	case *arrow.DictionaryType:
		return TypeName(t.ValueType)
	case *arrow.TimestampType:
		return "timestamp"
	}
	switch dt.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return "string"
	case arrow.BOOL:
		return "bool"
	}
	return dt.Name()
}

// cell is one formatted value.
type cell struct {
	text string
	null bool
	// raw is the value for JSON: a number, bool, string or nil.
	raw any
}

// format returns row i of a. Times are RFC 3339 UTC with the fraction
// needed, floats the shortest text that reads back to the same value,
// binary is base64.
func format(a arrow.Array, i int, loc *time.Location) cell {
	if a.IsNull(i) {
		return cell{text: "NULL", null: true}
	}
	switch c := a.(type) {
	case *array.Dictionary:
		return format(c.Dictionary(), c.GetValueIndex(i), loc)
	case *array.String:
		return str(c.Value(i))
	case *array.LargeString:
		return str(c.Value(i))
	case *array.Binary:
		s := base64.StdEncoding.EncodeToString(c.Value(i))
		return cell{text: s, raw: s}
	case *array.Boolean:
		return cell{text: strconv.FormatBool(c.Value(i)), raw: c.Value(i)}
	case *array.Int64:
		return cell{text: strconv.FormatInt(c.Value(i), 10), raw: c.Value(i)}
	case *array.Int32:
		return cell{text: strconv.FormatInt(int64(c.Value(i)), 10), raw: c.Value(i)}
	case *array.Int16:
		return cell{text: strconv.FormatInt(int64(c.Value(i)), 10), raw: c.Value(i)}
	case *array.Int8:
		return cell{text: strconv.FormatInt(int64(c.Value(i)), 10), raw: c.Value(i)}
	case *array.Uint64:
		return cell{text: strconv.FormatUint(c.Value(i), 10), raw: c.Value(i)}
	case *array.Uint32:
		return cell{text: strconv.FormatUint(uint64(c.Value(i)), 10), raw: c.Value(i)}
	case *array.Float64:
		return float(c.Value(i), 64)
	case *array.Float32:
		return float(float64(c.Value(i)), 32)
	case *array.Duration:
		s := string(numtext.AppendDuration(nil, int64(c.Value(i))*int64(c.DataType().(*arrow.DurationType).Unit.Multiplier())))
		return cell{text: s, raw: s}
	case *array.Timestamp:
		unit := c.DataType().(*arrow.TimestampType).Unit
		t := c.Value(i).ToTime(unit).In(loc)
		s := t.Format(time.RFC3339Nano)
		return cell{text: s, raw: s}
	}
	s := a.ValueStr(i)
	return cell{text: s, raw: s}
}

func str(s string) cell { return cell{text: s, raw: s} }

// float formats v, of bits bits (numtext: no exponent from 1e-4 up to
// 1e21); NaN and infinities are strings in JSON.
func float(v float64, bits int) cell {
	s := string(numtext.AppendFloat(nil, v, bits))
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return cell{text: s, raw: s}
	}
	return cell{text: s, raw: v}
}
