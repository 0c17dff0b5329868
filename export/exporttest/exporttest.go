// Package exporttest builds record readers in the query result schema
// (seq, time, series, key, op, fields) for export tests, and turns batches
// read back by any reader into comparable rows.
package exporttest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Schema is the query result schema with one field of each field type.
func Schema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "seq", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "time", Type: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}},
		{Name: "series", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}},
		{Name: "key", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "op", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}},
		{Name: "value", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "count", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "host", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "blob", Type: arrow.BinaryTypes.Binary, Nullable: true},
	}, nil)
}

// Row is one generated row; nil pointers are nulls.
type Row struct {
	Seq    uint64
	Time   time.Time
	Series string
	Key    *string
	Op     string
	Value  *float64
	Count  *int64
	Host   *string
	OK     *bool
	Blob   []byte // nil is null
}

// Values returns the row as Normalize returns rows read back.
func (r Row) Values() []any {
	v := []any{r.Seq, r.Time.UnixNano(), r.Series, nil, r.Op, nil, nil, nil, nil, nil}
	if r.Key != nil {
		v[3] = *r.Key
	}
	if r.Value != nil {
		v[5] = *r.Value
	}
	if r.Count != nil {
		v[6] = *r.Count
	}
	if r.Host != nil {
		v[7] = *r.Host
	}
	if r.OK != nil {
		v[8] = *r.OK
	}
	if r.Blob != nil {
		v[9] = string(r.Blob)
	}
	return v
}

// Gen returns n rows with about 1 in 5 nulls in each nullable column,
// including edge values (empty strings, quotes, commas, newlines, unicode,
// NaN and ±Inf are left out: they have no equality). Times start at
// start and step by step; order is shuffled when shuffle is set.
func Gen(seed uint64, n int, start time.Time, step time.Duration, shuffle bool) []Row {
	rng := rand.New(rand.NewPCG(seed, 42))
	series := []string{"cpu{host=\"a\"}", "cpu{host=\"b\"}", "mem", "disk,io", "ünï/côdé"}
	hosts := []string{"", "a", "b \"quoted\"", "line\nbreak", " lead"}
	ops := []string{"put", "delete", "drop"}
	rows := make([]Row, n)
	for i := range rows {
		r := Row{Seq: uint64(i + 1), Time: start.Add(time.Duration(i) * step).UTC(),
			Series: series[rng.IntN(len(series))], Op: ops[rng.IntN(10)/8]}
		if rng.IntN(5) != 0 {
			k := fmt.Sprintf("k%d", rng.IntN(100))
			r.Key = &k
		}
		if rng.IntN(5) != 0 {
			v := rng.NormFloat64() * 1e3
			if i%97 == 0 {
				v = 0.1 + 0.2 // shortest text is 0.30000000000000004
			}
			r.Value = &v
		}
		if rng.IntN(5) != 0 {
			c := rng.Int64() - 1<<62
			r.Count = &c
		}
		if rng.IntN(5) != 0 {
			h := hosts[rng.IntN(len(hosts))]
			r.Host = &h
		}
		if rng.IntN(5) != 0 {
			b := rng.IntN(2) == 0
			r.OK = &b
		}
		if rng.IntN(5) != 0 {
			b := []byte{byte(i), 0, 0xff, byte(rng.IntN(256))}
			r.Blob = b
		}
		rows[i] = r
	}
	if shuffle {
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	}
	return rows
}

// Batches builds record batches of at most batch rows. Each batch has its
// own dictionaries, holding only its own values in first-seen order, so
// dictionaries differ between batches as they do in query results.
func Batches(rows []Row, batch int) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	for off := 0; off < len(rows); off += batch {
		out = append(out, build(rows[off:min(off+batch, len(rows))]))
	}
	return out
}

func build(rows []Row) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, Schema())
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.Uint64Builder).Append(r.Seq)
		b.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(r.Time.UnixNano()))
		if err := b.Field(2).(*array.BinaryDictionaryBuilder).AppendString(r.Series); err != nil {
			panic(err)
		}
		if r.Key != nil {
			b.Field(3).(*array.StringBuilder).Append(*r.Key)
		} else {
			b.Field(3).AppendNull()
		}
		if err := b.Field(4).(*array.BinaryDictionaryBuilder).AppendString(r.Op); err != nil {
			panic(err)
		}
		if r.Value != nil {
			b.Field(5).(*array.Float64Builder).Append(*r.Value)
		} else {
			b.Field(5).AppendNull()
		}
		if r.Count != nil {
			b.Field(6).(*array.Int64Builder).Append(*r.Count)
		} else {
			b.Field(6).AppendNull()
		}
		if r.Host != nil {
			b.Field(7).(*array.StringBuilder).Append(*r.Host)
		} else {
			b.Field(7).AppendNull()
		}
		if r.OK != nil {
			b.Field(8).(*array.BooleanBuilder).Append(*r.OK)
		} else {
			b.Field(8).AppendNull()
		}
		if r.Blob != nil {
			b.Field(9).(*array.BinaryBuilder).Append(r.Blob)
		} else {
			b.Field(9).AppendNull()
		}
	}
	return b.NewRecordBatch()
}

// Reader returns a reader over rows in batches of batch rows.
func Reader(rows []Row, batch int) array.RecordReader {
	recs := Batches(rows, batch)
	rr, err := array.NewRecordReader(Schema(), recs)
	if err != nil {
		panic(err)
	}
	for _, r := range recs {
		r.Release()
	}
	return rr
}

// ErrInjected is the error of FailAfter readers.
var ErrInjected = errors.New("exporttest: injected read failure")

// FailAfter wraps rr so that Next returns false with ErrInjected once k
// batches have been returned.
func FailAfter(rr array.RecordReader, k int) array.RecordReader {
	return &hookReader{RecordReader: rr, k: k, fail: true}
}

// CancelAfter wraps rr so that cancel is called after k batches.
func CancelAfter(rr array.RecordReader, k int, cancel context.CancelFunc) array.RecordReader {
	return &hookReader{RecordReader: rr, k: k, cancel: cancel}
}

type hookReader struct {
	array.RecordReader
	k, n   int
	fail   bool
	failed bool
	cancel context.CancelFunc
}

func (h *hookReader) Next() bool {
	if h.n == h.k {
		if h.fail {
			h.failed = true
			return false
		}
		if h.cancel != nil {
			h.cancel()
		}
	}
	h.n++
	return h.RecordReader.Next()
}

func (h *hookReader) Err() error {
	if h.failed {
		return ErrInjected
	}
	return h.RecordReader.Err()
}

// Normalize returns the rows of rec as Row.Values does: dictionary and
// plain strings as string, timestamps as int64 nanoseconds, binary as
// string, nulls as nil.
func Normalize(rec arrow.RecordBatch) ([][]any, error) {
	out := make([][]any, rec.NumRows())
	for i := range out {
		out[i] = make([]any, rec.NumCols())
	}
	for c, col := range rec.Columns() {
		for i := range out {
			v, err := value(col, i)
			if err != nil {
				return nil, fmt.Errorf("column %q row %d: %w", rec.ColumnName(c), i, err)
			}
			out[i][c] = v
		}
	}
	return out, nil
}

func value(col arrow.Array, i int) (any, error) {
	if col.IsNull(i) {
		return nil, nil
	}
	switch a := col.(type) {
	case *array.Uint64:
		return a.Value(i), nil
	case *array.Int64:
		return a.Value(i), nil
	case *array.Float64:
		return a.Value(i), nil
	case *array.Boolean:
		return a.Value(i), nil
	case *array.String:
		return a.Value(i), nil
	case *array.LargeString:
		return a.Value(i), nil
	case *array.Binary:
		return string(a.Value(i)), nil
	case *array.LargeBinary:
		return string(a.Value(i)), nil
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		return a.Value(i).ToTime(unit).UnixNano(), nil
	case *array.Dictionary:
		return value(a.Dictionary(), a.GetValueIndex(i))
	}
	return nil, fmt.Errorf("unexpected type %v", col.DataType())
}

// ReadAll drains rr into normalized rows.
func ReadAll(rr array.RecordReader) ([][]any, error) {
	var rows [][]any
	for rr.Next() {
		r, err := Normalize(rr.RecordBatch())
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return rows, rr.Err()
}
