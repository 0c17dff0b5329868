package query

import (
	"regexp"
	"slices"
	"strings"
)

// COLUMNS(...) as an operand of a SELECT item, as DuckDB has it:
// SELECT max(COLUMNS('v.*')), round(COLUMNS(* EXCLUDE (time)), 2) FROM s.
// The item stands for one item per column that COLUMNS selects (the
// columns SELECT * gives whose names the expression matches, or all but
// those EXCLUDE names), in their order, each the item with COLUMNS(...)
// replaced by the column and named by the column (or by the item's AS
// name). One COLUMNS(...) an item: written twice, it must be the same.
// The item's tokens are kept, and parsed again for each column once the
// source's columns are known (expandColumns, from joinStar).

// columnsExpr is the COLUMNS(...) of a SELECT item.
type columnsExpr struct {
	match   *regexp.Regexp // COLUMNS('re'); nil: COLUMNS(*)
	exclude []*ColRef      // COLUMNS(* EXCLUDE (...))
	text    string         // as written
	pos     int
	// toks are the item's tokens (up to its AS), ending in tEOF;
	// correlate is the parser's (see Parse)
	toks      []token
	correlate bool
}

// setItem makes it the item a is: a column, an aggregate or arithmetic.
func setItem(it *SelectItem, a *Arith) {
	switch {
	case a.Col != nil:
		it.Col = a.Col
	case a.Agg != nil:
		it.Agg = a.Agg
	default:
		it.Expr = a
	}
}

// columnsOperand parses COLUMNS(...) where an operand is: in a SELECT
// item, a stand-in column named as written (or, parsing the item again
// for a column, that column); elsewhere an error.
func (p *parser) columnsOperand() *Arith {
	t := p.peek()
	if p.columnsAs != "" {
		p.columnsSpec()
		return &Arith{Col: &ColRef{Name: p.columnsAs, Pos: t.pos}, Pos: t.pos}
	}
	if !p.colsOK {
		p.fail(t.pos, "COLUMNS(...) is a SELECT item or an operand of one (SELECT max(COLUMNS('v.*')) FROM s); elsewhere, name the columns")
	}
	c := p.columnsSpec()
	if p.cols != nil && p.cols.text != c.text {
		p.fail(t.pos, "one COLUMNS(...) an item: %s and %s differ; write an item for each", p.cols.text, c.text)
	}
	p.cols = c
	return &Arith{Col: &ColRef{Name: c.text, Pos: t.pos}, Pos: t.pos}
}

// expandColumns returns the items item (with COLUMNS(...) as an
// operand) stands for, over the columns names (as SELECT * gives them).
func expandColumns(it SelectItem, names []string, text string) ([]SelectItem, error) {
	c := it.columns
	for _, x := range c.exclude {
		if !slices.Contains(names, x.Name) {
			return nil, errAt(text, x.Pos, "EXCLUDE names %s, which * does not give (%s)", x.Name, strings.Join(names, ", "))
		}
	}
	var out []SelectItem
	for _, n := range names {
		if c.match != nil && !c.match.MatchString(n) || slices.ContainsFunc(c.exclude, func(x *ColRef) bool { return x.Name == n }) {
			continue
		}
		p := &parser{src: text, toks: c.toks, correlate: c.correlate, columnsAs: n, inItem: true}
		a, err := p.item()
		if err != nil {
			return nil, err
		}
		x := SelectItem{Pos: it.Pos, Alias: it.Alias}
		setItem(&x, a)
		if x.Alias == "" {
			x.Alias = n
		}
		out = append(out, x)
	}
	if len(out) == 0 {
		return nil, errAt(text, c.pos, "%s matches no column (%s)", c.text, strings.Join(names, ", "))
	}
	return out, nil
}

// item parses the tokens of one SELECT item's value, to their end.
func (p *parser) item() (a *Arith, err error) {
	defer func() {
		if r := recover(); r != nil {
			ep, ok := r.(errParse)
			if !ok {
				panic(r)
			}
			a, err = nil, ep.e
		}
	}()
	a = p.valueOrCond()
	if t := p.peek(); t.kind != tEOF {
		p.fail(t.pos, "unexpected %s in a SELECT item", t.describe())
	}
	return a, nil
}
