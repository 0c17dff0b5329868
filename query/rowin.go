package query

import (
	"encoding/binary"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Row values: (x, y, ...) [NOT] IN (...). A list of rows is written
// out as conditions: (a, b) IN ((1, 2), (3, 4)) is (a = 1 AND b = 2)
// OR (a = 3 AND b = 4), and NOT IN its negation, (a != 1 OR b != 2) AND
// ..., which with SQL's NULLs (a comparison with NULL holds neither way)
// is SQL's answer in a condition. Against a subquery the row is one
// value, rowFunc's key of its parts, looked up in the keys of the
// subquery's rows as x IN (SELECT ...) looks up one (insub.go): a row
// with a NULL part is in no set and out of none but the empty one, and a
// NOT IN whose subquery gives a row with a NULL part holds for no row
// (SQL would still let through the rows it differs from in another part).

// rowFunc is the internal function of a row value: its parts' key, one
// text (rowKey), NULL when a part is.
const rowFunc = "\x00row"

// Tags of a row key's parts: numbers compare by value (2 = 2.0, a time by
// its instant), text by its bytes, bools as bools.
const (
	rowInt   = 'i' // an integral number, 8 bytes big-endian
	rowFloat = 'f' // another number, its IEEE bits
	rowText  = 's' // a uvarint length, then the bytes
	rowBool  = 'b' // 0 or 1
)

// appendRowNum appends a number's part: an integral float as the int it
// equals, so 2.0 and 2 have one key.
func appendRowNum(dst []byte, f float64, i int64, isInt bool) []byte {
	if !isInt && f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64 {
		i, isInt = int64(f), true
	}
	if isInt {
		return binary.BigEndian.AppendUint64(append(dst, rowInt), uint64(i))
	}
	if f == 0 { // -0 = 0
		f = 0
	}
	return binary.BigEndian.AppendUint64(append(dst, rowFloat), math.Float64bits(f))
}

func appendRowText(dst []byte, s string) []byte {
	return append(binary.AppendUvarint(append(dst, rowText), uint64(len(s))), s...)
}

func appendRowBool(dst []byte, b bool) []byte { return append(dst, rowBool, byte(b2i64(b))) }

// rowKey is rowFunc's value of a row's parts (none NULL).
func rowKey(args []*arithPlan, v []value) value {
	var b []byte
	for i, x := range v {
		switch args[i].kind {
		case kString:
			b = appendRowText(b, x.s)
		case kFloat:
			b = appendRowNum(b, x.fl(), 0, false)
		case kBool:
			b = appendRowBool(b, x.i != 0)
		default:
			b = appendRowNum(b, 0, x.i, true)
		}
	}
	return value{s: string(b)}
}

// rowKeyAt appends the part of row i of column a (not NULL) to dst.
func rowKeyAt(dst []byte, a arrow.Array, i int) ([]byte, bool) {
	switch a := a.(type) {
	case *array.Int64:
		return appendRowNum(dst, 0, a.Value(i), true), true
	case *array.Timestamp:
		return appendRowNum(dst, 0, int64(a.Value(i)), true), true
	case *array.Duration:
		return appendRowNum(dst, 0, int64(a.Value(i)), true), true
	case *array.Uint64:
		if v := a.Value(i); v > math.MaxInt64 {
			return appendRowNum(dst, float64(v), 0, false), true
		}
		return appendRowNum(dst, 0, int64(a.Value(i)), true), true
	case *array.Float64:
		return appendRowNum(dst, a.Value(i), 0, false), true
	case *array.Boolean:
		return appendRowBool(dst, a.Value(i)), true
	}
	s, _, err := textAt(a, i)
	if err != nil {
		return dst, false
	}
	return appendRowText(dst, s), true
}

// rowKeyKinds returns the kind word (kindWord) of each part of key k, as
// far as it reads.
func rowKeyKinds(k string) []string {
	var ws []string
	for len(k) > 0 {
		switch k[0] {
		case rowInt, rowFloat:
			ws, k = append(ws, kindWord(kFloat)), k[min(len(k), 9):]
		case rowBool:
			ws, k = append(ws, kindWord(kBool)), k[min(len(k), 2):]
		case rowText:
			n, w := binary.Uvarint([]byte(k[1:min(len(k), 11)]))
			if w <= 0 || uint64(len(k)-1-w) < n {
				return ws
			}
			ws, k = append(ws, kindWord(kString)), k[1+w+int(n):]
		default:
			return ws
		}
	}
	return ws
}

// tupleInAt reports whether a row value (x, y, ...) followed by [NOT] IN
// starts at token i.
func (p *parser) tupleInAt(i int) bool {
	if !isPunct(p.tok(i), "(") || isKw(p.tok(i+1), "select") || isKw(p.tok(i+1), "with") {
		return false
	}
	depth, commas := 0, 0
	for j := i; ; j++ {
		t := p.tok(j)
		switch {
		case t.kind == tEOF:
			return false
		case isPunct(t, "("):
			depth++
		case isPunct(t, ")"):
			if depth--; depth == 0 {
				n := p.tok(j + 1)
				if isKw(n, "not") {
					n = p.tok(j + 2)
				}
				return commas > 0 && isKw(n, "in")
			}
		case isPunct(t, ",") && depth == 1:
			commas++
		}
	}
}

// tupleIn parses (x, y, ...) [NOT] IN (rows or SELECT ...), tupleInAt
// true.
func (p *parser) tupleIn() Expr {
	open := p.expectPunct("(")
	var xs []*Arith
	for {
		xs = append(xs, p.arith())
		if !p.acceptPunct(",") {
			break
		}
	}
	p.expectPunct(")")
	neg := p.acceptKw("not")
	p.expectKw("in")
	lp := p.expectPunct("(")
	row := &Arith{Op: 'f', Func: rowFunc, Args: xs, Pos: open.pos}
	if isKw(p.peek(), "select") || isKw(p.peek(), "with") {
		in := &In{X: row, Col: &ColRef{Name: row.String(), Pos: open.pos}, Neg: neg, tuple: len(xs)}
		p.inSubquery(in, lp)
		if q := in.Sub; !q.Star && q.Union == nil && len(q.Items) != len(xs) {
			p.fail(in.subPos, "%s IN (SELECT ...) wants %d columns; the subquery selects %d", row.String(), len(xs), len(q.Items))
		}
		return in
	}
	var out Expr
	for {
		rp := p.peek()
		if !isPunct(rp, "(") {
			p.fail(rp.pos, "%s IN (...) wants rows of %d values in parentheses, found %s", row.String(), len(xs), rp.describe())
		}
		p.advance()
		var rowCond Expr
		for k, x := range xs {
			if k > 0 {
				if t := p.peek(); !isPunct(t, ",") {
					p.fail(t.pos, "a row of %s IN (...) has %d values, this one %d", row.String(), len(xs), k)
				}
				p.advance()
			}
			v := p.arith()
			c := &ArithCompare{L: x, R: v, Op: "=", Pos: v.Pos}
			if neg { // not this row: some part differs
				c.Op = "!="
			}
			rowCond = inChainAdd(rowCond, c, !neg) // IN: every part equal
		}
		if t := p.peek(); !isPunct(t, ")") {
			p.fail(t.pos, "a row of %s IN (...) has %d values, this one more", row.String(), len(xs))
		}
		p.advance()
		out = inChainAdd(out, rowCond, neg)
		if !p.acceptPunct(",") {
			break
		}
	}
	p.expectPunct(")")
	return out
}

// runTupleIn runs the subquery of a row value's IN and returns the keys
// of its distinct rows (see runIn); null: a row had a NULL part.
func runTupleIn(rr array.RecordReader, e *In, text string) (lits []*Lit, null bool, err error) {
	cols := make([]int, e.tuple)
	if n := rr.Schema().NumFields(); n != e.tuple {
		// GROUP BY puts the group columns not selected first: the
		// items by name.
		q := e.Sub
		if q.Star || q.Union != nil || len(q.Items) != e.tuple {
			return nil, false, errAt(text, e.subPos, "%s IN (SELECT ...) wants %d columns; the subquery gives %d", e.Col.Name, e.tuple, n)
		}
		for k, it := range q.Items {
			idx := rr.Schema().FieldIndices(it.Name())
			if len(idx) != 1 {
				return nil, false, errAt(text, e.subPos, "%s IN (SELECT ...) wants %d columns; the subquery gives %d", e.Col.Name, e.tuple, n)
			}
			cols[k] = idx[0]
		}
	} else {
		for k := range cols {
			cols[k] = k
		}
	}
	seen := map[string]bool{}
	lits = []*Lit{}
	var key []byte
	for rr.Next() {
		rec := rr.RecordBatch()
	rows:
		for i := range int(rec.NumRows()) {
			key = key[:0]
			for _, c := range cols {
				col := rec.Column(c)
				if col.IsNull(i) {
					null = true
					continue rows
				}
				var ok bool
				if key, ok = rowKeyAt(key, col, i); !ok {
					return nil, false, errAt(text, e.subPos, "%s IN (SELECT ...): a column of %s cannot be compared", e.Col.Name, col.DataType())
				}
			}
			if seen[string(key)] {
				continue
			}
			if len(seen) == maxInValues {
				return nil, false, errAt(text, e.subPos, "%s IN (SELECT ...) gives more than %d rows; narrow it", e.Col.Name, maxInValues)
			}
			seen[string(key)] = true
			lits = append(lits, &Lit{Kind: LitString, Str: string(key), Pos: e.subPos})
		}
	}
	return lits, null, rr.Err()
}

// checkTupleKinds refuses a row value's IN whose subquery gives parts of
// other kinds than the row's (x the compiled row, key one of the set's).
func (p *plan) checkTupleKinds(e *In, x *arithPlan, key string) error {
	got := rowKeyKinds(key)
	for k, a := range x.args {
		if k >= len(got) {
			break
		}
		want := kindWord(a.kind)
		if a.kind == kInt {
			want = kindWord(kFloat) // a number, as rowKeyKinds says
		}
		if want != got[k] {
			return p.errAt(e.subPos, "type mismatch: %s IN (SELECT ...) compares %s, %s, with %s", e.Col.Name, e.X.Args[k].String(), want, got[k])
		}
	}
	return nil
}

// writeRow writes a row value as written, (x, y).
func writeRow(sb *strings.Builder, args []*Arith) {
	sb.WriteByte('(')
	for i, x := range args {
		if i > 0 {
			sb.WriteString(", ")
		}
		x.write(sb, 0)
	}
	sb.WriteByte(')')
}
