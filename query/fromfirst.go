package query

import "slices"

// DuckDB's FROM-first statements: FROM src [WHERE ...] is SELECT * FROM
// src [WHERE ...], and FROM src SELECT items [WHERE ...] is SELECT items
// FROM src [WHERE ...], as a statement (after EXPLAIN [ANALYZE]) or in
// parentheses (a subquery, a WITH's relation). The tokens are put in
// SELECT's order before the parser reads them; each keeps its position,
// so errors point into the text as written.

// fromFirst returns toks with each FROM-first statement in SELECT's
// order.
func fromFirst(toks []token) []token {
	start := 0
	if isKw(toks[start], "explain") {
		start++
		if isKw(toks[start], "analyze") {
			start++
		}
	}
	var out []token
	// From the last FROM on, so that a statement nested in another is in
	// SELECT's order before the one around it is reordered.
	for k := len(toks) - 1; k >= start; k-- {
		if !isKw(toks[k], "from") || k != start && !statementAt(toks, k) {
			continue
		}
		if out == nil {
			out = append(make([]token, 0, len(toks)+2), toks...)
		}
		out = reorderFrom(out, k)
	}
	if out == nil {
		return toks
	}
	return out
}

// statementAt reports whether a statement may start at toks[k] (k > 0):
// after "(", after a WITH list (name AS (...)) or a set operation (UNION
// [ALL], ...), after CREATE TABLE name AS or INSERT INTO name.
func statementAt(toks []token, k int) bool {
	prev := toks[k-1]
	switch {
	case isPunct(prev, "("):
		return true
	case isKw(toks[0], "create") && isKw(prev, "as"):
		return slices.IndexFunc(toks, func(t token) bool { return isKw(t, "as") }) == k-1
	case isKw(toks[0], "insert") && isKw(toks[1], "into") && k > 2:
		for _, t := range toks[2:k] { // the stream's name, which may be several tokens (cpu-usage.v2)
			if t.kind == tPunct && t.text != "-" && t.text != "." || t.kind == tIdent && statementWord(t) {
				return false
			}
		}
		return true
	case isKw(prev, "union") || isKw(prev, "intersect") || isKw(prev, "except"):
		return true
	case isKw(prev, "all") || isKw(prev, "distinct"):
		return k >= 2 && (isKw(toks[k-2], "union") || isKw(toks[k-2], "intersect") || isKw(toks[k-2], "except"))
	case isPunct(prev, ")"):
		depth := 0
		for o := k - 1; o > 0; o-- {
			switch {
			case isPunct(toks[o], ")"):
				depth++
			case isPunct(toks[o], "("):
				if depth--; depth == 0 {
					return isKw(toks[o-1], "as") || isKw(toks[o-1], "materialized")
				}
			}
		}
	}
	return false
}

// reorderFrom puts the FROM-first statement at toks[k] (FROM) in SELECT's
// order, up to the end or the ")" that closes it.
func reorderFrom(toks []token, k int) []token {
	from := toks[k]
	end := clauseAfter(toks, k+1, func(token) bool { return false })
	sel := clauseAfter(toks[:end+1], k+1, func(t token) bool { return isKw(t, "select") || endsSelectList(t) })
	if sel >= end || !isKw(toks[sel], "select") { // FROM src ...: SELECT * FROM src ...
		star := []token{{kind: tIdent, text: "select", pos: from.pos}, {kind: tPunct, text: "*", pos: from.pos}}
		return append(toks[:k], append(star, toks[k:]...)...)
	}
	items := clauseAfter(toks[:end+1], sel+1, endsSelectList)
	moved := append(append(append([]token{}, toks[sel:items]...), toks[k:sel]...), toks[items:end]...)
	copy(toks[k:end], moved)
	return toks
}

// clauseAfter returns the index of the first token from i on, outside
// parentheses, that stop holds for, else of the ")" closing a group i is
// in, else of the end.
func clauseAfter(toks []token, i int, stop func(token) bool) int {
	depth := 0
	for ; i < len(toks) && toks[i].kind != tEOF; i++ {
		switch t := toks[i]; {
		case isPunct(t, "("):
			depth++
		case isPunct(t, ")"):
			if depth--; depth < 0 {
				return i
			}
		case depth == 0 && stop(t):
			return i
		}
	}
	return min(i, len(toks)-1)
}

// statementWord reports whether t is a word a statement or clause
// starts with.
func statementWord(t token) bool {
	return slices.ContainsFunc(statementWords, func(w string) bool { return isKw(t, w) }) || isKw(t, "from")
}
