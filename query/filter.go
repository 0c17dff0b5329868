package query

import (
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/tsqdb/tsq/chunk"
)

// pred is a compiled WHERE condition. eval returns the rows of sel (in
// order) for which it holds; it never modifies sel. A comparison with a
// null is false, and NOT is pushed down to the leaves, so NOT (x > 1)
// is false for a null x, as in SQL.
type pred interface {
	eval(b *batch, sel []int32) []int32
}

type andPred struct{ l, r pred }
type orPred struct{ l, r pred }

func (p *andPred) eval(b *batch, sel []int32) []int32 { return p.r.eval(b, p.l.eval(b, sel)) }

func (p *orPred) eval(b *batch, sel []int32) []int32 {
	x, y := p.l.eval(b, sel), p.r.eval(b, sel)
	out := make([]int32, 0, len(x)+len(y))
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		switch {
		case x[i] < y[j]:
			out = append(out, x[i])
			i++
		case x[i] > y[j]:
			out = append(out, y[j])
			j++
		default:
			out = append(out, x[i])
			i, j = i+1, j+1
		}
	}
	out = append(out, x[i:]...)
	return append(out, y[j:]...)
}

// filterRows returns the rows of sel for which f holds.
func filterRows(sel []int32, f func(r int32) bool) []int32 {
	out := make([]int32, 0, len(sel))
	for _, r := range sel {
		if f(r) {
			out = append(out, r)
		}
	}
	return out
}

// cmpHolds reports whether c (-1, 0, 1) satisfies op.
func cmpHolds(op string, c int) bool {
	switch op {
	case "=":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

// negOp is the comparison holding exactly when op does not (non-null).
var negOp = map[string]string{"=": "!=", "!=": "=", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}

// intPred compares seq, time or op with a constant, or tests membership.
type intPred struct {
	col      string // seq, time or op
	op       string
	v        int64
	set      map[int64]bool // IN
	neg      bool           // NOT IN
	unsigned bool
}

func (p *intPred) eval(b *batch, sel []int32) []int32 {
	var vals []int64
	switch p.col {
	case ColSeq:
		vals = b.seq
	case ColTime:
		vals = b.time
	default:
		vals = b.op
	}
	if p.set != nil {
		return filterRows(sel, func(r int32) bool { return p.set[vals[r]] != p.neg })
	}
	if p.unsigned {
		return filterRows(sel, func(r int32) bool { return cmpHolds(p.op, cmp3(uint64(vals[r]), uint64(p.v))) })
	}
	v := p.v
	switch p.op {
	case ">=":
		return filterRows(sel, func(r int32) bool { return vals[r] >= v })
	case "<=":
		return filterRows(sel, func(r int32) bool { return vals[r] <= v })
	}
	return filterRows(sel, func(r int32) bool { return cmpHolds(p.op, cmp3(vals[r], v)) })
}

// numPred compares a numeric field with a number, or tests membership.
type numPred struct {
	field string
	op    string
	isInt bool // compare as int64 (field and literal are ints)
	iv    int64
	fv    float64
	fset  map[float64]bool // IN: the values, for float64 blocks
	iset  map[int64]bool   // IN: the integral values, for int64 blocks (exact past 2^53)
	neg   bool
}

func (p *numPred) eval(b *batch, sel []int32) []int32 {
	c := b.fields[p.field]
	if c == nil || (c.Type != chunk.Int64 && c.Type != chunk.Float64) {
		return nil
	}
	null := func(r int32) bool { return c.Valid != nil && !c.Valid[r] }
	if p.fset != nil {
		return filterRows(sel, func(r int32) bool {
			if null(r) {
				return false
			}
			if c.Type == chunk.Int64 {
				return p.iset[c.Ints[r]] != p.neg
			}
			return p.fset[c.Floats[r]] != p.neg
		})
	}
	if c.Type == chunk.Int64 && p.isInt {
		return filterRows(sel, func(r int32) bool { return !null(r) && cmpHolds(p.op, cmp3(c.Ints[r], p.iv)) })
	}
	if c.Type == chunk.Int64 {
		return filterRows(sel, func(r int32) bool { return !null(r) && floatHolds(p.op, float64(c.Ints[r]), p.fv) })
	}
	fv := p.fv
	if c.Valid == nil {
		switch p.op {
		case ">":
			return filterRows(sel, func(r int32) bool { return c.Floats[r] > fv })
		case "<":
			return filterRows(sel, func(r int32) bool { return c.Floats[r] < fv })
		}
	}
	return filterRows(sel, func(r int32) bool { return !null(r) && floatHolds(p.op, c.Floats[r], fv) })
}

// floatHolds compares as IEEE 754 does: NaN fails all but !=.
func floatHolds(op string, a, b float64) bool {
	switch op {
	case "=":
		return a == b
	case "!=":
		return a != b
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	}
	return a >= b
}

// strPred tests a string column (series, key or a string or bytes field)
// with a function of the value, evaluated once per dictionary entry.
type strPred struct {
	col   string
	match func(s string) bool
}

func (p *strPred) eval(b *batch, sel []int32) []int32 {
	c := b.strCol(p.col)
	if c == nil || (c.Type != chunk.String && c.Type != chunk.Bytes) {
		return nil
	}
	if c.Strs != nil || c.Codes == nil {
		return filterRows(sel, func(r int32) bool { return !c.IsNull(int(r)) && p.match(c.StringAt(int(r))) })
	}
	m := make([]bool, c.Dict.Len())
	for i := range m {
		m[i] = p.match(string(c.Dict.At(i)))
	}
	return filterRows(sel, func(r int32) bool {
		code := c.Codes[r]
		return !c.IsNull(int(r)) && code >= 0 && int(code) < len(m) && m[code]
	})
}

// boolPred compares a bool field.
type boolPred struct {
	field string
	want  bool
}

func (p *boolPred) eval(b *batch, sel []int32) []int32 {
	c := b.fields[p.field]
	if c == nil || c.Type != chunk.Bool {
		return nil
	}
	return filterRows(sel, func(r int32) bool { return !c.IsNull(int(r)) && c.Bools[r] == p.want })
}

// nullPred is IS [NOT] NULL on a field.
type nullPred struct {
	field string
	neg   bool // IS NOT NULL
}

func (p *nullPred) eval(b *batch, sel []int32) []int32 {
	c := b.fields[p.field]
	if c == nil {
		if p.neg {
			return nil
		}
		return sel
	}
	return filterRows(sel, func(r int32) bool { return c.IsNull(int(r)) != p.neg })
}

// constPred holds always or never (IS NULL on a base column).
type constPred bool

func (p constPred) eval(b *batch, sel []int32) []int32 {
	if p {
		return sel
	}
	return nil
}

// likeRegexp translates a LIKE pattern: % any run, _ one character,
// \ escapes the next character. An invalid UTF-8 byte of the pattern
// stands for U+FFFD, which is also what an invalid byte of the text
// matches as (the regexp package decodes it so).
func likeRegexp(pat string) *regexp.Regexp { return likeRegexpFold(pat, false) }

// likeRegexpFold is likeRegexp, matching case-insensitively (ILIKE) when
// fold.
func likeRegexpFold(pat string, fold bool) *regexp.Regexp {
	pat = strings.ToValidUTF8(pat, string(utf8.RuneError))
	var sb strings.Builder
	sb.WriteString("^(?s:")
	if fold {
		sb.WriteString("(?i)")
	}
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; c {
		case '%':
			sb.WriteString(".*")
		case '_':
			sb.WriteString(".")
		case '\\':
			if i+1 < len(pat) {
				_, w := utf8.DecodeRuneInString(pat[i+1:])
				sb.WriteString(regexp.QuoteMeta(pat[i+1 : i+1+w]))
				i += w
			}
		default:
			_, w := utf8.DecodeRuneInString(pat[i:])
			sb.WriteString(regexp.QuoteMeta(pat[i : i+w]))
			i += w - 1
		}
	}
	sb.WriteString(")$")
	return regexp.MustCompile(sb.String())
}

// likePrefix returns the literal prefix of a pattern that is a prefix
// match ('abc%'), and whether it is one.
func likePrefix(pat string) (string, bool) {
	if !strings.HasSuffix(pat, "%") || !utf8.ValidString(pat) { // (invalid bytes: see likeRegexp)
		return "", false
	}
	p := pat[:len(pat)-1]
	if strings.ContainsAny(p, "%_\\") {
		return "", false
	}
	return p, true
}

// clampAdd adds a duration to a time, saturating.
func clampAdd(t, d int64) int64 {
	s := t + d
	if d > 0 && s < t {
		return math.MaxInt64
	}
	if d < 0 && s > t {
		return math.MinInt64
	}
	return s
}
