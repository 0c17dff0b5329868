package query

import (
	"regexp"
	"strings"
)

// Regular expressions on text: regexp_extract(s, pattern[, group]) is
// the group (0: the whole match) of the first match, "" when there is
// none; regexp_replace(s, pattern, replacement[, flags]) replaces the
// first match, or every one with flag 'g' ('i' ignores case), \1 in
// the replacement standing for the first group, as in DuckDB. Patterns
// are RE2 (Go's regexp, DuckDB's too) and must be string literals:
// they compile once, when the query is planned.

var regexpFuncs = map[string]bool{"regexp_extract": true, "regexp_replace": true}

// compileRegexp checks and compiles a regexp function's literal
// arguments: the pattern (with regexp_replace's flags) into args[1].re,
// the replacement into Go's syntax.
func (p *plan) compileRegexp(a *Arith, ap *arithPlan) error {
	lit := func(i int) (string, error) {
		if x := ap.args[i]; x.lit == nil || x.lit.null {
			return "", p.errAt(a.Args[i].Pos, "%s() wants a string literal here, not %s: it is compiled once per query", a.Func, a.Args[i].String())
		}
		return ap.args[i].lit.s, nil
	}
	pattern, err := lit(1)
	if err != nil {
		return err
	}
	if a.Func == "regexp_replace" {
		if len(ap.args) > 3 {
			flags, err := lit(3)
			if err != nil {
				return err
			}
			for _, f := range flags {
				switch f {
				case 'g':
				case 'i':
					pattern = "(?i)" + pattern
				default:
					return p.errAt(a.Args[3].Pos, "regexp_replace(): unknown flag %q in %s (flags: g, every match; i, ignore case)", f, a.Args[3].String())
				}
			}
		}
		repl, err := lit(2)
		if err != nil {
			return err
		}
		ap.args[2].lit = &value{s: goReplacement(repl)}
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return p.errAt(a.Args[1].Pos, "%s(): bad regular expression %s: %v", a.Func, a.Args[1].String(), err)
	}
	ap.args[1].re = re
	if a.Func == "regexp_extract" && len(ap.args) > 2 && ap.args[2].lit != nil {
		if g := ap.args[2].lit.i; g < 0 || g > int64(re.NumSubexp()) {
			return p.errAt(a.Args[2].Pos, "regexp_extract(): group %d, but %s has %d", g, a.Args[1].String(), re.NumSubexp())
		}
	}
	return nil
}

// goReplacement turns a replacement with \1 backreferences (DuckDB's,
// RE2's) into Go's ${1}; a $ stays a $.
func goReplacement(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '$':
			sb.WriteString("$$")
		case c == '\\' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			sb.WriteString("${" + s[i+1:i+2] + "}")
			i++
		case c == '\\' && i+1 < len(s) && s[i+1] == '\\':
			sb.WriteByte('\\')
			i++
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// regexpValue computes a regexp function of the values v.
func regexpValue(fn string, args []*arithPlan, v []value) (value, bool) {
	re := args[1].re
	if fn == "regexp_extract" {
		g := int64(0)
		if len(v) > 2 {
			g = v[2].i
		}
		if g < 0 || g > int64(re.NumSubexp()) {
			return nullValue, false
		}
		m := re.FindStringSubmatchIndex(v[0].s)
		if m == nil || m[2*g] < 0 {
			return value{s: ""}, true
		}
		return value{s: v[0].s[m[2*g]:m[2*g+1]]}, true
	}
	repl := v[2].s
	if len(v) > 3 && strings.Contains(v[3].s, "g") {
		return value{s: re.ReplaceAllString(v[0].s, repl)}, true
	}
	m := re.FindStringSubmatchIndex(v[0].s)
	if m == nil {
		return v[0], true
	}
	dst := re.ExpandString(nil, repl, v[0].s, m)
	return value{s: v[0].s[:m[0]] + string(dst) + v[0].s[m[1]:]}, true
}
