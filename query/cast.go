package query

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// CAST(x AS type) and TRY_CAST(x AS type) convert a value: to a float
// (DOUBLE, FLOAT, REAL, DECIMAL, NUMERIC; DECIMAL(p, s) rounds it to s
// digits after the point, as round(x, s)), a time's day (DATE) or the
// time itself (TIMESTAMP; timeCast), an integer (BIGINT, INTEGER,
// INT, SMALLINT; a float rounds to the nearest, ties to even, as DuckDB
// and PostgreSQL round a DOUBLE; text is read as a float first) or text (VARCHAR, TEXT, STRING; numbers and instants as
// they print). Text that is not a number, and a float out of the
// integers' range, give NULL (both spellings: a stream's rows are not
// refused one by one). They are text functions of one argument of any
// kind (castFuncs), written back as CAST(x AS TYPE).

// castTypes maps a CAST type name to its function.
var castTypes = map[string]string{
	"double": "cast_double", "float": "cast_double", "real": "cast_double", "decimal": "cast_double", "numeric": "cast_double", "float64": "cast_double",
	"bigint": "cast_bigint", "integer": "cast_bigint", "int": "cast_bigint", "smallint": "cast_bigint", "int64": "cast_bigint",
	"varchar": "cast_varchar", "text": "cast_varchar", "string": "cast_varchar",
}

// castNames are the type names CAST writes.
var castNames = map[string]string{"cast_double": "DOUBLE", "cast_bigint": "BIGINT", "cast_varchar": "VARCHAR"}

// castCall parses the rest of CAST(x AS type) after CAST.
func (p *parser) castCall(name token) *Arith {
	p.expectPunct("(")
	x := p.valueOrCond()
	if t := p.peek(); !p.acceptKw("as") {
		p.fail(t.pos, "expected AS type in %s(x AS type), found %s", strings.ToUpper(name.text), t.describe())
	}
	t := p.advance()
	if ty := strings.ToLower(t.text); t.kind == tIdent && timeTypes[ty] {
		p.expectPunct(")")
		return timeCast(x, ty, name.pos)
	}
	if isKw(t, "interval") { // of text: folded by the lexer (foldIntervals)
		p.fail(t.pos, "%s(x AS INTERVAL) takes a written text, '1 day'::INTERVAL, CAST('90 minutes' AS INTERVAL); %s is none", strings.ToUpper(name.text), x.String())
	}
	fn, ok := castTypes[strings.ToLower(t.text)]
	if t.kind != tIdent || !ok {
		p.fail(t.pos, "%s to %s is not supported: cast to DOUBLE, DECIMAL(p, s), BIGINT, VARCHAR, DATE or TIMESTAMP (times compare with text as they are: time >= '2024-01-01')",
			strings.ToUpper(name.text), t.describe())
	}
	cast := &Arith{Op: 'f', Func: fn, Args: []*Arith{x}, Pos: name.pos}
	if p.acceptPunct("(") { // VARCHAR(20): a length, which tsq's text has no need of
		ty := strings.ToLower(t.text)
		prec := p.intIn(0, 1<<20, "expected a precision or length in "+t.text+"(...)")
		scale, scalePos := int64(0), p.peek().pos
		if p.acceptPunct(",") {
			scalePos = p.peek().pos
			scale = p.intIn(0, 38, "expected a scale in "+t.text+"(...)")
		}
		p.expectPunct(")")
		if ty == "decimal" || ty == "numeric" { // a double rounded to the scale's digits
			p.expectPunct(")")
			return &Arith{Op: 'f', Func: "round", L: cast, Pos: name.pos,
				R:      &Arith{Lit: &Lit{Kind: LitInt, Int: scale, Pos: scalePos}, Pos: scalePos},
				castOf: x, castAs: fmt.Sprintf("DECIMAL(%d,%d)", prec, scale)}
		}
	}
	p.expectPunct(")")
	return cast
}

// timeCast is CAST(x AS ty), ty a time type, of a time x: DATE is its
// day (date_trunc('day', x), UTC midnight), the others x itself.
func timeCast(x *Arith, ty string, pos int) *Arith {
	unit, width := "day", int64(24*time.Hour)
	if ty != "date" {
		unit, width = "microsecond", 1 // the identity: a bucket of 1ns
	}
	return &Arith{Op: 'f', Func: "date_trunc", L: x, Pos: pos, Trunc: &Trunc{Unit: unit, Width: width},
		castOf: x, castAs: strings.ToUpper(ty)}
}

// isCast reports whether t, followed by "(", starts a CAST.
func isCast(t token) bool { return isKw(t, "cast") || isKw(t, "try_cast") }

// castValue converts x, of the kind of arg, for cast function fn; ok is
// false for NULL.
func castValue(fn string, arg *arithPlan, x value) (value, bool) {
	switch fn {
	case "cast_double":
		switch arg.kind {
		case kFloat:
			return x, true
		case kString:
			f, err := strconv.ParseFloat(strings.TrimSpace(x.s), 64)
			if err != nil && !isRangeErr(err) {
				return nullValue, false
			}
			return fv(f), true
		}
		return fv(float64(x.i)), true
	case "cast_bigint":
		switch arg.kind {
		case kFloat:
			return floatToInt(x.fl())
		case kString:
			s := strings.TrimSpace(x.s)
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				return value{i: i}, true
			}
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nullValue, false
			}
			return floatToInt(f)
		}
		return x, true
	}
	return textValue("concat", []*arithPlan{arg}, []value{x}) // cast_varchar
}

// floatToInt rounds f to the nearest int64, ties to even; NULL if it is
// not a finite number within range.
func floatToInt(f float64) (value, bool) {
	r := math.RoundToEven(f)
	if math.IsNaN(r) || r < -(1<<63) || r >= 1<<63 {
		return nullValue, false
	}
	return value{i: int64(r)}, true
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// timeTypes are the types x::type reads a time in: a string literal
// cast to one stays the string, which compares with times and takes
// durations as a time does ('2024-01-01'::TIMESTAMP + 1d).
var timeTypes = map[string]bool{"timestamp": true, "timestamptz": true, "date": true, "timestamp_ns": true, "datetime": true}

// foldCasts rewrites PostgreSQL's and DuckDB's x::type as CAST(x AS
// type): x is the operand just before, a literal, a column, a call or a
// parenthesised group; '2024-01-01'::TIMESTAMP, and the typed literal
// TIMESTAMP '2024-01-01', is the string.
func foldCasts(src string, toks []token) ([]token, error) {
	for k := 0; k+1 < len(toks); k++ { // TIMESTAMP '2024-01-01', DATE '...': the string, as '...'::TIMESTAMP
		if ty, x := toks[k], toks[k+1]; ty.kind == tIdent && timeTypes[strings.ToLower(ty.text)] && x.kind == tString && src[x.pos] == '\'' &&
			(k == 0 || !isPunct(toks[k-1], "::")) {
			ns, ok := parseTime(x.text)
			if !ok {
				return nil, errAt(src, x.pos, "'%s' is not a time (want RFC 3339, e.g. 2024-01-01T12:00:00Z, or a date)", x.text)
			}
			if strings.EqualFold(ty.text, "date") {
				toks[k+1].text = time.Unix(0, ns).UTC().Format(time.DateOnly)
			}
			toks[k+1].typed = true
			toks = slices.Delete(toks, k, k+1)
		}
	}
	for k := 0; k < len(toks); k++ {
		if !isPunct(toks[k], "::") {
			continue
		}
		ty := toks[min(k+1, len(toks)-1)]
		if ty.kind != tIdent || reserved[strings.ToLower(ty.text)] {
			return nil, errAt(src, ty.pos, "expected a type after ::, found %s", ty.describe())
		}
		start, ok := operandStart(toks, k)
		if !ok {
			return nil, errAt(src, toks[k].pos, ":: casts the value just before it, and there is none")
		}
		end := k + 2                                   // past the type
		if isPunct(toks[min(end, len(toks)-1)], "(") { // DECIMAL(10, 2), VARCHAR(20)
			for end < len(toks) && !isPunct(toks[end], ")") && toks[end].kind != tEOF {
				end++
			}
			if end == len(toks) || toks[end].kind == tEOF { // the end token stays
				return nil, errAt(src, toks[k+2].pos, "the ( after %s is not closed", ty.text)
			}
			end++
		}
		if x := toks[start]; start == k-1 && x.kind == tString && timeTypes[strings.ToLower(ty.text)] {
			ns, ok := parseTime(x.text)
			if !ok {
				return nil, errAt(src, x.pos, "'%s' is not a time (want RFC 3339, e.g. 2024-01-01T12:00:00Z, or a date)", x.text)
			}
			if strings.EqualFold(ty.text, "date") { // its day
				toks[start].text = time.Unix(0, ns).UTC().Format(time.DateOnly)
			}
			toks[start].typed = true
			toks = slices.Delete(toks, k, end)
			k--
			continue
		}
		at := toks[k].pos
		rewritten := []token{{kind: tIdent, text: "CAST", pos: at}, {kind: tPunct, text: "(", pos: at}}
		rewritten = append(rewritten, toks[start:k]...)
		rewritten = append(rewritten, token{kind: tIdent, text: "AS", pos: at})
		rewritten = append(rewritten, toks[k+1:end]...) // the type, and its (precision) for CAST to check
		rewritten = append(rewritten, token{kind: tPunct, text: ")", pos: at})
		toks = slices.Concat(toks[:start], rewritten, toks[end:])
		k = start + len(rewritten) - 1
	}
	return toks, nil
}

// operandStart returns where the operand ending just before token k
// starts: one token, or a parenthesised group with the name before it
// if it is a call.
func operandStart(toks []token, k int) (int, bool) {
	if k == 0 {
		return 0, false
	}
	x := toks[k-1]
	switch {
	case isPunct(x, ")"):
		depth := 0
		for j := k - 1; j >= 0; j-- {
			switch {
			case isPunct(toks[j], ")"):
				depth++
			case isPunct(toks[j], "("):
				if depth--; depth == 0 {
					if j > 0 && toks[j-1].kind == tIdent && !reserved[strings.ToLower(toks[j-1].text)] {
						return j - 1, true
					}
					return j, true
				}
			}
		}
		return 0, false
	case x.kind == tPunct || x.kind == tEOF:
		return 0, false
	case x.kind == tIdent && reserved[strings.ToLower(x.text)] && !isKw(x, "null") && !isKw(x, "true") && !isKw(x, "false"):
		return 0, false // SELECT ::int
	}
	return k - 1, true
}
