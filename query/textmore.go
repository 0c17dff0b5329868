package query

import (
	"crypto/md5"
	"encoding/hex"
	"slices"
	"strings"
)

// concat_ws(sep, x, ...) joins its arguments that are not NULL with sep
// (NULL when sep is), numbers as they print; translate(s, from, to)
// replaces each character of s found in from by the one at its place in
// to, and drops it when to is shorter; md5(s) is the hex MD5 of s's
// bytes: DuckDB's answers.

// moreTextValue computes translate or md5 of v (concat_ws is concat's,
// in textValue).
func moreTextValue(fn string, v []value) (value, bool) {
	switch fn {
	case "translate":
		from, to := []rune(v[1].s), []rune(v[2].s)
		var sb strings.Builder
		for _, r := range v[0].s {
			k := slices.Index(from, r)
			switch {
			case k < 0:
				sb.WriteRune(r)
			case k < len(to):
				sb.WriteRune(to[k])
			}
		}
		return value{s: sb.String()}, true
	case "md5":
		sum := md5.Sum([]byte(v[0].s))
		return value{s: hex.EncodeToString(sum[:])}, true
	}
	return value{}, false
}
