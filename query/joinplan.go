package query

import (
	"slices"
	"strings"

	"github.com/tsqdb/tsq/chunk"
)

// joinCol is a resolved column of ON: its side (0 left, 1 right) and index.
type joinCol struct {
	side, col int
	name      string
}

// keyMode is how an equality compares its two columns.
type keyMode uint8

const (
	keyInt keyMode = iota
	keyFloat
	keyText
	keyBool
	keyBytes
)

// joinPlan is a join resolved against its sides' columns.
type joinPlan struct {
	j          *Join
	sides      [2]*joinSide
	eq         [][2]joinCol // left, right
	modes      []keyMode
	ineq       *[2]joinCol // ASOF: left, right
	ineqOp     string      // as left op right
	floatOrder bool
	outs       []joinOut
	star       []string
}

// joinOut is a field of the joined relation.
type joinOut struct {
	name      string
	side, col int
	// alt: for a column of USING in a RIGHT or FULL join, the right
	// side's column it is where the left row is missing (-1: none)
	alt int
}

func jcolKind(c *jcol) string {
	switch {
	case c.instant:
		return "a timestamp"
	case c.typ == chunk.Int64 || c.typ == chunk.Float64:
		return "a number"
	case c.typ == chunk.Bool:
		return "a bool"
	case c.typ == chunk.Bytes:
		return "bytes"
	}
	return "text"
}

// resolve finds the side and column of ref.
func (jp *joinPlan) resolve(ref *ColRef, text string) (joinCol, error) {
	for s, js := range jp.sides {
		if rest, ok := strings.CutPrefix(ref.Name, js.side.Alias+"."); ok {
			if i := js.index(rest); i >= 0 {
				return joinCol{s, i, ref.Name}, nil
			}
			return joinCol{}, errAt(text, ref.Pos, "join: %s has no column %s (columns: %s)", js.side.Alias, rest, strings.Join(js.names[:js.arrowCols], ", "))
		}
	}
	l, r := jp.sides[0].index(ref.Name), jp.sides[1].index(ref.Name)
	switch {
	case l >= 0 && r >= 0:
		return joinCol{}, errAt(text, ref.Pos, "join: both sides have a column %s: write %s.%s or %s.%s", ref.Name, jp.sides[0].side.Alias, ref.Name, jp.sides[1].side.Alias, ref.Name)
	case l >= 0:
		return joinCol{0, l, ref.Name}, nil
	case r >= 0:
		return joinCol{1, r, ref.Name}, nil
	}
	return joinCol{}, errAt(text, ref.Pos, "join: no side has a column %s (%s: %s; %s: %s)", ref.Name,
		jp.sides[0].side.Alias, strings.Join(jp.sides[0].names[:jp.sides[0].arrowCols], ", "), jp.sides[1].side.Alias, strings.Join(jp.sides[1].names[:jp.sides[1].arrowCols], ", "))
}

// flipOp is op with its sides swapped.
func flipOp(op string) string {
	return map[string]string{">=": "<=", "<=": ">=", ">": "<", "<": ">", "=": "="}[op]
}

func planJoin(j *Join, left, right *joinSide, text string, now int64) (*joinPlan, error) {
	jp := &joinPlan{j: j, sides: [2]*joinSide{left, right}}
	for _, c := range j.On {
		l, err := jp.term(c.L, c.LX, text, now)
		if err != nil {
			return nil, err
		}
		r, err := jp.term(c.R, c.RX, text, now)
		if err != nil {
			return nil, err
		}
		op := c.Op
		if l.side == r.side {
			return nil, errAt(text, c.L.Pos, "join: %s %s %s compares two columns of %s: ON compares a column of each side (put others in WHERE)", c.L.Name, c.Op, c.R.Name, jp.sides[l.side].side.Alias)
		}
		if l.side == 1 {
			l, r, op = r, l, flipOp(op)
		}
		lc, rc := left.cols[l.col], right.cols[r.col]
		if op != "=" {
			num := func(c *jcol) bool { return c.typ == chunk.Int64 || c.typ == chunk.Float64 }
			if !num(lc) || !num(rc) || lc.instant != rc.instant {
				return nil, errAt(text, c.L.Pos, "join: ASOF orders by numbers or times, and %s is %s, %s %s", l.name, jcolKind(lc), r.name, jcolKind(rc))
			}
			jp.ineq, jp.ineqOp = &[2]joinCol{l, r}, op
			jp.floatOrder = lc.typ == chunk.Float64 || rc.typ == chunk.Float64
			continue
		}
		var m keyMode
		switch {
		case lc.instant != rc.instant:
			return nil, errAt(text, c.L.Pos, "join: %s is %s and %s is %s: they never match", l.name, jcolKind(lc), r.name, jcolKind(rc))
		case lc.typ == chunk.Int64 && rc.typ == chunk.Int64:
			m = keyInt
		case (lc.typ == chunk.Int64 || lc.typ == chunk.Float64) && (rc.typ == chunk.Int64 || rc.typ == chunk.Float64):
			m = keyFloat
		case lc.typ == chunk.String && rc.typ == chunk.String:
			m = keyText
		case lc.typ == chunk.Bool && rc.typ == chunk.Bool:
			m = keyBool
		case lc.typ == chunk.Bytes && rc.typ == chunk.Bytes:
			m = keyBytes
		default:
			return nil, errAt(text, c.L.Pos, "join: %s is %s and %s is %s: they never match", l.name, jcolKind(lc), r.name, jcolKind(rc))
		}
		jp.eq = append(jp.eq, [2]joinCol{l, r})
		jp.modes = append(jp.modes, m)
	}
	jp.outputs()
	return jp, nil
}

// outputs lists the relation's fields: every column of each side by its
// side's name (a nested side's by their own sources', a.value), then the
// bare names of USING's columns (the left side's, its first source's
// when nested) and of the fields of one source only.
func (jp *joinPlan) outputs() {
	type cand struct {
		bare      string
		side, col int
	}
	var cands []cand
	count := map[string]int{}
	for s, js := range jp.sides {
		for i, n := range js.names[:js.arrowCols] {
			q := js.side.Alias + "." + n
			if js.side.nested != nil {
				if isBase(n) {
					continue // the relation's own: its first source's
				}
				q = n
			}
			jp.outs = append(jp.outs, joinOut{q, s, i, -1})
			jp.star = append(jp.star, q)
			if bare := q[strings.IndexByte(q, '.')+1:]; !isBase(bare) {
				cands = append(cands, cand{bare, s, i})
				count[bare]++
			}
		}
	}
	first := jp.sides[0].side.names()[0] + "."
	for _, c := range cands {
		using := slices.Contains(jp.j.Using, c.bare)
		name := jp.sides[c.side].names[c.col]
		if using && c.side == 0 && (jp.sides[0].side.nested == nil || name == first+c.bare) || !using && count[c.bare] == 1 {
			out := joinOut{c.bare, c.side, c.col, -1}
			if using && (jp.j.Kind == "right" || jp.j.Kind == "full") { // either side's, as SQL has it
				for _, r := range cands {
					if r.side == 1 && r.bare == c.bare && jp.sides[1].cols[r.col].typ == jp.sides[0].cols[c.col].typ {
						out.alt = r.col
					}
				}
			}
			jp.outs = append(jp.outs, out)
		}
	}
}

// namesIn returns the names text has: a statement reads no column it
// does not name (but SELECT * names all).
func namesIn(text string) map[string]bool {
	toks, _ := lex(text) // text was parsed
	named := map[string]bool{}
	for _, t := range toks {
		if t.kind == tIdent || t.kind == tQuoted {
			named[t.text] = true
		}
	}
	return named
}

// starNames returns the columns SELECT * gives of fs, in order.
func starNames(fs *fieldSet) []string {
	if fs.star != nil {
		return fs.star
	}
	names := []string{ColSeq, ColTime, ColSeries, ColKey, ColOp}
	for _, f := range fs.list {
		names = append(names, f.Name)
	}
	return names
}

// joinStar returns st with each SELECT item a.* replaced by the columns
// of join side a (the relation's fs), in order, and each item * by every
// column, as SELECT * gives them (SELECT *, value * 2 AS d); st itself
// when it has neither.
func joinStar(st *Statement, text string, fs *fieldSet) (*Statement, error) {
	var items []SelectItem
	for i, it := range st.Items {
		if it.columns != nil { // max(COLUMNS('v.*')): an item per column
			if items == nil {
				items = append([]SelectItem{}, st.Items[:i]...)
			}
			exp, err := expandColumns(it, starNames(fs), text)
			if err != nil {
				return nil, err
			}
			items = append(items, exp...)
			continue
		}
		if it.Col == nil || !strings.HasSuffix(it.Col.Name, "*") {
			if items != nil {
				items = append(items, it)
			}
			continue
		}
		if items == nil {
			items = append([]SelectItem{}, st.Items[:i]...)
		}
		if it.Col.Name == "*" { // *, x: every column, as SELECT * gives them
			names := starNames(fs)
			for _, c := range it.exclude {
				if !slices.Contains(names, c.Name) && it.clash != nil { // UNPIVOT's
					return nil, errAt(text, c.Pos, "UNPIVOT ON names %s, which the source does not have (%s)", c.Name, strings.Join(slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == ColSeq }), ", "))
				}
				if !slices.Contains(names, c.Name) {
					return nil, errAt(text, c.Pos, "EXCLUDE names %s, which * does not give (%s)", c.Name, strings.Join(names, ", "))
				}
			}
			for _, r := range it.replace {
				if !slices.Contains(names, r.Alias) {
					return nil, errAt(text, r.Pos, "REPLACE names %s, which * does not give (%s)", r.Alias, strings.Join(names, ", "))
				}
			}
			for _, c := range it.clash {
				if slices.Contains(names, c) && !slices.ContainsFunc(it.exclude, func(x *ColRef) bool { return x.Name == c }) {
					return nil, errAt(text, it.Pos, "UNPIVOT: the source has a column %s already: name the new ones with INTO NAME n VALUE v", c)
				}
			}
			if it.match != nil && !slices.ContainsFunc(names, it.match.MatchString) {
				return nil, errAt(text, it.Pos, "%s matches no column (%s)", it.text, strings.Join(names, ", "))
			}
			for _, n := range names {
				if slices.ContainsFunc(it.exclude, func(c *ColRef) bool { return c.Name == n }) || it.match != nil && !it.match.MatchString(n) {
					continue
				}
				if k := slices.IndexFunc(it.replace, func(r SelectItem) bool { return r.Alias == n }); k >= 0 {
					items = append(items, it.replace[k])
					continue
				}
				items = append(items, SelectItem{Col: &ColRef{Name: n, Pos: it.Pos}, Pos: it.Pos})
			}
			continue
		}
		if st.Join == nil { // the parser refuses it (sideStars)
			return nil, errAt(text, it.Pos, "%s selects the columns of a side of a JOIN", it.Col.Name)
		}
		prefix := strings.TrimSuffix(it.Col.Name, "*")
		for _, n := range fs.star {
			if strings.HasPrefix(n, prefix) {
				items = append(items, SelectItem{Col: &ColRef{Name: n, Pos: it.Pos}, Pos: it.Pos})
			}
		}
	}
	if items == nil {
		return st, nil
	}
	c := *st
	c.Items = items
	return &c, nil
}
