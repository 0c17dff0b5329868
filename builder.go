package tsq

import (
	"slices"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/seg"
)

// maxFrameBytes bounds the estimated raw size of one frame's block, well
// below chunk.MaxColumnBytes and seg.MaxBlockLen: a frame is cut before a
// record would take it past this.
const maxFrameBytes = 32 << 20

// builder accumulates the rows of one frame in reusable column slices.
// Rows are added in seq order with consecutive seqs, all of one UTC day.
type builder struct {
	maxRows int
	rows    int
	day     int64
	bytes   int // estimated raw size
	minTime int64
	maxTime int64

	seq, time, op []int64
	series, key   []string

	cols       []*fieldCol          // active field columns, in order of first use
	byName     map[string]*fieldCol // every column ever used, active or not
	seriesSet  map[string]struct{}  // distinct series of the frame
	lastSeries string
	keys       seg.KeySpan // keys of the frame's keyed rows

	columns []chunk.Column
}

// fieldCol is one field column of the frame being built.
type fieldCol struct {
	name   string
	typ    chunk.Type
	active bool
	nulls  bool
	valid  []bool
	ints   []int64
	floats []float64
	strs   []string
	bools  []bool
}

func (b *builder) init(maxRows int) {
	b.maxRows = maxRows
	b.byName = map[string]*fieldCol{}
	b.seriesSet = map[string]struct{}{}
}

// presize gives an empty builder the capacity of a full frame, with the
// columns of like, so that a builder joining the rotation of background
// encoding (encode.go) does not grow row by row.
func (b *builder) presize(like *builder) {
	n := b.maxRows
	b.seq, b.time, b.op = make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
	b.series, b.key = make([]string, 0, n), make([]string, 0, n)
	for _, lc := range like.cols {
		c := &fieldCol{name: lc.name, typ: lc.typ, valid: make([]bool, 0, n)}
		switch lc.typ {
		case chunk.Int64:
			c.ints = make([]int64, 0, n)
		case chunk.Float64:
			c.floats = make([]float64, 0, n)
		case chunk.String, chunk.Bytes:
			c.strs = make([]string, 0, n)
		case chunk.Bool:
			c.bools = make([]bool, 0, n)
		}
		b.byName[c.name] = c
	}
}

// reset empties the builder, keeping its slices.
func (b *builder) reset() {
	b.rows, b.bytes = 0, 0
	b.seq, b.time, b.op = b.seq[:0], b.time[:0], b.op[:0]
	clear(b.series) // drop string references
	clear(b.key)
	b.series, b.key = b.series[:0], b.key[:0]
	for _, c := range b.cols {
		c.reset()
	}
	b.cols = b.cols[:0]
	clear(b.seriesSet)
	b.lastSeries = ""
	b.keys.Reset()
}

func (c *fieldCol) reset() {
	c.active, c.nulls = false, false
	c.valid, c.ints, c.floats, c.bools = c.valid[:0], c.ints[:0], c.floats[:0], c.bools[:0]
	clear(c.strs)
	c.strs = c.strs[:0]
}

// conflicts reports whether a batch of this schema cannot join the frame:
// one of its fields has another type in the frame.
func (b *builder) conflicts(schema []fieldType) bool {
	for _, ft := range schema {
		if c := b.byName[ft.name]; c != nil && c.active && c.typ != ft.typ {
			return true
		}
	}
	return false
}

// full reports whether a row of day and size must start a new frame.
// A frame's day is its first row's, the latest it holds: a row of a
// later UTC day starts a new frame (time-ordered rows make a frame a
// day), a row of an earlier one (late or out-of-order data) joins it.
func (b *builder) full(day int64, size int) bool {
	return b.rows > 0 && (day > b.day || b.rows >= b.maxRows || b.bytes+size > maxFrameBytes)
}

// addBase appends the record columns of one row.
func (b *builder) addBase(seq uint64, t int64, series, key string, op Op, day int64, size int) {
	if b.rows == 0 {
		b.day, b.minTime, b.maxTime = day, t, t
	}
	b.minTime, b.maxTime = min(b.minTime, t), max(b.maxTime, t)
	b.seq = append(b.seq, int64(seq))
	b.time = append(b.time, t)
	b.op = append(b.op, int64(op))
	b.series = append(b.series, series)
	b.key = append(b.key, key)
	if key != "" {
		b.keys.AddString(key)
	}
	if series != b.lastSeries || b.rows == 0 {
		b.seriesSet[series] = struct{}{}
		b.lastSeries = series
	}
	b.rows++
	b.bytes += size
}

// addRecord appends a validated record as one row.
func (b *builder) addRecord(seq uint64, r *Record, day int64, size int) {
	op := r.Op
	if op == 0 {
		op = OpPut
	}
	row := b.rows
	b.addBase(seq, r.Time, r.Series, r.Key, op, day, size)
	for i := range r.Fields {
		f := &r.Fields[i]
		if f.Value.kind == KindNull {
			continue
		}
		c := b.col(f.Name, f.Value.kind.chunkType())
		c.pad(row)
		c.valid = append(c.valid, true)
		switch v := f.Value; v.kind {
		case KindInt64:
			c.ints = append(c.ints, v.Int())
		case KindFloat64:
			c.floats = append(c.floats, v.Float())
		case KindString:
			c.strs = append(c.strs, v.str)
		case KindBytes:
			c.strs = append(c.strs, string(v.b))
		case KindBool:
			c.bools = append(c.bools, v.Bool())
		}
	}
}

// addSamples appends samples of one UTC day as rows with consecutive
// seqs from seq: op put, no key, float64 field "value" in c. The frame
// must take them all (see full).
func (b *builder) addSamples(seq uint64, series string, times []int64, values []float64, day int64, c *fieldCol) {
	k := len(times)
	if b.rows == 0 {
		b.day, b.minTime, b.maxTime = day, times[0], times[0]
	}
	lo, hi := b.minTime, b.maxTime
	for _, t := range times {
		lo, hi = min(lo, t), max(hi, t)
	}
	b.minTime, b.maxTime = lo, hi
	n := len(b.seq)
	b.seq = slices.Grow(b.seq, k)[:n+k]
	for i := range k {
		b.seq[n+i] = int64(seq) + int64(i)
	}
	b.time = append(b.time, times...)
	b.op = appendRepeat(b.op, int64(OpPut), k)
	b.series = appendRepeat(b.series, series, k)
	b.key = appendRepeat(b.key, "", k)
	if series != b.lastSeries || b.rows == 0 {
		b.seriesSet[series] = struct{}{}
		b.lastSeries = series
	}
	if len(c.valid) < b.rows {
		c.pad(b.rows)
	}
	c.valid = appendRepeat(c.valid, true, k)
	c.floats = append(c.floats, values...)
	b.rows += k
	b.bytes += 16 * k
}

// appendRepeat appends k copies of v to s.
func appendRepeat[T any](s []T, v T, k int) []T {
	n := len(s)
	s = slices.Grow(s, k)[:n+k]
	for i := n; i < n+k; i++ {
		s[i] = v
	}
	return s
}

// col returns the active column name, activating it with type t.
func (b *builder) col(name string, t chunk.Type) *fieldCol {
	c := b.byName[name]
	if c == nil {
		c = &fieldCol{name: name}
		b.byName[name] = c
	}
	if !c.active {
		c.active, c.typ = true, t
		b.cols = append(b.cols, c)
	}
	return c
}

// pad appends nulls until the column holds n rows.
func (c *fieldCol) pad(n int) {
	for len(c.valid) < n {
		c.nulls = true
		c.valid = append(c.valid, false)
		switch c.typ {
		case chunk.Int64:
			c.ints = append(c.ints, 0)
		case chunk.Float64:
			c.floats = append(c.floats, 0)
		case chunk.String, chunk.Bytes:
			c.strs = append(c.strs, "")
		case chunk.Bool:
			c.bools = append(c.bools, false)
		}
	}
}

// block returns the frame's rows as a chunk block, aliasing the
// builder's slices.
func (b *builder) block() chunk.Block {
	cols := append(b.columns[:0],
		chunk.Column{Name: colSeq, Type: chunk.Int64, Ints: b.seq},
		chunk.Column{Name: colTime, Type: chunk.Int64, Ints: b.time},
		chunk.Column{Name: colSeries, Type: chunk.String, Strs: b.series},
		chunk.Column{Name: colKey, Type: chunk.String, Strs: b.key},
		chunk.Column{Name: colOp, Type: chunk.Int64, Ints: b.op},
	)
	for _, c := range b.cols {
		c.pad(b.rows)
		col := chunk.Column{Name: c.name, Type: c.typ, Ints: c.ints, Floats: c.floats, Strs: c.strs, Bools: c.bools}
		if c.nulls {
			col.Valid = c.valid
		}
		cols = append(cols, col)
	}
	b.columns = cols
	return chunk.Block{Rows: b.rows, Columns: cols}
}
