package query

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Arrow's utf8 arrays must hold valid UTF-8 (DuckDB and pyarrow refuse
// a file with one invalid string), while the store keeps the bytes it
// was given. Text going into an utf8 array passes through validUTF8 or
// validUTF8String: runs of invalid bytes become U+FFFD, as the JSON export
// writes them. Valid text, nearly all of it, is not copied.

// validUTF8 returns p, or a copy with each run of invalid bytes replaced by U+FFFD.
func validUTF8(p []byte) []byte {
	if utf8.Valid(p) {
		return p
	}
	return bytes.ToValidUTF8(p, []byte(string(utf8.RuneError)))
}

// validUTF8String is validUTF8 for a string.
func validUTF8String(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, string(utf8.RuneError))
}
