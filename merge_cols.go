package tsq

import (
	"github.com/tsqdb/tsq/chunk"
)

// Column-wise merging: the merger copies a decoded block's rows into the
// builder column by column (slices appended whole) instead of one Record
// at a time. It applies to blocks whose first row has the latest UTC day
// (as every frame's: see builder.full) and whose
// field columns are int64, float64 or bool (so a row's size is known from
// its series and key); other blocks go row by row (merger.run).

// mergeSrc is one decoded block prepared for column-wise copying.
type mergeSrc struct {
	seq, time, op *chunk.Column
	series, key   []string // per row
	fields        []*chunk.Column
	fixed         int // bytes of a row besides series and key
	interned      []string
}

// prepare fills src from blk; ok is false when blk must go row by row.
func (src *mergeSrc) prepare(blk *chunk.Block) bool {
	*src = mergeSrc{series: src.series[:0], key: src.key[:0], fields: src.fields[:0], interned: src.interned}
	var series, key *chunk.Column
	for k := range blk.Columns {
		c := &blk.Columns[k]
		switch c.Name {
		case colSeq:
			src.seq = c
		case colTime:
			src.time = c
		case colOp:
			src.op = c
		case colSeries:
			series = c
		case colKey:
			key = c
		default:
			if c.Type != chunk.Int64 && c.Type != chunk.Float64 && c.Type != chunk.Bool {
				return false
			}
			src.fields = append(src.fields, c)
			src.fixed += len(c.Name) + 8
		}
	}
	if src.seq == nil || src.time == nil || src.op == nil || series == nil || key == nil ||
		src.seq.Valid != nil || src.time.Valid != nil || src.op.Valid != nil {
		return false
	}
	day := dayOf(src.time.Ints[0])
	for _, t := range src.time.Ints {
		if dayOf(t) > day {
			return false
		}
	}
	src.series = src.strings(src.series, series)
	src.key = src.strings(src.key, key)
	return true
}

// strings returns column c's values per row, one string per distinct
// dictionary entry.
func (src *mergeSrc) strings(dst []string, c *chunk.Column) []string {
	if c.Strs != nil {
		return append(dst, c.Strs...)
	}
	src.interned = src.interned[:0]
	for i := range c.Dict.Len() {
		src.interned = append(src.interned, string(c.Dict.At(i)))
	}
	for _, code := range c.Codes {
		dst = append(dst, src.interned[code])
	}
	return dst
}

// srcConflicts reports whether a field of src has another type in the
// frame being built.
func (b *builder) srcConflicts(src *mergeSrc) bool {
	for _, f := range src.fields {
		if c := b.byName[f.Name]; c != nil && c.active && c.typ != f.Type {
			return true
		}
	}
	return false
}

// take returns how many rows from lo on fit in the frame being built.
func (b *builder) take(src *mergeSrc, lo int) int {
	n := min(len(src.series)-lo, b.maxRows-b.rows)
	bytes := b.bytes
	for i := range n {
		bytes += 16 + len(src.series[lo+i]) + len(src.key[lo+i]) + src.fixed
		if bytes > maxFrameBytes && b.rows+i > 0 {
			return i
		}
	}
	return n
}

// appendSrc appends rows lo..hi-1 of src, whose seqs continue the
// frame's, column by column.
func (b *builder) appendSrc(src *mergeSrc, lo, hi int) {
	start := b.rows
	times := src.time.Ints[lo:hi]
	if start == 0 {
		b.day, b.minTime, b.maxTime = dayOf(times[0]), times[0], times[0]
	}
	for _, t := range times {
		b.minTime, b.maxTime = min(b.minTime, t), max(b.maxTime, t)
	}
	b.seq = append(b.seq, src.seq.Ints[lo:hi]...)
	b.time = append(b.time, times...)
	b.op = append(b.op, src.op.Ints[lo:hi]...)
	b.series = append(b.series, src.series[lo:hi]...)
	b.key = append(b.key, src.key[lo:hi]...)
	for i, s := range src.series[lo:hi] {
		if s != b.lastSeries || b.rows+i == 0 {
			b.seriesSet[s] = struct{}{}
			b.lastSeries = s
		}
		b.bytes += 16 + len(s) + len(src.key[lo+i]) + src.fixed
	}
	for _, k := range src.key[lo:hi] {
		if k != "" {
			b.keys.AddString(k)
		}
	}
	b.rows += hi - lo
	for _, f := range src.fields {
		if !anyValid(f, lo, hi) {
			continue // a column null in every row is not written
		}
		c := b.col(f.Name, f.Type)
		c.pad(start)
		if f.Valid == nil {
			for range hi - lo {
				c.valid = append(c.valid, true)
			}
		} else {
			for _, v := range f.Valid[lo:hi] {
				c.valid = append(c.valid, v)
				c.nulls = c.nulls || !v
			}
		}
		switch f.Type {
		case chunk.Int64:
			c.ints = append(c.ints, f.Ints[lo:hi]...)
		case chunk.Float64:
			c.floats = append(c.floats, f.Floats[lo:hi]...)
		case chunk.Bool:
			c.bools = append(c.bools, f.Bools[lo:hi]...)
		}
	}
}

func anyValid(c *chunk.Column, lo, hi int) bool {
	if c.Valid == nil {
		return true
	}
	for _, v := range c.Valid[lo:hi] {
		if v {
			return true
		}
	}
	return false
}
