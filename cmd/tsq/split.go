package main

import "strings"

// splitter cuts text into statements at semicolons that are outside
// quotes ('…', "…", `…`) and outside -- comments. Lines are fed as they
// come; a statement may span lines.
type splitter struct {
	buf   strings.Builder
	quote byte // the open quote, 0 when none
	// comment is set inside a -- comment, which ends at a newline.
	comment bool
}

// feed adds s and returns the statements it completes, without their
// semicolons, trimmed; empty statements are dropped.
func (sp *splitter) feed(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case sp.comment:
			if c == '\n' {
				sp.comment = false
				sp.buf.WriteByte(c)
			}
			continue
		case sp.quote != 0:
			if c == sp.quote {
				sp.quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			sp.quote = c
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			sp.comment = true
			continue
		case c == ';':
			if st := strings.TrimSpace(sp.buf.String()); st != "" {
				out = append(out, st)
			}
			sp.buf.Reset()
			continue
		}
		sp.buf.WriteByte(c)
	}
	return out
}

// pending returns the text of an unfinished statement, trimmed.
func (sp *splitter) pending() string { return strings.TrimSpace(sp.buf.String()) }

// complete reports whether text ends a statement: a semicolon outside
// quotes and comments with only space after it.
func complete(text string) bool {
	var sp splitter
	st := sp.feed(text)
	return len(st) > 0 && sp.pending() == "" && sp.quote == 0
}
