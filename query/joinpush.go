package query

import "strings"

// A condition of the joined statement's WHERE that names columns of one
// stream side only (a.time > now() - 1d, or time: the left row's) is
// also given to that side's scan, which then prunes segments and blocks
// by it; the statement still tests it on the joined rows. A condition
// goes to the left side of every join, to the right side of an INNER
// join only (a LEFT join keeps the left rows it would remove, and an
// ASOF join would pick another row), and never into a subquery side,
// whose columns are its result's. Only AND's top-level terms go, and not
// those with an IN (SELECT ...).

// Besides, a term comparing a column with values (a.series = 'x',
// a.series IN ('x', 'y'), a.time >= '2014-12-22') where ON makes that
// column equal to one of the other side, or to one of the other side
// moved by a duration (ON a.time = b.time + 7d), goes to both sides, as
// is and on the other column (b.time >= '2014-12-15'), in every kind of
// join: a row it removes from either side could only pair with rows it
// removes from the other.

// pushDown adds to each stream side's WHERE the conditions of where that
// only it decides.
func (j *Join) pushDown(where Expr) {
	if inner := j.Left.St; j.Left.nested != nil {
		// A term on the sources joined before alone filters their join:
		// the left side's rows, which every kind of join may filter
		// first.
		var mine []Expr
		for _, c := range conjuncts(where, nil) {
			if side, ok := j.sideNamed(c); ok && side == 0 {
				mine = append(mine, c)
			}
		}
		if c := andOf(mine); c != nil {
			inner.Where = andOf(append(conjuncts(inner.Where, nil), c))
			inner.Join.pushDown(c)
		}
	}
	sides := [2]*JoinSide{&j.Left, &j.Right}
	give := func(s *JoinSide, c Expr) {
		if !s.stream || c == nil {
			return
		}
		if s.St.Where == nil {
			s.St.Where = c
		} else {
			s.St.Where = &And{L: s.St.Where, R: c}
		}
	}
	if j.Kind == "full" || j.Kind == "right" {
		return // the rows a side lacks come with its columns NULL, which a condition pushed into it would not see
	}
	for _, c := range conjuncts(where, nil) {
		side, ok := j.sideNamed(c)
		if !ok {
			continue
		}
		s := sides[side]
		own := func(name string) string { return strings.TrimPrefix(name, s.Alias+".") }
		var mirror Expr // c on the column ON equates with its own
		if col := literalTerm(c); col != "" {
			if other, shift, ok := j.equalColumn(side, own(col)); ok {
				mirror = shifted(c, other, shift)
			}
		}
		if side == 0 || j.Kind == "inner" || j.Kind == "cross" || mirror != nil {
			give(s, cloneExpr(c, own))
		}
		give(sides[1-side], mirror)
	}
}

// literalTerm returns the column c compares with literals (col op lit,
// col IN (lits)), "" for any other condition.
func literalTerm(c Expr) string {
	switch x := c.(type) {
	case *Compare:
		if !x.bare && x.Lit != nil && x.Lit.Kind != LitNull {
			return x.Col.Name
		}
	case *In:
		if !x.Neg && x.Sub == nil {
			return x.Col.Name
		}
	}
	return ""
}

// shifted is literal term c on column col, its values moved by shift
// nanoseconds (a time's; nil if c's values are no times).
func shifted(c Expr, col string, shift int64) Expr {
	d := cloneExpr(c, func(string) string { return col })
	if shift == 0 {
		return d
	}
	x, ok := d.(*Compare)
	if !ok {
		return nil
	}
	switch x.Lit.Kind {
	case LitTime:
		x.Lit.Shift += shift
	case LitString:
		x.Lit = &Lit{Kind: LitTime, Str: x.Lit.Str, Shift: shift, Pos: x.Lit.Pos}
	default:
		return nil
	}
	return x
}

// equalColumn returns the column of the other side that an equality of
// ON makes equal to column col of side s, moved by shift (the other's
// value is col's plus shift: 0, or a duration of ON a.time = b.time +
// 7d); ok is false if none.
func (j *Join) equalColumn(s int, col string) (other string, shift int64, ok bool) {
	alias := [2]string{j.Left.Alias, j.Right.Alias}
	for _, c := range j.On {
		if c.Op != "=" {
			continue
		}
		l, ls, lok := columnShift(c.L, c.LX)
		r, rs, rok := columnShift(c.R, c.RX)
		if !lok || !rok {
			continue
		}
		for _, t := range [][4]any{{l, ls, r, rs}, {r, rs, l, ls}} {
			mine, theirs := t[0].(string), t[2].(string)
			if o, found := strings.CutPrefix(theirs, alias[1-s]+"."); found && mine == alias[s]+"."+col {
				return o, t[1].(int64) - t[3].(int64), true
			}
		}
	}
	return "", 0, false
}

// columnShift reads an ON term as a column plus a duration: the column
// (0), or column ± duration.
func columnShift(ref *ColRef, x *Arith) (string, int64, bool) {
	switch {
	case x == nil:
		return ref.Name, 0, true
	case (x.Op == '+' || x.Op == '-') && x.L.Col != nil && x.L.Op == 0 && x.R.isDuration():
		if x.Op == '-' {
			return x.L.Col.Name, -x.R.Lit.Int, true
		}
		return x.L.Col.Name, x.R.Lit.Int, true
	case x.Op == '+' && x.R.Col != nil && x.R.Op == 0 && x.L.isDuration():
		return x.R.Col.Name, x.L.Lit.Int, true
	}
	return "", 0, false
}

// conjuncts appends the top-level terms of AND in e.
func conjuncts(e Expr, out []Expr) []Expr {
	switch x := e.(type) {
	case nil:
		return out
	case *And:
		return conjuncts(x.R, conjuncts(x.L, out))
	}
	return append(out, e)
}

// sideNamed tells which side's columns all of e's names are (0 left, 1
// right); ok is false for a mix, none, a name of neither side's form
// (a bare field), seq (the joined row's), an aggregate or a subquery.
func (j *Join) sideNamed(e Expr) (side int, ok bool) {
	if hasVolatile(e) { // random(): tested on the side and again on the joined rows, it would keep fewer
		return -1, false
	}
	side, ok = -1, true
	note := func(name string) {
		s := -1
		for _, a := range j.aliases() {
			if strings.HasPrefix(name, a+".") {
				s = j.sideOfName(a)
			}
		}
		switch {
		case s >= 0:
		case name == ColTime || name == ColSeries || name == ColKey || name == ColOp:
			s = 0 // the joined row's own: the left row's
		}
		if s < 0 || side >= 0 && side != s {
			ok = false
		}
		side = s
	}
	walkExpr(e, note, func() { ok = false })
	return side, ok && side >= 0
}

// walkExpr calls name for each column e names and stop for what cannot
// move (an aggregate, an IN (SELECT ...)).
func walkExpr(e Expr, name func(string), stop func()) {
	switch x := e.(type) {
	case *And:
		walkExpr(x.L, name, stop)
		walkExpr(x.R, name, stop)
	case *Or:
		walkExpr(x.L, name, stop)
		walkExpr(x.R, name, stop)
	case *Not:
		walkExpr(x.X, name, stop)
	case *Compare:
		name(x.Col.Name)
	case *IsNull:
		name(x.Col.Name)
	case *Like:
		name(x.Col.Name)
	case *Regex:
		name(x.Col.Name)
	case *SeriesMatch:
		name(x.Col.Name)
	case *In:
		if x.Sub != nil {
			stop()
		}
		name(x.Col.Name)
	case *ArithCompare:
		walkArith(x.L, name, stop)
		walkArith(x.R, name, stop)
	case *ExprMatch:
		walkArith(x.X, name, stop)
	default:
		stop()
	}
}

func walkArith(a *Arith, name func(string), stop func()) {
	if a == nil {
		return
	}
	if a.Agg != nil {
		stop()
	}
	if a.Col != nil {
		name(a.Col.Name)
	}
	walkArith(a.L, name, stop)
	walkArith(a.R, name, stop)
	walkArith(a.Else, name, stop)
	for _, x := range a.Args {
		walkArith(x, name, stop)
	}
	for _, w := range a.Whens {
		walkExpr(w.Cond, name, stop)
		walkArith(w.Then, name, stop)
	}
}

// mapConds copies the AND, OR and NOT of e and gives each other node
// to leaf, which returns what stands in its place.
func mapConds(e Expr, leaf func(Expr) Expr) Expr {
	switch x := e.(type) {
	case *And:
		return &And{L: mapConds(x.L, leaf), R: mapConds(x.R, leaf), text: x.text}
	case *Or:
		return &Or{L: mapConds(x.L, leaf), R: mapConds(x.R, leaf), text: x.text}
	case *Not:
		return &Not{X: mapConds(x.X, leaf)}
	}
	return leaf(e)
}

// cloneExpr copies e, each column renamed by rename.
func cloneExpr(e Expr, rename func(string) string) Expr {
	return mapConds(e, func(e Expr) Expr { return cloneCond(e, rename) })
}

// cloneCond copies condition e, not an AND, OR or NOT, each column
// renamed by rename.
func cloneCond(e Expr, rename func(string) string) Expr {
	col := func(c *ColRef) *ColRef {
		if c == nil {
			return nil
		}
		return &ColRef{Name: rename(c.Name), Pos: c.Pos}
	}
	switch x := e.(type) {
	case *Compare:
		c := *x
		c.Col, c.Lit = col(x.Col), cloneLit(x.Lit)
		return &c
	case *IsNull:
		c := *x
		c.Col = col(x.Col)
		return &c
	case *Like:
		c := *x
		c.Col = col(x.Col)
		return &c
	case *Regex:
		c := *x
		c.Col = col(x.Col)
		return &c
	case *SeriesMatch:
		c := *x
		c.Col = col(x.Col)
		return &c
	case *In:
		c := *x
		c.Col = col(x.Col)
		if x.X != nil {
			c.X = cloneArith(x.X, rename)
		}
		c.Lits = make([]*Lit, len(x.Lits))
		for i, l := range x.Lits {
			c.Lits[i] = cloneLit(l)
		}
		return &c
	case *ArithCompare:
		c := *x
		c.L, c.R = cloneArith(x.L, rename), cloneArith(x.R, rename)
		return &c
	case *ExprMatch:
		c := *x
		c.X = cloneArith(x.X, rename)
		return &c
	}
	return e
}

func cloneArith(a *Arith, rename func(string) string) *Arith {
	if a == nil {
		return nil
	}
	c := *a
	if a.Col != nil {
		c.Col = &ColRef{Name: rename(a.Col.Name), Pos: a.Col.Pos}
	}
	c.Lit = cloneLit(a.Lit)
	c.L, c.R, c.Else = cloneArith(a.L, rename), cloneArith(a.R, rename), cloneArith(a.Else, rename)
	if a.Args != nil {
		c.Args = make([]*Arith, len(a.Args))
		for i, x := range a.Args {
			c.Args[i] = cloneArith(x, rename)
		}
	}
	if a.Whens != nil {
		c.Whens = make([]CaseWhen, len(a.Whens))
		for i, w := range a.Whens {
			c.Whens[i] = CaseWhen{Cond: cloneExpr(w.Cond, rename), Then: cloneArith(w.Then, rename)}
		}
	}
	return &c
}

func cloneLit(l *Lit) *Lit {
	if l == nil {
		return nil
	}
	c := *l
	return &c
}
