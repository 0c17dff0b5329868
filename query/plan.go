package query

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/tsqdb/tsq/seg"
)

// plan is a checked statement ready to run.
type plan struct {
	rowArith bool // compiling arithmetic on the row's columns (rawArith)
	// windowLeaves: compiling a SELECT item's arithmetic on window
	// functions (value - lag(value)), the one place they may be.
	windowLeaves bool
	in           inValues // the IN subqueries' values
	st           *Statement
	src          string
	fields       *fieldSet
	now          int64

	where pred // nil: every row
	// Bounds implied by the WHERE clause's top-level conjuncts
	// (inclusive), used to prune segments and blocks and trim rows.
	slo, shi uint64
	tlo, thi int64
	series   []string // the only series that can match (bloom); nil: any
	keys     []string // the only keys that can match (key spans), none empty; nil: any
	// keyLo and keyHi bound the keys that can match (inclusive; nil:
	// none): from key >, >=, <, <= and LIKE 'prefix%'. Used to prune only
	// with a lower bound that no empty key meets (keyset).
	keyLo, keyHi []byte
	keyset       bool

	// Folded view: only rows with seq <= asSeq and time <= asTime count.
	asSeq  uint64
	asTime int64

	nd  need
	out []outCol

	agg    *aggPlan // nil for a raw query
	having rowPred  // HAVING; nil: every row
	// qualify: QUALIFY, tested after the window functions; nil: every
	// row. clause names the one planned, for errors.
	qualify rowPred
	clause  string
	order   []orderKey
	limit   int64 // rows produced before OFFSET's are dropped: LIMIT + OFFSET; -1 none
	skip    int64 // OFFSET
}

type orderKey struct {
	col   int
	desc  bool
	nulls Nulls
}

func (p *plan) errAt(pos int, format string, args ...any) *Error {
	return errAt(p.src, pos, format, args...)
}

// compile checks st against the stream's fields and builds its plan.
func compile(st *Statement, src string, fs *fieldSet, now time.Time, in inValues) (*plan, error) {
	p := &plan{st: st, src: src, fields: fs, now: now.UnixNano(), in: in,
		shi: math.MaxUint64, tlo: math.MinInt64, thi: math.MaxInt64,
		asSeq: math.MaxUint64, asTime: math.MaxInt64, limit: st.Limit}
	p.nd.types = fs
	if p.skip = st.Offset; st.Limit > 0 && st.Offset > 0 {
		p.limit = st.Limit + min(st.Offset, math.MaxInt64-st.Limit)
	}
	if st.AsOf != nil {
		if st.AsOf.Seq != 0 {
			p.asSeq = st.AsOf.Seq
		} else {
			t, err := p.timeOf(st.AsOf.Time)
			if err != nil {
				return nil, err
			}
			p.asTime = t
		}
	}
	if cond := st.condition(); cond != nil {
		cond = whereAliases(st, fs, cond)
		w, err := p.compileExpr(cond, false)
		if err != nil {
			return nil, err
		}
		p.where = w
		p.bounds(cond)
	}
	var err error
	if isAggregate(st) {
		err = p.planAggregate()
	} else {
		err = p.planRaw()
	}
	if err != nil {
		return nil, err
	}
	if st.Fill != nil {
		if err := p.planFill(st.Fill); err != nil {
			return nil, err
		}
	}
	if st.Having != nil {
		if p.agg == nil {
			return nil, p.errAt(st.havingPos, "HAVING needs GROUP BY or an aggregate; filter rows with WHERE")
		}
		p.clause = "HAVING"
		if p.having, err = p.planHaving(st.Having); err != nil {
			return nil, err
		}
	}
	if st.Qualify != nil {
		if !p.hasWindows() {
			return nil, p.errAt(st.qualifyPos, "QUALIFY filters on window functions' results, and this query has none: filter rows with WHERE (groups with HAVING)")
		}
		p.clause = "QUALIFY"
		if p.qualify, err = p.planHaving(st.Qualify); err != nil {
			return nil, err
		}
	}
	if err := p.planOrder(); err != nil {
		return nil, err
	}
	return p, nil
}

func isAggregate(st *Statement) bool {
	if len(st.GroupBy) > 0 {
		return true
	}
	for _, it := range st.Items {
		if it.Agg != nil || it.Expr != nil && it.Expr.hasAgg() || it.Win != nil && it.Win.hasAgg() {
			return true
		}
	}
	return false
}

func (p *plan) column(c *ColRef) (colKind, error) {
	k, ok := kindOfCol(c.Name, p.fields)
	if !ok && p.st.Join != nil {
		var sides []string
		for _, n := range p.fields.star {
			if strings.HasSuffix(n, "."+c.Name) {
				sides = append(sides, n)
			}
		}
		if len(sides) > 1 {
			return 0, p.errAt(c.Pos, "both sides of the join have a column %s: write %s", c.Name, strings.Join(sides, " or "))
		}
		return 0, p.errAt(c.Pos, "unknown column %q in the join (columns: time, series, key, op, %s)", c.Name, strings.Join(p.fields.star, ", "))
	}
	if p.st.noFrom { // its one row's seq, time and series are no one's
		return 0, p.errAt(c.Pos, "unknown column %q: a SELECT without FROM has no columns (FROM <stream> reads a stream's)", c.Name)
	}
	if !ok && p.fields.relation != "" && p.fields.star != nil {
		return 0, p.errAt(c.Pos, "unknown column %q in %s (columns: %s)", c.Name, p.fields.relation, strings.Join(p.fields.star, ", "))
	}
	if !ok {
		return 0, p.errAt(c.Pos, "unknown column %q in %s (columns: %s)", c.Name, sourceName(p.st.Stream, true), strings.Join(p.columnNames(), ", "))
	}
	p.nd.add(c.Name)
	return k, nil
}

func (p *plan) columnNames() []string {
	names := []string{ColSeq, ColTime, ColSeries, ColKey, ColOp}
	for _, f := range p.fields.list {
		names = append(names, f.Name)
	}
	return names
}

func (p *plan) planRaw() error {
	if p.st.Star {
		p.out = rawColumns(p.fields)
		if p.st.keep != nil { // a join side's read: the view's columns it names, time always
			p.out = slices.DeleteFunc(viewColumns(p.fields), func(c outCol) bool { return !p.st.keep[c.name] })
		}
		for _, it := range p.st.Items { // SELECT * ... QUALIFY rank() OVER (...) = 1
			if it.Hidden {
				c, err := p.planRawWindow(&it)
				if err != nil {
					return err
				}
				c.hidden = true
				p.out = append(p.out, c)
			}
		}
	} else {
		var post []postLeaf
		for _, it := range p.st.Items {
			if it.Win != nil {
				c, err := p.planRawWindow(&it)
				if err != nil {
					return err
				}
				c.hidden = it.Hidden
				p.out = append(p.out, c)
				continue
			}
			if it.Expr != nil && it.Expr.hasWin() { // value - lag(value)
				p.windowLeaves = true
				ap, err := p.compileArith(it.Expr, func(x *Arith, ap *arithPlan) error {
					c, err := p.postLeaf(x)
					c.hidden, ap.in = true, c.kind
					post = append(post, postLeaf{ap, c})
					return err
				})
				p.windowLeaves = false
				if err != nil {
					return err
				}
				p.out = append(p.out, outCol{name: it.Name(), kind: ap.outKind(), nullable: true, post: ap})
				continue
			}
			if it.Expr != nil {
				ap, err := p.rawArith(it.Expr)
				if err != nil {
					return err
				}
				p.out = append(p.out, outCol{name: it.Name(), kind: ap.outKind(), nullable: true, expr: ap})
				continue
			}
			k, err := p.column(it.Col)
			if err != nil {
				return err
			}
			p.out = append(p.out, outCol{name: it.Name(), kind: k, nullable: !isBase(it.Col.Name), src: it.Col.Name})
		}
		// The leaves of arithmetic on windows: hidden columns after the
		// visible ones.
		for _, l := range post {
			p.out = append(p.out, l.col)
			l.leaf.idx = len(p.out) - 1
		}
	}
	for i, c := range p.out {
		if c.expr == nil && c.win == nil && c.post == nil && p.fields.instant(c.src) { // out as a timestamp
			ap, err := p.rawArith(&Arith{Col: &ColRef{Name: c.src}})
			if err != nil {
				return err
			}
			p.out[i].kind, p.out[i].expr, p.out[i].src = kTime, ap, ""
		}
		if c.expr == nil && c.win == nil && c.post == nil && p.fields.duration(c.src) { // out as a duration
			ap, err := p.rawArith(&Arith{Col: &ColRef{Name: c.src}})
			if err != nil {
				return err
			}
			p.out[i].kind, p.out[i].expr, p.out[i].src = kDuration, ap, ""
		}
	}
	for _, c := range p.out {
		if c.expr == nil && c.win == nil && c.post == nil {
			p.nd.add(c.src)
		}
	}
	p.rawWindowColumns()
	return nil
}

func (p *plan) planOrder() error {
	for _, o := range p.st.OrderBy {
		if o.Index > 0 { // by position among the columns returned
			i, seen := -1, 0
			for j, c := range p.out {
				if !c.hidden {
					if seen++; seen == o.Index {
						i = j
						break
					}
				}
			}
			if i < 0 {
				cols := "columns"
				if seen == 1 {
					cols = "column"
				}
				return p.errAt(o.Pos, "ORDER BY %d: the result has %d %s", o.Index, seen, cols)
			}
			p.order = append(p.order, orderKey{col: i, desc: o.Desc, nulls: o.Nulls})
			continue
		}
		for _, it := range p.st.Items { // an aggregate renamed by AS, named by its text
			if it.Agg != nil && it.Agg.String() == o.Name {
				o.Name = it.Name()
			}
		}
		i := slices.IndexFunc(p.out, func(c outCol) bool { return c.name == o.Name })
		if i < 0 {
			// A raw query may order by a column it does not project, or
			// by arithmetic on the row's columns.
			if p.agg == nil && o.Expr != nil && !o.Expr.hasAgg() {
				ap, err := p.rawArith(rowAliasRefs(p.st, p.fields, o.Expr))
				if err != nil {
					return err
				}
				p.out = append(p.out, outCol{name: o.Name, kind: ap.outKind(), nullable: true, expr: ap, hidden: true})
				i = len(p.out) - 1
			} else if p.agg == nil {
				if k, ok := kindOfCol(o.Name, p.fields); ok {
					p.out = append(p.out, outCol{name: o.Name, kind: k, nullable: !isBase(o.Name), src: o.Name, hidden: true})
					p.nd.add(o.Name)
					i = len(p.out) - 1
				}
			}
			if i < 0 {
				names := make([]string, len(p.out))
				for j, c := range p.out {
					names[j] = c.name
				}
				return p.errAt(o.Pos, "ORDER BY %q: not a result column (columns: %s)", o.Name, strings.Join(names, ", "))
			}
		}
		p.order = append(p.order, orderKey{col: i, desc: o.Desc, nulls: o.Nulls})
	}
	return nil
}

// streamsInSeqOrder reports whether a raw result can stream: no ORDER BY
// other than seq ascending.
func (p *plan) streamsInSeqOrder() bool {
	if p.agg != nil || p.hasWindows() {
		return false
	}
	return len(p.order) == 0 || len(p.order) == 1 && p.out[p.order[0].col].src == ColSeq && !p.order[0].desc
}

// timeOf resolves a time literal to ns since the epoch.
func (p *plan) timeOf(l *Lit) (int64, error) {
	switch l.Kind {
	case LitInt:
		return l.Int, nil
	case LitTime:
		base := p.now
		if !l.Now {
			t, ok := parseTime(l.Str)
			if !ok {
				return 0, p.errAt(l.Pos, "bad time %q: want RFC 3339 such as 2024-01-02T15:04:05Z", l.Str)
			}
			base = t
		}
		return l.shifted(base), nil
	case LitString:
		t, ok := parseTime(l.Str)
		if !ok {
			return 0, p.errAt(l.Pos, "bad time %q: want RFC 3339 such as 2024-01-02T15:04:05Z", l.Str)
		}
		return t, nil
	case LitDuration:
		return 0, p.errAt(l.Pos, "a duration (%s) must be added to a time, as in now() - %s", l.Str, l.Str)
	}
	return 0, p.errAt(l.Pos, "type mismatch: time compared with %s", litKindName(l.Kind))
}

func litKindName(k LitKind) string {
	return [...]string{"an integer", "a number", "a string", "a boolean", "NULL", "a time", "a duration", "a calendar span"}[k]
}

// compileBinary compiles l AND r (or, with or, l OR r); under neg De
// Morgan's law swaps the connective.
func (p *plan) compileBinary(l, r Expr, neg, or bool) (pred, error) {
	lp, err := p.compileExpr(l, neg)
	if err != nil {
		return nil, err
	}
	rp, err := p.compileExpr(r, neg)
	if err != nil {
		return nil, err
	}
	if or != neg {
		return &orPred{lp, rp}, nil
	}
	return &andPred{lp, rp}, nil
}

// compileExpr type-checks e and compiles it; neg pushes a NOT down.
func (p *plan) compileExpr(e Expr, neg bool) (pred, error) {
	switch e := e.(type) {
	case *And:
		return p.compileBinary(e.L, e.R, neg, false)
	case *Or:
		return p.compileBinary(e.L, e.R, neg, true)
	case *Not:
		return p.compileExpr(e.X, !neg)
	case *Compare:
		return p.compileCompare(e, neg)
	case *ArithCompare:
		return p.compileArithCompare(e, neg)
	case *ExprMatch:
		return p.compileExprMatch(e, neg)
	case *IsNull:
		if _, err := p.column(e.Col); err != nil {
			return nil, err
		}
		if isBase(e.Col.Name) {
			return constPred(e.Neg != neg), nil // base columns are never null
		}
		return &nullPred{field: e.Col.Name, neg: e.Neg != neg}, nil
	case *Like:
		k, err := p.column(e.Col)
		if err != nil {
			return nil, err
		}
		if k != kSeries && k != kKey && k != kString {
			return nil, p.errAt(e.Col.Pos, "type mismatch: LIKE on %s column %q", k, e.Col.Name)
		}
		if pre, ok := likePrefix(e.Pattern); ok {
			return &strPred{col: e.Col.Name, match: func(s string) bool { return strings.HasPrefix(s, pre) != (e.Neg != neg) }}, nil
		}
		re := likeRegexp(e.Pattern)
		return &strPred{col: e.Col.Name, match: func(s string) bool { return re.MatchString(s) != (e.Neg != neg) }}, nil
	case *Regex:
		k, err := p.column(e.Col)
		if err != nil {
			return nil, err
		}
		if k != kSeries && k != kKey && k != kString {
			return nil, p.errAt(e.Col.Pos, "type mismatch: regular expression match on %s column %q", k, e.Col.Name)
		}
		return &strPred{col: e.Col.Name, match: func(s string) bool { return e.Re.MatchString(s) != (e.Neg != neg) }}, nil
	case *SeriesMatch:
		if e.Col.Name != ColSeries {
			return nil, p.errAt(e.Col.Pos, "~ matches series selectors; use =~ for a regular expression on %q", e.Col.Name)
		}
		p.nd.add(ColSeries)
		return &strPred{col: ColSeries, match: func(s string) bool { return e.matches(s) != neg }}, nil
	case *In:
		return p.compileIn(e, neg)
	}
	panic("query: unknown expression")
}

func (p *plan) compileCompare(e *Compare, neg bool) (pred, error) {
	k, err := p.column(e.Col)
	if err != nil {
		return nil, err
	}
	op := e.Op
	if neg {
		op = negOp[op]
	}
	l := e.Lit
	if l.Kind == LitNull {
		return nil, p.errAt(l.Pos, "comparison with NULL is never true: use %s IS NULL", e.Col.Name)
	}
	mismatch := func() error {
		if e.bare {
			return p.errAt(e.Col.Pos, "%q is of type %s, not a bool: a condition on it needs a comparison (%s > 0, %s IS NOT NULL)", e.Col.Name, k, e.Col.Name, e.Col.Name)
		}
		return p.errAt(l.Pos, "type mismatch: %s column %q compared with %s", k, e.Col.Name, litKindName(l.Kind))
	}
	switch k {
	case kSeq:
		if l.Kind != LitInt || l.Int < 0 {
			return nil, mismatch()
		}
		return &intPred{col: ColSeq, op: op, v: l.Int, unsigned: true}, nil
	case kTime:
		t, err := p.timeOf(l)
		if err != nil {
			return nil, err
		}
		return &intPred{col: ColTime, op: op, v: t}, nil
	case kOp:
		code, err := p.opCode(l)
		if err != nil {
			return nil, err
		}
		if op != "=" && op != "!=" {
			return nil, p.errAt(l.Pos, "op supports only = and !=")
		}
		return &intPred{col: ColOp, op: op, v: code}, nil
	case kSeries, kKey, kString, kBytes:
		if l.Kind != LitString {
			return nil, mismatch()
		}
		v := l.Str
		return &strPred{col: e.Col.Name, match: func(s string) bool { return cmpHolds(op, strings.Compare(s, v)) }}, nil
	case kInt, kFloat:
		if (l.Kind == LitString || l.Kind == LitTime) && p.fields.instant(e.Col.Name) { // a subquery's day > '2024-01-02'
			v, err := p.timeOf(l)
			if err != nil {
				return nil, err
			}
			return &numPred{field: e.Col.Name, op: op, isInt: true, iv: v, fv: float64(v)}, nil
		}
		if l.Kind == LitDuration && p.fields.duration(e.Col.Name) { // a subquery's gap > 5m
			return &numPred{field: e.Col.Name, op: op, isInt: true, iv: l.Int, fv: float64(l.Int)}, nil
		}
		switch l.Kind {
		case LitInt:
			return &numPred{field: e.Col.Name, op: op, isInt: k == kInt, iv: l.Int, fv: float64(l.Int)}, nil
		case LitFloat:
			return &numPred{field: e.Col.Name, op: op, fv: l.Float}, nil
		}
		return nil, mismatch()
	case kBool:
		if l.Kind != LitBool || (op != "=" && op != "!=") {
			return nil, mismatch()
		}
		return &boolPred{field: e.Col.Name, want: l.Bool == (op == "=")}, nil
	}
	return nil, mismatch()
}

func (p *plan) opCode(l *Lit) (int64, error) {
	if l.Kind == LitString {
		for i, n := range opNames {
			if i > 0 && strings.EqualFold(n, l.Str) {
				return int64(i), nil
			}
		}
	}
	return 0, p.errAt(l.Pos, "op is one of 'put', 'delete', 'drop', not %s", l.String())
}

func (p *plan) compileIn(e *In, neg bool) (pred, error) {
	if e.X != nil {
		return p.compileArithIn(e, neg)
	}
	k, err := p.column(e.Col)
	if err != nil {
		return nil, err
	}
	out := e.Neg != neg
	switch {
	case p.in.outNone(e, out):
		return constPred(false), nil
	case p.in.outAll(e, out):
		return constPred(true), nil
	}
	switch k {
	case kSeq, kTime, kOp:
		set := map[int64]bool{}
		for _, l := range p.in.lits(e) {
			var v int64
			switch {
			case k == kOp:
				v, err = p.opCode(l)
			case k == kTime:
				v, err = p.timeOf(l)
			case l.Kind != LitInt:
				err = p.errAt(l.Pos, "type mismatch: seq compared with %s", litKindName(l.Kind))
			default:
				v = l.Int
			}
			if err != nil {
				return nil, err
			}
			set[v] = true
		}
		return &intPred{col: e.Col.Name, set: set, neg: out}, nil
	case kInt, kFloat:
		set, iset := map[float64]bool{}, map[int64]bool{}
		for _, l := range p.in.lits(e) {
			switch {
			case l.Kind == LitInt:
				set[float64(l.Int)], iset[l.Int] = true, true
			case l.Kind == LitFloat:
				set[l.Float] = true
				if l.Float == math.Trunc(l.Float) && l.Float >= math.MinInt64 && l.Float < math.MaxInt64 {
					iset[int64(l.Float)] = true
				}
			case (l.Kind == LitString || l.Kind == LitTime) && p.fields.instant(e.Col.Name):
				v, err := p.timeOf(l)
				if err != nil {
					return nil, err
				}
				set[float64(v)], iset[v] = true, true
			case l.Kind == LitDuration && p.fields.duration(e.Col.Name): // gap IN (1m, 2m)
				set[float64(l.Int)], iset[l.Int] = true, true
			default:
				return nil, p.errAt(l.Pos, "type mismatch: %s column %q compared with %s", k, e.Col.Name, litKindName(l.Kind))
			}
		}
		return &numPred{field: e.Col.Name, fset: set, iset: iset, neg: out}, nil
	case kSeries, kKey, kString, kBytes:
		set := map[string]bool{}
		for _, l := range p.in.lits(e) {
			if l.Kind != LitString {
				return nil, p.errAt(l.Pos, "type mismatch: %s column %q compared with %s", k, e.Col.Name, litKindName(l.Kind))
			}
			set[l.Str] = true
		}
		return &strPred{col: e.Col.Name, match: func(s string) bool { return set[s] != out }}, nil
	}
	return nil, p.errAt(e.Col.Pos, "IN is not supported on %s column %q", k, e.Col.Name)
}

// bounds narrows the seq and time ranges and the series set from the
// conditions every matching row must meet: the top-level conjuncts.
func (p *plan) bounds(e Expr) {
	switch e := e.(type) {
	case *And:
		p.bounds(e.L)
		p.bounds(e.R)
	case *Compare:
		switch e.Col.Name {
		case ColSeq:
			v := uint64(e.Lit.Int)
			switch e.Op {
			case "=":
				p.slo, p.shi = max(p.slo, v), min(p.shi, v)
			case ">":
				p.slo = max(p.slo, v+1)
				if v == math.MaxUint64 {
					p.slo, p.shi = 1, 0
				}
			case ">=":
				p.slo = max(p.slo, v)
			case "<":
				if v == 0 {
					p.slo, p.shi = 1, 0
				} else {
					p.shi = min(p.shi, v-1)
				}
			case "<=":
				p.shi = min(p.shi, v)
			}
		case ColTime:
			v, _ := p.timeOf(e.Lit)
			lo, hi := timeBounds(e.Op, v)
			p.tlo, p.thi = max(p.tlo, lo), min(p.thi, hi)
		case ColSeries:
			if e.Op == "=" {
				p.restrictSeries([]string{e.Lit.Str})
			}
		case ColKey:
			if keys, ok := p.setOf(e, ColKey); ok {
				p.restrictKeys(keys)
			}
			if e.Lit.Kind == LitString {
				switch v := []byte(e.Lit.Str); e.Op {
				case ">", ">=":
					p.keyAbove(v, e.Op == ">" || len(v) > 0)
				case "<", "<=":
					if p.keyHi == nil || bytes.Compare(v, p.keyHi) < 0 {
						p.keyHi = v
					}
				}
			}
		}
	case *Like:
		if pre, ok := likePrefix(e.Pattern); ok && e.Col.Name == ColKey && !e.Neg && pre != "" {
			p.keyAbove([]byte(pre), true)
			// Every key starting with pre, cut to seg.MaxSpanKey bytes,
			// is at most pre padded with 0xff to that length.
			hi := append([]byte(pre), bytes.Repeat([]byte{0xff}, max(seg.MaxSpanKey-len(pre), 0))...)
			if p.keyHi == nil || bytes.Compare(hi, p.keyHi) < 0 {
				p.keyHi = hi
			}
		}
	case *ArithCompare:
		p.arithBounds(e)
	case *In, *Or:
		if names, ok := p.seriesSetOf(e); ok {
			p.restrictSeries(names)
		}
		if keys, ok := p.setOf(e, ColKey); ok {
			p.restrictKeys(keys)
		}
	}
}

// keyAbove raises the least key that can match to v; nonEmpty says that
// no empty key meets the bound.
func (p *plan) keyAbove(v []byte, nonEmpty bool) {
	if p.keyLo == nil || bytes.Compare(v, p.keyLo) > 0 {
		p.keyLo = v
	}
	p.keyset = p.keyset || nonEmpty
}

// restrictKeys intersects the key set with keys, unless one is empty
// (rows without a key are in no key span).
func (p *plan) restrictKeys(keys []string) {
	if !slices.Contains(keys, "") {
		p.keys = intersect(p.keys, keys)
	}
}

// seriesSetOf returns the series a condition can only hold for: series =
// 'x', series IN (...), and ORs of them.
func (p *plan) seriesSetOf(e Expr) ([]string, bool) { return p.setOf(e, ColSeries) }

// setOf returns the values of column col (series or key) a condition
// can only hold for: col = 'x', col IN (...), and ORs of them.
func (p *plan) setOf(e Expr, col string) ([]string, bool) {
	switch e := e.(type) {
	case *Compare:
		if e.Col.Name == col && e.Op == "=" && e.Lit.Kind == LitString {
			return []string{e.Lit.Str}, true
		}
	case *In:
		if e.Col.Name == col && !e.Neg && e.cmp == "" {
			var names []string
			for _, l := range p.in.lits(e) {
				names = append(names, l.Str)
			}
			return names, true
		}
	case *Or:
		l, ok1 := p.setOf(e.L, col)
		r, ok2 := p.setOf(e.R, col)
		if ok1 && ok2 {
			return append(l, r...), true
		}
	case *And:
		// Either side's set bounds the conjunction.
		if l, ok := p.setOf(e.L, col); ok {
			return l, true
		}
		return p.setOf(e.R, col)
	}
	return nil, false
}

// restrictSeries intersects the series set with names.
func (p *plan) restrictSeries(names []string) { p.series = intersect(p.series, names) }

// intersect returns the values of set (nil: any) that are in names, never
// nil.
func intersect(set, names []string) []string {
	if set == nil {
		if set = slices.Clone(names); set == nil {
			set = []string{}
		}
		return set
	}
	return slices.DeleteFunc(set, func(s string) bool { return !slices.Contains(names, s) })
}
