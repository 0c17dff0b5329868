package tsq

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/tsqdb/tsq/chunk"
)

// Op is what a record does. The numeric values are stored in the op
// column; do not change them.
type Op uint8

const (
	// OpPut with a key creates or updates (series, key); without a key it
	// is a sample. The zero Op given to Append means OpPut.
	OpPut Op = 1
	// OpDelete is a record tombstone for (series, key).
	OpDelete Op = 2
	// OpDrop is a series tombstone.
	OpDrop Op = 3
)

func (o Op) String() string {
	switch o {
	case OpPut:
		return "put"
	case OpDelete:
		return "delete"
	case OpDrop:
		return "drop"
	}
	return "Op(" + strconv.Itoa(int(o)) + ")"
}

// Record is one row of a stream.
type Record struct {
	Seq    uint64 // assigned by Append; ignored on input
	Time   int64  // ns since the Unix epoch, UTC
	Series string // required
	Key    string // may be empty
	Op     Op
	Fields []Field // at most one per name; a Null value is the same as no field
}

// Field is a named value of a record.
type Field struct {
	Name  string
	Value Value
}

// Field looks up a field by name.
func (r *Record) Field(name string) (Value, bool) {
	for _, f := range r.Fields {
		if f.Name == name {
			return f.Value, true
		}
	}
	return Value{}, false
}

// Kind is the type of a Value.
type Kind uint8

const (
	KindNull Kind = iota
	KindInt64
	KindFloat64
	KindString
	KindBool
	KindBytes
)

func (k Kind) String() string {
	switch k {
	case KindNull:
		return "null"
	case KindInt64:
		return "int64"
	case KindFloat64:
		return "float64"
	case KindString:
		return "string"
	case KindBool:
		return "bool"
	case KindBytes:
		return "bytes"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is a field value: int64, float64, string, bool, bytes or null.
// The zero Value is null.
type Value struct {
	kind Kind
	num  uint64 // int64, float64 bits, bool
	str  string
	b    []byte
}

// Int returns an int64 value.
func Int(v int64) Value { return Value{kind: KindInt64, num: uint64(v)} }

// Float returns a float64 value.
func Float(v float64) Value { return Value{kind: KindFloat64, num: math.Float64bits(v)} }

// Str returns a string value.
func Str(s string) Value { return Value{kind: KindString, str: s} }

// Bool returns a bool value.
func Bool(b bool) Value {
	v := Value{kind: KindBool}
	if b {
		v.num = 1
	}
	return v
}

// Bytes returns a bytes value; b is not copied.
func Bytes(b []byte) Value { return Value{kind: KindBytes, b: b} }

// Null returns the null value.
func Null() Value { return Value{} }

// Kind returns the value's type.
func (v Value) Kind() Kind { return v.kind }

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.kind == KindNull }

// Int returns an int64 value, 0 for other kinds.
func (v Value) Int() int64 {
	if v.kind != KindInt64 {
		return 0
	}
	return int64(v.num)
}

// Float returns a float64 value, 0 for other kinds.
func (v Value) Float() float64 {
	if v.kind != KindFloat64 {
		return 0
	}
	return math.Float64frombits(v.num)
}

// Str returns a string value, "" for other kinds.
func (v Value) Str() string { return v.str }

// Bool returns a bool value, false for other kinds.
func (v Value) Bool() bool { return v.kind == KindBool && v.num == 1 }

// Bytes returns a bytes value, nil for other kinds.
func (v Value) Bytes() []byte { return v.b }

// String formats v for display.
func (v Value) String() string {
	switch v.kind {
	case KindInt64:
		return strconv.FormatInt(v.Int(), 10)
	case KindFloat64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case KindString:
		return strconv.Quote(v.str)
	case KindBool:
		return strconv.FormatBool(v.Bool())
	case KindBytes:
		return fmt.Sprintf("%x", v.b)
	}
	return "null"
}

// size is the value's share of a record's encoded size limit.
func (v Value) size() int {
	switch v.kind {
	case KindString:
		return len(v.str)
	case KindBytes:
		return len(v.b)
	case KindNull:
		return 0
	}
	return 8
}

// chunkType maps a non-null kind to its column type.
func (k Kind) chunkType() chunk.Type {
	switch k {
	case KindInt64:
		return chunk.Int64
	case KindFloat64:
		return chunk.Float64
	case KindString:
		return chunk.String
	case KindBool:
		return chunk.Bool
	case KindBytes:
		return chunk.Bytes
	}
	return 0
}

// Record limits.
const (
	// MaxRecordBytes bounds a record's size: series, key, field names and
	// values, 8 bytes per fixed-size value and 16 for the record columns.
	MaxRecordBytes = 1 << 20
	// MaxFields bounds the fields of one record.
	MaxFields = 1024
	// MaxFieldNameLen bounds a field name in bytes (a column name).
	MaxFieldNameLen = chunk.MaxNameLen
)

// Names of the record columns of a block; fields may not use them.
const (
	colSeq    = "seq"
	colTime   = "time"
	colSeries = "series"
	colKey    = "key"
	colOp     = "op"
)

func reservedName(name string) bool {
	switch name {
	case colSeq, colTime, colSeries, colKey, colOp:
		return true
	}
	return false
}

// fieldType is one field of a batch's schema.
type fieldType struct {
	name string
	typ  chunk.Type
}

// validateRecords checks a batch and returns its schema: each non-null
// field name once, with its type, in order of first appearance.
func validateRecords(recs []Record) ([]fieldType, error) {
	var schema []fieldType
	var idx map[string]int // name -> schema index, once the schema grows
	for i := range recs {
		r := &recs[i]
		if err := validateRecord(r); err != nil {
			return nil, fmt.Errorf("record %d: %w", i, err)
		}
		for _, f := range r.Fields {
			if f.Value.kind == KindNull {
				continue
			}
			t := f.Value.kind.chunkType()
			j, ok := lookupSchema(schema, idx, f.Name)
			if !ok {
				schema = append(schema, fieldType{f.Name, t})
				if len(schema) > 8 {
					if idx == nil {
						idx = make(map[string]int, 2*len(schema))
						for k, ft := range schema {
							idx[ft.name] = k
						}
					}
					idx[f.Name] = len(schema) - 1
				}
				continue
			}
			if schema[j].typ != t {
				return nil, fmt.Errorf("record %d: %w: field %q is %v here but %v in an earlier record of the batch",
					i, ErrInvalidRecord, f.Name, f.Value.kind, kindOf(schema[j].typ))
			}
		}
	}
	return schema, nil
}

func lookupSchema(schema []fieldType, idx map[string]int, name string) (int, bool) {
	if idx != nil {
		j, ok := idx[name]
		return j, ok
	}
	for j := range schema {
		if schema[j].name == name {
			return j, true
		}
	}
	return 0, false
}

// validateRecord checks one record against the data model and limits.
func validateRecord(r *Record) error {
	if r.Series == "" {
		return fmt.Errorf("%w: empty series", ErrInvalidRecord)
	}
	if r.Op > OpDrop {
		return fmt.Errorf("%w: unknown op %v", ErrInvalidRecord, r.Op)
	}
	if len(r.Fields) > MaxFields {
		return fmt.Errorf("%w: %d fields, at most %d", ErrInvalidRecord, len(r.Fields), MaxFields)
	}
	size := recordSize(r)
	if size > MaxRecordBytes {
		return fmt.Errorf("%w: %d bytes, at most %d", ErrInvalidRecord, size, MaxRecordBytes)
	}
	for i, f := range r.Fields {
		switch {
		case f.Name == "" || len(f.Name) > MaxFieldNameLen:
			return fmt.Errorf("%w: field %d name %q must be 1 to %d bytes", ErrInvalidRecord, i, f.Name, MaxFieldNameLen)
		case !utf8.ValidString(f.Name): // a column name: Arrow and Parquet schemas need UTF-8
			return fmt.Errorf("%w: field %d name %q is not UTF-8", ErrInvalidRecord, i, f.Name)
		case reservedName(f.Name):
			return fmt.Errorf("%w: field name %q is a record column (seq, time, series, key, op)", ErrInvalidRecord, f.Name)
		case f.Value.kind > KindBytes:
			return fmt.Errorf("%w: field %q has unknown kind %v", ErrInvalidRecord, f.Name, f.Value.kind)
		}
		for _, g := range r.Fields[:i] {
			if g.Name == f.Name {
				return fmt.Errorf("%w: field %q given twice", ErrInvalidRecord, f.Name)
			}
		}
	}
	return nil
}

// recordSize is a record's size as MaxRecordBytes counts it.
func recordSize(r *Record) int {
	n := 16 + len(r.Series) + len(r.Key)
	for _, f := range r.Fields {
		n += len(f.Name) + f.Value.size()
	}
	return n
}

func kindOf(t chunk.Type) Kind {
	switch t {
	case chunk.Int64:
		return KindInt64
	case chunk.Float64:
		return KindFloat64
	case chunk.String:
		return KindString
	case chunk.Bool:
		return KindBool
	case chunk.Bytes:
		return KindBytes
	}
	return KindNull
}
