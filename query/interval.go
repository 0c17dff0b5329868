package query

import (
	"strings"
)

// SQL's interval literals: INTERVAL '1 day', INTERVAL '90 minutes',
// INTERVAL '1 hour 30 minutes', INTERVAL '1h30m', and the number and
// unit apart, as DuckDB and the standard write them: INTERVAL 1 HOUR,
// INTERVAL '90' MINUTES. The lexer folds the keyword and the rest into
// one duration token written the short way (1d, 90m, 1h30m), so an
// interval goes wherever a duration does.

// intervalUnits maps the unit words of an interval to duration units.
var intervalUnits = map[string]string{
	"ns": "ns", "nanosecond": "ns", "us": "us", "µs": "us", "microsecond": "us", "ms": "ms", "millisecond": "ms",
	"s": "s", "sec": "s", "second": "s", "m": "m", "min": "m", "minute": "m", "h": "h", "hr": "h", "hour": "h",
	"d": "d", "day": "d", "w": "w", "week": "w", "mo": "mo", "mon": "mo", "month": "mo", "y": "y", "yr": "y", "year": "y",
}

// isIntervalUnit reports whether w names an interval's unit (a plural
// too).
func isIntervalUnit(w string) bool {
	w = strings.ToLower(w)
	_, ok := intervalUnits[w]
	if !ok && len(w) > 1 && w[len(w)-1] == 's' {
		_, ok = intervalUnits[w[:len(w)-1]]
	}
	return ok
}

// intervalText returns the interval s ("1 hour 30 minutes") as a
// duration's text ("1h30m"); ok is false if it is not one.
func intervalText(s string) (string, bool) {
	var sb strings.Builder
	rest := strings.TrimSpace(s)
	if rest == "" {
		return "", false
	}
	for rest != "" {
		i := 0
		for i < len(rest) && (isDigit(rest[i]) || rest[i] == '.') {
			i++
		}
		if i == 0 || strings.Count(rest[:i], ".") > 1 || rest[i-1] == '.' || rest[0] == '.' {
			return "", false
		}
		num := rest[:i]
		rest = strings.TrimLeft(rest[i:], " ")
		j := 0
		for j < len(rest) && !isDigit(rest[j]) && rest[j] != ' ' && rest[j] != ',' {
			j++
		}
		word := strings.ToLower(rest[:j])
		u, ok := intervalUnits[word]
		if !ok && len(word) > 1 && word[len(word)-1] == 's' {
			u, ok = intervalUnits[word[:len(word)-1]] // plurals
		}
		if !ok {
			return "", false
		}
		sb.WriteString(num + u)
		rest = strings.TrimLeft(rest[j:], " ,")
	}
	return sb.String(), true
}

// foldIntervals replaces each INTERVAL 'text' pair of toks by one
// duration token at the keyword, and so each 'text'::INTERVAL and
// CAST('text' AS INTERVAL) at the text.
func foldIntervals(src string, toks []token) ([]token, error) {
	out := toks[:0]
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		at := func(k int) token { return toks[min(i+k, len(toks)-1)] }
		castText := t.kind == tString && isPunct(at(1), "::") && isKw(at(2), "interval") // 'text'::INTERVAL
		castCall := isCast(t) && isPunct(at(1), "(") && at(2).kind == tString && isKw(at(3), "as") && isKw(at(4), "interval") && isPunct(at(5), ")")
		if castText || castCall {
			s := t
			if castCall {
				s = at(2)
			}
			text, ok := intervalText(s.text)
			if !ok {
				return nil, errAt(src, s.pos, "bad interval %q (want e.g. '1 day', '90 minutes', '1 hour 30 minutes' or '1h30m')", s.text)
			}
			out = append(out, token{kind: tDuration, text: text, pos: t.pos})
			i += map[bool]int{true: 2, false: 5}[castText]
			continue
		}
		if n, u := toks[min(i+1, len(toks)-1)], toks[min(i+2, len(toks)-1)]; isKw(t, "interval") && (n.kind == tInt || n.kind == tFloat || n.kind == tString) && u.kind == tIdent && isIntervalUnit(u.text) {
			text, ok := intervalText(n.text + " " + u.text)
			if !ok {
				return nil, errAt(src, n.pos, "bad interval %s %s (want e.g. INTERVAL 1 HOUR or INTERVAL '90' MINUTES)", n.text, u.text)
			}
			out = append(out, token{kind: tDuration, text: text, pos: t.pos})
			i += 2
			continue
		}
		if isKw(t, "interval") && i+1 < len(toks) && toks[i+1].kind == tString {
			s := toks[i+1]
			text, ok := intervalText(s.text)
			if !ok {
				return nil, errAt(src, s.pos, "bad interval %q (want e.g. '1 day', '90 minutes', '1 hour 30 minutes' or '1h30m')", s.text)
			}
			out = append(out, token{kind: tDuration, text: text, pos: t.pos})
			i++
			continue
		}
		out = append(out, t)
	}
	return out, nil
}
