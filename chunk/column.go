package chunk

import (
	"fmt"

	"github.com/tsqdb/tsq/codec"
)

// Type is a column's value type. The numeric values are part of the format;
// do not change them.
type Type uint8

const (
	Int64   Type = 1
	Float64 Type = 2
	String  Type = 3
	Bool    Type = 4
	Bytes   Type = 5
)

func (t Type) String() string {
	switch t {
	case Int64:
		return "int64"
	case Float64:
		return "float64"
	case String:
		return "string"
	case Bool:
		return "bool"
	case Bytes:
		return "bytes"
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

func (t Type) valid() bool { return t >= Int64 && t <= Bytes }

// Column is one column of a block. Exactly the value slice of its Type is
// used, with one entry per row; entries of null rows are ignored when
// encoding and zero when decoded.
type Column struct {
	Name string
	Type Type
	// Valid marks present rows; nil means every row is present.
	Valid []bool

	Ints   []int64   // Int64
	Floats []float64 // Float64
	Bools  []bool    // Bool
	// String and Bytes columns are given either as Strs, or as Dict plus
	// Codes (row i holds Dict.At(Codes[i])), which is what decoding yields.
	Strs  []string
	Dict  codec.Strings
	Codes []int32
	// Ascending, set by decoding, says the present values of a String
	// or Bytes column strictly increase in row order, as their front
	// coding tells (codec.Decoder.Ascending); false when they do not, or
	// it does not tell. Encoders ignore it.
	Ascending bool
}

// Len returns the number of rows the column holds.
func (c *Column) Len() int {
	switch c.Type {
	case Int64:
		return len(c.Ints)
	case Float64:
		return len(c.Floats)
	case Bool:
		return len(c.Bools)
	case String, Bytes:
		if c.Strs != nil {
			return len(c.Strs)
		}
		return len(c.Codes)
	}
	return 0
}

// IsNull reports whether row i is null.
func (c *Column) IsNull(i int) bool { return c.Valid != nil && !c.Valid[i] }

// StringAt returns row i of a String or Bytes column.
func (c *Column) StringAt(i int) string {
	if c.Strs != nil {
		return c.Strs[i]
	}
	return string(c.Dict.At(int(c.Codes[i])))
}

// BytesAt returns row i of a String or Bytes column without copying when
// the column was decoded; the bytes alias the column's buffers.
func (c *Column) BytesAt(i int) []byte {
	if c.Strs != nil {
		return []byte(c.Strs[i])
	}
	return c.Dict.At(int(c.Codes[i]))
}

// Block is a set of columns of equal length.
type Block struct {
	Rows    int
	Columns []Column
}
