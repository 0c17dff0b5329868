package query

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// Scalar subqueries: (SELECT ...) of one column and at most one row is
// a value wherever arithmetic goes (SELECT items, WHERE, HAVING,
// QUALIFY, ORDER BY, aggregates' and windows' arguments): value >
// (SELECT avg(value) FROM cpu). It runs
// first, as an IN subquery does (resolveIn), and its value is a literal
// of the statement, so conditions on it prune as literals do; no row,
// or a null, is NULL. It may not refer to the outer query's columns.

// scalarSub parses (SELECT ...) at the "(".
func (p *parser) scalarSub() *Arith {
	open := p.advance()
	sub := &Statement{Limit: -1}
	sel := p.peek()
	restore := p.scalarScope()
	p.selectBody(sub)
	p.unionTail(sub, sel.pos)
	restore()
	close := p.expectPunct(")")
	return &Arith{Scalar: sub, scalarText: p.src[open.pos : close.pos+1], Pos: open.pos}
}

// scalarScope clears the state of the enclosing clause (a SELECT item's,
// HAVING's, QUALIFY's) while a subquery is read, and returns the
// function that restores it.
func (p *parser) scalarScope() func() {
	having, inItem, qualify, inCase, wins, aggConds, colsOK := p.having, p.inItem, p.qualify, p.inCase, p.qualifyWins, p.aggConds, p.colsOK
	p.having, p.inItem, p.qualify, p.inCase, p.qualifyWins, p.aggConds, p.colsOK = false, false, false, 0, nil, 0, false
	return func() {
		p.having, p.inItem, p.qualify, p.inCase, p.qualifyWins, p.aggConds, p.colsOK = having, inItem, qualify, inCase, wins, aggConds, colsOK
	}
}

// runScalar runs a's subquery and returns its value as one literal.
func runScalar(ctx context.Context, a *Arith, text string, open Opener, o *Options) ([]*Lit, error) {
	if a.exists {
		return runExists(ctx, a, text, open, o)
	}
	rr, err := exec(ctx, a.Scalar, text, open, o)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	if n := rr.Schema().NumFields(); n != 1 {
		return nil, errAt(text, a.Pos, "a subquery as a value gives one column; %s gives %d", a.scalarText, n)
	}
	lit := &Lit{Kind: LitNull, Pos: a.Pos}
	rows := 0
	for rr.Next() {
		col := rr.RecordBatch().Column(0)
		if rows += col.Len(); rows > 1 {
			return nil, errAt(text, a.Pos, "a subquery as a value gives at most one row; %s gives more (LIMIT 1, or an aggregate, makes one)", a.scalarText)
		}
		if col.Len() == 0 || col.IsNull(0) {
			continue
		}
		switch c := col.(type) {
		case *array.Int64:
			lit.Kind, lit.Int = LitInt, c.Value(0)
		case *array.Uint64:
			lit.Kind, lit.Int = LitInt, int64(c.Value(0))
		case *array.Float64:
			lit.Kind, lit.Float = LitFloat, c.Value(0)
		case *array.Timestamp:
			lit.Kind, lit.Str = LitTime, time.Unix(0, int64(c.Value(0))).UTC().Format(time.RFC3339Nano)
		case *array.Duration:
			lit.Kind, lit.Int, lit.Str = LitDuration, int64(c.Value(0)), durationText(int64(c.Value(0)))
		case *array.Boolean:
			lit.Kind, lit.Bool = LitBool, c.Value(0)
		default:
			s, _, err := textAt(col, 0)
			if err != nil {
				return nil, errAt(text, a.Pos, "%s gives a column of %s, which is no value of arithmetic", a.scalarText, col.DataType())
			}
			lit.Kind, lit.Str = LitString, s
		}
	}
	if err := rr.Err(); err != nil {
		return nil, err
	}
	return []*Lit{lit}, nil
}

// scalarArith returns the arithmetic scalar subquery a stands for in
// this run: its value, or for NULL nullif(0, 0).
func (p *plan) scalarArith(a *Arith) (*Arith, error) {
	// By the subquery: the node may be a copy (resultRefs). None: it was
	// not run, being where resolveIn does not look.
	lits := p.in.lists[a.Scalar]
	if len(lits) == 0 {
		return nil, p.errAt(a.Pos, "a subquery as a value goes in SELECT items, WHERE, HAVING, QUALIFY, ORDER BY and functions' arguments, not here")
	}
	if l := lits[0]; l.Kind != LitNull {
		return &Arith{Lit: l, Pos: a.Pos}, nil
	}
	zero := &Arith{Lit: &Lit{Kind: LitInt, Pos: a.Pos}, Pos: a.Pos}
	return &Arith{Op: 'f', Func: "nullif", L: zero, R: zero, Pos: a.Pos}, nil
}

// nullLit reports whether a is the literal NULL.
func (a *arithPlan) nullLit() bool { return a.lit != nil && a.lit.null }

// takeKind gives a, if it is the literal NULL, the kind of o: NULL is
// of the kind of the values beside it (coalesce(NULL, s), THEN NULL).
func (a *arithPlan) takeKind(o *arithPlan) {
	if a.nullLit() && !o.nullLit() {
		a.kind = o.kind
	}
}

// runExists runs EXISTS a's subquery for its first row and returns 1
// if it gives one, else 0.
func runExists(ctx context.Context, a *Arith, text string, open Opener, o *Options) ([]*Lit, error) {
	q := *a.Scalar
	if q.Limit != 0 {
		q.Limit = 1
	}
	rr, err := exec(ctx, &q, text, open, o)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	lit := &Lit{Kind: LitInt, Pos: a.Pos}
	for rr.Next() {
		if rr.RecordBatch().NumRows() > 0 {
			lit.Int = 1
		}
	}
	return []*Lit{lit}, rr.Err()
}
