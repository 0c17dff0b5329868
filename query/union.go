package query

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// SELECT ... UNION ALL SELECT ... [ORDER BY ...] [LIMIT n] [OFFSET m]:
// every row of each SELECT, in turn. The SELECTs must give as many
// columns, of the same types, position by position; the names are the
// first SELECT's. Without ORDER BY, LIMIT or OFFSET the results stream
// one after the other. With them, the rows are held as a subquery's are
// (at most maxSubqueryRows) and the union is the subquery of
// SELECT <its columns> FROM (...) ORDER BY ... LIMIT ...

// unionTail parses the [UNION | INTERSECT | EXCEPT [ALL | DISTINCT]
// SELECT ...]... after the SELECT parsed into st (its SELECT at pos),
// making st their result (setop.go for all but UNION ALL): INTERSECT
// first, then UNION and EXCEPT from left to right, as SQL has it. ORDER
// BY, LIMIT and OFFSET after the last SELECT are the result's.
func (p *parser) unionTail(st *Statement, pos int) {
	if !isSetOp(p.peek()) {
		return
	}
	explain, analyze, with := st.Explain, st.Analyze, st.With
	first := *st
	first.Explain, first.Analyze, first.With = false, false, nil
	sels, poss, ops := []*Statement{&first}, []int{pos}, []string{}
	for isSetOp(p.peek()) {
		u := p.advance()
		op := strings.ToLower(u.text)
		if p.acceptKw("all") {
			op += " all"
		} else {
			p.acceptKw("distinct")
		}
		word := strings.ToUpper(op)
		prev := sels[len(sels)-1]
		if len(prev.OrderBy) > 0 || prev.Limit >= 0 || prev.limitPct != nil || prev.Offset > 0 {
			p.fail(u.pos, "ORDER BY, LIMIT and OFFSET go after the last SELECT of a %s, where they apply to all its rows; "+
				"to limit one SELECT, make it a subquery: SELECT * FROM (SELECT ... LIMIT n)", word)
		}
		t := p.peek()
		if !isKw(t, "select") {
			p.fail(t.pos, "expected SELECT after %s, found %s", word, t.describe())
		}
		next := &Statement{Limit: -1}
		p.selectBody(next)
		sels, poss, ops = append(sels, next), append(poss, t.pos), append(ops, op)
	}
	// INTERSECT binds first: its chains become single operands.
	type operand struct {
		st  *Statement
		pos int
	}
	terms := []operand{{sels[0], poss[0]}}
	var rest []string
	for i, op := range ops {
		r := operand{sels[i+1], poss[i+1]}
		if strings.HasPrefix(op, "intersect") {
			l := &terms[len(terms)-1]
			l.st = setOpOf(l.st, l.pos, op, r.st, r.pos)
			continue
		}
		terms, rest = append(terms, r), append(rest, op)
	}
	root := terms[0].st
	for i, op := range rest {
		root = setOpOf(root, pos, op, terms[i+1].st, terms[i+1].pos)
	}
	last := sels[len(sels)-1]
	*st = *root
	st.Explain, st.Analyze, st.With, st.OrderBy, st.Limit, st.limitPct, st.Offset = explain, analyze, with, last.OrderBy, last.Limit, last.limitPct, last.Offset
	last.OrderBy, last.Limit, last.limitPct, last.Offset = nil, -1, nil, 0
}

// isSetOp reports whether t is UNION, INTERSECT or EXCEPT.
func isSetOp(t token) bool { return isKw(t, "union") || isKw(t, "intersect") || isKw(t, "except") }

// setOpOf returns l op r (at lpos and rpos): a UNION ALL of l's
// SELECTs and r when l is a UNION ALL already, else a statement of the
// two.
func setOpOf(l *Statement, lpos int, op string, r *Statement, rpos int) *Statement {
	if op == "union all" {
		op = ""
		if l.Union != nil && l.SetOp == "" {
			l.Union, l.unionPos = append(l.Union, r), append(l.unionPos, rpos)
			return l
		}
	}
	return &Statement{Union: []*Statement{l, r}, unionPos: []int{lpos, rpos}, SetOp: op, Stream: "(union)", streamPos: lpos, Limit: -1}
}

// execUnion runs a UNION ALL statement.
func execUnion(ctx context.Context, st *Statement, text string, open Opener, o *Options) (array.RecordReader, error) {
	if len(st.OrderBy) == 0 && st.Limit < 0 && st.Offset == 0 && !st.Explain {
		return concatUnion(ctx, st, text, open, o)
	}
	if st.distinctAll { // SELECT DISTINCT * of rows that have a seq: all distinct
		b := *st.Union[0]
		b.Limit = 0
		rr, err := exec(ctx, &b, text, open, o)
		if err != nil {
			return nil, err
		}
		hasSeq := len(rr.Schema().FieldIndices(ColSeq)) > 0
		rr.Release()
		if hasSeq {
			b.OrderBy, b.Limit, b.Offset, b.Explain = st.OrderBy, st.Limit, st.Offset, st.Explain
			return exec(ctx, &b, text, open, o)
		}
	}
	// Hold the rows and read them as a subquery's, in order.
	inner := &Statement{Union: st.Union, unionPos: st.unionPos, SetOp: st.SetOp, Limit: -1, Stream: "(union)", streamPos: st.streamPos, unionHeld: true, unpivot: st.unpivot}
	outer := &Statement{Explain: st.Explain, Sub: inner, Stream: "(subquery)", streamPos: st.streamPos,
		OrderBy: st.OrderBy, Limit: st.Limit, Offset: st.Offset}
	sub, err := subquerySource(ctx, outer, text, open, o)
	if err != nil {
		return nil, err
	}
	for _, name := range sub.names {
		if name == "seq" {
			if st.distinctAll {
				return nil, errAt(text, st.streamPos, "SELECT DISTINCT * with ORDER BY, LIMIT or OFFSET holds its rows, which keep no seq column: * EXCLUDE (seq), or name the columns") // (not reached: execUnion runs it as SELECT *)
			}
			return nil, errAt(text, st.streamPos, "a %s with ORDER BY, LIMIT or OFFSET holds its rows, which keep no seq column: name it (seq AS id)", st.setOpWord())
		}
		if isHeldCopy(name) {
			continue
		}
		it := SelectItem{Col: &ColRef{Name: name, Pos: st.streamPos}, Pos: st.streamPos}
		if slices.Contains(sub.names, heldCopy(name)) { // its nulls kept
			it.Col.Name, it.Alias = heldCopy(name), name
		}
		outer.Items = append(outer.Items, it)
	}
	if st.Explain {
		if sub.plan, err = explainUnionLines(ctx, st, text, open, o); err != nil {
			return nil, err
		}
	}
	return execSource(ctx, outer, text, sub, o, inValues{})
}

// explainUnionLines returns the plans of a union's SELECTs, each under
// its number.
func explainUnionLines(ctx context.Context, st *Statement, text string, open Opener, o *Options) ([]string, error) {
	lines := []string{fmt.Sprintf("%s of %d selects:", strings.ToLower(st.setOpWord()), len(st.Union))}
	if xs, err := planShared(ctx, st, text, open, o); err != nil {
		return nil, err
	} else if xs != nil {
		lines = append(lines, fmt.Sprintf("one scan of %s, each batch aggregated by every select", st.Union[0].Stream))
	}
	for i, op := range st.Union {
		l, err := explainLinesOf(ctx, op, text, open, o)
		if err != nil {
			return nil, err
		}
		lines = append(lines, fmt.Sprintf("select %d:", i+1))
		for _, s := range l {
			lines = append(lines, "  "+s)
		}
	}
	return lines, nil
}

// concatUnion starts every SELECT of the union, checks that their
// columns agree, and streams their results one after the other.
func concatUnion(ctx context.Context, st *Statement, text string, open Opener, o *Options) (array.RecordReader, error) {
	u := &unionReader{mem: o.withDefaults().Allocator}
	u.refs.Store(1)
	shared, err := sharedScan(ctx, st, text, open, o)
	if err != nil {
		return nil, err
	}
	u.rs = shared
	for _, op := range st.Union[len(u.rs):] {
		rr, err := exec(ctx, op, text, open, o)
		if err != nil {
			u.Release()
			return nil, err
		}
		u.rs = append(u.rs, rr)
	}
	u.casts = make([][]bool, len(u.rs))
	fields := slices.Clone(u.rs[0].Schema().Fields())
	untyped := nullItems(st.Union[0], fields) // columns of NULL alone so far
	for i, rr := range u.rs[1:] {
		if err := unionMatch(fields, untyped, rr.Schema(), nullItems(st.Union[i+1], rr.Schema().Fields()), text, st.unionPos[i+1], st.setOpWord()); err != nil {
			if st.unpivot { // its SELECTs are its ON columns
				first, this := st.Union[0].Items[2].Col.Name, st.Union[i+1].Items[2].Col.Name
				err = errAt(text, st.unionPos[i+1], "UNPIVOT puts %s and %s in one column, and their types differ (%s, %s): CAST one in a subquery",
					first, this, typeWord(u.rs[0].Schema().Field(len(fields)-1).Type), typeWord(rr.Schema().Field(rr.Schema().NumFields()-1).Type))
			}
			u.Release()
			return nil, err
		}
	}
	// An integer column that is a float in another SELECT is a float; a
	// dictionary text column (series, op) that is plain text in another
	// is plain text.
	for i, rr := range u.rs {
		for c, f := range rr.Schema().Fields() {
			if !arrow.TypeEqual(fields[c].Type, f.Type) {
				if u.casts[i] == nil {
					u.casts[i] = make([]bool, len(fields))
				}
				u.casts[i][c] = true
			}
			fields[c].Nullable = fields[c].Nullable || f.Nullable
		}
	}
	if st.unionHeld {
		for c, f := range slices.Clone(fields) {
			if f.Name == ColSeries || f.Name == ColKey || f.Name == ColOp {
				u.copies = append(u.copies, c)
				fields = append(fields, arrow.Field{Name: heldCopy(f.Name), Type: f.Type, Nullable: true})
			}
		}
	}
	u.schema = arrow.NewSchema(fields, nil)
	if st.SetOp != "" {
		return newSetOpReader(u, st, text), nil
	}
	return u, nil
}

// A union held for ORDER BY, LIMIT or OFFSET is read as a subquery's
// result, whose series, key and op are its rows' own: text, "" where
// the union has NULL (a ROLLUP's total row). The union gives a copy of
// each of them under another name, which the statement returns in its
// place, nulls and all.
func heldCopy(name string) string { return "\x00" + name }

func isHeldCopy(name string) bool { return strings.HasPrefix(name, "\x00") }

// unionMatch checks that a SELECT of a union (at pos) gives as many
// columns as the first, of the types in fields (so far), and widens an
// integer column to float where one of them is a float.
func unionMatch(fields []arrow.Field, untyped []bool, sc *arrow.Schema, nulls []bool, text string, pos int, what string) error {
	if sc.NumFields() != len(fields) {
		return errAt(text, pos, "%s: this SELECT gives %s, the first %d: each SELECT must give as many", what, columnsWord(sc.NumFields()), len(fields))
	}
	for c := range sc.NumFields() {
		a, b := &fields[c], sc.Field(c)
		switch {
		case nulls[c]: // NULL takes the others' type
		case untyped[c]:
			a.Type, untyped[c] = b.Type, false
		case arrow.TypeEqual(a.Type, b.Type):
		case a.Type.ID() == arrow.INT64 && b.Type.ID() == arrow.FLOAT64:
			a.Type = arrow.PrimitiveTypes.Float64
		case a.Type.ID() == arrow.FLOAT64 && b.Type.ID() == arrow.INT64:
		case isText(a.Type) && isText(b.Type):
			a.Type = arrow.BinaryTypes.String
		default:
			return errAt(text, pos, "%s: column %d (%s) is %s here and %s in the first SELECT (%s): the types must agree (CAST(x AS DOUBLE | BIGINT | VARCHAR) converts)",
				what, c+1, b.Name, typeWord(b.Type), typeWord(a.Type), a.Name)
		}
	}
	return nil
}

// typeWord names an Arrow type as the query language does.
func typeWord(t arrow.DataType) string {
	switch t.ID() {
	case arrow.INT64:
		return "an integer"
	case arrow.UINT64:
		return "a seq"
	case arrow.FLOAT64:
		return "a float"
	case arrow.STRING, arrow.DICTIONARY:
		return "text"
	case arrow.BOOL:
		return "a bool"
	case arrow.BINARY:
		return "bytes"
	case arrow.TIMESTAMP:
		return "a timestamp"
	case arrow.DURATION:
		return "a duration"
	}
	return t.String()
}

// unionReader streams the results of a union's SELECTs in turn, each
// batch under the union's schema.
type unionReader struct {
	refs   atomic.Int64
	mem    memory.Allocator
	schema *arrow.Schema
	rs     []array.RecordReader // the SELECTs not yet read to their end
	casts  [][]bool             // per SELECT of rs, the integer columns to give as floats
	copies []int                // columns given again at the end (heldCopy)
	cur    arrow.RecordBatch
	err    error
}

func (u *unionReader) Retain() { u.refs.Add(1) }

func (u *unionReader) Release() {
	if u.refs.Add(-1) != 0 {
		return
	}
	u.drop()
	for _, rr := range u.rs {
		rr.Release()
	}
	u.rs = nil
}

func (u *unionReader) drop() {
	if u.cur != nil {
		u.cur.Release()
		u.cur = nil
	}
}

func (u *unionReader) Schema() *arrow.Schema { return u.schema }

func (u *unionReader) Next() bool {
	u.drop()
	for u.err == nil && len(u.rs) > 0 {
		rr := u.rs[0]
		if rr.Next() {
			rec := rr.RecordBatch()
			cols := rec.Columns()
			if cast := u.casts[0]; cast != nil {
				cols = slices.Clone(cols)
				for c, ok := range cast {
					if ok {
						cols[c] = castColumn(u.mem, cols[c], u.schema.Field(c).Type)
						defer cols[c].Release()
					}
				}
			}
			for _, c := range u.copies {
				cols = append(cols[:len(cols):len(cols)], cols[c])
			}
			u.cur = array.NewRecordBatch(u.schema, cols, rec.NumRows())
			return true
		}
		if u.err = rr.Err(); u.err != nil {
			return false
		}
		rr.Release() // read to its end: free what it holds now
		u.rs, u.casts = u.rs[1:], u.casts[1:]
	}
	return false
}

// isText reports whether t is text: utf8, or a dictionary of utf8.
func isText(t arrow.DataType) bool {
	if d, ok := t.(*arrow.DictionaryType); ok {
		t = d.ValueType
	}
	return t.ID() == arrow.STRING
}

// nullItems reports which columns (fields) of SELECT st are the NULL
// literal alone, which a union gives the other SELECTs' type.
func nullItems(st *Statement, fields []arrow.Field) []bool {
	out := make([]bool, len(fields))
	if st.Star {
		return out
	}
	for c, f := range fields {
		for _, it := range st.Items {
			if it.Expr != nil && it.Expr.Op == 0 && it.Expr.Lit != nil && it.Expr.Lit.Kind == LitNull && it.Name() == f.Name {
				out[c] = true
			}
		}
	}
	return out
}

// castColumn returns a column in the type unionMatch widened it to (to):
// an int64 one as float64, a dictionary one as utf8, a NULL literal's
// as nulls of to.
func castColumn(mem memory.Allocator, col arrow.Array, to arrow.DataType) arrow.Array {
	if col.NullN() == col.Len() {
		return array.MakeArrayOfNull(mem, to, col.Len())
	}
	switch a := col.(type) {
	case *array.Int64:
		b := array.NewFloat64Builder(mem)
		defer b.Release()
		b.Reserve(a.Len())
		for i := range a.Len() {
			if a.IsNull(i) {
				b.AppendNull()
			} else {
				b.UnsafeAppend(float64(a.Value(i)))
			}
		}
		return b.NewArray()
	case *array.Dictionary:
		dict := a.Dictionary().(*array.String)
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.Reserve(a.Len())
		for i := range a.Len() {
			if a.IsNull(i) {
				b.AppendNull()
			} else {
				b.Append(dict.Value(a.GetValueIndex(i)))
			}
		}
		return b.NewArray()
	}
	col.Retain()
	return col
}

func (u *unionReader) RecordBatch() arrow.RecordBatch { return u.cur }

// Record is RecordBatch (the interface's deprecated name).
func (u *unionReader) Record() arrow.RecordBatch { return u.cur }

func (u *unionReader) Err() error { return u.err }

// columnsWord is "1 column", "n columns".
func columnsWord(n int) string { return countWord(n, "column") }

// countWord is "1 thing", "n things".
func countWord(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
