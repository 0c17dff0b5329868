package query

import (
	"math"
	"strconv"
	"strings"
)

// CAST(x AS type) and TRY_CAST(x AS type) convert a value: to a float
// (DOUBLE, FLOAT, REAL, DECIMAL, NUMERIC), an integer (BIGINT, INTEGER,
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
	x := p.arith()
	if t := p.peek(); !p.acceptKw("as") {
		p.fail(t.pos, "expected AS type in %s(x AS type), found %s", strings.ToUpper(name.text), t.describe())
	}
	t := p.advance()
	fn, ok := castTypes[strings.ToLower(t.text)]
	if t.kind != tIdent || !ok {
		p.fail(t.pos, "%s to %s is not supported: cast to DOUBLE, BIGINT or VARCHAR (times compare with text as they are: time >= '2024-01-01')",
			strings.ToUpper(name.text), t.describe())
	}
	p.expectPunct(")")
	return &Arith{Op: 'f', Func: fn, Args: []*Arith{x}, Pos: name.pos}
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
