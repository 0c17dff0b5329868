package query

import (
	"fmt"
	"github.com/tsqdb/tsq/internal/textdist"
	"math"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Parse parses one statement. Errors are *Error.
func Parse(src string) (*Statement, error) {
	if len(src) > maxQueryLen {
		return nil, errAt(src, 0, "query of %d bytes exceeds the limit of %d", len(src), maxQueryLen)
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	toks = fromFirst(toks)
	p := &parser{src: src, toks: toks}
	st, err := p.statement()
	if err != nil {
		return nil, err
	}
	if qualified, ok := p.unqualified(); ok {
		// Names qualified by their own statement's source (c.value)
		// read as plain ones, those of an enclosing statement's make a
		// subquery correlated: parsed again (qualify.go).
		p = &parser{src: src, toks: qualified, correlate: true}
		return p.statement()
	}
	return st, nil
}

// parser is a recursive-descent parser over the token list.
type parser struct {
	src    string
	toks   []token
	i      int
	having bool // in HAVING: an operand may be an aggregate call
	// havingCalls are the aggregate calls HAVING makes (Statement.havingAggs)
	havingCalls []*Call
	// sourceStart is the first token of the FROM source usingSample
	// follows (USING SAMPLE n ROWS parses it again: sampleRows)
	sourceStart int
	// colsOK: parsing a SELECT item, where COLUMNS(...) may be an
	// operand; cols is the one it has (columnsexpr.go). columnsAs, when
	// set, is the column COLUMNS(...) stands for (the item parsed again
	// for each column).
	colsOK    bool
	cols      *columnsExpr
	columnsAs string
	inCase    int // in a CASE's conditions (nested: > 1)
	// aggConds: in the conditions of a CASE (or a condition's value) of
	// a SELECT item, which may test aggregates (aggcase.go)
	aggConds int
	// inCondValue: in a condition standing as a value (condvalue.go)
	inCondValue int
	// inItem: parsing a SELECT item's arithmetic, where a window
	// function may be an operand (value - lag(value)); not inside a
	// window's or an aggregate's arguments, nor in conditions.
	inItem bool
	// qualify: parsing QUALIFY's condition, where a window function is
	// computed as a hidden item of the statement (qualifyWins) and read
	// as a result column
	qualify     bool
	qualifyWins []SelectItem
	// windows are the SELECT's WINDOW clause's definitions once read;
	// refs, the windows that name one, read before it (namedwin.go).
	windows map[string]*Over
	refs    []*Over
	// scopes are the SELECTs read, with the names that qualify their
	// columns; correlate: the second reading, after unqualified, which
	// resolves correlated subqueries (qualify.go, correlate.go).
	scopes    []scope
	correlate bool
}

// errParse carries an *Error through panics inside the parser.
type errParse struct{ e *Error }

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) advance() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) fail(pos int, format string, args ...any) {
	panic(errParse{errAt(p.src, pos, format, args...)})
}

// isKw reports whether t is keyword kw (case-insensitive).
func isKw(t token, kw string) bool { return t.kind == tIdent && strings.EqualFold(t.text, kw) }

func (p *parser) acceptKw(kw string) bool {
	if isKw(p.peek(), kw) {
		p.i++
		return true
	}
	return false
}

func (p *parser) expectKw(kw string) token {
	t := p.peek()
	if !isKw(t, kw) {
		p.fail(t.pos, "expected %s, found %s", kw, t.describe())
	}
	return p.advance()
}

func (p *parser) acceptPunct(s string) bool {
	if t := p.peek(); t.kind == tPunct && t.text == s {
		p.i++
		return true
	}
	return false
}

func (p *parser) expectPunct(s string) token {
	t := p.peek()
	if t.kind != tPunct || t.text != s {
		p.fail(t.pos, "expected %q, found %s", s, t.describe())
	}
	return p.advance()
}

// aggArg parses an aggregate's argument: a column, or arithmetic on
// the row's columns (avg(value * 2), max(abs(v)), count(DISTINCT
// hour(time))), then named by its text.
func (p *parser) aggArg(c *Call) {
	t := p.peek()
	call := t.kind == tIdent && isPunct(p.tok(p.i+1), "(")
	start := p.i
	if !call && !isPunct(t, "(") && !isPunct(t, "-") && t.kind != tInt && t.kind != tFloat && !p.arithAt(p.i, false) && !isKw(t, "not") {
		if c.Arg = p.colRef(); !p.condFollows(p.i) {
			return
		}
		p.i = start // bool_and(v > 1): a condition's value
	}
	a := p.valueOrCond()
	if a.Col != nil { // (value)
		c.Arg = a.Col
		return
	}
	c.Expr, c.Arg = a, &ColRef{Name: a.String(), Pos: a.Pos}
}

// reserved words cannot name a column without `quotes`.
var reserved = map[string]bool{
	"select": true, "from": true, "where": true, "group": true, "by": true, "order": true,
	"limit": true, "and": true, "or": true, "not": true, "is": true, "null": true, "like": true, "ilike": true,
	"in": true, "as": true, "explain": true, "asc": true, "desc": true, "true": true, "false": true,
	"between": true, "offset": true, "having": true, "union": true, "with": true, "qualify": true,
	"intersect": true, "except": true,
}

func (p *parser) statement() (st *Statement, err error) {
	defer func() {
		if r := recover(); r != nil {
			ep, ok := r.(errParse)
			if !ok {
				panic(r)
			}
			st, err = nil, ep.e
		}
	}()
	st = &Statement{Limit: -1}
	st.Explain = p.acceptKw("explain")
	if st.Explain {
		st.Analyze = p.acceptKw("analyze")
	}
	if t := p.peek(); isKw(t, "delete") {
		p.advance()
		p.deleteStmt(st, t.pos)
		return st, nil
	}
	if t := p.peek(); (isKw(t, "show") || isKw(t, "describe") || isKw(t, "summarize")) && !st.Explain {
		p.advance()
		switch {
		case isKw(t, "show"):
			p.showStmt(st, t.pos)
		case isKw(t, "describe"):
			p.describeStmt(st, t.pos)
		default:
			p.summarizeStmt(st, t.pos)
		}
		return st, nil
	}
	if t := p.peek(); isKw(t, "pivot") || isKw(t, "unpivot") {
		p.pivotOrUnpivot(st)
		p.end()
		return st, nil
	}
	if t := p.peek(); isKw(t, "values") { // VALUES (...), ...: SELECT * FROM (VALUES ...)
		p.advance()
		sub := &Statement{Limit: -1, Stream: "(values)", streamPos: t.pos}
		sub.Values = p.valuesList(t.pos)
		st.Star, st.Sub, st.Stream, st.streamPos = true, sub, "(subquery)", t.pos
		p.orderLimit(st)
		p.end()
		return st, nil
	}
	if t := p.peek(); isKw(t, "insert") {
		if st.Explain {
			p.fail(t.pos, "EXPLAIN INSERT is not supported: an INSERT reads nothing")
		}
		p.advance()
		p.insertStmt(st, t.pos)
		return st, nil
	}
	if t := p.peek(); isKw(t, "create") || isKw(t, "drop") {
		if st.Explain {
			p.fail(t.pos, "EXPLAIN %s is not supported: EXPLAIN the SELECT", strings.ToUpper(t.text))
		}
		p.advance()
		if isKw(t, "create") {
			p.createStmt(st, t.pos)
		} else {
			p.dropStmt(st, t.pos)
		}
		return st, nil
	}
	if t := p.peek(); t.kind == tIdent && !isKw(t, "select") && !isKw(t, "with") {
		p.fail(t.pos, "expected a statement (SELECT, WITH, VALUES, PIVOT, UNPIVOT, INSERT, DELETE, CREATE, DROP, EXPLAIN, SHOW, DESCRIBE or SUMMARIZE), found %q%s", t.text, nearestWord(t.text, statementWords))
	}
	p.selectStmt(st)
	return st, nil
}

// clauseWords are words that go on with a statement, which a typo turns
// into an alias or a stray word.
var clauseWords = []string{"where", "group", "order", "having", "qualify", "limit", "offset", "window", "and", "or", "join", "union", "except", "intersect", "from"}

// typoHint returns ": did you mean X?" when the token at p.i, or the one
// before it, is within two edits of a clause word it is not (GRUOP BY,
// ADN), else "".
func (p *parser) typoHint() string {
	for _, i := range []int{p.i, p.i - 1} {
		if i < 0 || i >= len(p.toks) || p.toks[i].kind != tIdent || len(p.toks[i].text) < 3 || slices.Contains(clauseWords, strings.ToLower(p.toks[i].text)) {
			continue
		}
		if h := nearestWord(p.toks[i].text, clauseWords); h != "" {
			return " (" + p.toks[i].text + h + ")"
		}
	}
	return ""
}

// statementWords are the words a statement starts with.
var statementWords = []string{"select", "with", "values", "pivot", "unpivot", "insert", "delete", "create", "drop", "explain", "show", "describe", "summarize"}

// nearestWord returns ": did you mean X?" for the word of words nearest
// w (any case), within two edits, else "".
func nearestWord(w string, words []string) string {
	best, dist := "", 3
	for _, c := range words {
		if n := textdist.Edit(strings.ToLower(w), c); n < dist {
			best, dist = c, n
		}
	}
	if best == "" {
		return ""
	}
	return ": did you mean " + strings.ToUpper(best) + "?"
}

// selectStmt parses a SELECT statement to its end.
func (p *parser) selectStmt(st *Statement) {
	p.with(st)
	pos := p.peek().pos
	p.selectBody(st)
	p.unionTail(st, pos)
	p.acceptPunct(";")
	if t := p.peek(); t.kind != tEOF {
		p.fail(t.pos, "unexpected %s after the statement%s", t.describe(), p.typoHint())
	}
}

// endsSelectList reports whether t may follow a select list without
// FROM: the end, or a clause after FROM.
func endsSelectList(t token) bool {
	if t.kind == tEOF || isPunct(t, ";") || isPunct(t, ")") {
		return true
	}
	for _, k := range []string{"where", "group", "having", "qualify", "order", "limit", "offset", "union", "intersect", "except"} {
		if isKw(t, k) {
			return true
		}
	}
	return isKw(t, "window")
}

// selectBody parses a SELECT from SELECT to its last clause.
func (p *parser) selectBody(st *Statement) {
	defer p.windowScope()()
	start := p.i
	p.expectKw("select")
	distinct := -1  // SELECT DISTINCT: its position
	var on []*Arith // SELECT DISTINCT ON (...): its terms (distincton.go)
	onPos := 0
	if t := p.peek(); isKw(t, "distinct") && isKw(p.tok(p.i+1), "on") && isPunct(p.tok(p.i+2), "(") {
		on, onPos = p.distinctOnTerms()
	} else if isKw(t, "distinct") && !isKw(p.toks[p.i+1], "from") && !(p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == ",") {
		distinct = p.advance().pos
	}
	p.selectList(st)
	if t := p.peek(); !isKw(t, "from") && endsSelectList(t) {
		// SELECT now() - 1d: the items over one row of no columns
		if st.Star || st.starItem() >= 0 {
			p.fail(t.pos, "SELECT * needs FROM: a SELECT without FROM has no columns")
		}
		st.Stream, st.streamPos, st.noFrom = "(no FROM)", t.pos, true
	} else {
		p.expectKw("from")
		srcStart := p.i
		p.source(st)
		p.join(st, st.subAlias, st.subAliasPos)
		p.sideStars(st)
		p.sourceStart = srcStart
		p.usingSample(st)
	}
	if p.acceptKw("where") {
		st.Where = p.orExpr()
	}
	if st.sample != nil { // the source's rows sampled, then WHERE
		st.Where = andOf([]Expr{st.sample, st.Where})
	}
	if st.Join != nil && st.Join.residual != nil { // ON a.v < b.v of an INNER JOIN
		st.Where = andOf(append(slices.Clone(st.Join.residual), st.Where))
	}
	if st.Where != nil && st.Join != nil {
		st.Join.crossOn(st.Where)
		st.Join.pushDown(st.Where)
	}
	if p.acceptKw("group") {
		p.expectKw("by")
		if t := p.peek(); isKw(t, "all") {
			p.advance()
			p.groupAll(st, t.pos)
		} else {
			p.groupList(st)
		}
		p.fill(st)
	}
	starDistinct := distinct >= 0 && (st.Star || st.starItem() >= 0)
	if distinct >= 0 && !starDistinct {
		p.distinct(st, distinct)
	}
	if t := p.peek(); p.acceptKw("having") {
		st.havingPos = t.pos
		p.having, p.havingCalls = true, nil
		st.Having = p.orExpr()
		p.having, st.havingAggs = false, p.havingCalls
	}
	p.windowClause()
	if t := p.peek(); p.acceptKw("qualify") {
		st.qualifyPos = t.pos
		p.having, p.qualify, p.qualifyWins = true, true, nil // aggregates name the result's columns, as in HAVING
		st.Qualify = p.orExpr()
		p.having, p.qualify = false, false
		st.Items = append(st.Items, p.qualifyWins...)
	}
	if p.acceptKw("order") {
		p.expectKw("by")
		all := isKw(p.peek(), "all")
		if t := p.peek(); all { // ORDER BY ALL: every item, left to right
			p.advance()
			if st.Star || st.starItem() >= 0 {
				p.fail(t.pos, "ORDER BY ALL orders by the SELECT's items, and SELECT * names none: name the columns")
			}
			desc, nulls := p.direction()
			for i, it := range st.Items {
				if !it.Hidden {
					st.OrderBy = append(st.OrderBy, OrderItem{Index: i + 1, Desc: desc, Nulls: nulls, Pos: t.pos})
				}
			}
		}
		for !all {
			st.OrderBy = append(st.OrderBy, p.orderItem())
			if !p.acceptPunct(",") {
				break
			}
		}
	}
	if p.acceptKw("limit") {
		p.limit(st)
	}
	if p.acceptKw("offset") {
		st.Offset = p.count("OFFSET")
	}
	if on != nil {
		if st.groupingSets != nil {
			p.fail(onPos, "DISTINCT ON with ROLLUP, CUBE or GROUPING SETS is not supported: take the first rows in a query around it")
		}
		p.distinctOn(st, on, onPos)
	}
	p.endWindows()
	p.endScope(st, start)
	p.expandGroupingSets(st, start)
	if starDistinct {
		p.distinctRows(st, distinct)
	}
}

// distinctRows makes st, SELECT DISTINCT * (at pos), the distinct rows
// of st without DISTINCT, as UNION gives them (setop.go): its columns
// are known only when it runs. ORDER BY, LIMIT and OFFSET apply to them.
func (p *parser) distinctRows(st *Statement, pos int) {
	if isAggregate(st) {
		p.fail(pos, "SELECT DISTINCT * with an aggregate is not supported: GROUP BY the other columns")
	}
	inner := *st
	inner.Explain, inner.Analyze, inner.With, inner.OrderBy, inner.Limit, inner.Offset = false, false, nil, nil, -1, 0
	*st = Statement{Explain: st.Explain, Analyze: st.Analyze, With: st.With, Union: []*Statement{&inner}, unionPos: []int{pos}, SetOp: "union",
		Stream: "(union)", streamPos: pos, OrderBy: st.OrderBy, Limit: st.Limit, Offset: st.Offset, distinctAll: true}
}

// deleteStmt parses the rest of DELETE FROM stream [WHERE cond] (the
// DELETE at pos): the put rows of the raw view that match, which
// Store.Query soft-deletes. It is planned as the selection of their seqs.
func (p *parser) deleteStmt(st *Statement, pos int) {
	st.Delete, st.writePos = true, pos
	p.expectKw("from")
	if t := p.peek(); isKw(t, "fold") && p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == "(" {
		p.fail(t.pos, "DELETE removes stored rows of the raw view: DELETE FROM stream WHERE ...; "+
			"to remove keys from the folded view, append delete records for them (op=delete)")
	}
	start := p.i
	p.source(st)
	if st.Sub == nil { // DELETE FROM cpu AS c WHERE ... c.series: a correlated subquery's
		st.alias, _ = p.aliasAfterSource("stream")
	}
	if p.acceptKw("where") {
		st.Where = p.orExpr()
	}
	p.endScope(st, start)
	p.acceptPunct(";")
	if t := p.peek(); t.kind != tEOF {
		p.fail(t.pos, "unexpected %s after the statement (DELETE takes a WHERE condition and nothing else)", t.describe())
	}
	st.Items = []SelectItem{{Col: &ColRef{Name: "seq", Pos: pos}, Pos: pos}}
}

func (p *parser) selectList(st *Statement) {
	for {
		t := p.peek()
		it := SelectItem{Pos: t.pos}
		if isPunct(t, "*") { // SELECT *, or * beside other items (joinStar)
			p.advance()
			it.Col = &ColRef{Name: "*", Pos: t.pos}
			p.starModifiers(&it)
			if len(st.Items) == 0 && !isPunct(p.peek(), ",") && it.exclude == nil && it.replace == nil {
				st.Star = true
				return
			}
			st.Items = append(st.Items, it)
			if !p.acceptPunct(",") {
				return
			}
			continue
		}
		if isKw(t, "columns") && isPunct(p.tok(p.i+1), "(") { // COLUMNS('re') or COLUMNS(*): DuckDB's
			start := p.i
			p.columnsItem(&it)
			// Followed by an operator, it is an operand (columnsexpr.go).
			if n := p.peek(); isPunct(n, ",") || isKw(n, "from") || endsSelectList(n) {
				st.Items = append(st.Items, it)
				if !p.acceptPunct(",") {
					return
				}
				continue
			}
			p.i, it = start, SelectItem{Pos: t.pos}
		}
		if dot, star := p.tok(p.i+1), p.tok(p.i+2); t.kind == tIdent && isPunct(dot, ".") && isPunct(star, "*") &&
			dot.pos == t.pos+len(t.text) && star.pos == dot.pos+1 { // a.*: a join side's columns (joinStar)
			p.advance()
			p.advance()
			p.advance()
			st.Items = append(st.Items, SelectItem{Col: &ColRef{Name: t.text + ".*", Pos: t.pos}, Pos: t.pos})
			if !p.acceptPunct(",") {
				return
			}
			continue
		}
		if start := p.i; t.kind == tIdent && isPunct(p.tok(p.i+1), "(") && winFuncs[strings.ToLower(t.text)] {
			it.Win = p.winCall()
			if t := p.peek(); t.kind == tPunct && strings.Contains("+-*/%", t.text) {
				p.i, it.Win = start, nil // lag(v) + 1: arithmetic on it, below
			} else {
				p.alias(&it)
				st.Items = append(st.Items, it)
				if !p.acceptPunct(",") {
					return
				}
				continue
			}
		}
		p.inItem, p.colsOK, p.cols = true, true, nil
		start := p.i
		a := p.valueOrCond()
		p.inItem, p.colsOK = false, false
		setItem(&it, a)
		if p.cols != nil { // max(COLUMNS('v.*')): an item per column (columnsexpr.go)
			it.columns, p.cols = p.cols, nil
			it.columns.toks = append(slices.Clone(p.toks[start:p.i]), token{kind: tEOF, pos: p.peek().pos})
			it.columns.correlate = p.correlate
		}
		p.alias(&it)
		st.Items = append(st.Items, it)
		if !p.acceptPunct(",") {
			return
		}
	}
}

// columnsItem parses COLUMNS('re') or COLUMNS(*) into it: the columns
// * gives whose names re matches (anywhere in the name; all for *).
func (p *parser) columnsItem(it *SelectItem) {
	t := p.peek()
	c := p.columnsSpec()
	it.Col = &ColRef{Name: "*", Pos: t.pos}
	it.match, it.exclude, it.text = c.match, c.exclude, c.text
	if a := p.peek(); isKw(a, "as") {
		p.fail(a.pos, "%s gives columns by their own names: it takes no AS", it.text)
	}
}

// columnsSpec parses COLUMNS('re'), COLUMNS(*) or COLUMNS(* EXCLUDE
// (c, ...)).
func (p *parser) columnsSpec() *columnsExpr {
	t := p.advance()
	p.expectPunct("(")
	c := &columnsExpr{pos: t.pos}
	switch s := p.advance(); {
	case isPunct(s, "*"):
		c.text = "COLUMNS(*)"
		if isKw(p.peek(), "exclude") {
			var it SelectItem
			p.starModifiers(&it)
			if it.replace != nil {
				p.fail(it.replace[0].Pos, "COLUMNS(* REPLACE ...) is not supported: COLUMNS(* EXCLUDE (c)) and c's own item")
			}
			c.exclude = it.exclude
			c.text = strings.TrimSuffix(p.src[t.pos:p.peek().pos], " ") + ")"
		}
	case s.kind == tString && !s.typed:
		re, err := regexp.Compile(s.text)
		if err != nil {
			p.fail(s.pos, "COLUMNS: bad regular expression %q: %v", s.text, err)
		}
		c.match, c.text = re, "COLUMNS('"+strings.ReplaceAll(s.text, "'", "''")+"')"
	default:
		p.fail(s.pos, "COLUMNS wants a regular expression in quotes or *, found %s", s.describe())
	}
	p.expectPunct(")")
	return c
}

// starModifiers parses what may follow * (DuckDB's): EXCLUDE (c, ...)
// leaves columns out, REPLACE (x AS c, ...) gives x in c's place.
func (p *parser) starModifiers(it *SelectItem) {
	if t := p.peek(); isKw(t, "exclude") {
		p.advance()
		paren := p.acceptPunct("(")
		for {
			n := p.advance()
			if n.kind != tIdent && n.kind != tQuoted {
				p.fail(n.pos, "expected a column name in EXCLUDE, found %s", n.describe())
			}
			it.exclude = append(it.exclude, &ColRef{Name: n.text, Pos: n.pos})
			if !paren || !p.acceptPunct(",") {
				break
			}
		}
		if paren {
			p.expectPunct(")")
		}
	}
	if t := p.peek(); isKw(t, "replace") && isPunct(p.tok(p.i+1), "(") {
		p.advance()
		p.advance()
		for {
			x := SelectItem{Pos: p.peek().pos}
			p.inItem = true
			a := p.valueOrCond()
			p.inItem = false
			x.Expr = a
			if !p.acceptKw("as") {
				p.fail(p.peek().pos, "REPLACE wants x AS <the column it replaces>, found %s", p.peek().describe())
			}
			n := p.advance()
			if n.kind != tIdent && n.kind != tQuoted {
				p.fail(n.pos, "expected a column name after AS, found %s", n.describe())
			}
			x.Alias = n.text
			it.replace = append(it.replace, x)
			if !p.acceptPunct(",") {
				break
			}
		}
		p.expectPunct(")")
	}
}

// alias reads an optional AS name for it.
func (p *parser) alias(it *SelectItem) {
	if p.acceptKw("as") {
		a := p.advance()
		// AS "mean value" and AS 'x' name the column too, as in DuckDB
		if a.kind != tIdent && a.kind != tQuoted && (a.kind != tString || a.typed || a.text == "") {
			p.fail(a.pos, "expected a name after AS, found %s", a.describe())
		}
		it.Alias = a.text
		return
	}
	// SELECT count(*) n: a name right after the item, AS left out, as
	// SQL allows; a clause's keyword is not one.
	if a := p.peek(); a.kind == tQuoted || a.kind == tIdent && !reserved[strings.ToLower(a.text)] {
		it.Alias = p.advance().text
	}
}

// winFuncs are the window functions: whole SELECT items.
var winFuncs = map[string]bool{
	"difference": true, "non_negative_difference": true, "derivative": true, "non_negative_derivative": true,
	"cumulative_sum": true, "moving_average": true, "lag": true, "lead": true,
	"row_number": true, "rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true, "ntile": true,
	"first_value": true, "last_value": true, "nth_value": true,
}

// rowNumbering are the window functions without an argument: a row's
// place in its partition's order.
var rowNumbering = map[string]bool{"row_number": true, "rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true}

// winCall parses a window function call.
func (p *parser) winCall() *WinCall {
	defer p.noArgWindows()()
	name := p.advance()
	w := &WinCall{Func: strings.ToLower(name.text), Pos: name.pos}
	p.expectPunct("(")
	if rowNumbering[w.Func] {
		if t := p.peek(); !isPunct(t, ")") {
			p.fail(t.pos, "%s() takes no argument: it numbers the rows in the window's order (OVER (ORDER BY ...))", w.Func)
		}
		p.advance()
		p.nullTreatment(w)
		w.Over = p.over()
		return w
	}
	if w.Func == "ntile" {
		w.N = p.intIn(1, maxLagOffset, "ntile wants the number of buckets")
		p.expectPunct(")")
		p.nullTreatment(w)
		w.Over = p.over()
		return w
	}
	w.Arg = p.valueOrCond()
	switch w.Func {
	case "lag", "lead":
		w.N = 1
		if p.acceptPunct(",") {
			w.N = p.intIn(0, maxLagOffset, w.Func+" wants the number of rows to look "+map[string]string{"lag": "back", "lead": "ahead"}[w.Func])
			if p.acceptPunct(",") { // lag(x, n, default)
				w.Default = p.literal()
			}
		}
	case "moving_average":
		if t := p.peek(); t.kind != tPunct || t.text != "," {
			p.fail(t.pos, "moving_average wants the number of values to average after the argument: moving_average(%s, 5)", w.Arg.String())
		}
		p.advance()
		w.N = p.intIn(1, maxMovingWindow, "moving_average wants the number of values to average")
	case "nth_value":
		p.expectPunct(",")
		w.N = p.intIn(1, maxLagOffset, "nth_value wants the row's place in the window")
	case "derivative", "non_negative_derivative":
		if p.acceptPunct(",") {
			d := p.advance()
			if d.kind != tDuration {
				p.fail(d.pos, "%s wants a time unit such as 1s or 1m, found %s", w.Func, d.describe())
			}
			if w.Unit, w.unit = p.duration(d), d.text; w.Unit <= 0 {
				p.fail(d.pos, "%s wants a positive time unit", w.Func)
			}
		}
	}
	p.nullTreatment(w) // last_value(x IGNORE NULLS)
	p.expectPunct(")")
	p.nullTreatment(w) // last_value(x) IGNORE NULLS
	w.Over = p.over()
	return w
}

// nullTreatment reads an optional IGNORE NULLS or RESPECT NULLS (the
// default) of window function w.
func (p *parser) nullTreatment(w *WinCall) {
	t := p.peek()
	if !isKw(t, "ignore") && !isKw(t, "respect") || !isKw(p.tok(p.i+1), "nulls") {
		return
	}
	switch w.Func {
	case "lag", "lead", "first_value", "last_value", "nth_value":
	default:
		p.fail(t.pos, "%s NULLS is for lag, lead, first_value, last_value and nth_value", strings.ToUpper(t.text))
	}
	p.advance()
	p.advance()
	w.IgnoreNulls = isKw(t, "ignore")
}

// aggWindow makes aggregate c, followed by OVER (at token o), the
// window function that computes it over each row's partition.
func (p *parser) aggWindow(c *Call, o token) *WinCall {
	switch {
	case !p.inItem && !p.qualify:
		p.failWindow(c.Pos, c.Func+"() OVER (...)")
	case !winAggs[c.Func]:
		p.fail(o.pos, "%s() has no window form: OVER follows sum, avg, min, max, count and the window functions", c.Func)
	case c.Distinct || c.Filter != nil:
		p.fail(o.pos, "%s() OVER (...) takes neither DISTINCT nor FILTER", c.Func)
	}
	w := &WinCall{Func: c.Func, Pos: c.Pos}
	switch {
	case c.Star:
	case c.Expr != nil:
		w.Arg = c.Expr
	default:
		w.Arg = &Arith{Col: c.Arg, Pos: c.Arg.Pos}
	}
	w.Over = p.over()
	return w
}

// qualifyWindow makes w, written in QUALIFY at pos, a hidden item of
// the statement and returns the result column it is.
func (p *parser) qualifyWindow(w *WinCall, pos int) *Arith {
	name := w.String()
	if !slices.ContainsFunc(p.qualifyWins, func(it SelectItem) bool { return it.Win.String() == name }) {
		p.qualifyWins = append(p.qualifyWins, SelectItem{Win: w, Hidden: true, Pos: pos})
	}
	return &Arith{Col: &ColRef{Name: name, Pos: pos}, Pos: pos}
}

// noArgWindows leaves QUALIFY's condition and SELECT item arithmetic,
// where window functions may be, until the function it returns is
// called: a window's or an aggregate's arguments hold none.
func (p *parser) noArgWindows() func() {
	in, q := p.inItem, p.qualify
	p.inItem, p.qualify = false, false
	return func() { p.inItem, p.qualify = in, q }
}

// failWindow fails at pos on window function what where none may be.
func (p *parser) failWindow(pos int, what string) { p.fail(pos, windowPlace, what) }

// windowPlace says where a window function (%s) may be.
const windowPlace = "%s is a window function: it runs over the result's rows, so it may be in SELECT items and their arithmetic, not in WHERE, GROUP BY, HAVING, CASE conditions or another function's arguments"

// noWindows leaves SELECT item arithmetic, where window functions may
// be operands, until the function it returns is called.
func (p *parser) noWindows() func() {
	in := p.inItem
	p.inItem = false
	return func() { p.inItem = in }
}

// over parses an optional OVER name (see namedwin.go) or OVER ([name]
// [PARTITION BY x, ...] [ORDER BY y [ASC|DESC], ...] [frame]).
func (p *parser) over() *Over {
	if !p.startsOver() {
		return nil
	}
	if n := p.tok(p.i + 1); !isPunct(n, "(") {
		p.advance()
		p.advance()
		o := &Over{Ref: n.text, RefPos: n.pos, text: n.text}
		p.named(o)
		return o
	}
	p.advance()
	open := p.advance()
	o := p.overSpec("OVER (...)")
	if o.Ref != "" {
		o.text = p.src[open.pos : p.toks[p.i-1].pos+1]
		p.named(o)
	}
	return o
}

// overSpec parses a window's terms after its "(" up to its ")": in
// OVER (...) or in a WINDOW clause's definition (where).
func (p *parser) overSpec(where string) *Over {
	o := &Over{}
	if t := p.peek(); t.kind == tQuoted || t.kind == tIdent && !slices.ContainsFunc([]string{"partition", "order", "rows", "range", "groups"}, func(k string) bool { return isKw(t, k) }) {
		p.advance()
		o.Ref, o.RefPos = t.text, t.pos
		if t := p.peek(); isKw(t, "partition") {
			p.fail(t.pos, "a window built on window %s takes its PARTITION BY", o.Ref)
		}
	}
	if isKw(p.peek(), "partition") {
		p.advance()
		p.expectKw("by")
		for {
			o.Partition = append(o.Partition, p.arith())
			if !p.acceptPunct(",") {
				break
			}
		}
	}
	if isKw(p.peek(), "order") {
		p.advance()
		p.expectKw("by")
		for {
			k := OverOrder{Expr: p.arith()}
			k.Desc, k.Nulls = p.direction()
			o.Order = append(o.Order, k)
			if !p.acceptPunct(",") {
				break
			}
		}
	}
	o.Frame = p.frame()
	if t := p.peek(); !isPunct(t, ")") {
		p.fail(t.pos, "expected PARTITION BY, ORDER BY, a frame (ROWS, RANGE or GROUPS) or \")\" in %s, found %s", where, t.describe())
	}
	p.advance()
	return o
}

// intIn reads an integer literal in [lo, hi]; else it fails with what,
// the range and the token found.
func (p *parser) intIn(lo, hi int64, what string) int64 {
	n := p.advance()
	v, err := strconv.ParseInt(n.text, 10, 64)
	if n.kind != tInt || err != nil || v < lo || v > hi {
		p.fail(n.pos, "%s, %d to %d, found %s", what, lo, hi, n.describe())
	}
	return v
}

// maxMovingWindow bounds moving_average's window (the values it holds).
const maxMovingWindow = 1 << 20

// maxLagOffset bounds lag's and lead's offset: a raw query's window
// holds at most maxSortRows rows, an aggregate query's at most
// maxGroups, so a larger offset finds no row.
const maxLagOffset = 1 << 22

// count reads the non-negative integer after LIMIT or OFFSET (what).
func (p *parser) count(what string) int64 {
	t := p.advance()
	n, err := strconv.ParseInt(t.text, 10, 64)
	if t.kind != tInt || err != nil {
		p.fail(t.pos, "%s wants a non-negative integer, found %s", what, t.describe())
	}
	return n
}

// distinct makes SELECT DISTINCT cols (at pos) the GROUP BY of its
// columns: one row for each distinct combination.
func (p *parser) distinct(st *Statement, pos int) {
	switch {
	case st.Star || st.starItem() >= 0:
		p.fail(pos, "SELECT DISTINCT * is not supported: name the columns")
	case st.columnsItems():
		p.fail(pos, "SELECT DISTINCT with COLUMNS(...) in an item is not supported: name the columns")
	case len(st.GroupBy) > 0:
		p.fail(pos, "SELECT DISTINCT with GROUP BY is not supported: GROUP BY alone gives one row a group")
	}
	for _, it := range st.Items {
		if it.Agg != nil {
			p.fail(it.Pos, "SELECT DISTINCT with an aggregate is not supported: GROUP BY the other columns")
		}
		if it.Expr != nil && it.Expr.hasAgg() {
			p.fail(it.Pos, "SELECT DISTINCT with an aggregate is not supported: GROUP BY the other columns")
		}
		if it.Win != nil || it.Expr != nil && it.Expr.hasWin() {
			p.fail(it.Pos, "SELECT DISTINCT with a window function is not supported")
		}
		st.GroupBy = append(st.GroupBy, GroupItem{Col: it.Col, Expr: it.Expr, Pos: it.Pos})
	}
}

// aggregates are the known aggregate functions.
var aggregates = map[string]bool{
	"count": true, "sum": true, "min": true, "max": true, "avg": true,
	"first": true, "last": true, "rate": true, "quantile": true,
	"quantile_cont": true, "percentile_cont": true, "approx_quantile": true, "quantile_disc": true, "percentile_disc": true,
	"count_if": true, "bool_and": true, "bool_or": true, "any_value": true, "approx_count_distinct": true,
	"median": true, "stddev": true, "stddev_pop": true, "variance": true, "var_pop": true, "spread": true,
	"var_samp": true, "stddev_samp": true, // variance and stddev (aggSynonyms)
	"arg_max": true, "arg_min": true, "max_by": true, "min_by": true, "string_agg": true,
	"corr": true, "covar_pop": true, "covar_samp": true, "regr_slope": true, "regr_intercept": true, "regr_r2": true, "regr_count": true,
	"skewness": true, "kurtosis": true, "kurtosis_pop": true, "mode": true, "entropy": true, "product": true, "geomean": true, "mad": true,
	"bit_and": true, "bit_or": true, "bit_xor": true,
	"favg": true, "mean": true, "geometric_mean": true, "arbitrary": true, // avg, avg, geomean and first (aggSynonyms)
	"group_concat": true, "listagg": true, // string_agg (call)
	"json_group_array": true, "json_group_object": true, // string_agg of JSON (jsonagg.go)
}

// bivariate are the aggregates of pairs of numbers (y, x), taken from
// the rows where both are not null (bivariate.go).
var bivariate = map[string]bool{"corr": true, "covar_pop": true, "covar_samp": true, "regr_slope": true, "regr_intercept": true, "regr_r2": true, "regr_count": true}

// argExtremes are the aggregates of two arguments: x at the row where
// the second is largest (smallest).
var argExtremes = map[string]string{"arg_max": "arg_max", "max_by": "arg_max", "arg_min": "arg_min", "min_by": "arg_min"}

func (p *parser) call() (c *Call) {
	defer p.noArgWindows()()
	defer p.noAggConds()()
	if p.having && !p.qualify { // HAVING count(*) > 1: computed though not selected (havingAggs)
		defer func() { p.havingCalls = append(p.havingCalls, c) }()
	}
	name := p.advance()
	fn := strings.ToLower(name.text)
	if !aggregates[fn] {
		p.fail(name.pos, "unknown function %q%s (SHOW FUNCTIONS lists them)", name.text, didYouMean(fn))
	}
	if fn == "group_concat" || fn == "listagg" { // DuckDB's other names of string_agg
		fn = "string_agg"
	}
	c = &Call{Func: fn, Pos: name.pos}
	if fn == "median" {
		c.Q = 0.5
	}
	p.expectPunct("(")
	if t := p.peek(); isKw(t, "distinct") && p.toks[p.i+1].kind != tPunct { // not count(distinct): a column so named
		if fn != "count" && fn != "string_agg" {
			p.fail(t.pos, "%s(DISTINCT ...) is not supported; count(DISTINCT x) and string_agg(DISTINCT x) are", fn)
		}
		p.advance()
		c.Distinct = true
	}
	switch {
	case quantileSpellings[fn] != "":
		p.quantileArgs(fn, c)
		return p.filterAfter(c)
	case fn == "count_if": // count(*) FILTER (WHERE cond)
		having := p.having
		p.having = false
		c.Func, c.Star, c.Filter = "count", true, p.orExpr()
		p.having = having
		p.expectPunct(")")
		if t := p.peek(); isKw(t, "filter") {
			p.fail(t.pos, "count_if(cond) is count(*) FILTER (WHERE cond): it takes no FILTER of its own")
		}
		return c
	case fn == "approx_count_distinct": // exact: count(DISTINCT x)
		c.Func, c.Distinct = "count", true
		p.aggArg(c)
	case fn == "any_value": // any value of the group: the first, so the answer does not vary
		c.Func = "first"
		p.aggArg(c)
	case fn == "count" && p.acceptPunct("*"):
		c.Star = true
	case fn == "quantile":
		switch t := p.peek(); {
		case t.kind == tIdent || t.kind == tQuoted:
			p.fail(t.pos, "quantile wants the quantile first, a number in [0, 1]: quantile(0.99, %s), or quantile_cont(%s, 0.99)", t.text, t.text)
		case t.kind != tInt && t.kind != tFloat:
			p.fail(t.pos, "quantile wants a number q in [0, 1] first")
		}
		q := p.literal()
		switch q.Kind {
		case LitFloat:
			c.Q = q.Float
		case LitInt:
			c.Q = float64(q.Int)
		default:
			p.fail(q.Pos, "quantile wants a number q in [0, 1] first")
		}
		if !(c.Q >= 0 && c.Q <= 1) {
			p.fail(q.Pos, "quantile q = %v is outside [0, 1]", c.Q)
		}
		p.expectPunct(",")
		p.aggArg(c)
	case jsonAggregates[fn] != "":
		p.jsonAggArgs(c)
	case fn == "string_agg":
		p.aggArg(c)
		c.Sep = ","
		if p.acceptPunct(",") {
			t := p.advance()
			if t.kind != tString {
				p.fail(t.pos, "string_agg wants its separator as a string, found %s", t.describe())
			}
			c.Sep, c.SepGiven = t.text, true
		}
		p.aggOrder(c)
	case argExtremes[fn] != "" || bivariate[fn]:
		p.aggArg(c)
		if t := p.peek(); !isPunct(t, ",") && bivariate[fn] {
			p.fail(t.pos, "%s wants two arguments: y, then x, %s(value, epoch(time))", fn, fn)
		} else if !isPunct(t, ",") {
			p.fail(t.pos, "%s wants two arguments: the value to return, then what picks the row, %s(time, value)", fn, fn)
		}
		p.advance()
		var by Call
		p.aggArg(&by)
		c.By, c.ByExpr = by.Arg, by.Expr
	default:
		p.aggArg(c)
		if (fn == "first" || fn == "last") && p.acceptKw("order") {
			p.orderedFirst(c)
		}
	}
	p.expectPunct(")")
	return p.filterAfter(c)
}

// aggOrder parses string_agg's optional ORDER BY k [DESC] [NULLS ...],
// ... into c.
func (p *parser) aggOrder(c *Call) {
	if !p.acceptKw("order") {
		return
	}
	p.expectKw("by")
	var by Call
	p.aggArg(&by)
	c.By, c.ByExpr = by.Arg, by.Expr
	c.ByDesc, c.ByNulls = p.direction()
	for p.acceptPunct(",") {
		var k Call
		p.aggArg(&k)
		d, n := p.direction()
		c.Then = append(c.Then, AggKey{Col: k.Arg, Expr: k.Expr, Desc: d, Nulls: n})
	}
}

// orderedFirst parses the rest of DuckDB's first(x ORDER BY k [DESC])
// or last(...) after ORDER: by time, tsq's own first and last (the
// earliest and latest rows by time, then seq); by another key, the x
// of the row with the least or greatest k, as arg_min and arg_max (the
// rows of a NULL k left out, as NULLS LAST leaves them last).
func (p *parser) orderedFirst(c *Call) {
	p.expectKw("by")
	var by Call
	p.aggArg(&by)
	desc, nulls := p.direction()
	if nulls != NullsDefault {
		p.fail(p.tok(p.i-1).pos, "%s(x ORDER BY k) takes no NULLS: the rows of a NULL k come last", c.Func)
	}
	if t := p.peek(); isPunct(t, ",") {
		p.fail(t.pos, "%s(x ORDER BY k) takes one key", c.Func)
	}
	c.ordered = c.Func + "(" + c.Arg.Name + " ORDER BY " + orderText(by.Arg.Name, desc, nulls) + ")"
	latest := (c.Func == "last") != desc
	switch {
	case by.Expr == nil && by.Arg.Name == ColTime:
		c.Func = map[bool]string{false: "first", true: "last"}[latest]
	case latest:
		c.Func, c.By, c.ByExpr = "arg_max", by.Arg, by.Expr
	default:
		c.Func, c.By, c.ByExpr = "arg_min", by.Arg, by.Expr
	}
}

// filterAfter parses an optional FILTER (WHERE ...) after aggregate c.
func (p *parser) filterAfter(c *Call) *Call {
	if t := p.peek(); isKw(t, "filter") && isPunct(p.tok(p.i+1), "(") {
		p.advance()
		p.advance()
		p.acceptKw("where") // optional, as in DuckDB: FILTER (v > 1)
		having, aggConds := p.having, p.aggConds
		p.having, p.aggConds = false, 0 // the filter tests rows
		c.Filter = p.orExpr()
		p.having, p.aggConds = having, aggConds
		p.expectPunct(")")
	}
	return c
}

func (p *parser) colRef() *ColRef {
	t := p.peek()
	switch {
	case t.kind == tQuoted:
	case t.kind == tIdent && !reserved[strings.ToLower(t.text)]:
	default:
		p.fail(t.pos, "expected a column name, found %s", t.describe())
	}
	p.advance()
	name := t.text
	if t.kind == tIdent {
		switch l := strings.ToLower(name); l {
		case "seq", "time", "series", "key", "op":
			name = l
		}
	}
	return &ColRef{Name: name, Pos: t.pos}
}

func (p *parser) source(st *Statement) {
	t := p.peek()
	if p.acceptPunct("(") {
		p.subquery(st, t)
		return
	}
	if p.fileSource(st, t) {
		return
	}
	if isKw(t, "fold") && p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == "(" {
		p.advance()
		p.advance()
		st.Fold = true
		if !p.fileSource(st, p.peek()) { // fold('events.jsonl'): a file's current state
			st.Stream, st.streamPos = p.streamName()
		}
		p.expectPunct(")")
		if isKw(p.peek(), "as") && isKw(p.tok(p.i+1), "of") { // AS name is a join side's name
			p.advance()
			at := p.expectKw("of")
			st.AsOf = &AsOf{Pos: at.pos}
			switch k := p.peek(); {
			case isKw(k, "seq"):
				p.advance()
				n := p.advance()
				v, err := strconv.ParseUint(n.text, 10, 64)
				if n.kind != tInt || err != nil || v == 0 {
					p.fail(n.pos, "AS OF SEQ wants a positive integer, found %s", n.describe())
				}
				st.AsOf.Seq = v
			case isKw(k, "time"):
				p.advance()
				l := p.literal()
				if l.Kind != LitTime && l.Kind != LitString && l.Kind != LitInt {
					p.fail(l.Pos, "AS OF TIME wants a time such as '2024-01-02T03:04:05Z' or now() - 1h")
				}
				st.AsOf.Time = l
			default:
				p.fail(k.pos, "expected SEQ or TIME after AS OF, found %s", k.describe())
			}
		}
		return
	}
	if p.isGenSeries(t) {
		p.genSeries(st)
		return
	}
	st.Stream, st.streamPos = p.streamName()
	if k := p.peek(); k.kind == tPunct && k.text == "(" {
		p.fail(st.streamPos, "%q is no view of a stream: FROM fold(stream) reads the folded view (the current state), FROM stream every record", p.src[st.streamPos:k.pos])
	}
}

func (p *parser) streamName() (string, int) {
	t := p.advance()
	bare := t.kind == tIdent || t.kind == tInt || t.kind == tDuration // a name may start with digits: 2024-logs
	if !bare && t.kind != tQuoted && t.kind != tString || t.text == "" || t.kind == tIdent && reserved[strings.ToLower(t.text)] {
		p.fail(t.pos, "expected a stream name, found %s", t.describe())
	}
	if bare {
		// Stream names are lower case: an unquoted one is folded, as SQL
		// folds unquoted names (FROM CPU reads cpu).
		return strings.ToLower(p.streamNameRest(t)), t.pos
	}
	return t.text, t.pos
}

// streamNameRest returns the unquoted stream name starting with t, which
// may go on with '-' and '.' (FROM cpu-usage.v2): the run of name
// characters in the source from t on, its tokens consumed. The run must
// end where a token does.
func (p *parser) streamNameRest(t token) string {
	end := t.pos
	for end < len(p.src) && (isLetter(p.src[end]) || isDigit(p.src[end]) || strings.IndexByte("_.-", p.src[end]) >= 0) {
		end++
	}
	last := t
	for p.peek().kind != tEOF && p.peek().pos < end {
		last = p.advance()
	}
	if last.pos+len(last.text) != end || last.kind == tString || last.kind == tQuoted {
		p.fail(t.pos, "expected a stream name, found %q", p.src[t.pos:end])
	}
	return p.src[t.pos:end]
}

func (p *parser) groupItem() GroupItem {
	t := p.peek()
	if isKw(t, "time") && p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == "(" {
		p.advance()
		p.advance()
		d := p.advance()
		if d.kind != tDuration {
			if d.kind == tInt && d.text != "" && strings.Trim(d.text, "0") == "" {
				p.fail(d.pos, "time bucket of 0: want a positive duration such as 5m")
			}
			p.fail(d.pos, "time() wants a duration such as 5m or 1h, found %s", d.describe())
		}
		g := GroupItem{Pos: t.pos}
		g.Bucket, g.Months = p.bucketWidth(d, "time bucket")
		if p.acceptPunct(",") { // an offset, a zone, or both
			g.Offset, _, g.Zone, _ = p.offsetZone("time()", "the bucket", d.text, g.Months)
		}
		close := p.expectPunct(")")
		g.text = p.src[t.pos : close.pos+1]
		return g
	}
	if p.arithAt(p.i, false) || isKw(t, "not") || p.condFollows(p.operandEnd(p.i)) {
		a := p.valueOrCond() // GROUP BY v > 50: a condition's value
		if a.Col != nil {
			return GroupItem{Col: a.Col, Pos: a.Col.Pos}
		}
		return GroupItem{Expr: a, Pos: t.pos}
	}
	c := p.colRef()
	return GroupItem{Col: c, Pos: c.Pos}
}

// groupPosition returns GROUP BY n (the int t): the n-th SELECT item.
func (p *parser) groupPosition(st *Statement, t token) GroupItem {
	n, err := strconv.Atoi(t.text)
	switch {
	case st.Star || st.starItem() >= 0:
		p.fail(t.pos, "GROUP BY %s: with SELECT * there are no numbered items; name the columns", t.text)
	case err != nil || n < 1 || n > len(st.Items):
		p.fail(t.pos, "GROUP BY %s: the SELECT has %s, counted from 1", t.text, countWord(len(st.Items), "item"))
	case slices.ContainsFunc(st.Items[:n], func(it SelectItem) bool { return it.columns != nil }):
		p.fail(t.pos, "GROUP BY %s: COLUMNS(...) in an item stands for several; name the column grouped by", t.text)
	}
	g, why := groupOfItem(&st.Items[n-1], t.pos)
	if why != "" {
		p.fail(t.pos, "GROUP BY %d: item %d is %s", n, n, why)
	}
	return g
}

// groupAll sets GROUP BY ALL (at pos): every SELECT item that is neither
// an aggregate nor a window function.
func (p *parser) groupAll(st *Statement, pos int) {
	if st.Star || st.starItem() >= 0 {
		p.fail(pos, "GROUP BY ALL groups by the SELECT's items, and SELECT * names none: name the columns")
	}
	for i := range st.Items {
		if g, why := groupOfItem(&st.Items[i], pos); why == "" {
			if st.Items[i].columns != nil {
				p.fail(st.Items[i].columns.pos, "GROUP BY ALL groups by the items, and %s in an item that is no aggregate stands for several: name the columns grouped by", st.Items[i].columns.text)
			}
			st.GroupBy = append(st.GroupBy, g)
		}
	}
	if len(st.GroupBy) == 0 {
		p.fail(pos, "GROUP BY ALL: every item is an aggregate; leave GROUP BY out for one group")
	}
}

// groupOfItem returns the grouping by SELECT item it (its column or its
// computed value), or why it cannot group.
func groupOfItem(it *SelectItem, pos int) (GroupItem, string) {
	switch {
	case it.Agg != nil || it.Expr != nil && it.Expr.hasAgg():
		return GroupItem{}, "an aggregate"
	case it.Win != nil:
		return GroupItem{}, "a window function"
	case it.Col != nil && strings.HasSuffix(it.Col.Name, ".*"):
		return GroupItem{}, "a side's columns (" + it.Col.Name + ")"
	case it.Col != nil:
		return GroupItem{Col: &ColRef{Name: it.Col.Name, Pos: pos}, Pos: pos}, ""
	}
	return GroupItem{Expr: it.Expr, Pos: pos}, ""
}

// calendarMonths reads a bucket of whole months or years: 1mo, 3mo, 1y.
func calendarMonths(s string) (int, bool) {
	num, unit := s, ""
	for _, u := range []string{"mo", "y"} {
		if n, ok := strings.CutSuffix(s, u); ok {
			num, unit = n, u
			break
		}
	}
	if unit == "" || num == "" || strings.Trim(num, "0123456789") != "" || len(num) > 6 {
		return 0, false
	}
	n, _ := strconv.Atoi(num)
	if unit == "y" {
		n *= 12
	}
	return n, true
}

// zone reads a time zone name: an IANA name in quotes.
func (p *parser) zone() *time.Location {
	z := p.advance()
	if z.kind != tString {
		p.fail(z.pos, "time() wants an offset such as 15m or a time zone such as 'Europe/Berlin' after the bucket, found %s", z.describe())
	}
	loc, err := time.LoadLocation(z.text)
	if err != nil || z.text == "" || strings.EqualFold(z.text, "local") {
		p.fail(z.pos, "unknown time zone %q (want an IANA name such as 'Europe/Berlin', 'America/New_York' or 'UTC')", z.text)
	}
	return loc
}

func (p *parser) orderItem() OrderItem {
	t := p.peek()
	it := OrderItem{Pos: t.pos}
	switch {
	case t.kind == tInt:
		p.advance()
		n, err := strconv.Atoi(t.text)
		if err != nil || n < 1 {
			p.fail(t.pos, "ORDER BY %s: a column's position counts from 1", t.text)
		}
		it.Index = n
	case p.arithAt(p.i, false) || isPunct(t, "(") || p.condFollows(p.operandEnd(p.i)) || isKw(t, "not"):
		// ORDER BY hour(time), max(v) - min(v), (v + 1): a column named
		// so, or computed; ORDER BY v IS NULL, s LIKE 'a%': a condition's
		// value (false before true)
		it.Expr = p.valueOrCond()
		it.Name = it.Expr.String()
	case t.kind == tIdent && p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == "(":
		c := p.call()
		it.Name, it.Expr = c.String(), &Arith{Agg: c, Pos: c.Pos}
	default:
		it.Name = p.colRef().Name
	}
	it.Desc, it.Nulls = p.direction()
	return it
}

// direction reads an optional ASC or DESC, then NULLS FIRST or LAST.
func (p *parser) direction() (desc bool, nulls Nulls) {
	if p.acceptKw("desc") {
		desc = true
	} else {
		p.acceptKw("asc")
	}
	if p.acceptKw("nulls") {
		switch t := p.advance(); {
		case isKw(t, "first"):
			nulls = NullsFirst
		case isKw(t, "last"):
			nulls = NullsLast
		default:
			p.fail(t.pos, "expected FIRST or LAST after NULLS, found %s", t.describe())
		}
	}
	return desc, nulls
}

func (p *parser) orExpr() Expr {
	defer p.noWindows()()
	x := p.andExpr()
	for p.acceptKw("or") {
		x = &Or{L: x, R: p.andExpr()}
	}
	return x
}

func (p *parser) andExpr() Expr {
	x := p.notExpr()
	for p.acceptKw("and") {
		x = &And{L: x, R: p.notExpr()}
	}
	return x
}

func (p *parser) notExpr() Expr {
	if p.acceptKw("not") {
		return &Not{p.notExpr()}
	}
	t := p.peek()
	e := p.predicate()
	for isKw(p.peek(), "is") { // v > 1 IS TRUE: the comparison's value, tested
		e = p.exprMatch(boolValue(e, t.pos))
	}
	return e
}

// operand is the column a condition tests; in HAVING also an aggregate,
// named by its text (count(*), avg(value)) as the result's column is.
func (p *parser) operand() *ColRef {
	if t := p.peek(); t.kind == tIdent && p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == "(" {
		if !p.having && aggregates[strings.ToLower(t.text)] {
			p.failAggregate(t.pos, strings.ToLower(t.text))
		}
		if p.having {
			c := p.call()
			return &ColRef{Name: c.String(), Pos: c.Pos}
		}
	}
	return p.colRef()
}

// flipped maps the comparison op of lit op col to col op' lit.
var flipped = map[string]string{"=": "=", "!=": "!=", "<>": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

func (p *parser) predicate() Expr {
	if t := p.peek(); isKw(t, "exists") && isPunct(p.tok(p.i+1), "(") {
		return p.exists()
	}
	if t := p.peek(); t.kind == tIdent && isPunct(p.tok(p.i+1), "(") && textTests[strings.ToLower(t.text)] != nil {
		return p.textTest(t)
	}
	if p.tupleInAt(p.i) { // (x, y) IN (...) (rowin.go)
		return p.tupleIn()
	}
	if p.arithAt(p.i, false) {
		return p.arithCompare()
	}
	start := p.i
	if p.acceptPunct("(") {
		x := p.orExpr()
		p.expectPunct(")")
		return x
	}
	t := p.peek()
	if (isKw(t, "true") || isKw(t, "false")) && p.condEnds(p.tok(p.i+1)) { // WHERE false
		p.advance()
		lit := func(b bool) *Arith { return &Arith{Lit: &Lit{Kind: LitBool, Bool: b, Pos: t.pos}, Pos: t.pos} }
		return &ArithCompare{L: lit(isKw(t, "true")), R: lit(true), Op: "=", Pos: t.pos, text: strings.ToLower(t.text)}
	}
	if t.kind != tIdent && t.kind != tQuoted || isKw(t, "now") || isKw(t, "true") || isKw(t, "false") || isKw(t, "null") {
		// literal op column
		l := p.literal()
		op := p.peek()
		f, ok := flipped[op.text]
		if op.kind != tPunct || !ok {
			p.fail(op.pos, "expected a comparison after %s, found %s", l.String(), op.describe())
		}
		p.advance()
		if n := p.peek(); p.arithAt(p.i, true) || n.kind == tInt || n.kind == tFloat || isPunct(n, "-") { // 1 = 1
			p.i = start
			return p.arithCompare()
		}
		return &Compare{Col: p.operand(), Op: f, Lit: l}
	}
	c := p.operand()
	op := p.peek()
	if op.kind == tPunct {
		switch op.text {
		case "=", "!=", "<>", "<", "<=", ">", ">=":
			p.advance()
			if p.arithAt(p.i, true) {
				p.i = start
				return p.arithCompare()
			}
			o := op.text
			if o == "<>" {
				o = "!="
			}
			return &Compare{Col: c, Op: o, Lit: p.literal()}
		case "=~", "!~":
			p.advance()
			s := p.advance()
			if s.kind != tString {
				p.fail(s.pos, "%s wants a regular expression string, found %s", op.text, s.describe())
			}
			return &Regex{Col: c, Re: p.regex(s), Neg: op.text == "!~"}
		case "~":
			p.advance()
			return p.selector(c)
		}
	}
	neg := false
	switch {
	case isKw(p.peek(), "is") && (isKw(p.tok(p.i+1), "true") || isKw(p.tok(p.i+1), "false") || isKw(p.tok(p.i+1), "distinct") || isKw(p.tok(p.i+1), "not") && !isKw(p.tok(p.i+2), "null")):
		return p.exprMatch(&Arith{Col: c, Pos: c.Pos}) // ok IS [NOT] TRUE, v IS [NOT] DISTINCT FROM w
	case p.acceptKw("is"):
		n := p.acceptKw("not")
		p.expectKw("null")
		return &IsNull{Col: c, Neg: n}
	case p.acceptKw("not"):
		neg = true
	}
	switch k := p.peek(); {
	case isKw(k, "like"):
		p.advance()
		pos := p.peek().pos
		return &Like{Col: c, Pattern: p.likePattern("LIKE"), Neg: neg, Pos: pos}
	case isKw(k, "ilike"): // LIKE ignoring case: a regular expression match
		p.advance()
		pattern := p.likePattern("ILIKE")
		return &Regex{Col: c, Re: likeRegexpFold(pattern, true), Neg: neg, text: ilikeText(c.Name, pattern, neg)}
	case p.similarAt(p.i):
		re, text := p.similarTo(c.Name, neg)
		return &Regex{Col: c, Re: re, Neg: neg, text: text}
	case isKw(k, "in"):
		p.advance()
		open := p.expectPunct("(")
		in := &In{Col: c, Neg: neg}
		if isKw(p.peek(), "select") { // x IN (SELECT ...): its values, see insub.go
			p.inSubquery(in, open)
			return in
		}
		for {
			in.Lits = append(in.Lits, p.literal())
			if !p.acceptPunct(",") {
				break
			}
		}
		p.expectPunct(")")
		return in
	case isKw(k, "between"):
		p.advance()
		var texts []string
		bound := func(op string) Expr { // a literal, or arithmetic (BETWEEN n - 1 AND n + 1)
			if t := p.peek(); p.arithAt(p.i, true) {
				a := p.arith()
				texts = append(texts, operandText(a))
				return p.comparison(&Arith{Col: c, Pos: c.Pos}, op, a, t.pos)
			}
			l := p.literal()
			texts = append(texts, l.String())
			return &Compare{Col: c, Op: op, Lit: l}
		}
		if neg {
			lo := bound("<")
			p.expectKw("and")
			hi := bound(">")
			return &Or{L: lo, R: hi, text: operandText(&Arith{Col: c}) + " NOT BETWEEN " + texts[0] + " AND " + texts[1]}
		}
		lo := bound(">=")
		p.expectKw("and")
		hi := bound("<=")
		return &And{L: lo, R: hi, text: operandText(&Arith{Col: c}) + " BETWEEN " + texts[0] + " AND " + texts[1]}
	}
	k := p.peek()
	if p.condEnds(k) {
		// A column alone is a condition when it is a bool: WHERE ok.
		return &Compare{Col: c, Op: "=", Lit: &Lit{Kind: LitBool, Bool: true, Pos: c.Pos}, bare: true}
	}
	p.fail(k.pos, "expected a comparison after %s, found %s", c.Name, k.describe())
	return nil
}

// condEnds reports whether k ends a condition: the statement, a ")", AND,
// OR, THEN, a clause.
func (p *parser) condEnds(k token) bool {
	return k.kind == tEOF || isPunct(k, ")", ";", ",") || k.kind == tIdent && (reserved[strings.ToLower(k.text)] || isKw(k, "fill") || isKw(k, "then") || isKw(k, "when") || isKw(k, "else") || isKw(k, "end")) && !isKw(k, "not")
}

// regex compiles an anchored regular expression.
func (p *parser) regex(s token) *regexp.Regexp {
	re, err := regexp.Compile("^(?:" + s.text + ")$")
	if err != nil {
		msg := err.Error()
		if e, ok := err.(*syntax.Error); ok {
			msg = string(e.Code) + ": " + e.Expr
		}
		p.fail(s.pos, "bad regular expression: %s", msg)
	}
	return re
}

// selector parses a Prometheus series selector: [name] [{matchers}].
func (p *parser) selector(c *ColRef) Expr {
	m := &SeriesMatch{Col: c}
	t := p.peek()
	switch {
	case t.kind == tIdent || t.kind == tString || t.kind == tQuoted:
		m.Name = p.advance().text
	case t.kind == tPunct && t.text == "{":
	default:
		p.fail(t.pos, "expected a series selector such as cpu{host=\"a\"}, found %s", t.describe())
	}
	if p.acceptPunct("{") {
		for !p.acceptPunct("}") {
			l := p.advance()
			if l.kind != tIdent && l.kind != tQuoted {
				p.fail(l.pos, "expected a label name, found %s", l.describe())
			}
			op := p.advance()
			if op.kind != tPunct || (op.text != "=" && op.text != "!=" && op.text != "=~" && op.text != "!~") {
				p.fail(op.pos, "expected =, !=, =~ or !~ after label %s, found %s", l.text, op.describe())
			}
			v := p.advance()
			if v.kind != tString {
				p.fail(v.pos, "expected a quoted label value, found %s", v.describe())
			}
			lm := LabelMatcher{Label: l.text, Op: op.text, Value: v.text}
			if op.text == "=~" || op.text == "!~" {
				lm.re = p.regex(v)
			}
			m.Matchers = append(m.Matchers, lm)
			if !p.acceptPunct(",") {
				p.expectPunct("}")
				break
			}
		}
	}
	return m
}

// literal parses a number, string, boolean, NULL or time expression:
// now() or a string, followed by any number of + or - durations.
func (p *parser) literal() *Lit {
	t := p.advance()
	l := &Lit{Pos: t.pos}
	switch {
	case t.kind == tPunct && t.text == "-" && p.peek().kind == tInt && p.peek().text == "9223372036854775808":
		p.advance() // the least int64, whose magnitude is none
		l.Kind, l.Int = LitInt, math.MinInt64
		return l
	case t.kind == tPunct && t.text == "-":
		n := p.literal()
		switch {
		case n.Kind == LitInt && n.Int != math.MinInt64:
			n.Int = -n.Int
		case n.Kind == LitFloat:
			n.Float = -n.Float
		default:
			p.fail(t.pos, "unary minus wants a number")
		}
		n.Pos = t.pos
		return n
	case t.kind == tInt:
		v, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			p.fail(t.pos, "integer %s out of range", t.text)
		}
		l.Kind, l.Int = LitInt, v
	case t.kind == tFloat:
		v, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			p.fail(t.pos, "bad number %s", t.text)
		}
		l.Kind, l.Float = LitFloat, v
	case t.kind == tString && t.typed: // TIMESTAMP '2024-01-01': a time
		l.Kind, l.Str = LitTime, t.text
	case t.kind == tString:
		l.Kind, l.Str = LitString, t.text
	case isKw(t, "true") || isKw(t, "false"):
		l.Kind, l.Bool = LitBool, isKw(t, "true")
	case isKw(t, "null"):
		l.Kind = LitNull
	case isKw(t, "now"):
		p.expectPunct("(")
		p.expectPunct(")")
		l.Kind, l.Now = LitTime, true
	case t.kind == tDuration: // HAVING max(time) - min(time) > 1h, QUALIFY gap > 5m, WHERE d > 1h: a span
		l.Kind, l.Int, l.Str = LitDuration, p.duration(t), t.text
	default:
		p.fail(t.pos, "expected a value, found %s", t.describe())
	}
	if l.Kind == LitTime || l.Kind == LitString {
		for {
			nt := p.peek()
			if nt.kind != tPunct || (nt.text != "+" && nt.text != "-") {
				break
			}
			p.advance()
			d := p.advance()
			if d.kind != tDuration {
				p.fail(d.pos, "expected a duration such as 1h after %s, found %s", nt.text, d.describe())
			}
			if n, ok := calendarMonths(d.text); ok { // now() - INTERVAL 1 MONTH
				if l.Shift != 0 {
					p.fail(d.pos, "a calendar span (%s) after a duration: write it first, as in now() - INTERVAL 1 MONTH - INTERVAL 1 DAY", d.text)
				}
				if nt.text == "-" {
					n = -n
				}
				l.Kind = LitTime
				l.Months += int64(n)
				continue
			}
			ns := p.duration(d)
			if nt.text == "-" {
				ns = -ns
			}
			l.Kind = LitTime
			l.Shift += ns
		}
	}
	return l
}

var unitNs = map[string]float64{
	"ns": 1, "us": 1e3, "µs": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9, "d": 86400e9, "w": 7 * 86400e9,
}

// duration converts a duration token (e.g. 1h30m) to nanoseconds.
func (p *parser) duration(t token) int64 {
	ns, err := ParseDuration(t.text)
	if err != nil {
		p.fail(t.pos, "%v", err)
	}
	return ns
}

// ParseDuration parses a duration as the query language writes it, in
// nanoseconds: numbers (a fraction allowed) each with a unit, ns us µs
// ms s m h d (24h) w (7d), as in 1h30m, 90d or 1.5w; at most ~146 years.
func ParseDuration(s string) (int64, error) {
	if s == "" {
		return 0, fmt.Errorf("bad duration %q", s)
	}
	var total float64
	for rest := s; rest != ""; {
		i := 0
		for i < len(rest) && (isDigit(rest[i]) || rest[i] == '.') {
			i++
		}
		v, err := strconv.ParseFloat(rest[:i], 64)
		j := i
		for j < len(rest) && !isDigit(rest[j]) {
			j++
		}
		u, ok := unitNs[rest[i:j]]
		if unit := rest[i:j]; unit == "mo" || unit == "y" {
			return 0, fmt.Errorf("bad duration %s: months and years are calendar units, taken only by time() buckets (GROUP BY time(1mo))", s)
		}
		if err != nil || !ok {
			return 0, fmt.Errorf("bad duration %s", s)
		}
		total += v * u
		rest = rest[j:]
	}
	if total > float64(math.MaxInt64/2) {
		return 0, fmt.Errorf("duration %s is too long", s) // time arithmetic could overflow
	}
	return int64(total), nil
}

// parseTime parses an absolute time: RFC 3339 with or without
// fractional seconds, or a date alone (midnight UTC). A time before
// 1677-09-21 or after 2262-04-11 (past int64 nanoseconds) is the
// earliest or latest time, as time arithmetic saturates (clampAdd).
func parseTime(s string) (int64, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02",
		"2006-01-02 15:04:05Z07:00", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02T15:04Z07:00", "2006-01-02 15:04Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			switch {
			case t.Before(minTime):
				return math.MinInt64, true
			case t.After(maxTime):
				return math.MaxInt64, true
			}
			return t.UnixNano(), true
		}
	}
	return 0, false
}

// minTime and maxTime bound the times int64 nanoseconds hold.
var minTime, maxTime = time.Unix(0, math.MinInt64), time.Unix(0, math.MaxInt64)

// failAggregate refuses aggregate fn where a condition tests rows.
func (p *parser) failAggregate(pos int, fn string) {
	if p.inCondValue > 0 {
		p.fail(pos, "aggregate %s in a condition's value (SELECT x > 1): it is computed on the row's columns; test aggregates in HAVING", fn)
	}
	if p.inCase > 0 {
		p.fail(pos, "aggregate %s in a CASE condition: CASE tests the row's columns", fn)
	}
	p.fail(pos, "aggregate %s in WHERE: WHERE tests rows; test aggregates in HAVING, after GROUP BY", fn)
}
