package ingest

import (
	"slices"
	"strconv"
	"unsafe"

	"github.com/tsqdb/tsq/chunk"
)

// Op is a record's op, numbered as the store numbers them.
type Op uint8

const (
	OpPut    Op = 1
	OpDelete Op = 2
	OpDrop   Op = 3
	// OpSkip drops the row (a mapped op value that means "ignore").
	OpSkip Op = 255
)

// Span is a string held in a Batch's arena.
type Span struct{ Off, Len uint32 }

// Col is one field column of a Batch. Ints, Floats, Bools or Strs (by
// Type) and Valid hold one entry per row once the batch is complete
// (Finish pads them).
type Col struct {
	Name   string
	Type   chunk.Type
	Valid  []bool
	Ints   []int64
	Floats []float64
	Bools  []bool
	Strs   []Span
	Nulls  bool // some row has no value

	active bool
	owner  *Batch
	idle   int // batches since the column was last used
}

// maxIdle: a column unused by this many batches in a row gives its
// storage back.
const maxIdle = 4

// Batch is a set of rows in columns. Reset reuses its slices.
type Batch struct {
	Rows   int
	Time   []int64
	Series []Span
	Key    []Span
	Op     []Op
	Cols   []*Col // active columns in order of first use
	Arena  []byte
	// Bytes is the input consumed by the batch's rows (rejected rows
	// included); FirstLine the line number of its first row.
	Bytes     int64
	FirstLine int64

	byName map[string]*Col // every column seen; types stay sticky across batches

	// row marks, for aborting a row
	markArena int
	markCols  int
	converted bool
	convs     []conv // columns whose type the current row changed

	hintRows  int // rows to size a column for when it becomes active (reserve)
	hintBytes int // the batch's byte bound (Options.BatchBytes)
	hintCols  int // the most columns of a batch the parser filled so far
}

type conv struct {
	c    *Col
	from chunk.Type
}

// Reset empties the batch, keeping its storage and the column types.
// The storage of columns unused by the last maxIdle batches is freed: a
// wide, sparse input would otherwise keep every column's largest slices.
func (b *Batch) Reset() {
	b.Rows, b.Bytes, b.FirstLine = 0, 0, 0
	b.Time, b.Series, b.Key, b.Op = b.Time[:0], b.Series[:0], b.Key[:0], b.Op[:0]
	// Past maxKnownCols, forget the columns the last batch did not use
	// (their types stop being sticky).
	if len(b.byName) > maxKnownCols {
		for name, c := range b.byName {
			if !c.active {
				delete(b.byName, name)
			}
		}
	}
	for _, c := range b.byName {
		if c.active {
			c.idle = 0
		} else if c.idle++; c.idle >= maxIdle && cap(c.Valid) > 0 {
			c.Valid, c.Ints, c.Floats, c.Bools, c.Strs = nil, nil, nil, nil, nil
		}
	}
	for _, c := range b.Cols {
		c.active, c.Nulls = false, false
		c.Valid, c.Ints, c.Floats, c.Bools, c.Strs = c.Valid[:0], c.Ints[:0], c.Floats[:0], c.Bools[:0], c.Strs[:0]
	}
	b.Cols = b.Cols[:0]
	b.Arena = b.Arena[:0]
}

// maxKnownCols bounds the columns a Batch remembers between batches.
const maxKnownCols = 4 * MaxBatchCols

// Str returns the string of span s. It aliases the arena: it is valid
// until the batch is Reset, and must be copied to outlive it.
func (b *Batch) Str(s Span) string {
	if s.Len == 0 {
		return ""
	}
	return unsafe.String(&b.Arena[s.Off], int(s.Len))
}

// reserve sizes the batch's buffers for a batch of rows rows whose
// arena takes arena bytes (the largest the parser filled so far) and
// whose Size is at most bound with cols columns, so
// that filling it does not regrow them: regrowth leaves the old buffers
// as garbage, and how much of it the collector has not reclaimed yet
// when the heap peaks varies from run to run. Columns are sized when
// they become active. Called after Reset.
func (b *Batch) reserve(rows, arena, bound, cols int) {
	b.hintRows, b.hintBytes, b.hintCols = rows, bound, cols
	b.Time = slices.Grow(b.Time, rows)
	b.Series = slices.Grow(b.Series, rows)
	b.Key = slices.Grow(b.Key, rows)
	b.Op = slices.Grow(b.Op, rows)
	b.Arena = slices.Grow(b.Arena, arena)
}

// Strings appends the strings of spans to dst (aliasing the arena).
func (b *Batch) Strings(dst []string, spans []Span) []string {
	for _, s := range spans {
		dst = append(dst, b.Str(s))
	}
	return dst
}

// Size estimates the batch's memory once complete, including what the
// encoder adds: the arena, the record columns, and for every column a
// value, a validity byte and a string header per row (a sparse column
// costs as much as a dense one once padded).
func (b *Batch) Size() int {
	return len(b.Arena) + b.Rows*(48+len(b.Cols)*26)
}

// Finish pads every column to Rows values.
func (b *Batch) Finish() {
	for _, c := range b.Cols {
		c.pad(b.Rows)
	}
}

func (b *Batch) span(p []byte) Span {
	off := len(b.Arena)
	b.Arena = append(b.Arena, p...)
	return Span{uint32(off), uint32(len(p))}
}

// sameAsLast returns the last row's series span in place of s, the
// bytes just appended at the end of the arena, when they are equal:
// rows of one series share their bytes (less arena; the encoder then
// compares equal strings by address).
func (b *Batch) sameAsLast(s Span) Span {
	if b.Rows == 0 || int(s.Off+s.Len) != len(b.Arena) {
		return s
	}
	last := b.Series[b.Rows-1]
	if last.Len != s.Len || bstr(b.Arena[last.Off:last.Off+last.Len]) != bstr(b.Arena[s.Off:]) {
		return s
	}
	b.Arena = b.Arena[:s.Off]
	return last
}

// lastSeriesIs reports whether the last row's series is p.
func (b *Batch) lastSeriesIs(p []byte) bool {
	last := b.Series[b.Rows-1]
	return int(last.Len) == len(p) && bstr(b.Arena[last.Off:last.Off+last.Len]) == bstr(p)
}

// beginRow marks the state a failed row returns to.
func (b *Batch) beginRow() {
	b.markArena, b.markCols, b.converted = len(b.Arena), len(b.Cols), false
	b.convs = b.convs[:0]
}

// abortRow undoes the values of the row being built. The arena is cut
// back only when no column was converted to strings meanwhile (a
// conversion appends earlier rows' values after the mark).
func (b *Batch) abortRow() {
	if !b.converted {
		b.Arena = b.Arena[:b.markArena]
	}
	for _, c := range b.Cols {
		if len(c.Valid) > b.Rows {
			c.truncate(b.Rows)
		}
	}
	for i := len(b.convs) - 1; i >= 0; i-- {
		b.revert(b.convs[i])
	}
	b.convs = b.convs[:0]
	for _, c := range b.Cols[b.markCols:] {
		c.active = false
	}
	b.Cols = b.Cols[:b.markCols]
}

// endRow appends the row's record columns.
func (b *Batch) endRow(t int64, series, key Span, op Op) {
	b.Time = append(b.Time, t)
	b.Series = append(b.Series, series)
	b.Key = append(b.Key, key)
	b.Op = append(b.Op, op)
	b.Rows++
}

// col returns the active column name, creating it with type t if new.
// A column already active keeps its type; the put methods convert.
func (b *Batch) col(name []byte, t chunk.Type) *Col {
	if b.byName == nil {
		b.byName = map[string]*Col{}
	}
	c := b.byName[string(name)]
	if c == nil {
		c = &Col{Name: string(name), Type: t, owner: b}
		b.byName[c.Name] = c
	}
	if !c.active {
		c.active = true
		b.Cols = append(b.Cols, c)
		// as many rows as the batch's byte bound leaves for a row of
		// this many columns (Size), at most the rows reserved
		rows := b.hintRows
		if b.hintBytes > 0 {
			rows = min(rows, b.hintBytes/(48+26*max(len(b.Cols), b.hintCols)))
		}
		if k := rows - len(c.Valid); k > 0 && cap(c.Valid)-len(c.Valid) < k {
			c.reserve(k)
		}
	}
	return c
}

// reserve makes room for k more values of the column's type.
func (c *Col) reserve(k int) {
	c.Valid = slices.Grow(c.Valid, k)
	switch c.Type {
	case chunk.Int64:
		c.Ints = slices.Grow(c.Ints, k)
	case chunk.Float64:
		c.Floats = slices.Grow(c.Floats, k)
	case chunk.Bool:
		c.Bools = slices.Grow(c.Bools, k)
	default:
		c.Strs = slices.Grow(c.Strs, k)
	}
}

func (c *Col) truncate(n int) {
	c.Valid = c.Valid[:n]
	switch c.Type {
	case chunk.Int64:
		c.Ints = c.Ints[:n]
	case chunk.Float64:
		c.Floats = c.Floats[:n]
	case chunk.Bool:
		c.Bools = c.Bools[:n]
	default:
		c.Strs = c.Strs[:n]
	}
}

// pad appends nulls until the column holds n rows.
func (c *Col) pad(n int) {
	k := n - len(c.Valid)
	if k <= 0 {
		return
	}
	c.Nulls = true
	c.Valid = grow(c.Valid, k)
	switch c.Type {
	case chunk.Int64:
		c.Ints = grow(c.Ints, k)
	case chunk.Float64:
		c.Floats = grow(c.Floats, k)
	case chunk.Bool:
		c.Bools = grow(c.Bools, k)
	default:
		c.Strs = grow(c.Strs, k)
	}
}

// grow appends k zero values to s.
func grow[T any](s []T, k int) []T {
	s = slices.Grow(s, k)
	n := len(s)
	s = s[:n+k]
	clear(s[n:])
	return s
}

// has reports whether the current row already set the column.
func (c *Col) has(row int) bool { return len(c.Valid) > row }

func (b *Batch) putInt(c *Col, v int64) {
	c.pad(b.Rows)
	switch c.Type {
	case chunk.Int64:
		c.Ints = append(c.Ints, v)
	case chunk.Float64:
		c.Floats = append(c.Floats, float64(v))
	default:
		b.toString(c)
		c.Strs = append(c.Strs, b.span(strconv.AppendInt(b.Arena[len(b.Arena):], v, 10)))
	}
	c.Valid = append(c.Valid, true)
}

func (b *Batch) putFloat(c *Col, v float64) {
	c.pad(b.Rows)
	switch c.Type {
	case chunk.Int64:
		b.convs = append(b.convs, conv{c, chunk.Int64})
		c.Floats = slices.Grow(c.Floats[:0], cap(c.Ints)) // as reserved (col)
		for _, x := range c.Ints {
			c.Floats = append(c.Floats, float64(x))
		}
		c.Type = chunk.Float64
		c.Floats = append(c.Floats, v)
	case chunk.Float64:
		c.Floats = append(c.Floats, v)
	default:
		b.toString(c)
		c.Strs = append(c.Strs, b.span(appendFloatText(b.Arena[len(b.Arena):], v)))
	}
	c.Valid = append(c.Valid, true)
}

func (b *Batch) putBool(c *Col, v bool) {
	c.pad(b.Rows)
	switch c.Type {
	case chunk.Bool:
		c.Bools = append(c.Bools, v)
	default:
		b.toString(c)
		c.Strs = append(c.Strs, b.span(strconv.AppendBool(b.Arena[len(b.Arena):], v)))
	}
	c.Valid = append(c.Valid, true)
}

func (b *Batch) putStr(c *Col, p []byte) {
	c.pad(b.Rows)
	b.toString(c)
	c.Strs = append(c.Strs, b.span(p))
	c.Valid = append(c.Valid, true)
}

// toString converts a column to strings, formatting the values it holds.
func (b *Batch) toString(c *Col) {
	if c.Type == chunk.String {
		return
	}
	b.converted = true
	b.convs = append(b.convs, conv{c, c.Type})
	c.Strs = slices.Grow(c.Strs[:0], cap(c.Valid)) // as reserved (col)
	for i, ok := range c.Valid {
		if !ok {
			c.Strs = append(c.Strs, Span{})
			continue
		}
		start := len(b.Arena)
		switch c.Type {
		case chunk.Int64:
			b.Arena = strconv.AppendInt(b.Arena, c.Ints[i], 10)
		case chunk.Float64:
			b.Arena = appendFloatText(b.Arena, c.Floats[i])
		case chunk.Bool:
			b.Arena = strconv.AppendBool(b.Arena, c.Bools[i])
		}
		c.Strs = append(c.Strs, Span{uint32(start), uint32(len(b.Arena) - start)})
	}
	c.Type = chunk.String
}

// revert undoes a type change made by an aborted row: the earlier rows'
// values were formatted (or widened) from values of type v.from, so
// parsing them back is exact.
func (b *Batch) revert(v conv) {
	c := v.c
	switch {
	case c.Type == chunk.Float64 && v.from == chunk.Int64:
		c.Ints = c.Ints[:0]
		for _, f := range c.Floats {
			c.Ints = append(c.Ints, int64(f))
		}
	case c.Type == chunk.String:
		for i, ok := range c.Valid {
			s := b.Str(c.Strs[i])
			switch v.from {
			case chunk.Int64:
				x := int64(0)
				if ok {
					x, _ = strconv.ParseInt(s, 10, 64)
				}
				c.Ints = append(c.Ints[:i], x)
			case chunk.Float64:
				x := 0.0
				if ok {
					x, _ = strconv.ParseFloat(s, 64)
				}
				c.Floats = append(c.Floats[:i], x)
			case chunk.Bool:
				c.Bools = append(c.Bools[:i], ok && s == "true")
			}
		}
	}
	c.Type = v.from
}
