package query

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq/chunk"
)

// colKind is the type of an output column.
type colKind uint8

const (
	kSeq      colKind = iota // uint64
	kTime                    // timestamp[ns, UTC]
	kSeries                  // dictionary<int32, utf8>
	kKey                     // utf8
	kOp                      // dictionary<int8, utf8>
	kInt                     // int64
	kFloat                   // float64
	kString                  // utf8
	kBool                    // bool
	kBytes                   // binary
	kDuration                // duration[ns]: a span of time (time - time)
)

func (k colKind) String() string {
	return [...]string{"seq", "time", "series", "string", "op", "int64", "float64", "string", "bool", "bytes", "duration"}[k]
}

// numeric reports whether values of k are numbers fields can be
// aggregated as.
func (k colKind) numeric() bool { return k == kInt || k == kFloat }

func kindOfField(t chunk.Type) colKind {
	switch t {
	case chunk.Int64:
		return kInt
	case chunk.Float64:
		return kFloat
	case chunk.String:
		return kString
	case chunk.Bool:
		return kBool
	}
	return kBytes
}

// kindOfCol returns the kind of a raw-view column.
func kindOfCol(name string, fs *fieldSet) (colKind, bool) {
	switch name {
	case ColSeq:
		return kSeq, true
	case ColTime:
		return kTime, true
	case ColSeries:
		return kSeries, true
	case ColKey:
		return kKey, true
	case ColOp:
		return kOp, true
	}
	t, ok := fs.lookup(name)
	return kindOfField(t), ok
}

// outCol is one column of a result.
type outCol struct {
	name     string
	kind     colKind
	nullable bool
	src      string     // raw view: the stored column it reads
	hidden   bool       // read for ORDER BY only, not output
	having   bool       // hidden: an aggregate HAVING names, not output
	expr     *arithPlan // computed from the row (SELECT arithmetic); src ""
	win      *winPlan   // a window function, computed over the rows (window.go)
	// post is arithmetic on window functions (value - lag(value)),
	// computed from the row's other columns after them; its leaves
	// read row[leaf.idx].
	post *arithPlan
}

func rawColumns(fs *fieldSet) []outCol {
	if fs.star != nil {
		return starColumns(fs)
	}
	return viewColumns(fs)
}

// starColumns are the columns SELECT * gives of a held result: its own.
func starColumns(fs *fieldSet) []outCol {
	var cols []outCol
	for _, n := range fs.star {
		if isBase(n) { // a subquery's own time, series, ...
			k, _ := kindOfCol(n, fs)
			cols = append(cols, outCol{name: n, kind: k, src: n})
			continue
		}
		t, _ := fs.lookup(n)
		cols = append(cols, outCol{name: n, kind: kindOfField(t), nullable: true, src: n})
	}
	return cols
}

// viewColumns are the columns of the raw view: seq, time, series, key,
// op and the fields.
func viewColumns(fs *fieldSet) []outCol {
	cols := []outCol{{name: ColSeq, kind: kSeq, src: ColSeq}, {name: ColTime, kind: kTime, src: ColTime},
		{name: ColSeries, kind: kSeries, src: ColSeries}, {name: ColKey, kind: kKey, src: ColKey}, {name: ColOp, kind: kOp, src: ColOp}}
	for _, f := range fs.list {
		cols = append(cols, outCol{name: f.Name, kind: kindOfField(f.Type), nullable: true, src: f.Name})
	}
	return cols
}

func arrowOf(k colKind) arrow.DataType {
	switch k {
	case kSeq:
		return arrow.PrimitiveTypes.Uint64
	case kTime:
		return TimeType
	case kSeries:
		return SeriesType
	case kKey, kString:
		return arrow.BinaryTypes.String
	case kOp:
		return OpType
	case kInt:
		return arrow.PrimitiveTypes.Int64
	case kFloat:
		return arrow.PrimitiveTypes.Float64
	case kBool:
		return arrow.FixedWidthTypes.Boolean
	case kDuration:
		return DurationType
	}
	return arrow.BinaryTypes.Binary
}

func schemaOf(cols []outCol) *arrow.Schema {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.name, Type: arrowOf(c.kind), Nullable: c.nullable}
	}
	return arrow.NewSchema(fields, nil)
}

// value is one cell of a materialized row (aggregates, sorted results,
// windows, joins): 32 bytes. i holds seq, time, op and int64, a float64's
// bits (fl, fv) and a bool as 0 or 1 (bl, bv); s holds strings and
// bytes.
type value struct {
	null bool
	i    int64
	s    string
}

// fv is the value of float f.
func fv(f float64) value { return value{i: int64(math.Float64bits(f))} }

// bv is the value of bool b.
func bv(b bool) value { return value{i: b2i64(b)} }

// fl returns the float v holds.
func (v value) fl() float64 { return math.Float64frombits(uint64(v.i)) }

// bl returns the bool v holds.
func (v value) bl() bool { return v.i != 0 }

func b2i64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

var nullValue = value{null: true}

// opNames are the op dictionary's strings by stored op code.
var opNames = [...]string{"", "put", "delete", "drop"}

func opName(code int64) string {
	if code > 0 && code < int64(len(opNames)) {
		return opNames[code]
	}
	return fmt.Sprintf("op(%d)", code)
}

// opOrder is where op code c sorts: by its name (delete, drop, put), as
// min(op) and a reader of the exported dictionary order them.
func opOrder(c int64) int64 {
	switch c {
	case 1: // put
		return 3
	case 2: // delete
		return 1
	case 3: // drop
		return 2
	}
	return 4 + c
}

// appendValue appends v to the builder of a column of kind k.
func appendValue(b array.Builder, k colKind, v value) {
	if v.null {
		b.AppendNull()
		return
	}
	switch k {
	case kSeq:
		b.(*array.Uint64Builder).Append(uint64(v.i))
	case kTime:
		b.(*array.TimestampBuilder).Append(arrow.Timestamp(v.i))
	case kDuration:
		b.(*array.DurationBuilder).Append(arrow.Duration(v.i))
	case kSeries:
		_ = b.(*array.BinaryDictionaryBuilder).AppendString(validUTF8String(v.s))
	case kOp:
		_ = b.(*array.BinaryDictionaryBuilder).AppendString(opName(v.i))
	case kKey, kString:
		b.(*array.StringBuilder).Append(validUTF8String(v.s))
	case kInt:
		b.(*array.Int64Builder).Append(v.i)
	case kFloat:
		b.(*array.Float64Builder).Append(v.fl())
	case kBool:
		b.(*array.BooleanBuilder).Append(v.bl())
	case kBytes:
		b.(*array.BinaryBuilder).Append([]byte(v.s))
	}
}

// compareValues orders two values of kind k; null sorts after
// everything.
func compareValues(k colKind, a, b value) int { return compareValuePtrs(k, &a, &b) }

// compareValuePtrs is compareValues without copying the values.
func compareValuePtrs(k colKind, a, b *value) int {
	switch {
	case a.null && b.null:
		return 0
	case a.null:
		return 1
	case b.null:
		return -1
	}
	switch k {
	case kSeq:
		return cmp3(uint64(a.i), uint64(b.i))
	case kTime, kInt, kDuration:
		return cmp3(a.i, b.i)
	case kOp:
		return cmp3(opOrder(a.i), opOrder(b.i))
	case kFloat:
		return cmpFloat(a.fl(), b.fl())
	case kBool:
		return cmp3(a.i, b.i)
	}
	return cmp3(a.s, b.s)
}

func cmp3[T int64 | uint64 | string | int](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpFloat orders floats with NaN after every number.
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case a == b:
		return 0
	case a != a && b != b:
		return 0
	case a != a:
		return 1
	}
	return -1
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
