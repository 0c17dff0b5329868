package query

import (
	"slices"
	"strings"
)

// Qualified names. A statement's columns may be written qualified by
// its source's name: FROM cpu AS c WHERE c.value > 1, FROM cpu WHERE
// cpu.value > 1, FROM (SELECT ...) AS h ... h.v. A subquery may name
// the columns of the statement around it the same way, which makes it
// correlated (correlate.go): value > (SELECT avg(value) FROM cpu WHERE
// series = c.series).
//
// The parser reads a statement once to learn each SELECT's extent and
// source name (scope); if a name is qualified by one, the tokens are
// rewritten (c.value of c's own SELECT reads value; names of an outer
// SELECT's source are left as written) and read again, this time
// resolving correlated subqueries. A join's columns keep their side's
// name (a.value): that is how the join names them.

// scope is one SELECT's tokens [start, end) and the names that qualify
// its columns: its source's (strip: written plain once read), or a
// join's two sides' (kept).
type scope struct {
	start, end int
	quals      []string
	strip      bool
}

// qualifier returns the name that qualifies the columns of st, a
// statement without JOIN: its alias, its subquery's name, or its
// stream's; "" for none.
func (st *Statement) qualifier() string {
	switch {
	case st.Join != nil || st.noFrom || st.Union != nil:
		return ""
	case st.alias != "":
		return st.alias
	case st.Sub != nil:
		return st.subAlias
	}
	return st.Stream
}

// endScope records the SELECT st read from token start and, on the
// second reading, resolves its correlated subqueries.
func (p *parser) endScope(st *Statement, start int) {
	sc := scope{start: start, end: p.i}
	if j := st.Join; j != nil {
		sc.quals = []string{j.Left.Alias, j.Right.Alias}
	} else if q := st.qualifier(); q != "" {
		sc.quals, sc.strip = []string{q}, true
	}
	p.scopes = append(p.scopes, sc)
	if p.correlate && len(sc.quals) > 0 {
		p.correlateSubqueries(st, sc)
	}
}

// unqualified returns the tokens with the names qualified by their own
// SELECT's source written plain, and whether the statement is to be
// read again: a name was so qualified, or by an enclosing SELECT's
// source (a correlated subquery).
func (p *parser) unqualified() ([]token, bool) {
	if len(p.scopes) == 0 {
		return nil, false
	}
	scopes := slices.Clone(p.scopes)
	slices.SortFunc(scopes, func(a, b scope) int { return a.start - b.start })
	toks := slices.Clone(p.toks)
	again := false
	for k := range toks {
		t := &toks[k]
		if t.kind != tIdent || !strings.Contains(t.text, ".") {
			continue
		}
		// The scopes holding token k, innermost last (they nest).
		var holding []scope
		for _, sc := range scopes {
			if sc.start <= k && k < sc.end {
				holding = append(holding, sc)
			}
		}
		for i := len(holding) - 1; i >= 0; i-- {
			sc := holding[i]
			q := ""
			for _, x := range sc.quals {
				if qualifiedBy(t.text, x) {
					q = x
				}
			}
			if q == "" {
				continue
			}
			switch {
			case i < len(holding)-1: // an enclosing SELECT's: correlated
				again = true
			case sc.strip:
				t.text, again = t.text[len(q)+1:], true
			} // else a join's column, named by its side
			break
		}
	}
	return toks, again
}
