package query

import (
	"context"
	"math"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// x IN (SELECT ...): the subquery runs first, and its one column's
// distinct values become the condition's list, as if written out; so
// series IN (SELECT ...) also narrows the scan to those series (bloom
// filters and all). Nulls among the values are left out of the list; a
// NOT IN of values with a NULL holds for no row, as in SQL (x might be
// the unknown value).

// inSubquery parses the SELECT ... ) of IN (SELECT ...) into in, the
// "(" at open.
func (p *parser) inSubquery(in *In, open token) {
	in.Sub, in.subPos = &Statement{Limit: -1}, open.pos
	sel := p.peek()
	p.selectBody(in.Sub)
	p.unionTail(in.Sub, sel.pos)
	close := p.expectPunct(")")
	in.subText = p.src[open.pos : close.pos+1]
}

// maxInValues bounds the distinct values of an IN subquery.
var maxInValues = 1 << 20 // a variable for tests

// inValues holds, for one run of a statement, the values of its IN
// subqueries (lists, by *In), of its scalar subqueries (lists, by their
// *Statement: one literal, LitNull for none) and the tables of its
// correlated subqueries (lookup.go).
type inValues struct {
	lists  map[any][]*Lit
	tables map[*Correlated]*lookupTable
	// nulls: the IN subqueries whose values held a NULL, of which
	// NOT IN holds for no row (x is not known to be out of the list)
	nulls map[*In]bool
}

// outNone reports whether [NOT] IN e (out: NOT IN) holds for no row: a
// NOT IN of a subquery that gave a NULL.
func (v inValues) outNone(e *In, out bool) bool { return out && e.Sub != nil && v.nulls[e] }

// outAll reports whether [NOT] IN e holds for every row, a NULL x's too:
// a NOT IN of a subquery that gave no value.
func (v inValues) outAll(e *In, out bool) bool {
	return out && e.Sub != nil && !v.nulls[e] && len(v.lists[e]) == 0
}

// resolveIn runs the IN subqueries of st's conditions (WHERE, HAVING,
// QUALIFY, aggregate filters, CASE and GROUP BY terms) and the scalar
// and correlated subqueries of its arithmetic (items, aggregates' and
// windows' arguments and OVER, ORDER BY) and returns their values.
func resolveIn(ctx context.Context, st *Statement, text string, open Opener, o *Options) (inValues, error) {
	var err error
	vals := inValues{lists: map[any][]*Lit{}, tables: map[*Correlated]*lookupTable{}, nulls: map[*In]bool{}}
	eachNode(st, func(e Expr) {
		if in, ok := e.(*In); ok && in.Sub != nil && err == nil {
			var null bool
			vals.lists[in], null, err = runIn(ctx, in, text, open, o)
			if null {
				vals.nulls[in] = true
			}
		}
	}, func(a *Arith) {
		switch {
		case err != nil:
		case a.Scalar != nil:
			vals.lists[a.Scalar], err = runScalar(ctx, a, text, open, o)
		case a.Corr != nil:
			vals.tables[a.Corr], err = runCorrelated(ctx, a, text, open, o)
		}
	})
	return vals, err
}

// lits returns the list e tests against: its own, or its subquery's
// values for this run.
func (v inValues) lits(e *In) []*Lit {
	if e.Sub != nil {
		return v.lists[e]
	}
	return e.Lits
}

// runIn runs e's subquery and returns its values as literals.
func runIn(ctx context.Context, e *In, text string, open Opener, o *Options) (lits []*Lit, null bool, err error) {
	rr, err := exec(ctx, e.Sub, text, open, o)
	if err != nil {
		return nil, false, err
	}
	defer rr.Release()
	if e.tuple > 0 {
		return runTupleIn(rr, e, text)
	}
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
			return nil, false, errAt(text, e.subPos, "IN (SELECT ...) wants one column; the subquery gives %d", n)
		}
	}
	seen := map[any]bool{}
	lits = []*Lit{}
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
				null = true
				continue
			}
			var err error
			switch a := col.(type) {
			case *array.Int64:
				err = add(&Lit{Kind: LitInt, Int: a.Value(i)}, a.Value(i))
			case *array.Timestamp:
				err = add(&Lit{Kind: LitInt, Int: int64(a.Value(i))}, int64(a.Value(i)))
			case *array.Duration:
				err = add(&Lit{Kind: LitInt, Int: int64(a.Value(i))}, int64(a.Value(i)))
			case *array.Uint64:
				if a.Value(i) > math.MaxInt64 {
					return nil, false, errAt(text, e.subPos, "IN (SELECT ...): value %d beyond int64", a.Value(i))
				}
				err = add(&Lit{Kind: LitInt, Int: int64(a.Value(i))}, int64(a.Value(i)))
			case *array.Float64:
				err = add(&Lit{Kind: LitFloat, Float: a.Value(i)}, a.Value(i))
			case *array.Boolean:
				err = add(&Lit{Kind: LitBool, Bool: a.Value(i)}, a.Value(i))
			default:
				s, _, terr := textAt(col, i)
				if terr != nil {
					return nil, false, errAt(text, e.subPos, "IN (SELECT ...): a column of %s cannot be compared", col.DataType())
				}
				err = add(&Lit{Kind: LitString, Str: s}, s)
			}
			if err != nil {
				return nil, false, err
			}
		}
	}
	if err := rr.Err(); err != nil {
		return nil, false, err
	}
	return lits, null, nil
}

// compileArithIn plans x [NOT] IN (SELECT ...) of arithmetic x (e.X):
// the subquery's values as a set x's value is looked up in, row by row
// (numbers by value, 2 = 2.0; times by instant). As in SQL, a NULL x
// is in no set and out of none but the empty one, and NOT IN of a set
// that holds a NULL holds for no row.
func (p *plan) compileArithIn(e *In, neg bool) (pred, error) {
	x, err := p.rawArith(e.X)
	if err != nil {
		return nil, err
	}
	return p.arithInSet(e, x, neg)
}

// arithInSet returns the predicate of x [NOT] IN (SELECT ...), x e.X
// compiled: an *arithInPred, or a constPred when it holds for every row;
// of x cmp ANY|ALL (SELECT ...), a *quantPred.
func (p *plan) arithInSet(e *In, x *arithPlan, neg bool) (pred, error) {
	if e.cmp != "" {
		return p.compileQuantified(e, x, neg)
	}
	if p.in.outAll(e, e.Neg != neg) {
		return constPred(true), nil
	}
	ip, err := p.inSetOf(e, x)
	if err != nil {
		return nil, err
	}
	ip.out = e.Neg != neg
	return ip, nil
}

// inSetOf returns x IN the values of e (its subquery's), x e.X compiled.
func (p *plan) inSetOf(e *In, x *arithPlan) (*arithInPred, error) {
	ip := &arithInPred{x: x, nums: map[float64]bool{}, ints: map[int64]bool{}, strs: map[string]bool{}}
	ip.hasNull = p.in.nulls[e]
	if ls := p.in.lits(e); e.tuple > 0 && len(ls) > 0 {
		if err := p.checkTupleKinds(e, x, ls[0].Str); err != nil {
			return nil, err
		}
	}
	for _, l := range p.in.lits(e) {
		switch {
		case l.Kind == LitNull:
			ip.hasNull = true
		case x.kind == kString && l.Kind == LitString:
			ip.strs[l.Str] = true
		case x.kind == kBool && l.Kind == LitBool:
			ip.ints[int64(boolInt(l.Bool))] = true
		case (x.kind == kInt || x.kind == kFloat) && (l.Kind == LitInt || l.Kind == LitFloat):
			f := litFloat(l)
			ip.nums[f] = true
			if l.Kind == LitInt {
				ip.ints[l.Int] = true
			} else if f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64 {
				ip.ints[int64(f)] = true
			}
		default:
			what := e.Col.Name + " IN"
			if e.cmp != "" {
				what = e.Col.Name + " " + e.cmp + " " + quantWord(e)
			}
			return nil, p.errAt(e.subPos, "type mismatch: %s (SELECT ...) compares %s with %s", what, kindWord(x.kind), litKindName(l.Kind))
		}
	}
	return ip, nil
}

// arithInPred holds for a row whose x is in the set (out: not in it,
// and the set holds no NULL).
type arithInPred struct {
	x       *arithPlan
	nums    map[float64]bool // numbers, by value
	ints    map[int64]bool   // integers (exact past 2^53), bools as 0 and 1
	strs    map[string]bool
	hasNull bool
	out     bool
}

// holds reports whether the predicate holds for a row whose x is v.
func (p *arithInPred) holds(v value) bool {
	if v.null || p.out && p.hasNull {
		return false
	}
	var in bool
	switch p.x.kind {
	case kString:
		in = p.strs[v.s]
	case kFloat:
		in = p.nums[v.fl()]
	default:
		in = p.ints[v.i]
	}
	return in != p.out
}

func (p *arithInPred) eval(b *batch, sel []int32) []int32 {
	if p.out && p.hasNull {
		return nil
	}
	defer b.vecs.release(b.vecs.mark())
	v := p.x.vec(b, sel)
	return v.rowsWhere(sel, func(j int) bool {
		if v.isNull(j) {
			return false
		}
		var in bool
		switch {
		case v.strs != nil:
			in = p.strs[v.strs[j]]
		case v.floats != nil:
			in = p.nums[v.floats[j]]
		default:
			in = p.ints[v.ints[j]]
		}
		return in != p.out
	})
}
