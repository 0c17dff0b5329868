package query

import (
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Values as other text, DuckDB's answers: hex(x) (to_hex) and bin(x)
// (to_binary) of an integer, its 64 bits unsigned (hex(-1) is sixteen
// Fs), or of text, its bytes (hex('é') is C3A9); to_base64(s) (base64)
// and from_base64(s), NULL for text that is not base64 where DuckDB
// fails; format_bytes(n) (formatReadableSize) in KiB, MiB, ... PiB and
// formatReadableDecimalSize(n) in kB, MB, ... PB, one decimal cut (not
// rounded: 1535 bytes is 1.4 KiB); bit_length(s) and octet_length(s);
// unicode(s) (ord), the first character's code point, -1 for ''.

// encodingFuncs are the functions of this file.
var encodingFuncs = map[string]bool{"hex": true, "bin": true, "to_base64": true, "from_base64": true,
	"format_bytes": true, "formatreadabledecimalsize": true, "bit_length": true, "octet_length": true, "unicode": true}

// encodingValue computes fn of v (of the kinds of args).
func encodingValue(fn string, args []*arithPlan, v []value) (value, bool) {
	x := v[0]
	switch fn {
	case "hex", "bin":
		base := 16
		if fn == "bin" {
			base = 2
		}
		if args[0].kind != kString {
			return value{s: strings.ToUpper(strconv.FormatUint(uint64(x.i), base))}, true
		}
		if base == 16 {
			return value{s: strings.ToUpper(hex.EncodeToString([]byte(x.s)))}, true
		}
		var sb strings.Builder
		for i := range len(x.s) {
			s := strconv.FormatUint(uint64(x.s[i]), 2)
			sb.WriteString(strings.Repeat("0", 8-len(s)) + s)
		}
		return value{s: sb.String()}, true
	case "to_base64":
		return value{s: base64.StdEncoding.EncodeToString([]byte(x.s))}, true
	case "from_base64":
		b, err := base64.StdEncoding.DecodeString(x.s)
		if err != nil {
			return nullValue, false
		}
		return value{s: string(b)}, true
	case "format_bytes":
		return value{s: readableSize(x.i, 1024, []string{"KiB", "MiB", "GiB", "TiB", "PiB"})}, true
	case "formatreadabledecimalsize":
		return value{s: readableSize(x.i, 1000, []string{"kB", "MB", "GB", "TB", "PB"})}, true
	case "bit_length":
		return value{i: 8 * int64(len(x.s))}, true
	case "octet_length":
		return value{i: int64(len(x.s))}, true
	case "unicode":
		if x.s == "" {
			return value{i: -1}, true
		}
		r, _ := utf8.DecodeRuneInString(x.s)
		return value{i: int64(r)}, true
	}
	return nullValue, false
}

// readableSize writes n bytes in the largest unit of units (each base
// times the one before) it reaches, one decimal cut, or as bytes.
func readableSize(n, base int64, units []string) string {
	sign, u := "", uint64(n)
	if n < 0 {
		sign, u = "-", -u
	}
	if u < uint64(base) {
		if u == 1 {
			return sign + "1 byte"
		}
		return sign + strconv.FormatUint(u, 10) + " bytes"
	}
	unit, k := uint64(base), 0
	for k+1 < len(units) && u/uint64(base) >= unit {
		unit *= uint64(base)
		k++
	}
	whole, tenth := u/unit, u%unit*10/unit
	return sign + strconv.FormatUint(whole, 10) + "." + strconv.FormatUint(tenth, 10) + " " + units[k]
}
