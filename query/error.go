package query

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Error is a query error located in the query text: a syntax error, an
// unknown stream, column or function, a type mismatch or a bad literal.
// Pos is the byte offset of the offending token, Line and Col (1-based,
// Col counted in runes) the same place for people.
type Error struct {
	Pos, Line, Col int
	Msg            string

	err error // the cause, if another error (an unknown stream)
}

// Unwrap returns the error that caused this one, if any.
func (e *Error) Unwrap() error { return e.err }

func (e *Error) Error() string {
	return fmt.Sprintf("query: line %d col %d: %s", e.Line, e.Col, e.Msg)
}

// Caret returns the source line holding the error and a caret under its
// column, for display under the query text.
func (e *Error) Caret(src string) string {
	pos := min(max(e.Pos, 0), len(src))
	start := strings.LastIndexByte(src[:pos], '\n') + 1
	end := strings.IndexByte(src[pos:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += pos
	}
	line := strings.ReplaceAll(src[start:end], "\t", " ")
	return line + "\n" + strings.Repeat(" ", utf8.RuneCountInString(src[start:pos])) + "^"
}

// errAt builds an Error at byte offset pos of src.
func errAt(src string, pos int, format string, args ...any) *Error {
	pos = min(max(pos, 0), len(src))
	line := 1 + strings.Count(src[:pos], "\n")
	start := strings.LastIndexByte(src[:pos], '\n') + 1
	return &Error{Pos: pos, Line: line, Col: 1 + utf8.RuneCountInString(src[start:pos]), Msg: fmt.Sprintf(format, args...)}
}

// ErrorAt returns an Error at byte offset pos of src wrapping cause (nil:
// none), for a fault of a statement found outside the parser (a stream
// that exists, one not found).
func ErrorAt(src string, pos int, cause error, format string, args ...any) *Error {
	e := errAt(src, pos, format, args...)
	e.err = cause
	return e
}
