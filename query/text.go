package query

import (
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Text in expressions: string literals, text columns (series, key,
// string fields), the text functions below and CASE. They project,
// compare (lower(s) = 'ok'), group (GROUP BY split_part(key, '/', 1))
// and feed aggregates (count(DISTINCT lower(user))).

// textFunc describes a text function: its arguments' kinds (kString:
// text, kInt: an integer, 0: text or a number) and its result's kind.
type textFunc struct {
	args     []colKind
	optional int // trailing arguments that may be left out
	variadic bool
	out      colKind
}

// textAliases are other names of text functions, DuckDB's and
// PostgreSQL's.
var textAliases = map[string]string{"lcase": "lower", "ucase": "upper", "instr": "strpos", "len": "length",
	"char_length": "length", "character_length": "length", "substring": "substr", "datediff": "date_diff",
	"to_hex": "hex", "to_binary": "bin", "base64": "to_base64", "formatreadablesize": "format_bytes", "ord": "unicode", "json_quote": "to_json"}

// textFuncOf returns the text function name names, under an alias too.
func textFuncOf(name string) (string, textFunc) {
	name = strings.ToLower(name)
	if a := textAliases[name]; a != "" {
		name = a
	}
	return name, textFuncs[name]
}

// textFuncOK reports whether name names a text function.
func textFuncOK(name string) bool {
	_, f := textFuncOf(name)
	return f.out != 0
}

var textFuncs = map[string]textFunc{
	"lower":      {args: []colKind{kString}, out: kString},
	"upper":      {args: []colKind{kString}, out: kString},
	"trim":       {args: []colKind{kString, kString}, optional: 1, out: kString}, // trim(s[, chars])
	"length":     {args: []colKind{kString}, out: kInt},
	"substr":     {args: []colKind{kString, kInt, kInt}, optional: 1, out: kString},
	"replace":    {args: []colKind{kString, kString, kString}, out: kString},
	"split_part": {args: []colKind{kString, kString, kInt}, out: kString},
	"strpos":     {args: []colKind{kString, kString}, out: kInt},
	"position":   {args: []colKind{kString, kString}, out: kInt}, // position(sub IN s): strpos(s, sub)
	// textpad.go
	"left":    {args: []colKind{kString, kInt}, out: kString},
	"right":   {args: []colKind{kString, kInt}, out: kString},
	"lpad":    {args: []colKind{kString, kInt, kString}, optional: 1, out: kString},
	"rpad":    {args: []colKind{kString, kInt, kString}, optional: 1, out: kString},
	"repeat":  {args: []colKind{kString, kInt}, out: kString},
	"reverse": {args: []colKind{kString}, out: kString},
	"ascii":   {args: []colKind{kString}, out: kInt}, // the first character's code point, 0 for ""
	// textmore.go
	"concat_ws": {args: []colKind{kString, 0}, variadic: true, out: kString},
	"translate": {args: []colKind{kString, kString, kString}, out: kString},
	"md5":       {args: []colKind{kString}, out: kString},
	"typeof":    {args: []colKind{0}, out: kString}, // typeName
	// encoding.go
	"hex":                       {args: []colKind{0}, out: kString},
	"bin":                       {args: []colKind{0}, out: kString},
	"to_base64":                 {args: []colKind{kString}, out: kString},
	"from_base64":               {args: []colKind{kString}, out: kString},
	"format_bytes":              {args: []colKind{kInt}, out: kString},
	"formatreadabledecimalsize": {args: []colKind{kInt}, out: kString},
	"bit_length":                {args: []colKind{kString}, out: kInt},
	"octet_length":              {args: []colKind{kString}, out: kInt},
	"unicode":                   {args: []colKind{kString}, out: kInt},
	// a REPEATABLE sample's draw of a row (sample.go)
	sampleFunc: {args: []colKind{kInt, kInt}, out: kFloat},
	// random() in [0, 1), uuid() (gen_random_uuid()): a new value each row
	"random":          {args: []colKind{kInt}, out: kFloat},
	"uuid":            {args: []colKind{kInt}, out: kString},
	"gen_random_uuid": {args: []colKind{kInt}, out: kString},
	// format.go: printf(format, x, ...), format(format, x, ...)
	"printf": {args: []colKind{kString, 0}, variadic: true, optional: 1, out: kString},
	"format": {args: []colKind{kString, 0}, variadic: true, optional: 1, out: kString},
	// similarity.go
	"levenshtein":             {args: []colKind{kString, kString}, out: kInt},
	"damerau_levenshtein":     {args: []colKind{kString, kString}, out: kInt},
	"hamming":                 {args: []colKind{kString, kString}, out: kInt},
	"jaccard":                 {args: []colKind{kString, kString}, out: kFloat},
	"jaro_similarity":         {args: []colKind{kString, kString}, out: kFloat},
	"jaro_winkler_similarity": {args: []colKind{kString, kString}, out: kFloat},
	"sha256":                  {args: []colKind{kString}, out: kString},
	"factorial":               {args: []colKind{kInt}, out: kInt},
	"bit_count":               {args: []colKind{kInt}, out: kInt},
	"xor":                     {args: []colKind{kInt, kInt}, out: kInt},
	"nextafter":               {args: []colKind{kFloat, kFloat}, out: kFloat},
	// calendar.go
	"last_day":       {args: []colKind{kInt}, out: kInt},
	"make_date":      {args: []colKind{kInt, kInt, kInt}, out: kInt},
	"make_timestamp": {args: []colKind{kInt, kInt, kInt, kInt, kInt, 0}, out: kInt},
	"chr":            {args: []colKind{kInt}, out: kString}, // the character of a code point; NULL for none
	"ltrim":          {args: []colKind{kString, kString}, optional: 1, out: kString},
	"rtrim":          {args: []colKind{kString, kString}, optional: 1, out: kString},
	"concat":         {args: []colKind{0, 0}, variadic: true, out: kString},
	"label":          {args: []colKind{kString, kString}, out: kString},
	"strftime":       {args: []colKind{kInt, kString, kString}, optional: 1, out: kString},
	"strptime":       {args: []colKind{kString, kString}, out: kInt}, // strptime.go: an instant
	// a time's day or month by name (dayname(time[, 'zone']))
	"dayname":   {args: []colKind{kInt, kString}, optional: 1, out: kString},
	"monthname": {args: []colKind{kInt, kString}, optional: 1, out: kString},
	// datediff.go
	"date_diff": {args: []colKind{kString, kInt, kInt}, out: kInt},
	"date_sub":  {args: []colKind{kString, kInt, kInt}, out: kInt},
	"date_add":  {args: []colKind{kInt, 0}, out: kInt}, // parsed as t + interval (textCall)
	// regexp.go
	"regexp_extract": {args: []colKind{kString, kString, kInt}, optional: 1, out: kString},
	"regexp_replace": {args: []colKind{kString, kString, kString, kString}, optional: 1, out: kString},
	// CAST(x AS type) (cast.go)
	"cast_double":  {args: []colKind{0}, out: kFloat},
	"cast_bigint":  {args: []colKind{0}, out: kInt},
	"cast_varchar": {args: []colKind{0}, out: kString},
	// a row value's key (rowin.go)
	rowFunc: {args: []colKind{0, 0}, variadic: true, out: kString},
	// json.go: a path is text or an integer (kind 0, checked in compileJSON)
	"json_extract":        {args: []colKind{kString, 0}, out: kString},
	"json_extract_string": {args: []colKind{kString, 0}, out: kString},
	"json_exists":         {args: []colKind{kString, 0}, out: kBool},
	"json_type":           {args: []colKind{kString, 0}, optional: 1, out: kString},
	"json_array_length":   {args: []colKind{kString, 0}, optional: 1, out: kInt},
	"json_valid":          {args: []colKind{kString}, out: kBool},
	"json":                {args: []colKind{kString}, out: kString},
	"to_json":             {args: []colKind{0}, out: kString},
	"json_array":          {args: []colKind{0}, variadic: true, optional: 1, out: kString},
	"json_object":         {args: []colKind{0}, variadic: true, optional: 1, out: kString},
	// jsonagg.go: the JSON aggregates' parts
	jsonElementFunc: {args: []colKind{0}, out: kString},
	jsonMemberFunc:  {args: []colKind{kString, 0}, out: kString},
	jsonArrayFunc:   {args: []colKind{kString}, out: kString},
	jsonObjectFunc:  {args: []colKind{kString}, out: kString},
}

// volatileFuncs are the functions whose every call differs: written
// without arguments, computed for each row (arithPlan.volatile).
var volatileFuncs = map[string]bool{"random": true, "uuid": true, "gen_random_uuid": true}

// volatileCall is the call fn() of a volatile function at pos: a text
// function with an argument of its own (a text call has arguments),
// which it ignores and its name leaves out.
func volatileCall(fn string, pos int) *Arith {
	return &Arith{Op: 'f', Func: fn, Args: []*Arith{{Lit: &Lit{Kind: LitInt, Pos: pos}, Pos: pos}}, Pos: pos}
}

// hasVolatile reports whether condition e calls a volatile function:
// applied twice to a row, it may not decide the same.
func hasVolatile(e Expr) bool {
	found := false
	eachNode(&Statement{Where: e}, nil, func(a *Arith) { found = found || a.Op == 'f' && volatileFuncs[a.Func] })
	return found
}

// timeText are the text functions of a time: strftime's format is its
// argument, the others' fixed.
var timeText = map[string]string{"strftime": "(its argument)", "dayname": "%A", "monthname": "%B"}

// CaseWhen is one WHEN cond THEN value of a CASE.
type CaseWhen struct {
	Cond Expr
	Then *Arith
}

// textCall parses the rest of a text function's call after its name.
func (p *parser) textCall(name token) *Arith {
	p.expectPunct("(")
	fn, _ := textFuncOf(name.text)
	a := &Arith{Op: 'f', Func: fn, Pos: name.pos}
	if a.Func == "position" { // SQL's position(sub IN s)
		sub := p.arith()
		if t := p.advance(); !isKw(t, "in") {
			p.fail(t.pos, "position wants position(sub IN s), found %s", t.describe())
		}
		a.Func, a.Args = "strpos", []*Arith{p.arith(), sub}
		p.expectPunct(")")
		return a
	}
	if volatileFuncs[a.Func] { // random(): an argument of its own, which it ignores and never writes
		if t := p.peek(); !isPunct(t, ")") {
			p.fail(t.pos, "%s() takes no arguments", a.Func)
		}
		p.advance()
		return volatileCall(a.Func, name.pos)
	}
	if (a.Func == "json_object" || a.Func == "json_array") && p.acceptPunct(")") {
		// {} or []: an argument of its own, never written nor read
		a.Args, a.noArgs = []*Arith{{Lit: &Lit{Kind: LitInt, Pos: name.pos}, Pos: name.pos}}, true
		return a
	}
	for {
		a.Args = append(a.Args, p.valueOrCond())
		if !p.acceptPunct(",") {
			break
		}
	}
	p.expectPunct(")")
	if a.Func == "date_add" { // DuckDB's date_add(t, INTERVAL ...): t + INTERVAL ...
		if len(a.Args) != 2 {
			p.fail(name.pos, "date_add() takes 2 arguments, a time and an interval, not %d", len(a.Args))
		}
		return &Arith{Op: '+', L: a.Args[0], R: a.Args[1], Pos: name.pos}
	}
	return a
}

// caseExpr parses the rest of CASE WHEN cond THEN x ... [ELSE y] END,
// or of the simple CASE v WHEN w THEN x ... END, which is CASE WHEN v = w
// THEN x ... END.
func (p *parser) caseExpr(t token) *Arith {
	defer p.itemAggConds()()
	defer p.noArgWindows()() // its conditions are tested on a batch's rows
	a := &Arith{Op: 'c', Pos: t.pos}
	having := p.having
	p.having = false // conditions on the row's columns
	p.inCase++
	defer func() { p.having = having; p.inCase-- }()
	var subject *Arith // the simple CASE's v
	if k := p.peek(); !isKw(k, "when") && !isKw(k, "end") && !isKw(k, "else") {
		subject = p.arith()
	}
	for p.acceptKw("when") {
		var cond Expr
		if subject != nil {
			w := p.peek()
			cond = p.comparison(subject, "=", p.arith(), w.pos)
		} else {
			cond = p.orExpr()
		}
		p.expectKw("then")
		a.Whens = append(a.Whens, CaseWhen{Cond: cond, Then: p.valueOrCond()})
	}
	if len(a.Whens) == 0 {
		k := p.peek()
		if subject != nil {
			p.fail(k.pos, "CASE %s wants WHEN value THEN result after it, found %s", subject.String(), k.describe())
		}
		p.fail(k.pos, "CASE wants WHEN cond THEN value, found %s", k.describe())
	}
	if p.acceptKw("else") {
		a.Else = p.valueOrCond()
	}
	p.expectKw("end")
	return a
}

// ifCall parses the rest of if(cond, x, y), DuckDB's: CASE WHEN cond
// THEN x ELSE y END.
func (p *parser) ifCall(t token) *Arith {
	defer p.itemAggConds()()
	defer p.noArgWindows()()
	a := &Arith{Op: 'c', Pos: t.pos}
	having := p.having
	p.having = false
	p.inCase++
	defer func() { p.having = having; p.inCase-- }()
	p.expectPunct("(")
	cond := p.orExpr()
	p.expectPunct(",")
	then := p.valueOrCond()
	p.expectPunct(",")
	a.Else = p.valueOrCond()
	p.expectPunct(")")
	a.Whens = []CaseWhen{{Cond: cond, Then: then}}
	return a
}

// writeText writes a text function's call or a CASE.
func (a *Arith) writeText(sb *strings.Builder) {
	if a.Op == 'c' {
		sb.WriteString("CASE")
		for _, w := range a.Whens {
			sb.WriteString(" WHEN " + condText(w.Cond) + " THEN ")
			w.Then.write(sb, 0)
		}
		if a.Else != nil {
			sb.WriteString(" ELSE ")
			a.Else.write(sb, 0)
		}
		sb.WriteString(" END")
		return
	}
	if a.Func == rowFunc {
		writeRow(sb, a.Args)
		return
	}
	if a.Func == jsonArrayFunc || a.Func == jsonObjectFunc { // json_group_array(x) as written
		a.Args[0].write(sb, 0)
		return
	}
	if t := castNames[a.Func]; t != "" {
		sb.WriteString("CAST(")
		a.Args[0].write(sb, 0)
		sb.WriteString(" AS " + t + ")")
		return
	}
	sb.WriteString(a.Func + "(")
	for i, x := range a.Args {
		if volatileFuncs[a.Func] || a.noArgs { // its own argument
			break
		}
		if i > 0 {
			sb.WriteString(", ")
		}
		x.write(sb, 0)
	}
	sb.WriteByte(')')
}

// compileText plans a text function's call.
func (p *plan) compileText(a *Arith, ap *arithPlan, leaf func(a *Arith, ap *arithPlan) error) error {
	f := textFuncs[a.Func]
	n := len(a.Args)
	if a.noArgs { // json_object(), json_array()
		*ap = arithPlan{kind: kString, lit: &value{s: map[string]string{"json_object": "{}", "json_array": "[]"}[a.Func]}, hid: -1}
		return nil
	}
	micros := a.Func == "make_timestamp" && n == 1 // make_timestamp(us), DuckDB's: microseconds since the epoch
	if !micros && (n < len(f.args)-f.optional || n > len(f.args) && !f.variadic) {
		want := strconv.Itoa(len(f.args))
		if f.optional > 0 {
			want = strconv.Itoa(len(f.args)-f.optional) + " or " + want
		}
		if f.variadic {
			want += " or more"
		}
		if a.Func == "make_timestamp" {
			want = "6 (or 1, microseconds since the epoch)"
		}
		return p.errAt(a.Pos, "%s() takes %s arguments, not %d", a.Func, want, n)
	}
	ap.fn, ap.kind = a.Func, f.out
	ap.volatile = volatileFuncs[a.Func]
	ap.skipNulls = a.Func == "concat" && !a.pipes || a.Func == "concat_ws" || jsonTakesNulls[a.Func]
	for i, x := range a.Args {
		xp, err := p.compileArith(x, leaf)
		if err != nil {
			return err
		}
		if i > 0 && (a.Func == "date_diff" || a.Func == "date_sub") {
			p.textAsTime(x, xp) // date_diff('day', '2024-01-02', time)
		}
		if i == 0 && (timeText[a.Func] != "" || a.Func == "last_day") {
			p.textAsTime(x, xp) // strftime('2024-01-02', '%A')
			if xp.kind != kInt {
				return p.errAt(x.Pos, "type mismatch: %s() wants a time, %s is a %s", a.Func, x.String(), xp.kind)
			}
		}
		want := f.args[min(i, len(f.args)-1)]
		if xp.nullLit() && want != 0 {
			xp.kind = want // lower(NULL) is NULL text
		}
		switch {
		case want == kString && xp.kind != kString:
			return p.errAt(x.Pos, "type mismatch: %s() wants text, %s is a %s", a.Func, x.String(), xp.kind)
		case want == kInt && xp.kind != kInt:
			return p.errAt(x.Pos, "type mismatch: %s() wants an integer, %s is a %s", a.Func, x.String(), xp.kind)
		}
		if (i == 2 && a.Func == "strftime" || i == 1 && a.Func != "strftime" && timeText[a.Func] != "") && xp.lit != nil && !xp.lit.null {
			if _, ok := zoneNamed(xp.lit.s); !ok {
				return p.errAt(x.Pos, "unknown time zone %s (want an IANA name such as 'Europe/Berlin', 'America/New_York' or 'UTC')", x.String())
			}
		}
		ap.args = append(ap.args, xp)
	}
	if a.Func == "typeof" { // a constant: the argument's type, as DuckDB names it
		name := duckTypeName(ap.args[0])
		if l := a.Args[0].Lit; l != nil && (l.Kind == LitTime || l.Typed) { // now(), TIMESTAMP '...'
			name = "TIMESTAMP"
		}
		*ap = arithPlan{kind: kString, lit: &value{s: name}, hid: -1}
		return nil
	}
	if regexpFuncs[a.Func] {
		return p.compileRegexp(a, ap)
	}
	if isJSONFunc(a.Func) {
		return p.compileJSON(a, ap)
	}
	if a.Func == "printf" || a.Func == "format" {
		return p.compileFormat(a, ap)
	}
	if x := ap.args[0]; (a.Func == "hex" || a.Func == "bin") && !x.nullLit() && (x.kind != kString && x.kind != kInt || x.ts) {
		what := "a " + x.kind.String()
		if x.ts {
			what = "a time"
		}
		return p.errAt(a.Args[0].Pos, "%s() wants an integer or text, %s is %s", a.Func, a.Args[0].String(), what)
	}
	if a.Func == "date_diff" || a.Func == "date_sub" {
		return p.compileDateDiff(a, ap)
	}
	ap.ts = a.Func == "strptime" || calendarFuncs[a.Func]
	return nil
}

// compileCase plans a CASE: its conditions on the row (it is refused
// where the operands are aggregates), its values all numbers (float64
// when any is) or all text.
func (p *plan) compileCase(a *Arith, ap *arithPlan, leaf func(a *Arith, ap *arithPlan) error) error {
	if !p.rowArith { // on an aggregate query's result rows (aggcase.go)
		return p.compileGroupCase(a, ap, leaf)
	}
	for _, w := range a.Whens {
		c, err := p.compileExpr(w.Cond, false)
		if err != nil {
			return err
		}
		ap.conds = append(ap.conds, c)
	}
	return p.caseValues(a, ap, leaf)
}

// caseValues plans CASE a's values (THENs, then ELSE): all numbers
// (float64 when any is) or all text.
func (p *plan) caseValues(a *Arith, ap *arithPlan, leaf func(a *Arith, ap *arithPlan) error) error {
	var vals []*Arith
	for _, w := range a.Whens {
		vals = append(vals, w.Then)
	}
	if a.Else != nil {
		vals = append(vals, a.Else)
	}
	first := true
	for _, x := range vals {
		xp, err := p.compileArith(x, leaf)
		if err != nil {
			return err
		}
		switch {
		case xp.nullLit(): // THEN NULL: of the others' kind (below)
		case first:
			ap.kind, first = xp.kind, false
		case (xp.kind == kString) != (ap.kind == kString) || (xp.kind == kBool) != (ap.kind == kBool):
			return p.errAt(x.Pos, "type mismatch: CASE values are all text, all bools or all numbers; %s is a %s", x.String(), xp.kind)
		case xp.kind == kFloat:
			ap.kind = kFloat
		}
		ap.args = append(ap.args, xp)
	}
	if first { // every value NULL: an integer's, as NULL is
		ap.kind = kInt
	}
	for _, xp := range ap.args {
		xp.takeKind(ap)
	}
	ap.ts = ap.kind == kInt && !slices.ContainsFunc(ap.args, func(x *arithPlan) bool { return !x.ts && !x.nullLit() })
	ap.dur = ap.kind == kInt && !slices.ContainsFunc(ap.args, func(x *arithPlan) bool { return !x.dur && !x.nullLit() })
	return nil
}

// textValue computes a text function of its arguments' values (none
// null); ok is false for a null result.
func textValue(fn string, args []*arithPlan, v []value) (value, bool) {
	if castNames[fn] != "" {
		return castValue(fn, args[0], v[0])
	}
	if encodingFuncs[fn] {
		return encodingValue(fn, args, v)
	}
	if isJSONFunc(fn) {
		return jsonValue(fn, args, v)
	}
	switch fn {
	case rowFunc:
		return rowKey(args, v), true
	case "lower":
		return value{s: strings.ToLower(v[0].s)}, true
	case "upper":
		return value{s: strings.ToUpper(v[0].s)}, true
	case "trim":
		if len(v) > 1 { // trim(s, chars): any of chars, at both ends
			return value{s: strings.Trim(v[0].s, v[1].s)}, true
		}
		return value{s: strings.TrimSpace(v[0].s)}, true
	case "length":
		return value{i: int64(utf8.RuneCountInString(v[0].s))}, true
	case "ascii":
		r, _ := utf8.DecodeRuneInString(v[0].s)
		if v[0].s == "" {
			r = 0
		}
		return value{i: int64(r)}, true
	case "chr":
		if v[0].i < 0 || v[0].i > utf8.MaxRune || !utf8.ValidRune(rune(v[0].i)) {
			return nullValue, false
		}
		return value{s: string(rune(v[0].i))}, true
	case "substr": // from the start-th character (1-based), n of them
		s := []rune(v[0].s)
		start := min(max(v[1].i, -1<<62)-1, int64(len(s))) // no overflow below
		end := int64(len(s))
		if len(v) > 2 {
			if v[2].i < 0 {
				return nullValue, false
			}
			end = start + min(v[2].i, int64(len(s))+1)
		}
		start, end = max(start, 0), min(end, int64(len(s)))
		if start >= end {
			return value{s: ""}, true
		}
		return value{s: string(s[start:end])}, true
	case "replace":
		if v[1].s == "" {
			return v[0], true
		}
		return value{s: strings.ReplaceAll(v[0].s, v[1].s, v[2].s)}, true
	case "split_part": // the n-th (1-based) part of s split at sep
		parts := strings.Split(v[0].s, v[1].s)
		if v[2].i < 1 || v[2].i > int64(len(parts)) || v[1].s == "" {
			return value{s: ""}, true
		}
		return value{s: parts[v[2].i-1]}, true
	case "strpos": // 1-based, in characters; 0 if absent
		i := strings.Index(v[0].s, v[1].s)
		if i < 0 {
			return value{i: 0}, true
		}
		return value{i: int64(utf8.RuneCountInString(v[0].s[:i])) + 1}, true
	case "label":
		return value{s: labelOf(v[0].s, v[1].s)}, true
	case "left", "right", "lpad", "rpad", "repeat", "reverse", "ltrim", "rtrim":
		return padValue(fn, v)
	case "translate", "md5":
		return moreTextValue(fn, v)
	case "levenshtein", "damerau_levenshtein", "hamming", "jaccard", "jaro_similarity", "jaro_winkler_similarity", "sha256", "factorial", "bit_count", "xor", "nextafter":
		return similarityValue(fn, args, v)
	case "last_day", "make_date", "make_timestamp":
		return calendarValue(fn, args, v)
	case "regexp_extract", "regexp_replace":
		return regexpValue(fn, args, v)
	case "random":
		return fv(rand.Float64()), true
	case sampleFunc:
		return fv(sampleDraw(v[0].i, v[1].i)), true
	case "uuid", "gen_random_uuid": // version 4: random bits
		hi, lo := rand.Uint64(), rand.Uint64()
		hi = hi&^(0xf<<12) | 4<<12   // the version
		lo = lo&^(0xc<<60) | 0x8<<60 // the variant
		var b [16]byte
		binary.BigEndian.PutUint64(b[:8], hi)
		binary.BigEndian.PutUint64(b[8:], lo)
		h := hex.EncodeToString(b[:])
		return value{s: h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]}, true
	case "printf", "format":
		return value{s: args[0].pf.render(args[1:], v[1:])}, true
	case "date_diff":
		return value{i: dateDiff(args[0].lit.s, v[1].i, v[2].i)}, true
	case "date_sub":
		return value{i: dateSub(args[0].lit.s, v[1].i, v[2].i)}, true
	case "strptime":
		ns, ok := strptime(v[0].s, v[1].s)
		if !ok {
			return nullValue, false
		}
		return value{i: ns}, true
	case "strftime", "dayname", "monthname":
		format, zone := timeText[fn], v[1:]
		if fn == "strftime" {
			format, zone = v[1].s, v[2:]
		}
		loc := time.UTC
		if len(zone) > 0 {
			var ok bool
			if loc, ok = zoneNamed(zone[0].s); !ok {
				return nullValue, false
			}
		}
		return value{s: strftime(time.Unix(0, v[0].i).In(loc), format)}, true
	}
	// concat, concat_ws: numbers as they print, NULLs left out
	// (skipNulls); concat_ws's first argument the separator, NULL if it is
	sep, from := "", 0
	if fn == "concat_ws" {
		if v[0].null {
			return nullValue, false
		}
		sep, from = v[0].s, 1
	}
	var sb strings.Builder
	n := 0
	for i := from; i < len(v); i++ {
		x := v[i]
		if x.null {
			continue
		}
		if n++; n > 1 {
			sb.WriteString(sep)
		}
		switch args[i].kind {
		case kString:
			sb.WriteString(x.s)
		case kFloat:
			sb.Write(appendFloatRepr(nil, x.fl()))
		case kInt:
			if args[i].ts { // an instant as it prints
				sb.WriteString(time.Unix(0, x.i).UTC().Format(time.RFC3339Nano))
				break
			}
			if args[i].dur { // a span as it prints
				sb.WriteString(durationText(x.i))
				break
			}
			fallthrough
		default:
			sb.WriteString(strconv.FormatInt(x.i, 10))
		case kBool:
			sb.WriteString(strconv.FormatBool(x.i != 0))
		}
	}
	return value{s: sb.String()}, true
}

// textVec computes a text function for the rows sel of b.
func (a *arithPlan) textVec(b *batch, sel []int32) vec {
	n, m := len(sel), &b.vecs
	args := make([]vec, len(a.args))
	scalar := !a.volatile // random() differs by row
	for i, x := range a.args {
		args[i] = x.vec(b, sel)
		scalar = scalar && args[i].scalar
	}
	if scalar {
		return a.scalarVec()
	}
	if k := a.args[0].kind; (a.fn == "cast_bigint" || a.fn == "cast_double") && (isIntKind(k) || k == kBool) {
		if a.fn == "cast_bigint" { // an integer or a bool (0, 1) as it is
			return args[0]
		}
		return vec{floats: m.floatsOf(args[0], kInt), null: args[0].null}
	}
	out := m.newVec(a.kind, n)
	vals := make([]value, len(args))
	for i := range n {
		null := false
		for j := range args {
			k := i
			if args[j].scalar {
				k = 0
			}
			if args[j].isNull(k) {
				if a.skipNulls {
					vals[j] = nullValue
					continue
				}
				null = true
				break
			}
			vals[j] = args[j].at(k, a.args[j].kind)
		}
		v := nullValue
		if !null {
			if x, ok := textValue(a.fn, a.args, vals); ok {
				v = x
			}
		}
		out.set(i, a.kind, v, m, n)
	}
	return out
}

// caseVec computes a CASE for the rows sel of b: each row takes the
// value of the first WHEN whose condition it meets, else ELSE's, else
// null.
func (a *arithPlan) caseVec(b *batch, sel []int32) vec {
	n, m := len(sel), &b.vecs
	out := m.newVec(a.kind, n)
	out.null = m.nulls(n)
	for i := range out.null {
		out.null[i] = true
	}
	rest := sel
	for k := range a.args {
		var hit []int32
		if k < len(a.conds) {
			hit = a.conds[k].eval(b, rest)
		} else {
			hit = rest // ELSE
		}
		if len(hit) > 0 {
			v := a.args[k].vec(b, hit)
			i := 0 // hit's rows are sel's, ascending: found by walking it
			for j, r := range hit {
				for sel[i] != r {
					i++
				}
				jj := j
				if v.scalar {
					jj = 0
				}
				if v.isNull(jj) {
					continue
				}
				out.null[i] = false
				x := v.at(jj, a.args[k].kind)
				switch a.kind {
				case kString:
					out.strs[i] = x.s
				case kFloat:
					out.floats[i] = num(a.args[k].kind, x)
				default:
					out.ints[i] = x.i
				}
			}
		}
		rest = minus(rest, hit)
		if len(rest) == 0 {
			break
		}
	}
	return out
}

// minus returns the rows of a not in b (both ascending).
func minus(a, b []int32) []int32 {
	out := make([]int32, 0, len(a)-len(b))
	j := 0
	for _, r := range a {
		for j < len(b) && b[j] < r {
			j++
		}
		if j < len(b) && b[j] == r {
			continue
		}
		out = append(out, r)
	}
	return out
}

// duckTypeName is the type of x's values as DuckDB names it (typeof).
func duckTypeName(x *arithPlan) string {
	switch {
	case x.nullLit():
		return `"NULL"`
	case x.ts || x.kind == kTime:
		return "TIMESTAMP"
	case x.dur && x.kind == kInt:
		return "INTERVAL"
	}
	switch x.kind {
	case kSeq:
		return "UBIGINT"
	case kInt:
		return "BIGINT"
	case kFloat:
		return "DOUBLE"
	case kBool:
		return "BOOLEAN"
	case kBytes:
		return "BLOB"
	}
	return "VARCHAR"
}
