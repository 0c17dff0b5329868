package query

import (
	"context"
	"fmt"
	"math"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/seg"
)

// FROM (SELECT ...): the outer query reads the inner one's result as
// the raw view of a stream held in memory. Its rows keep the result's
// order as seqs 1, 2, ...; its columns time (a timestamp), series, key
// (text) and op (put, delete, drop) are the rows' own, and every other
// column is a field (a timestamp as int64 nanoseconds, uint64 as int64).
// A result column named seq is dropped: seq is the row's position.
// SELECT * outside gives the result's columns as they came, no others.
// The
// result is encoded into blocks as it streams in, so what is held is the
// compressed blocks, at most maxSubqueryRows rows.

// maxSubqueryRows bounds a subquery's result.
var maxSubqueryRows = 1 << 24 // a variable for tests

// subquery parses the rest of FROM (SELECT ...) [[AS] name], the "(" at t.
func (p *parser) subquery(st *Statement, t token) {
	sub := &Statement{Limit: -1}
	p.relation(sub, "FROM (")
	p.expectPunct(")")
	st.Sub, st.Stream, st.streamPos = sub, "(subquery)", t.pos
	st.subAlias, st.subAliasPos = p.aliasAfterSource("subquery")      // a name: for a JOIN; else nothing refers to it
	if sub.Values != nil && st.subAlias != "" && p.acceptPunct("(") { // AS t(x, y): the columns' names
		p.columnNames(sub.Values)
	}
}

// relation parses what a subquery or a WITH relation holds (after what,
// "FROM (" or "name AS ("): a SELECT (or a union of them), a PIVOT, an
// UNPIVOT or a VALUES list.
func (p *parser) relation(sub *Statement, what string) {
	k := p.peek()
	switch {
	case isKw(k, "values"):
		p.advance()
		sub.Values, sub.Stream, sub.streamPos = p.valuesList(k.pos), "(values)", k.pos
	case isKw(k, "pivot") || isKw(k, "unpivot"):
		p.pivotOrUnpivot(sub)
	case !isKw(k, "select"):
		p.fail(k.pos, "expected SELECT after %s, found %s", what, k.describe())
	default:
		p.selectBody(sub)
		p.unionTail(sub, k.pos)
	}
}

// subSource is a subquery's result as a Source: one segment of blocks.
type subSource struct {
	seg   *subSegment
	rows  int
	bytes int
	plan  []string // the subquery's EXPLAIN, for the outer one's
	// instants are the int64 fields that were timestamps (day in SELECT
	// date_trunc('day', time) AS day ...): instants again outside
	instants map[string]bool
	// durations are the int64 fields that were durations: spans again
	// outside
	durations map[string]bool
	// join is the JOIN this relation is the result of ("" for a
	// subquery); star lists its columns for SELECT *: each side's, named
	// by the side (a.time, b.value).
	join string
	star []string
	// fields are the result's fields as its schema says, so that an
	// empty result still has its columns
	fields []FieldDef
	// names are the result's columns, in order
	names []string
	// cte names the WITH relation this is ("" for a subquery)
	cte string
	// oneRow: the source of a SELECT without FROM
	oneRow bool
}

// oneRowSource is what a SELECT without FROM reads: one row of no
// fields (seq 1, time 0, series and key "", op put).
func oneRowSource() (*subSource, error) {
	src := &subSource{oneRow: true}
	b := &subBuilder{src: src}
	rec := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer rec.Release()
	if err := b.add(rec); err != nil {
		return nil, err
	}
	return src, b.flush()
}

// explainLinesOf returns the lines of EXPLAIN st.
func explainLinesOf(ctx context.Context, st *Statement, text string, open Opener, o *Options) ([]string, error) {
	e := *st
	e.Explain = true
	rr, err := exec(ctx, &e, text, open, o)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	var lines []string
	for rr.Next() {
		col := rr.RecordBatch().Column(0).(*array.String)
		for i := range col.Len() {
			lines = append(lines, col.Value(i))
		}
	}
	return lines, rr.Err()
}

func (s *subSource) Segments() []Segment {
	if s.seg == nil {
		return nil
	}
	return []Segment{s.seg}
}
func (s *subSource) Deleted() *roaring64.Bitmap { return nil }

func (s *subSource) data() [][]byte {
	if s.seg == nil {
		return nil
	}
	return s.seg.data
}

type subSegment struct {
	blocks []seg.BlockMeta
	data   [][]byte
}

func (s *subSegment) Name() string                 { return "(subquery)" }
func (s *subSegment) Key() string                  { return "" }
func (s *subSegment) Blocks() []seg.BlockMeta      { return s.blocks }
func (s *subSegment) MayContainSeries(string) bool { return true }
func (s *subSegment) ReadBlock(i int) ([]byte, error) {
	return s.data[i], nil
}

// subquerySource runs sub and holds its result (see above).
func subquerySource(ctx context.Context, st *Statement, text string, open Opener, o *Options) (*subSource, error) {
	rr, err := exec(ctx, st.Sub, text, open, o)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	return holdResult(rr, st.streamPos, text)
}

// holdResult holds the rows of rr as a subquery's result (at pos).
func holdResult(rr array.RecordReader, pos int, text string) (*subSource, error) {
	src := &subSource{}
	for _, f := range rr.Schema().Fields() {
		src.names = append(src.names, f.Name)
		src.star = append(src.star, f.Name)
		if t, ok := jcolType(f.Type); ok && !isBase(f.Name) {
			src.fields = append(src.fields, FieldDef{Name: f.Name, Type: t})
			if f.Type.ID() == arrow.TIMESTAMP {
				if src.instants == nil {
					src.instants = map[string]bool{}
				}
				src.instants[f.Name] = true
			}
			if f.Type.ID() == arrow.DURATION {
				if src.durations == nil {
					src.durations = map[string]bool{}
				}
				src.durations[f.Name] = true
			}
		}
	}
	b := &subBuilder{src: src, pos: pos, text: text}
	for rr.Next() {
		if err := b.add(rr.RecordBatch()); err != nil {
			return nil, err
		}
	}
	if err := rr.Err(); err != nil {
		return nil, err
	}
	if err := b.flush(); err != nil {
		return nil, err
	}
	return src, nil
}

// subBuilder turns record batches into blocks of up to subBlockRows.
type subBuilder struct {
	src  *subSource
	pos  int
	text string
	enc  chunk.Encoder
	blk  *chunk.Block
	cols map[string]int // column index in blk by name
}

var subBlockRows = 8192 // a variable for tests

func (b *subBuilder) fail(format string, args ...any) error {
	what := "subquery"
	if b.src.join != "" {
		what = "join"
	}
	return errAt(b.text, b.pos, what+": "+format, args...)
}

// start begins a block: the base columns, no field yet.
func (b *subBuilder) start() {
	b.blk = &chunk.Block{Columns: []chunk.Column{
		{Name: ColSeq, Type: chunk.Int64}, {Name: ColTime, Type: chunk.Int64},
		{Name: ColSeries, Type: chunk.String}, {Name: ColKey, Type: chunk.String}, {Name: ColOp, Type: chunk.Int64}}}
	b.cols = map[string]int{}
}

func (b *subBuilder) add(rec arrow.RecordBatch) error {
	sc := rec.Schema()
	seen := map[string]bool{}
	for _, f := range sc.Fields() {
		if seen[f.Name] {
			return b.fail("its column %s appears twice: rename one (AS ...)", f.Name)
		}
		if len(f.Name) > chunk.MaxNameLen {
			return b.fail("its column %.40s... has a name of %d bytes, which a held result cannot keep (at most %d): rename it (AS ...)", f.Name, len(f.Name), chunk.MaxNameLen)
		}
		seen[f.Name] = true
		if f.Type.ID() == arrow.TIMESTAMP && !isBase(f.Name) {
			if b.src.instants == nil {
				b.src.instants = map[string]bool{}
			}
			b.src.instants[f.Name] = true
		}
		if f.Type.ID() == arrow.DURATION && !isBase(f.Name) {
			if b.src.durations == nil {
				b.src.durations = map[string]bool{}
			}
			b.src.durations[f.Name] = true
		}
	}
	for off := 0; off < int(rec.NumRows()); {
		if b.blk == nil {
			b.start()
		}
		n := min(int(rec.NumRows())-off, subBlockRows-b.blk.Rows)
		if b.src.rows+n > maxSubqueryRows {
			return b.fail("its result passes %d rows; aggregate or narrow it", maxSubqueryRows)
		}
		base := b.blk.Rows
		cs := b.blk.Columns
		for i := range n {
			cs[0].Ints = append(cs[0].Ints, int64(b.src.rows+i+1))
		}
		cs[1].Ints = append(cs[1].Ints, make([]int64, n)...)
		cs[2].Strs = append(cs[2].Strs, make([]string, n)...)
		cs[3].Strs = append(cs[3].Strs, make([]string, n)...)
		cs[4].Ints = append(cs[4].Ints, make([]int64, n)...)
		for i := range n {
			cs[4].Ints[base+i] = 1 // put
		}
		for ci, f := range sc.Fields() {
			if err := b.column(f, rec.Column(ci), off, n, base); err != nil {
				return err
			}
		}
		b.blk.Rows += n
		b.src.rows += n
		for i := range b.blk.Columns { // a field absent from these rows: null
			c := &b.blk.Columns[i]
			if c.Valid != nil && len(c.Valid) < b.blk.Rows {
				c.Valid = append(c.Valid, make([]bool, b.blk.Rows-len(c.Valid))...)
			}
		}
		off += n
		if b.blk.Rows == subBlockRows {
			if err := b.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// column copies rows [off, off+n) of the result column f into the block
// from row base.
func (b *subBuilder) column(f arrow.Field, a arrow.Array, off, n, base int) error {
	cs := b.blk.Columns
	switch f.Name {
	case ColSeq:
		return nil
	case ColTime:
		t, ok := a.(*array.Timestamp)
		if !ok {
			return b.fail("its column time is %s, not a timestamp: rename it (AS ...)", a.DataType())
		}
		for i := range n {
			cs[1].Ints[base+i] = int64(t.Value(off + i))
		}
		return nil
	case ColSeries, ColKey, ColOp:
		idx := map[string]int{ColSeries: 2, ColKey: 3, ColOp: 4}[f.Name]
		for i := range n {
			s, ok, err := textAt(a, off+i)
			if err != nil {
				return b.fail("its column %s is %s, not text: rename it (AS ...)", f.Name, a.DataType())
			}
			if f.Name != ColOp {
				cs[idx].Strs[base+i] = s
				continue
			}
			code := -1
			for c, name := range opNames {
				if c > 0 && ok && name == s {
					code = c
				}
			}
			if code < 0 {
				return b.fail("its column op holds %q, not put, delete or drop: rename it (AS ...)", s)
			}
			cs[4].Ints[base+i] = int64(code)
		}
		return nil
	}
	var t chunk.Type
	switch a.DataType().ID() {
	case arrow.INT64, arrow.UINT64, arrow.TIMESTAMP, arrow.DURATION:
		t = chunk.Int64
	case arrow.FLOAT64:
		t = chunk.Float64
	case arrow.BOOL:
		t = chunk.Bool
	case arrow.STRING, arrow.DICTIONARY:
		t = chunk.String
	case arrow.BINARY:
		t = chunk.Bytes
	default:
		return b.fail("its column %q is %s, which a stream cannot hold", f.Name, a.DataType())
	}
	ci, ok := b.cols[f.Name]
	if !ok {
		ci = len(b.blk.Columns)
		b.blk.Columns = append(b.blk.Columns, chunk.Column{Name: f.Name, Type: t, Valid: make([]bool, base)})
		b.cols[f.Name] = ci
		c := &b.blk.Columns[ci]
		switch t { // the rows before: null
		case chunk.Int64:
			c.Ints = make([]int64, base)
		case chunk.Float64:
			c.Floats = make([]float64, base)
		case chunk.Bool:
			c.Bools = make([]bool, base)
		default:
			c.Strs = make([]string, base)
		}
	}
	c := &b.blk.Columns[ci]
	for i := range n {
		r := off + i
		valid := a.IsValid(r)
		c.Valid = append(c.Valid, valid)
		switch a := a.(type) {
		case *array.Int64:
			c.Ints = append(c.Ints, a.Value(r))
		case *array.Uint64:
			if a.Value(r) > math.MaxInt64 {
				return b.fail("its column %q holds %d, beyond int64", f.Name, a.Value(r))
			}
			c.Ints = append(c.Ints, int64(a.Value(r)))
		case *array.Timestamp:
			c.Ints = append(c.Ints, int64(a.Value(r)))
		case *array.Duration:
			c.Ints = append(c.Ints, int64(a.Value(r)))
		case *array.Float64:
			c.Floats = append(c.Floats, a.Value(r))
		case *array.Boolean:
			c.Bools = append(c.Bools, a.Value(r))
		case *array.Binary:
			c.Strs = append(c.Strs, string(a.Value(r)))
		default:
			s, _, err := textAt(a, r)
			if err != nil {
				return b.fail("its column %q is %s, which a stream cannot hold", f.Name, a.DataType())
			}
			c.Strs = append(c.Strs, s)
		}
	}
	return nil
}

// textAt returns row i of a text column (utf8, or a dictionary of utf8);
// ok is false for a null.
func textAt(a arrow.Array, i int) (string, bool, error) {
	switch a := a.(type) {
	case *array.String:
		return a.Value(i), a.IsValid(i), nil
	case *array.Dictionary:
		d, ok := a.Dictionary().(*array.String)
		if !ok {
			break
		}
		if !a.IsValid(i) {
			return "", false, nil
		}
		return d.Value(a.GetValueIndex(i)), true, nil
	}
	return "", false, fmt.Errorf("not text")
}

// flush encodes the block being built.
func (b *subBuilder) flush() error {
	blk := b.blk
	b.blk = nil
	return b.encode(blk)
}

// encode adds blk to the source, encoded.
func (b *subBuilder) encode(blk *chunk.Block) error {
	if blk == nil || blk.Rows == 0 {
		return nil
	}
	for i := range blk.Columns {
		c := &blk.Columns[i]
		if c.Valid != nil && !slicesContainsFalse(c.Valid) {
			c.Valid = nil
		}
	}
	data, err := b.enc.Append(nil, blk, nil)
	if err != nil {
		return err
	}
	times := blk.Columns[1].Ints
	m := seg.BlockMeta{Rows: blk.Rows, MinSeq: uint64(blk.Columns[0].Ints[0]), MaxSeq: uint64(blk.Columns[0].Ints[blk.Rows-1]), MinTime: times[0], MaxTime: times[0]}
	for _, t := range times {
		m.MinTime, m.MaxTime = min(m.MinTime, t), max(m.MaxTime, t)
	}
	if b.src.seg == nil {
		b.src.seg = &subSegment{}
	}
	b.src.seg.blocks = append(b.src.seg.blocks, m)
	b.src.seg.data = append(b.src.seg.data, data)
	b.src.bytes += len(data)
	return nil
}

func slicesContainsFalse(v []bool) bool {
	for _, x := range v {
		if !x {
			return true
		}
	}
	return false
}
