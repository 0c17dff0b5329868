package query

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// A correlated subquery's result for one run (correlate.go): a table
// from the key, the inner terms' values, to the value, looked up by each
// outer row's terms.

// maxCorrelatedKeys bounds the keys of a correlated subquery's table.
var maxCorrelatedKeys = 1 << 20 // a variable for tests

// lookupTable is a correlated subquery's result.
type lookupTable struct {
	rows map[string]value // by encoded key (keyBytes)
	def  value            // an outer row no key matches, or with a NULL term
	kind colKind          // kInt, kFloat or kString
	ts   bool             // the values are instants
	// text: whether each key's inner term is text (else a number or a
	// time); known: the subquery gave a row, so text is set.
	text  []bool
	known bool
	// nullIn: the last term is an IN's value (Correlated.In), NULL for
	// NULL.
	nullIn bool
}

// Key encoding: per term, 's' and the text's length and bytes, 'n' and
// an int64 (an int, a time, a float of an int's value: 2 = 2.0 as SQL
// compares them), or 'f' and a float's bits.
func textKey(dst []byte, s string) []byte {
	dst = append(dst, 's')
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

func intKey(dst []byte, i int64) []byte {
	return binary.LittleEndian.AppendUint64(append(dst, 'n'), uint64(i))
}

func floatKey(dst []byte, f float64) []byte {
	if f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
		return intKey(dst, int64(f))
	}
	return binary.LittleEndian.AppendUint64(append(dst, 'f'), math.Float64bits(f))
}

// keyOf appends the key of v, of kind k.
func keyOf(dst []byte, k colKind, v value) []byte {
	switch k {
	case kString, kSeries, kKey:
		return textKey(dst, v.s)
	case kFloat:
		return floatKey(dst, v.fl())
	}
	return intKey(dst, v.i)
}

// runCorrelated runs a's correlated subquery and returns its table.
func runCorrelated(ctx context.Context, a *Arith, text string, open Opener, o *Options) (*lookupTable, error) {
	c := a.Corr
	t := &lookupTable{rows: map[string]value{}, kind: kInt, def: nullValue, text: make([]bool, c.Keys), nullIn: c.In}
	if c.Exists {
		t.def = value{}
	}
	rr, err := exec(ctx, c.Sub, text, open, o)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	// The columns by name: GROUP BY may put a key's column before the
	// value (a group column not selected by its own name).
	sc := rr.Schema()
	vi, ki := -1, make([]int, c.Keys)
	if !c.Exists {
		if vi = fieldIndex(sc, c.Sub.Items[0].Name()); vi < 0 {
			return nil, errAt(text, c.pos, "the subquery %s gives no column %s", a.scalarText, c.Sub.Items[0].Name())
		}
		var err error
		if t.kind, t.ts, err = valueKind(sc.Field(vi).Type); err != nil {
			return nil, errAt(text, c.pos, "%s gives %v, which is no value of arithmetic", a.scalarText, err)
		}
	}
	for k := range c.Keys {
		if ki[k] = fieldIndex(sc, keyName(k)); ki[k] < 0 {
			return nil, errAt(text, c.pos, "the subquery %s gives no column for %s", a.scalarText, c.inner[k])
		}
		typ := sc.Field(ki[k]).Type
		if typ.ID() == arrow.BOOL {
			return nil, errAt(text, c.pos, "%s: the subquery's %s is a bool; a correlated subquery is keyed by numbers, times or text", a.scalarText, c.inner[k])
		}
		t.text[k] = typ.ID() == arrow.STRING || typ.ID() == arrow.DICTIONARY || typ.ID() == arrow.BINARY
	}
	var key []byte
	for rr.Next() {
		rec := rr.RecordBatch()
		t.known = t.known || rec.NumRows() > 0
	rows:
		for i := range int(rec.NumRows()) {
			key = key[:0]
			for k := range c.Keys {
				col := rec.Column(ki[k])
				if col.IsNull(i) {
					continue rows // equal to nothing
				}
				var ok bool
				if key, ok = cellKey(key, col, i); !ok {
					return nil, errAt(text, c.pos, "%s: the subquery's %s gives %s, which cannot be compared", a.scalarText, c.inner[k], col.DataType())
				}
			}
			v := value{i: 1}
			if !c.Exists {
				v = cellValue(rec.Column(vi), i, t.kind)
			}
			if _, dup := t.rows[string(key)]; dup {
				if c.Exists {
					continue
				}
				return nil, errAt(text, c.pos, "%s gives more than one row for one outer row (a %s): aggregate it, or take the first with ORDER BY ... LIMIT 1", a.scalarText, c.inner[0])
			}
			if len(t.rows) == maxCorrelatedKeys {
				return nil, errAt(text, c.pos, "%s gives more than %d distinct keys; narrow it", a.scalarText, maxCorrelatedKeys)
			}
			t.rows[string(key)] = v
		}
	}
	if err := rr.Err(); err != nil {
		return nil, err
	}
	if c.Empty != nil {
		if t.def, err = emptyValue(ctx, c.Empty, t.kind, text, open, o); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// emptyValue runs st, an aggregate over no rows, and returns its value
// (NULL without a row).
func emptyValue(ctx context.Context, st *Statement, k colKind, text string, open Opener, o *Options) (value, error) {
	rr, err := exec(ctx, st, text, open, o)
	if err != nil {
		return nullValue, err
	}
	defer rr.Release()
	v := nullValue
	for rr.Next() {
		if rec := rr.RecordBatch(); rec.NumRows() > 0 && v.null {
			v = cellValue(rec.Column(0), 0, k)
		}
	}
	return v, rr.Err()
}

// valueKind returns the arithmetic kind of a result column's type.
func valueKind(t arrow.DataType) (colKind, bool, error) {
	switch t.ID() {
	case arrow.INT64, arrow.UINT64, arrow.NULL, arrow.DURATION:
		return kInt, false, nil
	case arrow.TIMESTAMP:
		return kInt, true, nil
	case arrow.FLOAT64:
		return kFloat, false, nil
	case arrow.STRING, arrow.DICTIONARY:
		return kString, false, nil
	}
	return 0, false, errString(t.String())
}

type errString string

func (e errString) Error() string { return string(e) }

// cellKey appends the key of row i of col; ok is false for a type no
// key takes.
func cellKey(dst []byte, col arrow.Array, i int) ([]byte, bool) {
	switch c := col.(type) {
	case *array.Int64:
		return intKey(dst, c.Value(i)), true
	case *array.Timestamp:
		return intKey(dst, int64(c.Value(i))), true
	case *array.Duration:
		return intKey(dst, int64(c.Value(i))), true
	case *array.Uint64:
		if c.Value(i) > math.MaxInt64 {
			return floatKey(dst, float64(c.Value(i))), true
		}
		return intKey(dst, int64(c.Value(i))), true
	case *array.Float64:
		return floatKey(dst, c.Value(i)), true
	}
	s, _, err := textAt(col, i)
	if err != nil {
		return dst, false
	}
	return textKey(dst, s), true
}

// cellValue returns row i of col as a value of kind k.
func cellValue(col arrow.Array, i int, k colKind) value {
	if col.IsNull(i) {
		return nullValue
	}
	switch c := col.(type) {
	case *array.Int64:
		return value{i: c.Value(i)}
	case *array.Timestamp:
		return value{i: int64(c.Value(i))}
	case *array.Duration:
		return value{i: int64(c.Value(i))}
	case *array.Uint64:
		if k == kFloat || c.Value(i) > math.MaxInt64 {
			return fv(float64(c.Value(i)))
		}
		return value{i: int64(c.Value(i))}
	case *array.Float64:
		return fv(c.Value(i))
	}
	s, _, _ := textAt(col, i)
	return value{s: s}
}

// compileLookup plans a correlated subquery: its outer terms, checked
// against the inner ones, and its table for this run. Without a row in
// the table, or with constant terms, it is a constant.
func (p *plan) compileLookup(a *Arith, leaf func(a *Arith, ap *arithPlan) error) (*arithPlan, error) {
	t := p.in.tables[a.Corr]
	if t == nil {
		return nil, p.errAt(a.Pos, "a subquery as a value goes in SELECT items, WHERE, HAVING, QUALIFY, ORDER BY and functions' arguments, not here")
	}
	ap := &arithPlan{op: 'l', hid: -1, look: t, kind: t.kind, ts: t.ts}
	for k, x := range a.Args {
		xp, err := p.compileArith(x, leaf)
		if err != nil {
			return nil, err
		}
		if text := xp.kind == kString; t.known && text != t.text[k] && !xp.nullLit() {
			what := map[bool]string{true: "text", false: "a number"}
			return nil, p.errAt(x.Pos, "type mismatch: %s is %s and the subquery's %s %s; they are never equal", x.String(), what[text], a.Corr.inner[k], what[t.text[k]])
		}
		ap.args = append(ap.args, xp)
		ap.hasCase = ap.hasCase || xp.hasCase
	}
	return ap, nil
}

// lookup returns the table's value for the outer terms vals
// (of the plan's args' kinds); scratch holds the key's bytes.
func (a *arithPlan) lookup(vals []value, scratch *[]byte) value {
	key := (*scratch)[:0]
	for k, v := range vals {
		if v.null {
			if a.look.nullIn && k == len(vals)-1 {
				return nullValue
			}
			return a.look.def
		}
		key = keyOf(key, a.args[k].kind, v)
	}
	*scratch = key
	if v, ok := a.look.rows[string(key)]; ok {
		return v
	}
	return a.look.def
}

// lookupVec computes a correlated subquery's value for the rows sel.
func (a *arithPlan) lookupVec(b *batch, sel []int32) vec {
	n, m := len(sel), &b.vecs
	args := make([]vec, len(a.args))
	for k, x := range a.args {
		args[k] = x.vec(b, sel)
	}
	out := m.newVec(a.kind, n)
	vals := make([]value, len(a.args))
	var key []byte
	for i := range n {
		for k := range args {
			j := i
			if args[k].scalar {
				j = 0
			}
			if args[k].isNull(j) {
				vals[k] = nullValue
			} else {
				vals[k] = args[k].at(j, a.args[k].kind)
			}
		}
		out.set(i, a.kind, a.lookup(vals, &key), m, n)
	}
	return out
}

// keyName names the column of key k in a correlated subquery's result.
func keyName(k int) string { return fmt.Sprintf("__key%d", k+1) }

// fieldIndex returns the index of sc's field named name, -1 if none or
// more than one.
func fieldIndex(sc *arrow.Schema, name string) int {
	if idx := sc.FieldIndices(name); len(idx) == 1 {
		return idx[0]
	}
	return -1
}
