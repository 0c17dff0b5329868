package query

import (
	"context"
)

// WITH name AS (SELECT ...) [, name AS (SELECT ...)]... SELECT ...: each
// relation runs first, in order, and is held as a subquery's result is
// (at most maxSubqueryRows rows); the statement, and the relations after
// it, read it by name wherever a stream name goes (FROM, JOIN, fold(),
// IN (SELECT ...), a UNION's SELECTs), as often as they like. A name
// hides a stream of that name. Not recursive.

// with parses [WITH name AS (SELECT ...), ...] before a SELECT into
// st.With.
func (p *parser) with(st *Statement) {
	if !p.acceptKw("with") {
		return
	}
	if t := p.peek(); isKw(t, "recursive") {
		p.fail(t.pos, "WITH RECURSIVE is not supported: a WITH relation reads streams and the relations before it")
	}
	for {
		name, pos := p.streamName()
		for _, c := range st.With {
			if c.Name == name {
				p.fail(pos, "WITH names %s twice", name)
			}
		}
		if t := p.peek(); !p.acceptKw("as") {
			p.fail(t.pos, "expected AS ( SELECT ... ) after WITH %s, found %s", name, t.describe())
		}
		p.expectPunct("(")
		sub := &Statement{Limit: -1}
		p.relation(sub, name+" AS (")
		p.expectPunct(")")
		st.With = append(st.With, CTE{Name: name, Pos: pos, St: sub})
		if !p.acceptPunct(",") {
			break
		}
	}
	if t := p.peek(); !isKw(t, "select") {
		p.fail(t.pos, "expected SELECT after the WITH list, found %s", t.describe())
	}
}

// withOpener runs st's WITH relations in order and returns open with
// their names added.
func withOpener(ctx context.Context, st *Statement, text string, open Opener, o *Options) (Opener, error) {
	held := map[string]*subSource{}
	withs := func(name string) (Source, error) {
		if s, ok := held[name]; ok {
			return s, nil
		}
		return open(name)
	}
	for _, c := range st.With {
		src, err := subquerySource(ctx, &Statement{Sub: c.St, streamPos: c.Pos}, text, withs, o)
		if err != nil {
			return nil, err
		}
		src.cte = c.Name
		if st.Explain {
			if src.plan, err = explainLinesOf(ctx, c.St, text, withs, o); err != nil {
				return nil, err
			}
		}
		held[c.Name] = src
	}
	return withs, nil
}
