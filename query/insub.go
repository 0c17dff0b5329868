package query

import (
	"context"
	"math"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// x IN (SELECT ...): the subquery runs first, and its one column's
// distinct values become the condition's list, as if written out; so
// series IN (SELECT ...) also narrows the scan to those series (bloom
// filters and all). Nulls among the values are left out.

// maxInValues bounds the distinct values of an IN subquery.
var maxInValues = 1 << 20 // a variable for tests

// inValues holds the values of a statement's IN subqueries (by *In)
// and scalar subqueries (by their *Statement: one literal, LitNull for
// none) for one run.
type inValues map[any][]*Lit

// resolveIn runs the IN subqueries of st's conditions (WHERE, HAVING,
// QUALIFY, aggregate filters, CASE and GROUP BY terms) and the scalar
// subqueries of its arithmetic (items, aggregates' and windows'
// arguments and OVER, ORDER BY) and returns their values.
func resolveIn(ctx context.Context, st *Statement, text string, open Opener, o *Options) (inValues, error) {
	var err error
	vals := inValues{}
	var walk func(e Expr)
	var walkArith func(a *Arith)
	walkWin := func(w *WinCall) {
		walkArith(w.Arg)
		if w.Over != nil {
			for _, x := range w.Over.Partition {
				walkArith(x)
			}
			for _, k := range w.Over.Order {
				walkArith(k.Expr)
			}
		}
	}
	walk = func(e Expr) {
		if err != nil || e == nil {
			return
		}
		switch e := e.(type) {
		case *And:
			walk(e.L)
			walk(e.R)
		case *Or:
			walk(e.L)
			walk(e.R)
		case *Not:
			walk(e.X)
		case *ArithCompare:
			walkArith(e.L)
			walkArith(e.R)
		case *ExprMatch:
			walkArith(e.X)
		case *In:
			if e.Sub != nil {
				vals[e], err = runIn(ctx, e, text, open, o)
			}
		}
	}
	walkArith = func(a *Arith) {
		if a == nil || err != nil {
			return
		}
		if a.Scalar != nil {
			vals[a.Scalar], err = runScalar(ctx, a, text, open, o)
			return
		}
		if a.Agg != nil {
			walk(a.Agg.Filter)
			walkArith(a.Agg.Expr)
			walkArith(a.Agg.ByExpr)
		}
		if a.Win != nil {
			walkWin(a.Win)
		}
		for _, w := range a.Whens {
			walk(w.Cond)
		}
		for _, x := range a.parts() {
			walkArith(x)
		}
	}
	walk(st.Where)
	walk(st.Having)
	walk(st.Qualify)
	for _, it := range st.Items {
		if it.Agg != nil {
			walk(it.Agg.Filter)
			walkArith(it.Agg.Expr)
			walkArith(it.Agg.ByExpr)
		}
		if it.Win != nil {
			walkWin(it.Win)
		}
		walkArith(it.Expr)
	}
	for _, o := range st.OrderBy {
		walkArith(o.Expr)
	}
	for _, g := range st.GroupBy {
		walkArith(g.Expr)
	}
	return vals, err
}

// lits returns the list e tests against: its own, or its subquery's
// values for this run.
func (v inValues) lits(e *In) []*Lit {
	if e.Sub != nil {
		return v[e]
	}
	return e.Lits
}

// runIn runs e's subquery and returns its values as literals.
func runIn(ctx context.Context, e *In, text string, open Opener, o *Options) ([]*Lit, error) {
	rr, err := exec(ctx, e.Sub, text, open, o)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	// One column: the only one, or the one item selected (GROUP BY puts
	// the group columns not selected before it).
	ci := 0
	if n := rr.Schema().NumFields(); n != 1 {
		ci = -1
		if len(e.Sub.Items) == 1 && !e.Sub.Star {
			if idx := rr.Schema().FieldIndices(e.Sub.Items[0].Name()); len(idx) == 1 {
				ci = idx[0]
			}
		}
		if ci < 0 {
			return nil, errAt(text, e.subPos, "IN (SELECT ...) wants one column; the subquery gives %d", n)
		}
	}
	seen := map[any]bool{}
	lits := []*Lit{}
	add := func(l *Lit, key any) error {
		if seen[key] {
			return nil
		}
		if len(seen) == maxInValues {
			return errAt(text, e.subPos, "IN (SELECT ...) gives more than %d values; narrow it", maxInValues)
		}
		seen[key] = true
		l.Pos = e.subPos
		lits = append(lits, l)
		return nil
	}
	for rr.Next() {
		col := rr.RecordBatch().Column(ci)
		for i := range col.Len() {
			if col.IsNull(i) {
				continue
			}
			var err error
			switch a := col.(type) {
			case *array.Int64:
				err = add(&Lit{Kind: LitInt, Int: a.Value(i)}, a.Value(i))
			case *array.Timestamp:
				err = add(&Lit{Kind: LitInt, Int: int64(a.Value(i))}, int64(a.Value(i)))
			case *array.Uint64:
				if a.Value(i) > math.MaxInt64 {
					return nil, errAt(text, e.subPos, "IN (SELECT ...): value %d beyond int64", a.Value(i))
				}
				err = add(&Lit{Kind: LitInt, Int: int64(a.Value(i))}, int64(a.Value(i)))
			case *array.Float64:
				err = add(&Lit{Kind: LitFloat, Float: a.Value(i)}, a.Value(i))
			case *array.Boolean:
				err = add(&Lit{Kind: LitBool, Bool: a.Value(i)}, a.Value(i))
			default:
				s, _, terr := textAt(col, i)
				if terr != nil {
					return nil, errAt(text, e.subPos, "IN (SELECT ...): a column of %s cannot be compared", col.DataType())
				}
				err = add(&Lit{Kind: LitString, Str: s}, s)
			}
			if err != nil {
				return nil, err
			}
		}
	}
	if err := rr.Err(); err != nil {
		return nil, err
	}
	return lits, nil
}
