package query

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq/chunk"
)

// A join runs its right side first and holds its rows (at most
// maxJoinRightRows) in a hash table by the values ON compares for
// equality; then it streams the left side, batch by batch, and writes
// each left row with its matches, in the left's order and, for one left
// row, in the right's order, into blocks as a subquery's result is
// (subSource): the statement reads that relation. Its columns: time,
// series, key and op are the left row's; every column c of a side is
// a.c (b.c for the right side); a field of one side only, and a column
// of USING, is also c. NULL never equals anything.
//
// ASOF: of the right rows whose equality columns match, the one whose
// inequality column is nearest the left row's on the side the inequality
// allows (a.time >= b.time: the latest at or before); among rows with
// that same value, the last in the right's order.

// maxJoinRightRows bounds the right side of a join, held in memory.
var maxJoinRightRows = 1 << 22 // a variable for tests

// jcol is a column of a join side, decoded from Arrow.
type jcol struct {
	typ     chunk.Type
	instant bool // a timestamp
	ints    []int64
	floats  []float64
	strs    []string
	bools   []bool
	valid   []bool
}

func (c *jcol) isValid(r int) bool { return c.valid[r] }

// appendArrow appends the rows of a to c; ok is false for a type no
// stream holds.
func (c *jcol) appendArrow(a arrow.Array) error {
	n := a.Len()
	if a.NullN() == 0 {
		for range n {
			c.valid = append(c.valid, true)
		}
	} else {
		for r := range n {
			c.valid = append(c.valid, a.IsValid(r))
		}
	}
	switch a := a.(type) {
	case *array.Int64:
		c.ints = append(c.ints, a.Int64Values()...)
	case *array.Uint64:
		for _, v := range a.Uint64Values() {
			if v > math.MaxInt64 {
				return fmt.Errorf("holds %d, beyond int64", v)
			}
			c.ints = append(c.ints, int64(v))
		}
	case *array.Timestamp:
		for r := range n {
			c.ints = append(c.ints, int64(a.Value(r)))
		}
	case *array.Float64:
		c.floats = append(c.floats, a.Float64Values()...)
	case *array.Boolean:
		for r := range n {
			c.bools = append(c.bools, a.Value(r))
		}
	case *array.Binary:
		data, offs := string(a.ValueBytes()), a.ValueOffsets() // one copy: the batch's buffers may be reused
		for r := range n {
			c.strs = append(c.strs, data[offs[r]-offs[0]:offs[r+1]-offs[0]])
		}
	case *array.String:
		data, offs := string(a.ValueBytes()), a.ValueOffsets()
		for r := range n {
			c.strs = append(c.strs, data[offs[r]-offs[0]:offs[r+1]-offs[0]])
		}
	case *array.Dictionary:
		d, ok := a.Dictionary().(*array.String)
		if !ok {
			return fmt.Errorf("is %s, which a stream cannot hold", a.DataType())
		}
		words := make([]string, d.Len()) // each copied once
		for r := range n {
			s := ""
			if a.IsValid(r) {
				i := a.GetValueIndex(r)
				if words[i] == "" {
					words[i] = strings.Clone(d.Value(i))
				}
				s = words[i]
			}
			c.strs = append(c.strs, s)
		}
	default:
		return fmt.Errorf("is %s, which a stream cannot hold", a.DataType())
	}
	return nil
}

// jcolType is the column type a stream holds for an Arrow type.
func jcolType(t arrow.DataType) (chunk.Type, bool) {
	switch t.ID() {
	case arrow.INT64, arrow.UINT64, arrow.TIMESTAMP:
		return chunk.Int64, true
	case arrow.FLOAT64:
		return chunk.Float64, true
	case arrow.BOOL:
		return chunk.Bool, true
	case arrow.STRING, arrow.DICTIONARY:
		return chunk.String, true
	case arrow.BINARY:
		return chunk.Bytes, true
	}
	return 0, false
}

// joinSide is a side's columns, by name.
type joinSide struct {
	side  *JoinSide
	names []string
	cols  []*jcol
	rows  int
}

func newJoinSide(s *JoinSide, sc *arrow.Schema, text string) (*joinSide, error) {
	js := &joinSide{side: s}
	for _, f := range sc.Fields() {
		t, ok := jcolType(f.Type)
		if !ok {
			return nil, errAt(text, s.Pos, "join: column %s of %s is %s, which a stream cannot hold", f.Name, s.Alias, f.Type)
		}
		if slices.Contains(js.names, f.Name) {
			return nil, errAt(text, s.Pos, "join: %s has two columns named %s: rename one (AS ...)", s.Alias, f.Name)
		}
		js.names = append(js.names, f.Name)
		js.cols = append(js.cols, &jcol{typ: t, instant: f.Type.ID() == arrow.TIMESTAMP})
	}
	return js, nil
}

// load replaces (reset) or extends the side's rows with rec's.
func (js *joinSide) load(rec arrow.RecordBatch, reset bool, text string) error {
	for i, c := range js.cols {
		if reset {
			*c = jcol{typ: c.typ, instant: c.instant, ints: c.ints[:0], floats: c.floats[:0], strs: c.strs[:0], bools: c.bools[:0], valid: c.valid[:0]}
		}
		if err := c.appendArrow(rec.Column(i)); err != nil {
			return errAt(text, js.side.Pos, "join: column %s of %s %v", js.names[i], js.side.Alias, err)
		}
	}
	if reset {
		js.rows = 0
	}
	js.rows += int(rec.NumRows())
	return nil
}

func (js *joinSide) index(name string) int { return slices.Index(js.names, name) }

// joinCol is a resolved column of ON: its side (0 left, 1 right) and index.
type joinCol struct {
	side, col int
	name      string
}

// keyMode is how an equality compares its two columns.
type keyMode uint8

const (
	keyInt keyMode = iota
	keyFloat
	keyText
	keyBool
	keyBytes
)

// joinPlan is a join resolved against its sides' columns.
type joinPlan struct {
	j          *Join
	sides      [2]*joinSide
	eq         [][2]joinCol // left, right
	modes      []keyMode
	ineq       *[2]joinCol // ASOF: left, right
	ineqOp     string      // as left op right
	floatOrder bool
	outs       []joinOut
	star       []string
}

// joinOut is a field of the joined relation.
type joinOut struct {
	name      string
	side, col int
}

func jcolKind(c *jcol) string {
	switch {
	case c.instant:
		return "a timestamp"
	case c.typ == chunk.Int64 || c.typ == chunk.Float64:
		return "a number"
	case c.typ == chunk.Bool:
		return "a bool"
	case c.typ == chunk.Bytes:
		return "bytes"
	}
	return "text"
}

// resolve finds the side and column of ref.
func (jp *joinPlan) resolve(ref *ColRef, text string) (joinCol, error) {
	for s, js := range jp.sides {
		if rest, ok := strings.CutPrefix(ref.Name, js.side.Alias+"."); ok {
			if i := js.index(rest); i >= 0 {
				return joinCol{s, i, ref.Name}, nil
			}
			return joinCol{}, errAt(text, ref.Pos, "join: %s has no column %s (columns: %s)", js.side.Alias, rest, strings.Join(js.names, ", "))
		}
	}
	l, r := jp.sides[0].index(ref.Name), jp.sides[1].index(ref.Name)
	switch {
	case l >= 0 && r >= 0:
		return joinCol{}, errAt(text, ref.Pos, "join: both sides have a column %s: write %s.%s or %s.%s", ref.Name, jp.sides[0].side.Alias, ref.Name, jp.sides[1].side.Alias, ref.Name)
	case l >= 0:
		return joinCol{0, l, ref.Name}, nil
	case r >= 0:
		return joinCol{1, r, ref.Name}, nil
	}
	return joinCol{}, errAt(text, ref.Pos, "join: no side has a column %s (%s: %s; %s: %s)", ref.Name,
		jp.sides[0].side.Alias, strings.Join(jp.sides[0].names, ", "), jp.sides[1].side.Alias, strings.Join(jp.sides[1].names, ", "))
}

// flipOp is op with its sides swapped.
func flipOp(op string) string {
	return map[string]string{">=": "<=", "<=": ">=", ">": "<", "<": ">", "=": "="}[op]
}

func planJoin(j *Join, left, right *joinSide, text string) (*joinPlan, error) {
	jp := &joinPlan{j: j, sides: [2]*joinSide{left, right}}
	for _, c := range j.On {
		l, err := jp.resolve(c.L, text)
		if err != nil {
			return nil, err
		}
		r, err := jp.resolve(c.R, text)
		if err != nil {
			return nil, err
		}
		op := c.Op
		if l.side == r.side {
			return nil, errAt(text, c.L.Pos, "join: %s %s %s compares two columns of %s: ON compares a column of each side (put others in WHERE)", c.L.Name, c.Op, c.R.Name, jp.sides[l.side].side.Alias)
		}
		if l.side == 1 {
			l, r, op = r, l, flipOp(op)
		}
		lc, rc := left.cols[l.col], right.cols[r.col]
		if op != "=" {
			num := func(c *jcol) bool { return c.typ == chunk.Int64 || c.typ == chunk.Float64 }
			if !num(lc) || !num(rc) || lc.instant != rc.instant {
				return nil, errAt(text, c.L.Pos, "join: ASOF orders by numbers or times, and %s is %s, %s %s", l.name, jcolKind(lc), r.name, jcolKind(rc))
			}
			jp.ineq, jp.ineqOp = &[2]joinCol{l, r}, op
			jp.floatOrder = lc.typ == chunk.Float64 || rc.typ == chunk.Float64
			continue
		}
		var m keyMode
		switch {
		case lc.instant != rc.instant:
			return nil, errAt(text, c.L.Pos, "join: %s is %s and %s is %s: they never match", l.name, jcolKind(lc), r.name, jcolKind(rc))
		case lc.typ == chunk.Int64 && rc.typ == chunk.Int64:
			m = keyInt
		case (lc.typ == chunk.Int64 || lc.typ == chunk.Float64) && (rc.typ == chunk.Int64 || rc.typ == chunk.Float64):
			m = keyFloat
		case lc.typ == chunk.String && rc.typ == chunk.String:
			m = keyText
		case lc.typ == chunk.Bool && rc.typ == chunk.Bool:
			m = keyBool
		case lc.typ == chunk.Bytes && rc.typ == chunk.Bytes:
			m = keyBytes
		default:
			return nil, errAt(text, c.L.Pos, "join: %s is %s and %s is %s: they never match", l.name, jcolKind(lc), r.name, jcolKind(rc))
		}
		jp.eq = append(jp.eq, [2]joinCol{l, r})
		jp.modes = append(jp.modes, m)
	}
	jp.outputs()
	return jp, nil
}

// outputs lists the relation's fields: every column of each side by its
// side's name, then the bare names of USING's columns and of the fields
// of one side only.
func (jp *joinPlan) outputs() {
	for s, js := range jp.sides {
		for i, n := range js.names {
			q := js.side.Alias + "." + n
			jp.outs = append(jp.outs, joinOut{q, s, i})
			jp.star = append(jp.star, q)
		}
	}
	for s, js := range jp.sides {
		other := jp.sides[1-s]
		for i, n := range js.names {
			if isBase(n) {
				continue
			}
			using := slices.Contains(jp.j.Using, n)
			if using && s == 0 || !using && other.index(n) < 0 {
				jp.outs = append(jp.outs, joinOut{n, s, i})
			}
		}
	}
}

// namesIn returns the names text has: a statement reads no column it
// does not name (but SELECT * names all).
func namesIn(text string) map[string]bool {
	toks, _ := lex(text) // text was parsed
	named := map[string]bool{}
	for _, t := range toks {
		if t.kind == tIdent || t.kind == tQuoted {
			named[t.text] = true
		}
	}
	return named
}

// keyOf appends the equality key of row r of side s to buf; ok is false
// when a column is null (no match).
func (jp *joinPlan) keyOf(buf []byte, s, r int) ([]byte, bool) {
	for k, e := range jp.eq {
		c := jp.sides[s].cols[e[s].col]
		if !c.valid[r] {
			return buf, false
		}
		switch jp.modes[k] {
		case keyInt:
			buf = binary.LittleEndian.AppendUint64(buf, uint64(c.ints[r]))
		case keyFloat:
			f := 0.0
			if c.typ == chunk.Int64 {
				f = float64(c.ints[r])
			} else {
				f = c.floats[r]
			}
			switch {
			case f == 0:
				f = 0 // -0 equals 0
			case math.IsNaN(f):
				f = math.NaN()
			}
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(f))
		case keyBool:
			if c.bools[r] {
				buf = append(buf, 1)
			} else {
				buf = append(buf, 0)
			}
		default:
			buf = binary.AppendUvarint(buf, uint64(len(c.strs[r])))
			buf = append(buf, c.strs[r]...)
		}
	}
	return buf, true
}

// orderOf is row r's ASOF value on side s; ok is false for a null.
func (jp *joinPlan) orderOf(s, r int) (i int64, f float64, ok bool) {
	c := jp.sides[s].cols[jp.ineq[s].col]
	if !c.valid[r] {
		return 0, 0, false
	}
	if c.typ == chunk.Int64 {
		return c.ints[r], float64(c.ints[r]), true
	}
	return 0, c.floats[r], true
}

// joinGroup is the right rows of one key; for ASOF in order of their
// inequality column (ties in the right's order).
type joinGroup struct {
	rows   []int32
	ints   []int64
	floats []float64
}

// buildRight groups the right rows by key.
func (jp *joinPlan) buildRight() map[string]*joinGroup {
	groups := map[string]*joinGroup{}
	var buf []byte
	for r := range jp.sides[1].rows {
		var ok bool
		buf, ok = jp.keyOf(buf[:0], 1, r)
		if !ok {
			continue
		}
		var iv int64
		var fv float64
		if jp.ineq != nil {
			if iv, fv, ok = jp.orderOf(1, r); !ok {
				continue
			}
		}
		g := groups[string(buf)]
		if g == nil {
			g = &joinGroup{}
			groups[string(buf)] = g
		}
		g.rows = append(g.rows, int32(r))
		if jp.ineq != nil {
			g.ints, g.floats = append(g.ints, iv), append(g.floats, fv)
		}
	}
	if jp.ineq != nil {
		for _, g := range groups {
			sort.Stable(g)
		}
	}
	return groups
}

func (g *joinGroup) Len() int { return len(g.rows) }
func (g *joinGroup) Less(a, b int) bool {
	if g.floats[a] != g.floats[b] || g.ints == nil {
		return g.floats[a] < g.floats[b]
	}
	return g.ints[a] < g.ints[b]
}
func (g *joinGroup) Swap(a, b int) {
	g.rows[a], g.rows[b] = g.rows[b], g.rows[a]
	g.ints[a], g.ints[b] = g.ints[b], g.ints[a]
	g.floats[a], g.floats[b] = g.floats[b], g.floats[a]
}

// cmp compares row k of g with the value (iv, fv): -1, 0 or 1.
func (jp *joinPlan) cmp(g *joinGroup, k int, iv int64, fv float64) int {
	if !jp.floatOrder {
		return compareInts(g.ints[k], iv)
	}
	switch {
	case g.floats[k] < fv:
		return -1
	case g.floats[k] > fv:
		return 1
	case g.floats[k] == fv:
		return 0
	}
	return 1 // NaN: never matches
}

func compareInts(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// asofMatch is the right row ASOF matches to the left value, -1 if none.
func (jp *joinPlan) asofMatch(g *joinGroup, iv int64, fv float64) int32 {
	n := len(g.rows)
	if jp.floatOrder && math.IsNaN(fv) {
		return -1
	}
	// ub: the first row greater than the value; lb: the first not less.
	ub := sort.Search(n, func(k int) bool { return jp.cmp(g, k, iv, fv) > 0 })
	lb := sort.Search(n, func(k int) bool { return jp.cmp(g, k, iv, fv) >= 0 })
	last := func(k int) int32 { // the last row with row k's value
		e := sort.Search(n, func(x int) bool { return jp.cmp(g, x, g.ints0(k), g.floats[k]) > 0 })
		return g.rows[e-1]
	}
	switch jp.ineqOp {
	case ">=": // right <= left
		if ub > 0 {
			return g.rows[ub-1]
		}
	case ">": // right < left
		if lb > 0 {
			return g.rows[lb-1]
		}
	case "<=": // right >= left
		if lb < n {
			return last(lb)
		}
	case "<": // right > left
		if ub < n {
			return last(ub)
		}
	}
	return -1
}

func (g *joinGroup) ints0(k int) int64 {
	if g.ints == nil {
		return 0
	}
	return g.ints[k]
}

// joinSource runs st's join and holds its result.
func joinSource(ctx context.Context, st *Statement, text string, open Opener, o *Options, in inValues) (*subSource, error) {
	j := st.Join
	var named map[string]bool
	if !st.Star {
		named = namesIn(text)
		for _, s := range []*JoinSide{&j.Left, &j.Right} {
			if slices.ContainsFunc(st.Items, func(it SelectItem) bool { return it.Col != nil && it.Col.Name == s.Alias+".*" }) {
				named[s.Alias+".*"] = true // SELECT a.*: all of a
				continue
			}
			if s.stream { // read only the fields the statement names
				s.St.keep = map[string]bool{}
				for n := range named {
					s.St.keep[strings.TrimPrefix(n, s.Alias+".")] = true
				}
			}
		}
	}
	rr, err := exec(ctx, j.Right.St, text, open, o)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	right, err := newJoinSide(&j.Right, rr.Schema(), text)
	if err != nil {
		return nil, err
	}
	for rr.Next() {
		rec := rr.RecordBatch()
		if right.rows+int(rec.NumRows()) > maxJoinRightRows {
			return nil, errAt(text, j.Right.Pos, "join: its right side %s passes %d rows, which a join holds in memory: narrow it (a subquery with WHERE time ...), aggregate it, or swap the sides (the left side streams)", j.Right.Alias, maxJoinRightRows)
		}
		if err := right.load(rec, false, text); err != nil {
			return nil, err
		}
	}
	if err := rr.Err(); err != nil {
		return nil, err
	}
	lr, err := exec(ctx, j.Left.St, text, open, o)
	if err != nil {
		return nil, err
	}
	defer lr.Release()
	left, err := newJoinSide(&j.Left, lr.Schema(), text)
	if err != nil {
		return nil, err
	}
	jp, err := planJoin(j, left, right, text)
	if err != nil {
		return nil, err
	}
	if named != nil {
		jp.outs = slices.DeleteFunc(jp.outs, func(o joinOut) bool {
			return !named[o.name] && !named[jp.sides[o.side].side.Alias+".*"]
		})
	}
	groups := jp.buildRight()
	src := &subSource{join: j.String(), star: jp.star}
	for _, out := range jp.outs {
		src.fields = append(src.fields, FieldDef{Name: out.name, Type: jp.sides[out.side].cols[out.col].typ})
		if jp.sides[out.side].cols[out.col].instant {
			if src.instants == nil {
				src.instants = map[string]bool{}
			}
			src.instants[out.name] = true
		}
	}
	w := newJoinWriter(jp, &subBuilder{src: src, pos: j.Pos, text: text})
	defer w.stop()
	if w.where, err = joinWhere(st, text, src, o, in); err != nil {
		return nil, err
	}
	outer := strings.HasSuffix(j.Kind, "left")
	// A statement that takes the first rows as they come (LIMIT, no
	// WHERE, order, grouping or window) needs no more of the join.
	enough := -1
	if st.Limit >= 0 && (st.Where == nil || w.where != nil) && len(st.OrderBy) == 0 && !isAggregate(st) &&
		!slices.ContainsFunc(st.Items, func(it SelectItem) bool { return it.Win != nil }) {
		enough = int(min(st.Limit+st.Offset, int64(maxSubqueryRows)))
	}
	var buf, prevKey []byte
	var prev *joinGroup // the group of prevKey: a series' rows come in runs
	var li, ri []int32
	for lr.Next() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := left.load(lr.RecordBatch(), true, text); err != nil {
			return nil, err
		}
		li, ri = li[:0], ri[:0]
		for r := range left.rows {
			var g *joinGroup
			key, ok := jp.keyOf(buf[:0], 0, r)
			buf = key
			switch {
			case ok && prevKey != nil && string(key) == string(prevKey):
				g = prev
			case ok:
				g = groups[string(key)]
				prev, prevKey = g, append(prevKey[:0], key...)
			}
			n := len(li)
			if g != nil {
				if jp.ineq == nil {
					for _, m := range g.rows {
						li, ri = append(li, int32(r)), append(ri, m)
					}
				} else if iv, fv, ok := jp.orderOf(0, r); ok {
					if m := jp.asofMatch(g, iv, fv); m >= 0 {
						li, ri = append(li, int32(r)), append(ri, m)
					}
				}
			}
			if outer && len(li) == n {
				li, ri = append(li, int32(r)), append(ri, -1)
			}
			if enough >= 0 && w.where == nil && src.rows+len(li) >= enough {
				li, ri = li[:enough-src.rows], ri[:enough-src.rows]
				break
			}
			if len(li) >= subBlockRows {
				if err := w.write(li, ri); err != nil {
					return nil, err
				}
				li, ri = li[:0], ri[:0]
				if enough >= 0 && w.base >= enough {
					break
				}
			}
		}
		if err := w.write(li, ri); err != nil {
			return nil, err
		}
		if enough >= 0 && (w.where == nil && src.rows >= enough || w.base >= enough) { // w.base: rows WHERE took
			break
		}
	}
	if err := lr.Err(); err != nil {
		return nil, err
	}
	if err := w.finish(); err != nil {
		return nil, err
	}
	return src, nil
}

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
	bt := &batch{rows: blk.Rows, seq: cs[0].Ints, time: cs[1].Ints, series: &cs[2], key: &cs[3], op: cs[4].Ints,
		fields: make(map[string]*chunk.Column, len(cs)-5)}
	for i := 5; i < len(cs); i++ {
		bt.fields[cs[i].Name] = &cs[i]
	}
	sel := make([]int32, blk.Rows)
	for i := range sel {
		sel[i] = int32(i)
	}
	sel = w.where.eval(bt, sel)
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
// rows). It is nil when there is none, or when it names seq (the
// relation's row numbers, which it changes).
func joinWhere(st *Statement, text string, src *subSource, o *Options, in inValues) (pred, error) {
	if st.Where == nil {
		return nil, nil
	}
	seq := false
	walkExpr(st.Where, func(n string) { seq = seq || n == ColSeq }, func() {})
	if seq {
		return nil, nil
	}
	fs := &fieldSet{instants: src.instants, star: src.star}
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
// (-1: none, the right's columns null).
func (w *joinWriter) write(li, ri []int32) error {
	b, jp := w.b, w.jp
	left := jp.sides[0]
	base := [4]int{left.index(ColTime), left.index(ColSeries), left.index(ColKey), left.index(ColOp)}
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
			l := int(li[off+k])
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
			src := jp.sides[out.side].cols[out.col]
			rows := li
			if out.side == 1 {
				rows = ri
			}
			for k := range n {
				r := int(rows[off+k])
				valid := r >= 0 && src.valid[r]
				c.Valid = append(c.Valid, valid)
				if r < 0 {
					r = -1
				}
				switch c.Type {
				case chunk.Int64:
					c.Ints = append(c.Ints, valueOr(src.ints, r))
				case chunk.Float64:
					c.Floats = append(c.Floats, valueOr(src.floats, r))
				case chunk.Bool:
					c.Bools = append(c.Bools, valueOr(src.bools, r))
				default:
					c.Strs = append(c.Strs, valueOr(src.strs, r))
				}
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

// valueOr is v[r], or the zero value for r < 0.
func valueOr[T any](v []T, r int) T {
	if r < 0 {
		var z T
		return z
	}
	return v[r]
}
