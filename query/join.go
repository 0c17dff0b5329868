package query

import (
	"slices"
	"strings"
)

// FROM a [AS x] [INNER | LEFT [OUTER] | ASOF [LEFT]] JOIN b [AS y]
// ON x.c = y.d [AND ...] | USING (c, ...): two sources, each a stream,
// fold(stream) [AS OF ...] or a subquery, joined into one relation that
// the statement reads as it reads a subquery's result (joinexec.go).

// Join is a statement's FROM ... JOIN ....
type Join struct {
	Kind        string // "inner", "left", "asof" or "asof left"
	Left, Right JoinSide
	// On holds the conditions of ON, or those USING stands for. An ASOF
	// join has exactly one inequality among them: the last of USING, or
	// the one of ON.
	On    []JoinCond
	Using []string // USING (c, ...); nil for ON
	Pos   int      // the JOIN keyword (or the kind before it)
	// residual: the conditions of an INNER JOIN's ON other than
	// equalities (a.time = b.time AND a.v < b.v), which filter the
	// matched rows as WHERE does: they go to the statement's WHERE
	residual []Expr
}

// JoinSide is one source of a join: a stream's raw or folded view (a
// SELECT * of it) or a subquery, and the name its columns go by.
type JoinSide struct {
	St     *Statement
	Alias  string
	Pos    int
	stream bool // a stream's view, not a subquery: WHERE's terms on it go to its scan (joinpush.go)
	// nested: the side is the join of the sources before it, named so
	// (FROM a JOIN b ... JOIN c: a and b); its columns keep their names
	// (a.value, b.value). Nil otherwise.
	nested []string
}

// JoinCond is one condition of ON: a column of each side compared, or
// arithmetic on the columns of each side (a.time = b.time + 7d).
type JoinCond struct {
	L, R   *ColRef // the columns, or the terms' text and place
	LX, RX *Arith  // a computed term; nil for a column
	Op     string  // =, or for ASOF one of >=, >, <=, <
}

// joinWords may not name a source: they go on with a join.
var joinWords = map[string]bool{"join": true, "inner": true, "left": true, "asof": true, "outer": true, "on": true, "using": true,
	"full": true, "right": true, "cross": true, "tablesample": true}

// aliasAfterSource parses the [AS] name after a source, "" when none.
func (p *parser) aliasAfterSource(what string) (string, int) {
	t := p.peek()
	if p.acceptKw("as") {
		a := p.advance()
		if a.kind != tIdent && a.kind != tQuoted || a.kind == tIdent && (reserved[strings.ToLower(a.text)] || joinWords[strings.ToLower(a.text)]) {
			p.fail(a.pos, "expected a name for the %s after AS, found %s", what, a.describe())
		}
		p.aliasNoDot(a)
		return a.text, a.pos
	}
	if t.kind == tIdent && !reserved[strings.ToLower(t.text)] && !joinWords[strings.ToLower(t.text)] && !isKw(t, "fill") && !isWindowClause(t, p.tok(p.i+1), p.tok(p.i+2)) {
		p.advance()
		p.aliasNoDot(t)
		return t.text, t.pos
	}
	return "", 0
}

// aliasNoDot refuses a source's name with a dot: a.x names column x of
// the source a.
func (p *parser) aliasNoDot(a token) {
	if strings.Contains(a.text, ".") {
		p.fail(a.pos, "a source's name cannot hold a dot (%s): a.x names column x of source a", a.text)
	}
}

// joinKind parses [INNER | {LEFT | RIGHT | FULL} [OUTER] | ASOF [LEFT] |
// CROSS] JOIN; ok is false, with nothing consumed, when no join follows.
func (p *parser) joinKind() (kind string, pos int, ok bool) {
	t := p.peek()
	switch {
	case isKw(t, "join"):
		p.advance()
		return "inner", t.pos, true
	case isKw(t, "inner") && isKw(p.tok(p.i+1), "join"):
		p.advance()
		p.advance()
		return "inner", t.pos, true
	case isKw(t, "left"):
		p.advance()
		p.acceptKw("outer")
		p.expectKw("join")
		return "left", t.pos, true
	case isKw(t, "asof"):
		p.advance()
		kind = "asof"
		if p.acceptKw("left") {
			kind = "asof left"
		}
		p.expectKw("join")
		return kind, t.pos, true
	case (isKw(t, "right") || isKw(t, "full")) && (isKw(p.tok(p.i+1), "join") || isKw(p.tok(p.i+1), "outer")):
		p.advance()
		p.acceptKw("outer")
		p.expectKw("join")
		return strings.ToLower(t.text), t.pos, true
	case isKw(t, "cross") && isKw(p.tok(p.i+1), "join"):
		p.advance()
		p.advance()
		return "cross", t.pos, true
	case isPunct(t, ","): // FROM a, b: a CROSS JOIN, made INNER by WHERE's equalities (crossOn)
		p.advance()
		return "cross", t.pos, true
	}
	return "", 0, false
}

// join parses what follows FROM's first source: its alias and a JOIN, if
// any. alias is the subquery's name that p.subquery already read.
func (p *parser) join(st *Statement, alias string, aliasPos int) {
	if st.Sub == nil {
		alias, aliasPos = p.aliasAfterSource("stream")
	}
	kind, pos, ok := p.joinKind()
	if !ok {
		if st.Sub == nil {
			st.alias = alias // FROM cpu AS c: c.value is value (qualify.go)
		}
		if t := p.peek(); alias != "" && t.kind == tIdent && !reserved[strings.ToLower(t.text)] && !isKw(t, "window") && !p.sampleAt(p.i) {
			p.fail(t.pos, "unexpected %s after FROM %s %s: a clause (WHERE, GROUP BY, ...) or a JOIN goes there%s", t.describe(), st.Stream, alias, p.typoHint())
		}
		return
	}
	j := &Join{Kind: kind, Pos: pos}
	j.Left = p.sideOf(st, alias, aliasPos)
	for {
		p.joinRight(j)
		k := p.peek()
		if !isKw(k, "join") && !isKw(k, "inner") && !isKw(k, "left") && !isKw(k, "asof") && !isKw(k, "right") && !isKw(k, "full") && !isKw(k, "cross") && !isPunct(k, ",") {
			break
		}
		// a JOIN b ... JOIN c: the join of a and b is the left side of
		// the next, read as a subquery of its rows (nested).
		kind, pos, _ := p.joinKind()
		inner := &Statement{Stream: "(join)", streamPos: j.Pos, Join: j, Limit: -1, Where: andOf(j.residual),
			Items: []SelectItem{{Col: &ColRef{Name: ColTime, Pos: j.Pos}}, {Col: &ColRef{Name: ColSeries, Pos: j.Pos}},
				{Col: &ColRef{Name: ColKey, Pos: j.Pos}}, {Col: &ColRef{Name: ColOp, Pos: j.Pos}}}}
		for _, a := range j.aliases() {
			inner.Items = append(inner.Items, SelectItem{Col: &ColRef{Name: a + ".*", Pos: j.Pos}, Pos: j.Pos})
		}
		j = &Join{Kind: kind, Pos: pos, Left: JoinSide{St: inner, Alias: strings.Join(j.aliases(), "+"), Pos: pos, nested: j.aliases()}}
	}
	st.Sub, st.Fold, st.AsOf, st.Stream, st.Join = nil, false, nil, "(join)", j
}

// crossOn makes each CROSS JOIN of j (FROM a, b) that WHERE ties by
// equalities between its sides (a.x = b.y) an INNER JOIN ON them: the
// same rows (WHERE still applies), without pairing every row with
// every row first.
func (j *Join) crossOn(where Expr) {
	if l := j.Left.St; j.Left.nested != nil && l != nil && l.Join != nil {
		l.Join.crossOn(where)
	}
	if j.Kind != "cross" {
		return
	}
	term := func(a *Arith) (*ColRef, *Arith) {
		if a.Col != nil && a.Op == 0 {
			return a.Col, nil
		}
		return &ColRef{Name: a.String(), Pos: a.Pos}, a
	}
	for _, c := range conjuncts(where, nil) {
		x, ok := c.(*ArithCompare)
		if !ok || x.Op != "=" || x.text != "" {
			continue
		}
		ls, lok := j.sideNamed(&ArithCompare{L: x.L, Op: "=", R: x.L})
		rs, rok := j.sideNamed(&ArithCompare{L: x.R, Op: "=", R: x.R})
		if !lok || !rok || ls == rs || x.L.hasAgg() || x.R.hasAgg() {
			continue
		}
		l, r := x.L, x.R
		if ls == 1 {
			l, r = r, l
		}
		jc := JoinCond{Op: "="}
		jc.L, jc.LX = term(l)
		jc.R, jc.RX = term(r)
		j.On = append(j.On, jc)
	}
	if len(j.On) > 0 {
		j.Kind = "inner"
	}
}

// joinRight parses the right side of j and its ON or USING.
func (p *parser) joinRight(j *Join) {
	right := &Statement{Limit: -1}
	p.source(right)
	ralias, rpos := "", 0
	if right.Sub != nil {
		ralias, rpos = right.subAlias, right.subAliasPos
	} else {
		ralias, rpos = p.aliasAfterSource("stream")
	}
	j.Right = p.sideOf(right, ralias, rpos)
	if slices.Contains(j.Left.names(), j.Right.Alias) {
		p.fail(j.Right.Pos, "two sources of the JOIN are named %s: name them (FROM %s AS a JOIN %s AS b ...)", j.Right.Alias, j.Right.Alias, j.Right.Alias)
	}
	switch t := p.peek(); {
	case j.Kind == "cross": // every pair: no ON
		if isKw(t, "on") || isKw(t, "using") {
			p.fail(t.pos, "a CROSS JOIN pairs every row with every row and takes no %s: write JOIN ... %s", strings.ToUpper(t.text), strings.ToUpper(t.text))
		}
	case p.acceptKw("on"):
		p.joinOn(j)
	case p.acceptKw("using"):
		p.joinUsing(j)
	default:
		p.fail(t.pos, "expected ON or USING after JOIN %s, found %s", j.Right.Alias, t.describe())
	}
}

// names returns the names the side's columns go by: its alias, or for
// the join of sources before it (nested) theirs.
func (s *JoinSide) names() []string {
	if s.nested != nil {
		return s.nested
	}
	return []string{s.Alias}
}

// aliases returns the names of j's sources, left to right.
func (j *Join) aliases() []string { return append(j.Left.names(), j.Right.Alias) }

// sideOfName returns the side of j whose columns a name qualified by
// alias is (0 left, 1 right), -1 for none.
func (j *Join) sideOfName(alias string) int {
	switch {
	case slices.Contains(j.Left.names(), alias):
		return 0
	case alias == j.Right.Alias:
		return 1
	}
	return -1
}

// sideOf makes a join side of the source parsed into st.
func (p *parser) sideOf(st *Statement, alias string, aliasPos int) JoinSide {
	if st.Sub != nil {
		if alias == "" {
			p.fail(st.streamPos, "a joined subquery needs a name: (SELECT ...) AS a")
		}
		return JoinSide{St: st.Sub, Alias: alias, Pos: aliasPos}
	}
	s := &Statement{Star: true, Stream: st.Stream, Fold: st.Fold, AsOf: st.AsOf, Limit: -1, streamPos: st.streamPos}
	if alias == "" {
		alias, aliasPos = st.Stream, st.streamPos
		if f, ok := FileOf(st.Stream); ok {
			alias = fileAlias(f.Path)
		}
	}
	return JoinSide{St: s, Alias: alias, Pos: aliasPos, stream: true}
}

// joinOn parses c op c [AND c op c ...].
func (p *parser) joinOn(j *Join) {
	for {
		l, lx := p.joinTerm()
		op := p.advance()
		inner := j.Kind == "inner"
		if op.kind != tPunct || !cmpOps[op.text] || op.text == "~" || op.text == "=~" || op.text == "!~" || (op.text == "!=" || op.text == "<>") && !inner {
			p.fail(op.pos, "expected = (or, for ASOF, one of >= > <= <) after %s in ON, found %s", l.Name, op.describe())
		}
		r, rx := p.joinTerm()
		if op.text != "=" && inner { // a filter of the matched rows
			term := func(c *ColRef, x *Arith) *Arith {
				if x != nil {
					return x
				}
				return &Arith{Col: c, Pos: c.Pos}
			}
			o := op.text
			if o == "<>" {
				o = "!="
			}
			j.residual = append(j.residual, &ArithCompare{L: term(l, lx), R: term(r, rx), Op: o, Pos: op.pos})
			if !p.acceptKw("and") {
				break
			}
			continue
		}
		if op.text != "=" && !strings.HasPrefix(j.Kind, "asof") {
			p.fail(op.pos, "a %s JOIN matches by equality (=) in ON (an inequality makes an ASOF JOIN; filter the %s side in a subquery of it)", strings.ToUpper(j.Kind), map[bool]string{true: "right", false: "left"}[j.Kind == "left"])
		}
		j.On = append(j.On, JoinCond{L: l, R: r, LX: lx, RX: rx, Op: op.text})
		if !p.acceptKw("and") {
			break
		}
	}
	if t := p.peek(); isKw(t, "or") {
		p.fail(t.pos, "ON takes conditions joined by AND; put others in WHERE")
	}
	if len(j.On) == 0 { // only inequalities
		p.fail(j.residual[0].(*ArithCompare).Pos, "an INNER JOIN matches by equality: its ON needs one (a.x = b.y), the other conditions then filter the matches (an inequality alone makes an ASOF JOIN; CROSS JOIN ... WHERE pairs every row)")
	}
	if strings.HasPrefix(j.Kind, "asof") {
		n := 0
		for _, c := range j.On {
			if c.Op != "=" {
				n++
			}
		}
		if n != 1 {
			p.fail(j.Pos, "an ASOF JOIN wants exactly one inequality in ON (a.time >= b.time), found %d", n)
		}
	}
}

// joinTerm parses a side of an ON condition: a column, or arithmetic
// (returned too, with its text as the column's name).
func (p *parser) joinTerm() (*ColRef, *Arith) {
	t := p.peek()
	a := p.arith()
	if a.Col != nil && a.Op == 0 {
		return a.Col, nil
	}
	if c := a.firstAgg(); c != nil {
		p.fail(c.Pos, "ON compares the rows' values, not aggregates such as %s: aggregate in a subquery", c.String())
	}
	return &ColRef{Name: a.String(), Pos: t.pos}, a
}

// joinUsing parses (c, ...): equal columns of the same name, the last
// one a.c >= b.c in an ASOF join.
func (p *parser) joinUsing(j *Join) {
	p.expectPunct("(")
	for {
		c := p.colRef()
		for _, u := range j.Using {
			if u == c.Name {
				p.fail(c.Pos, "%s appears twice in USING", c.Name)
			}
		}
		if j.hasColumnPrefix(c.Name) {
			p.fail(c.Pos, "USING names columns of both sides, without a side's name: USING (%s)", c.Name[strings.IndexByte(c.Name, '.')+1:])
		}
		j.Using = append(j.Using, c.Name)
		// Of sources joined before, the first's (a JOIN b USING (t) JOIN
		// c USING (t): a.t, which equals b.t)
		j.On = append(j.On, JoinCond{L: &ColRef{Name: j.Left.names()[0] + "." + c.Name, Pos: c.Pos}, R: &ColRef{Name: j.Right.Alias + "." + c.Name, Pos: c.Pos}, Op: "="})
		if !p.acceptPunct(",") {
			break
		}
	}
	p.expectPunct(")")
	if strings.HasPrefix(j.Kind, "asof") {
		if len(j.On) < 1 {
			p.fail(j.Pos, "an ASOF JOIN's USING ends with the column matched by the latest value at or before (USING (series, time))")
		}
		j.On[len(j.On)-1].Op = ">="
	}
}

// hasColumnPrefix reports whether name starts with a side's name and a dot.
func (j *Join) hasColumnPrefix(name string) bool {
	for _, a := range j.aliases() {
		if strings.HasPrefix(name, a+".") {
			return true
		}
	}
	return false
}

// String is the join as written, for EXPLAIN.
func (j *Join) String() string {
	var b strings.Builder
	b.WriteString(strings.ToUpper(j.Kind) + " JOIN ")
	if j.Using != nil {
		b.WriteString("USING (" + strings.Join(j.Using, ", ") + ")")
		return b.String()
	}
	b.WriteString("ON ")
	for i, c := range j.On {
		if i > 0 {
			b.WriteString(" AND ")
		}
		b.WriteString(c.L.Name + " " + c.Op + " " + c.R.Name)
	}
	return b.String()
}

// sideStars checks each SELECT item a.*: a must name a side of the
// statement's JOIN.
func (p *parser) sideStars(st *Statement) {
	for _, it := range st.Items {
		if it.Col == nil || !strings.HasSuffix(it.Col.Name, ".*") {
			continue
		}
		side := strings.TrimSuffix(it.Col.Name, ".*")
		switch {
		case st.Join == nil && len(st.Items) == 1 && side == st.qualifier():
			st.Star, st.Items = true, nil // FROM cpu AS c: c.* is *
			return
		case st.Join == nil:
			p.fail(it.Pos, "%s selects the columns of a side of a JOIN (FROM s AS a JOIN t AS b ...), and this statement has none", it.Col.Name)
		case st.Join.sideOfName(side) < 0:
			p.fail(it.Pos, "%s: the join's sources are %s", it.Col.Name, strings.Join(st.Join.aliases(), ", "))
		}
	}
}
