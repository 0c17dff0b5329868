// Package jsontext writes JSON text that both the query engine (its JSON
// functions) and the exports produce.
package jsontext

import (
	"strconv"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string (RFC 8259): '"' and '\' and
// the control characters escaped (\n \r \t \b \f by name, the others as
// \u00XX), U+2028 and U+2029 escaped (JavaScript reads them as line
// ends), each invalid UTF-8 byte written as \ufffd so that the text is
// always valid JSON; everything else as it is.
func AppendString[S ~string | ~[]byte](dst []byte, s S) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			switch {
			case b == '"' || b == '\\':
				dst = append(dst, '\\', b)
			case b == '\n':
				dst = append(dst, '\\', 'n')
			case b == '\r':
				dst = append(dst, '\\', 'r')
			case b == '\t':
				dst = append(dst, '\\', 't')
			case b == '\b':
				dst = append(dst, '\\', 'b')
			case b == '\f':
				dst = append(dst, '\\', 'f')
			case b < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xf])
			default:
				dst = append(dst, b)
			}
			i++
			continue
		}
		r, n := decodeRune(s, i)
		switch {
		case r == utf8.RuneError && n == 1:
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, `\u202`...)
			dst = strconv.AppendInt(dst, int64(r&0xf), 16)
		default:
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return append(dst, '"')
}

// decodeRune decodes the rune of s at i, without copying s.
func decodeRune[S ~string | ~[]byte](s S, i int) (rune, int) {
	switch v := any(s).(type) {
	case string:
		return utf8.DecodeRuneInString(v[i:])
	case []byte:
		return utf8.DecodeRune(v[i:])
	}
	// A named type of either: decode a copy of at most a rune's bytes.
	var buf [utf8.UTFMax]byte
	n := copy(buf[:], s[i:min(i+utf8.UTFMax, len(s))])
	return utf8.DecodeRune(buf[:n])
}
