package query

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// One pass over a JSON document both checks it (RFC 8259: its grammar,
// strings of UTF-8 without raw control characters, escapes that name
// characters, surrogates in pairs; at most jsonMaxDepth arrays and
// objects deep, so that neither this scan's recursion nor anything
// after it is unbounded) and finds the value a path names, as a span of
// the document: no tree is built, nothing is allocated. The value found
// is then written (appendJSONSpan) or read as text (unescapeJSON) from
// its span.

// jsonMaxDepth bounds the arrays and objects nested in a document.
const jsonMaxDepth = 300

// jsonScan is the state of a scan of s.
type jsonScan struct {
	s          string
	i          int
	depth      int
	bad        bool // s is no document
	found      bool // the path's value is s[start:end]
	start, end int
}

// scanJSON checks document s and finds path in it: ok is false when s
// is no document; found, whether the path names a value, which is v, as
// written in s.
func scanJSON(s string, path jsonPath) (v string, found, ok bool) {
	sc := jsonScan{s: s}
	sc.ws()
	sc.value(path, true)
	sc.ws()
	if sc.bad || sc.i != len(s) {
		return "", false, false
	}
	if !sc.found {
		return "", false, true
	}
	return s[sc.start:sc.end], true, true
}

func (sc *jsonScan) ws() {
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case ' ', '\t', '\n', '\r':
			sc.i++
		default:
			return
		}
	}
}

// value scans a value; when want, path names what to find from it.
func (sc *jsonScan) value(path jsonPath, want bool) {
	if sc.i >= len(sc.s) {
		sc.bad = true
		return
	}
	here := want && len(path) == 0
	start := sc.i
	switch c := sc.s[sc.i]; {
	case c == '{':
		sc.object(path, want && !here)
	case c == '[':
		sc.array(path, want && !here)
	case c == '"':
		sc.str()
	case c == '-' || c >= '0' && c <= '9':
		sc.number()
	case c == 't':
		sc.literal("true")
	case c == 'f':
		sc.literal("false")
	case c == 'n':
		sc.literal("null")
	default:
		sc.bad = true
	}
	if here && !sc.bad {
		sc.found, sc.start, sc.end = true, start, sc.i
	}
}

func (sc *jsonScan) literal(lit string) {
	if !strings.HasPrefix(sc.s[sc.i:], lit) {
		sc.bad = true
		return
	}
	sc.i += len(lit)
}

// enter and leave count the containers open; past jsonMaxDepth the
// document is refused.
func (sc *jsonScan) enter() bool {
	sc.depth++
	if sc.depth > jsonMaxDepth {
		sc.bad = true
		return false
	}
	return true
}

func (sc *jsonScan) leave() { sc.depth-- }

// object scans {...}; the first member of path[0]'s key is searched on.
func (sc *jsonScan) object(path jsonPath, want bool) {
	if !sc.enter() {
		return
	}
	defer sc.leave()
	sc.i++ // {
	sc.ws()
	if sc.i < len(sc.s) && sc.s[sc.i] == '}' {
		sc.i++
		return
	}
	matched := false
	for !sc.bad {
		sc.ws()
		if sc.i >= len(sc.s) || sc.s[sc.i] != '"' {
			sc.bad = true
			return
		}
		key, escaped := sc.str()
		sc.ws()
		if sc.bad || sc.i >= len(sc.s) || sc.s[sc.i] != ':' {
			sc.bad = true
			return
		}
		sc.i++
		sc.ws()
		hit := false
		if want && !matched && !path[0].isIndex {
			if escaped {
				key = unescapeJSON(key)
			}
			hit = key == path[0].key
			matched = hit
		}
		if hit {
			sc.value(path[1:], true)
		} else {
			sc.value(nil, false)
		}
		if !sc.more('}') {
			return
		}
	}
}

// more scans what follows a member or an element: a comma, and it
// reports that another follows, or close; anything else is no document.
func (sc *jsonScan) more(close byte) bool {
	sc.ws()
	if sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case ',':
			sc.i++
			return true
		case close:
			sc.i++
			return false
		}
	}
	sc.bad = true
	return false
}

// array scans [...]; path[0] names an element by its index, from the
// start (found as the scan passes it) or from the end (the elements'
// spans kept, and the one found scanned again for the rest of path).
func (sc *jsonScan) array(path jsonPath, want bool) {
	if !sc.enter() {
		return
	}
	defer sc.leave()
	sc.i++ // [
	sc.ws()
	if sc.i < len(sc.s) && sc.s[sc.i] == ']' {
		sc.i++
		return
	}
	target, fromEnd := -1, false
	if want {
		switch st := path[0]; {
		case st.ptr:
			if n, err := strconv.Atoi(st.key); err == nil && n >= 0 && st.key == strconv.Itoa(n) {
				target = n
			}
		case st.isIndex && st.fromEnd:
			fromEnd = true
		case st.isIndex:
			target = st.index
		}
	}
	var spans []int // from the end: each element's start and end
	for k := 0; !sc.bad; k++ {
		sc.ws()
		start := sc.i
		if k == target {
			sc.value(path[1:], true)
		} else {
			sc.value(nil, false)
		}
		if fromEnd {
			spans = append(spans, start, sc.i)
		}
		if !sc.more(']') {
			break
		}
	}
	if !fromEnd || sc.bad {
		return
	}
	if k := len(spans)/2 - path[0].index; k >= 0 && k < len(spans)/2 {
		a, b := spans[2*k], spans[2*k+1]
		sub := jsonScan{s: sc.s[a:b], depth: sc.depth}
		sub.value(path[1:], true)
		if sub.found {
			sc.found, sc.start, sc.end = true, a+sub.start, a+sub.end
		}
	}
}

// str scans a string and returns what is between its quotes, and
// whether that holds an escape.
func (sc *jsonScan) str() (raw string, escaped bool) {
	sc.i++ // "
	start := sc.i
	wide := false // a byte past ASCII: the text is checked as UTF-8
	for sc.i < len(sc.s) {
		c := sc.s[sc.i]
		switch {
		case c == '"':
			raw = sc.s[start:sc.i]
			sc.i++
			if wide && !utf8.ValidString(raw) {
				sc.bad = true
			}
			return raw, escaped
		case c == '\\':
			escaped = true
			if !sc.escape() {
				sc.bad = true
				return "", false
			}
		case c < 0x20:
			sc.bad = true
			return "", false
		default:
			wide = wide || c >= utf8.RuneSelf
			sc.i++
		}
	}
	sc.bad = true
	return "", false
}

// escape scans the escape at sc.i: \" \\ \/ \b \f \n \r \t or \uXXXX,
// a surrogate only as a pair.
func (sc *jsonScan) escape() bool {
	if sc.i+1 >= len(sc.s) {
		return false
	}
	switch sc.s[sc.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		sc.i += 2
		return true
	case 'u':
		r, ok := hex4(sc.s, sc.i+2)
		if !ok {
			return false
		}
		sc.i += 6
		switch {
		case r >= 0xdc00 && r < 0xe000: // a low surrogate first
			return false
		case r >= 0xd800 && r < 0xdc00:
			if sc.i+1 >= len(sc.s) || sc.s[sc.i] != '\\' || sc.s[sc.i+1] != 'u' {
				return false
			}
			lo, ok := hex4(sc.s, sc.i+2)
			if !ok || lo < 0xdc00 || lo >= 0xe000 {
				return false
			}
			sc.i += 6
		}
		return true
	}
	return false
}

// hex4 reads the four hex digits of a \u escape at s[i:].
func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// number scans -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (sc *jsonScan) number() {
	s, i := sc.s, sc.i
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		sc.bad = true
		return
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			sc.bad = true
			return
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			sc.bad = true
			return
		}
	}
	sc.i = i
}

// unescapeJSON returns the text of a checked string's contents.
func unescapeJSON(raw string) string {
	n := strings.IndexByte(raw, '\\')
	if n < 0 {
		return raw
	}
	b := make([]byte, 0, len(raw))
	b = append(b, raw[:n]...)
	for i := n; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		e := raw[i+1]
		i += 2
		switch e {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, _ := hex4(raw, i)
			i += 4
			if r >= 0xd800 && r < 0xdc00 { // its pair follows (checked)
				lo, _ := hex4(raw, i+2)
				r = utf16.DecodeRune(r, lo)
				i += 6
			}
			b = utf8.AppendRune(b, r)
		default: // " \ /
			b = append(b, e)
		}
	}
	return string(b)
}

// appendJSONSpan appends value raw (checked) as appendJSON writes one:
// without spaces, strings escaped again, numbers as yyjson writes them.
func appendJSONSpan(dst []byte, raw string) []byte {
	for i := 0; i < len(raw); {
		switch c := raw[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '"':
			j := stringEnd(raw, i+1)
			dst = appendJSONString(dst, unescapeJSON(raw[i+1:j]))
			i = j + 1
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(raw) && strings.IndexByte("0123456789.eE+-", raw[j]) >= 0 {
				j++
			}
			dst = appendJSONNumber(dst, raw[i:j])
			i = j
		case c == 't' || c == 'n':
			dst = append(dst, raw[i:i+4]...)
			i += 4
		case c == 'f':
			dst = append(dst, "false"...)
			i += 5
		default: // { } [ ] , :
			dst = append(dst, c)
			i++
		}
	}
	return dst
}

// stringEnd returns the index of the quote that ends the checked string
// whose contents start at s[i].
func stringEnd(s string, i int) int {
	for {
		switch s[i] {
		case '"':
			return i
		case '\\':
			i += 2
		default:
			i++
		}
	}
}

// jsonSpanType is json_type's name of checked value raw's type.
func jsonSpanType(raw string) string {
	switch raw[0] {
	case '{':
		return "OBJECT"
	case '[':
		return "ARRAY"
	case '"':
		return "VARCHAR"
	case 't', 'f':
		return "BOOLEAN"
	case 'n':
		return "NULL"
	}
	return jsonNumberType(raw)
}

// jsonNumberType is json_type's name of number raw: BIGINT or UBIGINT
// for an integer that fits, else DOUBLE.
func jsonNumberType(raw string) string {
	if !strings.ContainsAny(raw, ".eE") {
		if _, err := strconv.ParseInt(raw, 10, 64); err == nil {
			return "BIGINT"
		}
		if _, err := strconv.ParseUint(raw, 10, 64); err == nil {
			return "UBIGINT"
		}
	}
	return "DOUBLE"
}

// jsonSpanLen is the elements of checked value raw if it is an array,
// else 0.
func jsonSpanLen(raw string) int64 {
	if raw[0] != '[' {
		return 0
	}
	depth, n, empty := 0, int64(1), true
	for i := 1; i < len(raw)-1; i++ {
		switch raw[i] {
		case '"':
			i = stringEnd(raw, i+1)
			empty = false
		case '[', '{':
			depth++
			empty = false
		case ']', '}':
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		case ' ', '\t', '\n', '\r':
		default:
			empty = false
		}
	}
	if empty {
		return 0
	}
	return n
}
