package query

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// ExprMatch tests a computed value as conditions test columns:
// lower(s) LIKE 'a%', CASE ... END IS NULL, split_part(key, '/', 1) =~
// 'way|node'. (x IN (...) of an expression becomes comparisons.)
type ExprMatch struct {
	X       *Arith
	Null    bool           // IS NULL (Neg: IS NOT NULL)
	Pattern string         // LIKE
	Re      *regexp.Regexp // =~ (Neg: !~)
	Neg     bool
	Pos     int
	// text: the test as written (starts_with(s, 'a')), when it was one
	text string
}

func (*ExprMatch) exprNode() {}

func (e *ExprMatch) String() string {
	if e.text != "" {
		return e.text
	}
	not := ""
	if e.Neg {
		not = "NOT "
	}
	x := e.X.String()
	if e.X.cond != nil { // (v > 1) IS NULL
		x = "(" + x + ")"
	}
	switch {
	case e.Null:
		return x + " IS " + not + "NULL"
	case e.Re != nil:
		op := "=~"
		if e.Neg {
			op = "!~"
		}
		return x + " " + op + " /" + e.Re.String() + "/"
	}
	return x + " " + not + "LIKE '" + e.Pattern + "'"
}

// textTests are DuckDB's tests of text, conditions here: their second
// argument, a string, made the regular expression they match.
var textTests = map[string]func(string) string{
	"starts_with":       func(s string) string { return "^" + regexp.QuoteMeta(s) },
	"ends_with":         func(s string) string { return regexp.QuoteMeta(s) + "$" },
	"prefix":            func(s string) string { return "^" + regexp.QuoteMeta(s) }, // DuckDB's other names
	"suffix":            func(s string) string { return regexp.QuoteMeta(s) + "$" },
	"contains":          regexp.QuoteMeta,
	"regexp_matches":    func(s string) string { return s }, // anywhere in the text, as DuckDB matches
	"regexp_full_match": func(s string) string { return "^(?:" + s + ")$" },
}

// textTest parses the rest of a text test (t its name): starts_with(x,
// 'a'), ends_with, contains, regexp_matches(x, 're'), a match of x.
func (p *parser) textTest(t token) Expr {
	fn := strings.ToLower(t.text)
	p.advance()
	p.expectPunct("(")
	m := &ExprMatch{X: p.arith(), Pos: t.pos}
	p.expectPunct(",")
	s := p.advance()
	if s.kind != tString {
		p.fail(s.pos, "%s wants a string literal here, found %s", fn, s.describe())
	}
	re, err := regexp.Compile(textTests[fn](s.text))
	if err != nil {
		p.fail(s.pos, "bad regular expression: %v", err)
	}
	p.expectPunct(")")
	m.Re, m.text = re, fn+"("+m.X.String()+", "+(&Lit{Kind: LitString, Str: s.text}).String()+")"
	return m
}

// operandText renders x as an operand of BETWEEN or IS: in parentheses
// when it is a condition's value or has an operator.
func operandText(x *Arith) string {
	if x.cond != nil || x.pipes || strings.IndexByte("+-*/", x.Op) >= 0 && x.Op != 0 {
		return "(" + x.String() + ")"
	}
	return x.String()
}

// likePattern parses the pattern of a LIKE or ILIKE (what) and its
// ESCAPE 'c', if any, and returns the pattern with \ as its escape, as
// likeRegexp reads it (without ESCAPE, \ escapes).
func (p *parser) likePattern(what string) string {
	s := p.advance()
	if s.kind != tString {
		p.fail(s.pos, "%s wants a pattern string, found %s", what, s.describe())
	}
	if !p.acceptKw("escape") {
		return s.text
	}
	e := p.advance()
	if e.kind != tString || utf8.RuneCountInString(e.text) != 1 {
		p.fail(e.pos, "ESCAPE wants one character in quotes, found %s", e.describe())
	}
	esc, _ := utf8.DecodeRuneInString(e.text)
	rs := []rune(s.text)
	var b strings.Builder
	for i := 0; i < len(rs); i++ {
		switch r := rs[i]; {
		case r == esc && i+1 < len(rs):
			b.WriteByte('\\')
			b.WriteRune(rs[i+1])
			i++
		case r == esc:
			p.fail(s.pos, "%s pattern %q ends with its escape character", what, s.text)
		case r == '\\':
			b.WriteString(`\\`)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// distinctFrom is x IS [NOT] DISTINCT FROM y (not: NOT), a comparison
// that takes NULL as a value and is never NULL itself: x and y are not
// distinct when both are NULL, or neither is and x = y.
func (p *parser) distinctFrom(x, y *Arith, not bool, pos int) Expr {
	isNull := func(a *Arith, neg bool) Expr { return &ExprMatch{X: a, Null: true, Neg: neg, Pos: pos} }
	text := operandText(x) + " IS DISTINCT FROM " + operandText(y)
	if not {
		text = operandText(x) + " IS NOT DISTINCT FROM " + operandText(y)
	}
	isNullLit := func(a *Arith) bool { return a.Lit != nil && a.Lit.Kind == LitNull }
	switch { // against NULL: x IS [NOT] NULL
	case isNullLit(y):
		return &ExprMatch{X: x, Null: true, Neg: !not, Pos: pos, text: text}
	case isNullLit(x):
		return &ExprMatch{X: y, Null: true, Neg: !not, Pos: pos, text: text}
	}
	if not {
		both := &And{L: p.comparison(x, "=", y, pos), R: &And{L: isNull(x, true), R: isNull(y, true)}}
		return &Or{L: both, R: &And{L: isNull(x, false), R: isNull(y, false)}, text: text}
	}
	both := &And{L: p.comparison(x, "!=", y, pos), R: &And{L: isNull(x, true), R: isNull(y, true)}}
	one := &Or{L: &And{L: isNull(x, false), R: isNull(y, true)}, R: &And{L: isNull(x, true), R: isNull(y, false)}}
	return &Or{L: both, R: one, text: text}
}

// exprMatch parses a test of the arithmetic x after it, if one follows:
// IS [NOT] NULL, IS [NOT] DISTINCT FROM, [NOT] LIKE, =~, !~, [NOT] IN
// (...), [NOT] BETWEEN;
// nil otherwise.
func (p *parser) exprMatch(x *Arith) Expr {
	t := p.peek()
	m := &ExprMatch{X: x, Pos: t.pos}
	switch {
	case isKw(t, "is"):
		p.advance()
		m.Neg = p.acceptKw("not")
		if p.acceptKw("distinct") {
			p.expectKw("from")
			return p.distinctFrom(x, p.arith(), m.Neg, t.pos)
		}
		if k := p.peek(); isKw(k, "true") || isKw(k, "false") { // x IS [NOT] TRUE: never NULL
			p.advance()
			lit := &Arith{Lit: &Lit{Kind: LitBool, Bool: isKw(k, "true"), Pos: k.pos}, Pos: k.pos}
			notLit := &Arith{Lit: &Lit{Kind: LitBool, Bool: !isKw(k, "true"), Pos: k.pos}, Pos: k.pos}
			text := operandText(x) + " IS " + strings.ToUpper(k.text)
			if m.Neg { // x IS NOT TRUE: x = false OR x IS NULL
				text = operandText(x) + " IS NOT " + strings.ToUpper(k.text)
				return &Or{L: p.comparison(x, "=", notLit, k.pos), R: &ExprMatch{X: x, Null: true, Pos: t.pos}, text: text}
			}
			return &And{L: p.comparison(x, "=", lit, k.pos), R: &ExprMatch{X: x, Null: true, Neg: true, Pos: t.pos}, text: text}
		}
		p.expectKw("null")
		m.Null = true
		return m
	case isPunct(t, "=~", "!~"):
		p.advance()
		s := p.advance()
		if s.kind != tString {
			p.fail(s.pos, "%s wants a regular expression string, found %s", t.text, s.describe())
		}
		m.Re, m.Neg = p.regex(s), t.text == "!~"
		return m
	case isKw(t, "between") || isKw(t, "not") && isKw(p.tok(p.i+1), "between"): // x BETWEEN lo AND hi: x >= lo AND x <= hi
		neg := p.acceptKw("not")
		p.advance()
		lo := p.arith()
		and := p.expectKw("and")
		hi := p.arith()
		text := operandText(x) + " BETWEEN " + operandText(lo) + " AND " + operandText(hi)
		if neg {
			text = operandText(x) + " NOT BETWEEN " + operandText(lo) + " AND " + operandText(hi)
			return &Or{L: p.comparison(x, "<", lo, t.pos), R: p.comparison(x, ">", hi, and.pos), text: text}
		}
		return &And{L: p.comparison(x, ">=", lo, t.pos), R: p.comparison(x, "<=", hi, and.pos), text: text}
	case isKw(t, "not") && (isKw(p.tok(p.i+1), "like") || isKw(p.tok(p.i+1), "ilike") || isKw(p.tok(p.i+1), "in") || p.similarAt(p.i+1)):
		p.advance()
		m.Neg = true
	case !isKw(t, "like") && !isKw(t, "ilike") && !isKw(t, "in") && !p.similarAt(p.i):
		return nil
	}
	if p.similarAt(p.i) {
		m.Re, m.text = p.similarTo(operandText(x), m.Neg)
		return m
	}
	if p.acceptKw("ilike") { // LIKE ignoring case: a regular expression match
		pattern := p.likePattern("ILIKE")
		m.Re, m.text = likeRegexpFold(pattern, true), ilikeText(operandText(x), pattern, m.Neg)
		return m
	}
	if p.acceptKw("like") {
		m.Pattern = p.likePattern("LIKE")
		return m
	}
	p.expectKw("in") // x IN (a, b): x = a OR x = b; NOT IN: x != a AND x != b
	open := p.expectPunct("(")
	if isKw(p.peek(), "select") { // x IN (SELECT ...): its values (insub.go)
		in := &In{X: x, Col: &ColRef{Name: x.String(), Pos: x.Pos}, Neg: m.Neg}
		p.inSubquery(in, open)
		return in
	}
	var out Expr
	for {
		v := p.arith()
		var e Expr = &ArithCompare{L: x, R: v, Op: "=", Pos: v.Pos}
		if m.Neg {
			e = &ArithCompare{L: x, R: v, Op: "!=", Pos: v.Pos}
		}
		out = inChainAdd(out, e, m.Neg)
		if !p.acceptPunct(",") {
			break
		}
	}
	p.expectPunct(")")
	return out
}

// inChainAdd adds term e to out, a list's IN written out: x = a OR x = b
// ...; with neg (NOT IN), x != a AND x != b ... (out nil: e alone).
func inChainAdd(out, e Expr, neg bool) Expr {
	switch {
	case out == nil:
		return e
	case neg:
		return &And{L: out, R: e}
	}
	return &Or{L: out, R: e}
}

// similarAt reports whether SIMILAR TO starts at token i: SQL's
// regular expression match of the whole text (DuckDB's, RE2's syntax).
func (p *parser) similarAt(i int) bool {
	return isKw(p.tok(i), "similar") && isKw(p.tok(i+1), "to")
}

// similarTo parses the rest of x [NOT] SIMILAR TO 'pattern' at SIMILAR
// (x as written, its NOT given) and returns the compiled pattern and
// the test as written.
func (p *parser) similarTo(x string, neg bool) (*regexp.Regexp, string) {
	p.advance()
	p.advance()
	s := p.advance()
	if s.kind != tString {
		p.fail(s.pos, "SIMILAR TO wants a pattern string, found %s", s.describe())
	}
	not := ""
	if neg {
		not = "NOT "
	}
	return p.regex(s), x + " " + not + "SIMILAR TO '" + strings.ReplaceAll(s.text, "'", "''") + "'"
}

// ilikeText is x [NOT] ILIKE 'pattern' as written.
func ilikeText(x, pattern string, neg bool) string {
	not := ""
	if neg {
		not = "NOT "
	}
	return x + " " + not + "ILIKE '" + strings.ReplaceAll(pattern, "'", "''") + "'"
}

// matcher returns the test of a non-null text value, or nil for IS NULL.
func (e *ExprMatch) matcher() func(string) bool {
	switch {
	case e.Null:
		return nil
	case e.Re != nil:
		return e.Re.MatchString
	}
	if pre, ok := likePrefix(e.Pattern); ok {
		return func(s string) bool { return strings.HasPrefix(s, pre) }
	}
	return likeRegexp(e.Pattern).MatchString
}

// compileExprMatch plans e on the rows; neg pushes a NOT down.
func (p *plan) compileExprMatch(e *ExprMatch, neg bool) (pred, error) {
	x, err := p.rawArith(e.X)
	if err != nil {
		return nil, err
	}
	if !e.Null && x.kind != kString {
		return nil, p.errAt(e.Pos, "type mismatch: a pattern match on %s, a number", e.X.String())
	}
	return &matchPred{x: x, match: e.matcher(), out: e.Neg != neg}, nil
}

// matchPred: IS NULL (match nil) holds for a null value (!= out); a
// pattern for a value that matches (!= out), never for a null.
type matchPred struct {
	x     *arithPlan
	match func(string) bool
	out   bool
}

func (p *matchPred) eval(b *batch, sel []int32) []int32 {
	defer b.vecs.release(b.vecs.mark())
	v := p.x.vec(b, sel)
	return v.rowsWhere(sel, func(j int) bool {
		null := v.isNull(j)
		return p.match == nil && null != p.out || p.match != nil && !null && p.match(v.strs[j]) != p.out
	})
}

// havingExprMatch plans e on a result row.
func (p *plan) havingExprMatch(e *ExprMatch, neg bool) (rowPred, error) {
	x, err := p.compileArith(p.resultRefs(e.X), p.resultLeaf)
	if err != nil {
		return nil, err
	}
	if !e.Null && x.kind != kString {
		return nil, p.errAt(e.Pos, "type mismatch: a pattern match on %s, a number", e.X.String())
	}
	match, out := e.matcher(), e.Neg != neg
	return func(row []value) bool {
		v := x.eval(func(a *arithPlan) value { return row[a.idx] })
		if match == nil {
			return v.null != out
		}
		return !v.null && match(v.s) != out
	}, nil
}
