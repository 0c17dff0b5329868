package query

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/tsqdb/tsq/chunk"
)

// batch is the decoded columns a query uses from one block, and the
// rows of it still selected.
type batch struct {
	rows   int
	bytes  int // the block's, as read
	seq    []int64
	time   []int64
	op     []int64
	series *chunk.Column // nil unless used
	key    *chunk.Column
	fields map[string]*chunk.Column // used fields present in the block
	sel    []int32
	pool   map[string]*chunk.Column // reused columns of a scratch batch
	vecs   vecArena                 // arithmetic conditions' scratch (arithPred)
}

// need is the set of columns a query decodes.
type need struct {
	time, series, key, op bool
	fields                map[string]bool
	types                 *fieldSet // the fields' types over all blocks, if known
}

func (n *need) add(name string) {
	switch name {
	case ColSeq:
	case ColTime:
		n.time = true
	case ColSeries:
		n.series = true
	case ColKey:
		n.key = true
	case ColOp:
		n.op = true
	default:
		if n.fields == nil {
			n.fields = map[string]bool{}
		}
		n.fields[name] = true
	}
}

func (n *need) names() []string {
	out := []string{ColSeq}
	for _, c := range []struct {
		on   bool
		name string
	}{{n.time, ColTime}, {n.series, ColSeries}, {n.key, ColKey}, {n.op, ColOp}} {
		if c.on {
			out = append(out, c.name)
		}
	}
	var fs []string
	for f := range n.fields {
		fs = append(fs, f)
	}
	slices.Sort(fs)
	return append(out, fs...)
}

// decodeBatch decodes the needed columns of block i of sg. Without
// scratch the columns are fresh, so the batch may outlive the next call;
// with scratch, its buffers are reused and the result is scratch itself,
// valid until the next call with it.
func decodeBatch(dec *chunk.Decoder, sg Segment, i int, nd *need, scratch *batch) (*batch, error) {
	data, err := sg.ReadBlock(i)
	if err != nil {
		return nil, err
	}
	if err := dec.Reset(data); err != nil {
		return nil, fmt.Errorf("query: segment %s block %d: %w", sg.Name(), i, err)
	}
	b := &batch{}
	if scratch != nil {
		b = scratch
		if b.pool == nil {
			b.pool = map[string]*chunk.Column{}
		}
		b.seq, b.time, b.op, b.series, b.key = nil, nil, nil, nil, nil
		clear(b.fields)
	}
	b.rows, b.bytes = dec.Rows(), len(data)
	col := func(name string, base bool) (*chunk.Column, error) {
		k := dec.Find(name)
		if k < 0 {
			if base {
				return nil, fmt.Errorf("query: segment %s block %d: %w: no %s column", sg.Name(), i, chunk.ErrCorrupt, name)
			}
			return nil, nil
		}
		c := b.pool[name]
		if c == nil {
			c = new(chunk.Column)
			if b.pool != nil {
				b.pool[name] = c
			}
		}
		if err := dec.Column(k, c); err != nil {
			return nil, fmt.Errorf("query: segment %s block %d: %w", sg.Name(), i, err)
		}
		if c.Len() != b.rows {
			return nil, fmt.Errorf("query: segment %s block %d: %w: column %s has %d rows of %d", sg.Name(), i, chunk.ErrCorrupt, name, c.Len(), b.rows)
		}
		if base && (name == ColSeries || name == ColKey) != (c.Type == chunk.String) || base && name != ColSeries && name != ColKey && c.Type != chunk.Int64 {
			return nil, fmt.Errorf("query: segment %s block %d: %w: column %s of type %s", sg.Name(), i, chunk.ErrCorrupt, name, c.Type)
		}
		if base && slices.Contains(c.Valid, false) {
			return nil, fmt.Errorf("query: segment %s block %d: %w: column %s has nulls", sg.Name(), i, chunk.ErrCorrupt, name)
		}
		return c, nil
	}
	c, err := col(ColSeq, true)
	if err != nil {
		return nil, err
	}
	b.seq = c.Ints
	if nd.time {
		if c, err = col(ColTime, true); err != nil {
			return nil, err
		}
		b.time = c.Ints
	}
	if nd.op {
		if c, err = col(ColOp, true); err != nil {
			return nil, err
		}
		b.op = c.Ints
	}
	if nd.series {
		if b.series, err = col(ColSeries, true); err != nil {
			return nil, err
		}
	}
	if nd.key {
		if b.key, err = col(ColKey, true); err != nil {
			return nil, err
		}
	}
	for f := range nd.fields {
		c, err := col(f, false)
		if err != nil {
			return nil, err
		}
		if c != nil && nd.types != nil {
			if t, ok := nd.types.lookup(f); ok && (t == chunk.String || t == chunk.Bytes) && c.Type != t {
				asText(c, t) // a field of mixed types is text in every block
			}
		}
		if c != nil {
			if b.fields == nil {
				b.fields = map[string]*chunk.Column{}
			}
			b.fields[f] = c
		}
	}
	if cap(b.sel) < b.rows {
		b.sel = make([]int32, b.rows)
	}
	b.sel = b.sel[:b.rows]
	for r := range b.sel {
		b.sel[r] = int32(r)
	}
	return b, nil
}

// strCol returns the string column name (series, key or a string field)
// of b, nil if absent.
func (b *batch) strCol(name string) *chunk.Column {
	switch name {
	case ColSeries:
		return b.series
	case ColKey:
		return b.key
	}
	return b.fields[name]
}

// keep filters b.sel by f.
func (b *batch) keep(f func(r int32) bool) {
	out := b.sel[:0]
	for _, r := range b.sel {
		if f(r) {
			out = append(out, r)
		}
	}
	b.sel = out
}

// valueAt returns row r of column name (kind k) as a value.
func (b *batch) valueAt(name string, k colKind, r int32) value {
	switch name {
	case ColSeq:
		return value{i: b.seq[r]}
	case ColTime:
		return value{i: b.time[r]}
	case ColOp:
		if k == kString { // as its name (arithmetic on op)
			return value{s: opName(b.op[r])}
		}
		return value{i: b.op[r]}
	case ColSeries:
		return value{s: b.series.StringAt(int(r))}
	case ColKey:
		return value{s: b.key.StringAt(int(r))}
	}
	c := b.fields[name]
	if c == nil || c.IsNull(int(r)) {
		return nullValue
	}
	switch c.Type {
	case chunk.Int64:
		if k == kFloat {
			return fv(float64(c.Ints[r]))
		}
		return value{i: c.Ints[r]}
	case chunk.Float64:
		return fv(c.Floats[r])
	case chunk.Bool:
		return bv(c.Bools[r])
	}
	return value{s: c.StringAt(int(r))}
}

// asText turns c (int64, float64, bool, or the other of string and
// bytes) into a column of type t (String or Bytes) holding each value as
// text: integers in decimal, floats with the fewest digits that read back
// (no exponent from 1e-4 to 1e21), bools as true and false. Nulls stay.
func asText(c *chunk.Column, t chunk.Type) {
	if c.Type == chunk.String || c.Type == chunk.Bytes {
		c.Type = t // the same bytes
		return
	}
	n := c.Len()
	c.Dict.Reset()
	c.Codes = slices.Grow(c.Codes[:0], n)[:n]
	var buf []byte
	for i := range n {
		buf = buf[:0]
		if !c.IsNull(i) {
			switch c.Type {
			case chunk.Int64:
				buf = strconv.AppendInt(buf, c.Ints[i], 10)
			case chunk.Float64:
				buf = appendFloatText(buf, c.Floats[i])
			case chunk.Bool:
				buf = strconv.AppendBool(buf, c.Bools[i])
			}
		}
		c.Codes[i] = int32(i)
		c.Dict.Append(buf)
	}
	c.Type, c.Strs = t, nil
}

// appendFloatRepr appends f as CAST(f AS VARCHAR) and concat write it,
// as DuckDB does (and Python's repr): the fewest digits that read back
// as f, without an exponent when that is from -4 up to 15, with ".0"
// when there is no fraction (55996401.0, 0.0001, 1e-05, 1e+16); nan,
// inf and -inf.
func appendFloatRepr(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "nan"...)
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	}
	// The shortest digits' exponent is the magnitude's: a double below
	// 1e-4 (or 1e16) never reads back from digits at or above it.
	if a := math.Abs(f); a != 0 && (a < 1e-4 || a >= 1e16) {
		return strconv.AppendFloat(dst, f, 'e', -1, 64)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'f', -1, 64)
	if bytes.IndexByte(dst[start:], '.') < 0 {
		dst = append(dst, ".0"...)
	}
	return dst
}

// appendFloatText appends f as text with the fewest digits that read
// back as f, without an exponent from 1e-4 up to 1e21 (1234567.5, not
// 1.2345675e+06).
func appendFloatText(dst []byte, f float64) []byte {
	if a := math.Abs(f); a == 0 || a >= 1e-4 && a < 1e21 {
		return strconv.AppendFloat(dst, f, 'f', -1, 64)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, 64)
}
