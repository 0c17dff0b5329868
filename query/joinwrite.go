package query

import (
	"slices"

	"github.com/tsqdb/tsq/chunk"
)

// joinWriter writes joined rows into the relation's blocks, which a
// goroutine of its own encodes in order while the next fills.
type joinWriter struct {
	jp      *joinPlan
	b       *subBuilder
	where   pred              // the statement's WHERE, applied to each block before it is held; nil: none
	base    int               // the relation's rows before the block being filled
	work    chan *chunk.Block // blocks to encode
	free    chan *chunk.Block // blocks encoded, their columns' room to reuse (at most 3 blocks live)
	done    chan error        // the encoder's first error, when work closes
	stopped bool
	bt      batch   // filter's batch, its arithmetic's scratch reused block to block
	sel     []int32 // filter's rows
}

func newJoinWriter(jp *joinPlan, b *subBuilder) *joinWriter {
	w := &joinWriter{jp: jp, b: b, work: make(chan *chunk.Block, 1), free: make(chan *chunk.Block, 3), done: make(chan error, 1)}
	go func() {
		var err error
		for blk := range w.work {
			if err == nil {
				err = b.encode(blk)
			}
			w.free <- blk
		}
		w.done <- err
	}()
	return w
}

// send hands the full block to the encoder (an error of encoding comes
// from finish), its rows that WHERE refuses left out.
func (w *joinWriter) send() error {
	blk := w.b.blk
	w.b.blk = nil
	if w.where != nil {
		w.filter(blk)
	}
	w.base = w.b.src.rows
	w.work <- blk
	return nil
}

// filter leaves out of blk the rows WHERE refuses, and numbers the rest
// on from the rows before.
func (w *joinWriter) filter(blk *chunk.Block) {
	cs := blk.Columns
	bt := &w.bt
	if bt.fields == nil {
		bt.fields = make(map[string]*chunk.Column, len(cs)-5)
	}
	clear(bt.fields)
	bt.rows, bt.seq, bt.time, bt.series, bt.key, bt.op = blk.Rows, cs[0].Ints, cs[1].Ints, &cs[2], &cs[3], cs[4].Ints
	for i := 5; i < len(cs); i++ {
		bt.fields[cs[i].Name] = &cs[i]
	}
	w.sel = slices.Grow(w.sel[:0], blk.Rows)[:blk.Rows]
	for i := range w.sel {
		w.sel[i] = int32(i)
	}
	sel := w.where.eval(bt, w.sel)
	if len(sel) < blk.Rows {
		keepRows(blk, sel)
		w.b.src.rows -= bt.rows - len(sel)
	}
	for i := range blk.Rows {
		cs[0].Ints[i] = int64(w.base + i + 1)
	}
}

// keepRows keeps rows sel (ascending) of blk.
func keepRows(blk *chunk.Block, sel []int32) {
	for i := range blk.Columns {
		c := &blk.Columns[i]
		if c.Valid != nil {
			c.Valid = keepOf(c.Valid, sel)
		}
		switch c.Type {
		case chunk.Int64:
			c.Ints = keepOf(c.Ints, sel)
		case chunk.Float64:
			c.Floats = keepOf(c.Floats, sel)
		case chunk.Bool:
			c.Bools = keepOf(c.Bools, sel)
		default:
			c.Strs = keepOf(c.Strs, sel)
		}
	}
	blk.Rows = len(sel)
}

func keepOf[T any](v []T, sel []int32) []T {
	for i, r := range sel {
		v[i] = v[r]
	}
	return v[:len(sel)]
}

// joinWhere compiles st's WHERE against the relation's columns, to apply
// while the join writes it (the statement applies it again: the same
// rows). It is nil when there is none, when it names seq (the
// relation's row numbers, which it changes), or when it calls random()
// (or a sample: applied twice, it would keep fewer rows).
func joinWhere(st *Statement, text string, src *subSource, o *Options, in inValues) (pred, error) {
	if st.Where == nil || hasVolatile(st.Where) {
		return nil, nil
	}
	seq := false
	walkExpr(st.Where, func(n string) { seq = seq || n == ColSeq }, func() {})
	if seq {
		return nil, nil
	}
	fs := &fieldSet{instants: src.instants, durations: src.durations, star: src.star}
	for _, f := range src.fields {
		if err := fs.add(f.Name, f.Type); err != nil {
			return nil, err
		}
	}
	p := &plan{st: st, src: text, fields: fs, now: o.withDefaults().Now.UnixNano(), in: in}
	return p.compileExpr(st.Where, false)
}

// finish encodes the last block and waits for the encoder.
func (w *joinWriter) finish() error {
	if blk := w.b.blk; blk != nil && blk.Rows > 0 {
		if err := w.send(); err != nil {
			return err
		}
	}
	return w.stop()
}

// stop ends the encoder, once; it returns its error.
func (w *joinWriter) stop() error {
	if w.stopped {
		return nil
	}
	w.stopped = true
	close(w.work)
	return <-w.done
}

// write appends the rows pairing left row li[k] with right row ri[k]
// (-1: none, that side's columns null). The relation's time, series,
// key and op are the left row's, or the right's where there is none.
func (w *joinWriter) write(li, ri []int32) error {
	b, jp := w.b, w.jp
	sides := [2]*joinSide{jp.sides[0], jp.sides[1]}
	var bases [2][4]int
	for s, sd := range sides {
		bases[s] = [4]int{sd.index(ColTime), sd.index(ColSeries), sd.index(ColKey), sd.index(ColOp)}
	}
	for off := 0; off < len(li); {
		if b.blk == nil {
			w.begin()
		}
		n := min(len(li)-off, subBlockRows-b.blk.Rows)
		if b.src.rows+n > maxSubqueryRows {
			return b.fail("its result passes %d rows; narrow a side or aggregate the join", maxSubqueryRows)
		}
		cs := b.blk.Columns
		for k := range n {
			left, base, l := sides[0], bases[0], int(li[off+k])
			if l < 0 {
				left, base, l = sides[1], bases[1], int(ri[off+k])
			}
			cs[0].Ints = append(cs[0].Ints, int64(b.src.rows+k+1))
			var t int64
			if c := base[0]; c >= 0 && left.cols[c].typ == chunk.Int64 && left.cols[c].valid[l] {
				t = left.cols[c].ints[l]
			}
			cs[1].Ints = append(cs[1].Ints, t)
			for x, i := range []int{2, 3} {
				s := ""
				if c := base[1+x]; c >= 0 && left.cols[c].typ == chunk.String {
					s = left.cols[c].strs[l]
				}
				cs[i].Strs = append(cs[i].Strs, s)
			}
			op := int64(1)
			if c := base[3]; c >= 0 && left.cols[c].typ == chunk.String && left.cols[c].valid[l] {
				op = int64(slices.Index(opNames[:], left.cols[c].strs[l]))
				if op <= 0 {
					return b.fail("%s's column op holds %q, not put, delete or drop: rename it (AS ...)", left.side.Alias, left.cols[c].strs[l])
				}
			}
			cs[4].Ints = append(cs[4].Ints, op)
		}
		for x, out := range jp.outs {
			c := &cs[5+x]
			if out.alt >= 0 {
				appendCoalesced(c, jp.sides[0].cols[out.col], jp.sides[1].cols[out.alt], li[off:off+n], ri[off:off+n])
				continue
			}
			src := jp.sides[out.side].cols[out.col]
			rows := li[off : off+n]
			if out.side == 1 {
				rows = ri[off : off+n]
			}
			c.Valid = appendPicked(c.Valid, src.valid, rows)
			switch c.Type {
			case chunk.Int64:
				c.Ints = appendPicked(c.Ints, src.ints, rows)
			case chunk.Float64:
				c.Floats = appendPicked(c.Floats, src.floats, rows)
			case chunk.Bool:
				c.Bools = appendPicked(c.Bools, src.bools, rows)
			default:
				c.Strs = appendPicked(c.Strs, src.strs, rows)
			}
		}
		b.blk.Rows += n
		b.src.rows += n
		off += n
		if b.blk.Rows == subBlockRows {
			if err := w.send(); err != nil {
				return err
			}
		}
	}
	return nil
}

// begin starts a block of the relation: the last one flushed, emptied,
// or new columns with room for a block's rows.
func (w *joinWriter) begin() {
	b := w.b
	var blk *chunk.Block
	select {
	case blk = <-w.free:
	default:
	}
	if blk != nil {
		for i := range blk.Columns {
			c := &blk.Columns[i]
			c.Ints, c.Floats, c.Strs, c.Bools, c.Valid = c.Ints[:0], c.Floats[:0], c.Strs[:0], c.Bools[:0], c.Valid[:0]
		}
		blk.Rows = 0
		b.blk = blk
		return
	}
	b.start()
	for _, out := range w.jp.outs {
		b.blk.Columns = append(b.blk.Columns, chunk.Column{Name: out.name, Type: w.jp.sides[out.side].cols[out.col].typ})
	}
	for i := range b.blk.Columns {
		c := &b.blk.Columns[i]
		switch c.Type {
		case chunk.Int64:
			c.Ints = make([]int64, 0, subBlockRows)
		case chunk.Float64:
			c.Floats = make([]float64, 0, subBlockRows)
		case chunk.Bool:
			c.Bools = make([]bool, 0, subBlockRows)
		default:
			c.Strs = make([]string, 0, subBlockRows)
		}
		if i >= 5 {
			c.Valid = make([]bool, 0, subBlockRows)
		}
	}
}

// appendCoalesced appends, for each pair of rows, the left row's value
// of ls, or the right row's of rs where there is no left row.
func appendCoalesced(c *chunk.Column, ls, rs *jcol, li, ri []int32) {
	for k, l := range li {
		src, r := ls, int(l)
		if r < 0 {
			src, r = rs, int(ri[k])
		}
		c.Valid = append(c.Valid, src.valid[r])
		switch c.Type {
		case chunk.Int64:
			c.Ints = append(c.Ints, src.ints[r])
		case chunk.Float64:
			c.Floats = append(c.Floats, src.floats[r])
		case chunk.Bool:
			c.Bools = append(c.Bools, src.bools[r])
		default:
			c.Strs = append(c.Strs, src.strs[r])
		}
	}
}

// appendPicked appends v[r] for each r of rows, the zero value for a
// row of -1 (none: false, for a validity, is null).
func appendPicked[T any](dst, v []T, rows []int32) []T {
	n := len(dst)
	dst = slices.Grow(dst, len(rows))[:n+len(rows)]
	var z T
	for k, r := range rows {
		if r < 0 {
			dst[n+k] = z
		} else {
			dst[n+k] = v[r]
		}
	}
	return dst
}
