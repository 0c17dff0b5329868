package main

import (
	"context"
	"fmt"
	"strings"
	"unicode"
)

// COPY, as DuckDB writes an export and reads a file, is .export and
// .import in SQL's words:
//
//	COPY (SELECT ...) TO 'file.parquet' [(FORMAT parquet)]
//	COPY stream TO 'file.csv'
//	COPY stream FROM 'file.csv' [(FORMAT csv)]
//
// The format is FORMAT's, else the file's extension's (an import's is
// guessed from its bytes too, as tsq import guesses it).

// copyStmt is a COPY statement parsed: the statement whose result is
// written, the file and the format named (empty: by the extension); with
// from, the stream the file is imported into.
type copyStmt struct {
	stmt, path, format string
	from               string
}

// isCopy reports whether text is a COPY statement.
func isCopy(text string) bool {
	w := strings.Fields(text)
	return len(w) > 0 && strings.EqualFold(w[0], "copy")
}

// parseCopy parses a COPY statement.
func parseCopy(text string) (copyStmt, error) {
	var c copyStmt
	rest := strings.TrimSpace(text)
	rest = strings.TrimSuffix(strings.TrimSpace(rest[len("copy"):]), ";")
	rest = strings.TrimSpace(rest)
	switch {
	case strings.HasPrefix(rest, "("):
		end := closingParen(rest)
		if end < 0 {
			return c, fmt.Errorf("COPY (...): no closing parenthesis")
		}
		c.stmt, rest = strings.TrimSpace(rest[1:end]), strings.TrimSpace(rest[end+1:])
	default:
		i := strings.IndexFunc(rest, unicode.IsSpace)
		if i < 0 {
			return c, fmt.Errorf("COPY wants (SELECT ...) or a stream, then TO 'file'")
		}
		c.stmt, rest = "SELECT * FROM "+rest[:i], strings.TrimSpace(rest[i:])
		if len(rest) > 4 && strings.EqualFold(rest[:4], "from") && unicode.IsSpace(rune(rest[4])) {
			c.stmt, c.from, rest = "", strings.ToLower(strings.TrimPrefix(c.stmt, "SELECT * FROM ")), strings.TrimSpace(rest[4:])
		}
	}
	switch {
	case c.from != "":
	case len(rest) < 2 || !strings.EqualFold(rest[:2], "to"):
		return c, fmt.Errorf("COPY: expected TO 'file' after the statement (or FROM 'file' after a stream), found %q", rest)
	default:
		rest = strings.TrimSpace(rest[2:])
	}
	if !strings.HasPrefix(rest, "'") {
		if c.from != "" {
			return c, fmt.Errorf("COPY ... FROM wants the file in single quotes: FROM 'data.csv'")
		}
		return c, fmt.Errorf("COPY ... TO wants the file in single quotes: TO 'out.parquet'")
	}
	end := strings.Index(rest[1:], "'")
	if end < 0 {
		return c, fmt.Errorf("COPY: the file's quote is not closed")
	}
	c.path, rest = rest[1:end+1], strings.TrimSpace(rest[end+2:])
	if rest == "" {
		return c, nil
	}
	// (FORMAT name[, other options]): only FORMAT means anything here.
	if !strings.HasPrefix(rest, "(") || !strings.HasSuffix(rest, ")") {
		return c, fmt.Errorf("COPY: expected (FORMAT name) after the file, found %q", rest)
	}
	for _, opt := range strings.Split(rest[1:len(rest)-1], ",") {
		w := strings.Fields(opt)
		if len(w) == 2 && strings.EqualFold(w[0], "format") {
			c.format = strings.Trim(w[1], "'")
			continue
		}
		if c.from != "" {
			return c, fmt.Errorf("COPY ... FROM: option %q is not supported (FORMAT jsonl | json | csv | lp | prom | arrow | parquet)", strings.TrimSpace(opt))
		}
		return c, fmt.Errorf("COPY: option %q is not supported (FORMAT arrow | arrows | parquet | csv | jsonl)", strings.TrimSpace(opt))
	}
	return c, nil
}

// closingParen returns the index of the parenthesis closing s[0], -1 if
// none (parentheses inside quotes do not count).
func closingParen(s string) int {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '\'' || ch == '"' || ch == '`':
			quote = ch
		case ch == '(':
			depth++
		case ch == ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// copyTo runs a COPY statement: its result written to its file.
func (s *session) copyTo(ctx context.Context, text string) error {
	c, err := parseCopy(text)
	if err != nil {
		return err
	}
	path := s.e.expandHome(c.path)
	if c.from != "" {
		return s.copyFrom(ctx, c.from, path, c.format)
	}
	f, err := exportFormatOf(path)
	if c.format != "" {
		f, err = parseExportFormat(c.format)
	}
	if err != nil {
		return err
	}
	return s.export(ctx, c.stmt, path, f)
}
