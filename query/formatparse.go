package query

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Parsing the formats of printf and format (format.go): C's directives
// and {fmt}'s replacement fields into fmtPieces.

// parsePrintf parses C's %[n$][flags][width|*][.precision][length]verb.
func (fp *fmtPlan) parsePrintf(f string) error {
	next := 0
	for i := 0; i < len(f); {
		j := strings.IndexByte(f[i:], '%')
		if j < 0 {
			fp.text(f[i:])
			break
		}
		fp.text(f[i : i+j])
		i += j
		at := i
		i++
		if i < len(f) && f[i] == '%' {
			fp.text("%")
			i++
			continue
		}
		p := fmtPiece{arg: -1, widthArg: -1, prec: -1, fill: ' ', at: at}
		if k := digitsEnd(f, i); k > i && k < len(f) && f[k] == '$' { // %2$s
			n, _ := strconv.Atoi(f[i:k])
			if n < 1 {
				return fmt.Errorf("argument number %s at byte %d: they count from 1", f[i:k], at+1)
			}
			p.arg, i = n-1, k+1
		}
	flags:
		for ; i < len(f); i++ {
			switch f[i] {
			case '-':
				p.left = true
			case '+':
				p.sign = '+'
			case ' ':
				if p.sign == 0 {
					p.sign = ' '
				}
			case '0':
				p.zero = true
			case '#':
				p.alt = true
			case ',':
				p.group = true
			default:
				break flags
			}
		}
		if i < len(f) && f[i] == '*' {
			p.widthArg, next, i = next, next+1, i+1
		} else {
			k := digitsEnd(f, i)
			p.width = atoiCapped(f[i:k])
			i = k
		}
		if i < len(f) && f[i] == '.' {
			k := digitsEnd(f, i+1)
			p.prec = atoiCapped(f[i+1 : k])
			i = k
		}
		for i < len(f) && strings.IndexByte("hlLjzt", f[i]) >= 0 { // lengths: one int64 whatever they say
			i++
		}
		if i == len(f) {
			return fmt.Errorf("the format ends inside the directive at byte %d", at+1)
		}
		p.verb = f[i]
		if strings.IndexByte("diuxXobcsfFeEgGaA", p.verb) < 0 {
			return fmt.Errorf("unknown directive %%%c at byte %d (want one of d i u x X o b c s f F e E g G a A)", p.verb, i+1)
		}
		i++
		if p.arg < 0 {
			p.arg, next = next, next+1
		}
		fp.pieces = append(fp.pieces, p)
	}
	return nil
}

// atoiCapped reads digits, at most maxFmtWidth+1 (refused later); 0
// for none.
func atoiCapped(d string) int {
	n := 0
	for _, c := range []byte(d) {
		n = min(n*10+int(c-'0'), maxFmtWidth+1)
	}
	return n
}

func digitsEnd(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// parseFmt parses {fmt}'s fields: {[n][:spec]}, {{ and }}.
func (fp *fmtPlan) parseFmt(f string) error {
	next, auto, manual := 0, false, false
	var sb strings.Builder
	for i := 0; i < len(f); i++ {
		c := f[i]
		switch {
		case c == '}' && i+1 < len(f) && f[i+1] == '}', c == '{' && i+1 < len(f) && f[i+1] == '{':
			sb.WriteByte(c)
			i++
			continue
		case c == '}':
			return fmt.Errorf("a '}' without its '{' at byte %d (write }} for a brace)", i+1)
		case c != '{':
			sb.WriteByte(c)
			continue
		}
		fp.text(sb.String())
		sb.Reset()
		end := strings.IndexByte(f[i:], '}')
		if end < 0 {
			return fmt.Errorf("a '{' without its '}' at byte %d (write {{ for a brace)", i+1)
		}
		field := f[i+1 : i+end]
		p := fmtPiece{widthArg: -1, prec: -1, fill: ' ', at: i}
		id, spec, hasSpec := strings.Cut(field, ":")
		if id == "" {
			p.arg, next, auto = next, next+1, true
		} else {
			n, err := strconv.Atoi(id)
			if err != nil || n < 0 || strings.IndexFunc(id, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
				return fmt.Errorf("field {%s} at byte %d: want {}, {n} or {:spec}", field, i+1)
			}
			p.arg, manual = n, true
		}
		if auto && manual {
			return fmt.Errorf("field {%s} at byte %d: {} and {n} cannot mix in one format", field, i+1)
		}
		if hasSpec {
			if err := p.parseSpec(spec); err != nil {
				return fmt.Errorf("field {%s} at byte %d: %w", field, i+1, err)
			}
		}
		fp.pieces = append(fp.pieces, p)
		i += end
	}
	fp.text(sb.String())
	return nil
}

// parseSpec parses [,][[fill]align][sign][#][0][width][.precision][type].
func (p *fmtPiece) parseSpec(s string) error {
	if strings.HasPrefix(s, ",") {
		p.group, s = true, s[1:]
	}
	if r, n := utf8.DecodeRuneInString(s); n < len(s) && strings.IndexByte("<>^", s[n]) >= 0 {
		p.fill, p.align, s = r, s[n], s[n+1:]
	} else if s != "" && strings.IndexByte("<>^", s[0]) >= 0 {
		p.align, s = s[0], s[1:]
	}
	if s != "" && (s[0] == '+' || s[0] == ' ' || s[0] == '-') {
		if s[0] != '-' {
			p.sign = s[0]
		}
		s = s[1:]
	}
	if strings.HasPrefix(s, "#") {
		p.alt, s = true, s[1:]
	}
	if strings.HasPrefix(s, "0") {
		p.zero, s = true, s[1:]
	}
	k := digitsEnd(s, 0)
	p.width = atoiCapped(s[:k])
	s = s[k:]
	if strings.HasPrefix(s, ".") {
		k := digitsEnd(s, 1)
		if k == 1 {
			return fmt.Errorf("a '.' without the precision's digits")
		}
		p.prec = atoiCapped(s[1:k])
		s = s[k:]
	}
	switch {
	case len(s) == 1 && strings.IndexByte("dxXobBsfFeEgG", s[0]) >= 0:
		p.verb = s[0]
	case s != "":
		return fmt.Errorf("unknown type %q (want one of d x X o b B s f F e E g G)", s)
	}
	return nil
}
