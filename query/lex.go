package query

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF      tokKind = iota
	tIdent            // name or keyword; `quoted` names are tQuoted
	tQuoted           // `any name`
	tInt              // 42
	tFloat            // 4.2, 1e3
	tString           // 'text' or "text"
	tDuration         // 5m, 1h30m, 250ms
	tPunct            // operators and punctuation
)

func (k tokKind) String() string {
	return [...]string{"end of query", "name", "name", "integer", "number", "string", "duration", "symbol"}[k]
}

// token is one lexeme; text is the identifier, the unquoted string, the
// number's digits or the operator.
type token struct {
	kind tokKind
	text string
	pos  int // byte offset in the source
	// typed: a string typed as a time (TIMESTAMP '...', '...'::DATE),
	// which a literal reads as a time (foldCasts)
	typed bool
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of query"
	case tString:
		return "string '" + t.text + "'"
	}
	return "\"" + t.text + "\""
}

// lexer splits the query text into tokens.
type lexer struct {
	src string
	off int
}

// maxQueryLen bounds the text accepted by Parse.
const maxQueryLen = 1 << 20

// lex returns every token of src, ending with tEOF.
func lex(src string) ([]token, error) {
	l := lexer{src: src}
	var out []token
	for {
		t, err := l.next()
		if err != nil {
			return nil, err
		}
		out = append(out, t)
		if t.kind == tEOF {
			if out, err = foldIntervals(src, out); err != nil {
				return nil, err
			}
			return foldCasts(src, foldNiladic(out))
		}
	}
}

// foldNiladic rewrites SQL's values without arguments as what they are:
// current_timestamp is now(), current_date date_trunc('day', now()) (as
// are today() and current_date()), pi() the number.
func foldNiladic(toks []token) []token {
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		if t.kind != tIdent {
			continue
		}
		call := isPunct(toks[min(k+1, len(toks)-1)], "(") && isPunct(toks[min(k+2, len(toks)-1)], ")")
		end := k + 1
		if call {
			end = k + 3
		}
		p := func(s string) token { return token{kind: tPunct, text: s, pos: t.pos} }
		now := []token{{kind: tIdent, text: "now", pos: t.pos}, p("("), p(")")}
		var with []token
		switch strings.ToLower(t.text) {
		case "current_timestamp":
			with = now
		case "current_date", "today":
			if !call && isKw(t, "today") {
				continue // a column so named
			}
			with = slices.Concat([]token{{kind: tIdent, text: "date_trunc", pos: t.pos}, p("("), {kind: tString, text: "day", pos: t.pos}, p(",")}, now, []token{p(")")})
		case "pi":
			if !call {
				continue
			}
			with = []token{{kind: tFloat, text: "3.141592653589793", pos: t.pos}}
		default:
			continue
		}
		toks = slices.Concat(toks[:k], with, toks[end:])
		k += len(with) - 1
	}
	return toks
}

func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// nameRun moves past a run of letters, digits and '_'.
func (l *lexer) nameRun() {
	for l.off < len(l.src) && (isLetter(l.src[l.off]) || isDigit(l.src[l.off])) {
		l.off++
	}
}

func (l *lexer) next() (token, error) {
	// Skip blanks and -- comments.
	for l.off < len(l.src) {
		c := l.src[l.off]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			l.off++
			continue
		}
		if strings.HasPrefix(l.src[l.off:], "--") {
			nl := strings.IndexByte(l.src[l.off:], '\n')
			if nl < 0 {
				l.off = len(l.src)
			} else {
				l.off += nl
			}
			continue
		}
		break
	}
	start := l.off
	if l.off >= len(l.src) {
		return token{kind: tEOF, pos: start}, nil
	}
	c := l.src[l.off]
	switch {
	case isLetter(c):
		l.nameRun()
		// A qualified name is one token: a.value, tags.amenity (a
		// field named with dots), b.`my field`.
		for l.off+1 < len(l.src) && l.src[l.off] == '.' && (isLetter(l.src[l.off+1]) || l.src[l.off+1] == '`') {
			l.off++
			if l.src[l.off] == '`' {
				end := strings.IndexByte(l.src[l.off+1:], '`')
				if end <= 0 {
					return token{}, errAt(l.src, l.off, "unterminated or empty `name`")
				}
				quoted := l.src[start:l.off] + l.src[l.off+1:l.off+1+end]
				l.off += end + 2
				return token{kind: tIdent, text: quoted, pos: start}, nil
			}
			l.nameRun()
		}
		return token{kind: tIdent, text: l.src[start:l.off], pos: start}, nil
	case isDigit(c) || c == '.' && l.off+1 < len(l.src) && isDigit(l.src[l.off+1]):
		return l.number()
	case c == '\'' || c == '"':
		return l.str(c)
	case c == '`':
		end := strings.IndexByte(l.src[l.off+1:], '`')
		if end < 0 {
			return token{}, errAt(l.src, start, "unterminated `name`")
		}
		l.off += end + 2
		if end == 0 {
			return token{}, errAt(l.src, start, "empty `name`")
		}
		return token{kind: tQuoted, text: l.src[start+1 : l.off-1], pos: start}, nil
	}
	for _, op := range []string{"::", "||", "->>", "->", "//", "**", "^", "<=", ">=", "!=", "<>", "=~", "!~", "=", "<", ">", "~", "(", ")", ",", "*", "{", "}", "+", "-", "/", "%", ";", "."} {
		if strings.HasPrefix(l.src[l.off:], op) {
			l.off += len(op)
			return token{kind: tPunct, text: op, pos: start}, nil
		}
	}
	r, _ := utf8.DecodeRuneInString(l.src[l.off:])
	return token{}, errAt(l.src, start, "unexpected character %q", r)
}

// durationUnits are the suffixes of a duration literal, longest first;
// months and years lex too, for time() buckets (ParseDuration refuses
// them).
var durationUnits = []string{"ns", "us", "µs", "ms", "mo", "s", "m", "h", "d", "w", "y"}

func (l *lexer) number() (token, error) {
	start := l.off
	digits := func() {
		for l.off < len(l.src) && isDigit(l.src[l.off]) {
			l.off++
		}
	}
	kind := tInt
	digits()
	if l.off < len(l.src) && l.src[l.off] == '.' {
		kind = tFloat
		l.off++
		digits()
	}
	if l.off < len(l.src) && (l.src[l.off] == 'e' || l.src[l.off] == 'E') {
		j := l.off + 1
		if j < len(l.src) && (l.src[j] == '+' || l.src[j] == '-') {
			j++
		}
		if j < len(l.src) && isDigit(l.src[j]) {
			kind, l.off = tFloat, j
			digits()
		}
	}
	if l.off < len(l.src) && (isLetter(l.src[l.off]) || strings.HasPrefix(l.src[l.off:], "µ")) {
		// A duration: number unit [number unit ...].
		for {
			u := ""
			for _, cand := range durationUnits {
				if strings.HasPrefix(l.src[l.off:], cand) {
					u = cand
					break
				}
			}
			if u == "" {
				if l.inName(start) {
					return l.nameWord(start), nil
				}
				return token{}, errAt(l.src, l.off, "bad duration unit in %q (want ns, us, ms, s, m, h, d or w)", l.word(start))
			}
			l.off += len(u)
			if l.off < len(l.src) && isLetter(l.src[l.off]) {
				if l.inName(start) {
					return l.nameWord(start), nil
				}
				return token{}, errAt(l.src, start, "bad duration %q (want e.g. 5m, 1h30m, 250ms)", l.word(start))
			}
			if l.off >= len(l.src) || !isDigit(l.src[l.off]) {
				break
			}
			digits()
			if l.off < len(l.src) && l.src[l.off] == '.' {
				l.off++
				digits()
			}
		}
		return token{kind: tDuration, text: l.src[start:l.off], pos: start}, nil
	}
	return token{kind: kind, text: l.src[start:l.off], pos: start}, nil
}

// inName reports whether the number at start goes on a name after a '-'
// or '.' (FROM flights-200k, logs.2xlarge): no space before it.
func (l *lexer) inName(start int) bool {
	if l.src[start] == '.' { // .2xlarge: the number began at the dot
		start++
	}
	if start < 2 || l.src[start-1] != '-' && l.src[start-1] != '.' {
		return false
	}
	c := l.src[start-2]
	return isLetter(c) || isDigit(c) || c == '_'
}

// nameWord lexes the letters, digits and underscores from start as a
// name: the rest of a stream name (streamNameRest) that is no number.
func (l *lexer) nameWord(start int) token {
	if l.src[start] == '.' {
		l.off = start + 1 // the dot; the word is the next token
		return token{kind: tPunct, text: ".", pos: start}
	}
	l.off = start
	for l.off < len(l.src) && (isLetter(l.src[l.off]) || isDigit(l.src[l.off]) || l.src[l.off] == '_') {
		l.off++
	}
	return token{kind: tIdent, text: l.src[start:l.off], pos: start}
}

// word returns the run of letters and digits from start, for messages.
func (l *lexer) word(start int) string {
	end := start
	for end < len(l.src) && (isLetter(l.src[end]) || isDigit(l.src[end]) || l.src[end] == '.') {
		end++
	}
	return l.src[start:end]
}

// str lexes a string quoted by q. Inside, \\ \' \" \n \t are escapes and
// a doubled quote stands for itself.
func (l *lexer) str(q byte) (token, error) {
	start := l.off
	l.off++
	var b strings.Builder
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == q && l.off+1 < len(l.src) && l.src[l.off+1] == q:
			b.WriteByte(q)
			l.off += 2
		case c == q:
			l.off++
			return token{kind: tString, text: b.String(), pos: start}, nil
		case c == '\\' && l.off+1 < len(l.src):
			e := l.src[l.off+1]
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '\\', '\'', '"':
				b.WriteByte(e)
			default:
				// Keep unknown escapes (regexes use \d, \. ...).
				b.WriteByte('\\')
				b.WriteByte(e)
			}
			l.off += 2
		default:
			b.WriteByte(c)
			l.off++
		}
	}
	return token{}, errAt(l.src, start, "unterminated string")
}
