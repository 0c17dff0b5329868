package query

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"math/bits"
)

// String similarity, as DuckDB computes it, on the strings' bytes:
// levenshtein (insertions, deletions, substitutions), damerau_levenshtein
// (and transpositions of adjacent bytes, unrestricted), hamming (equal
// lengths: NULL otherwise, where DuckDB fails the query), jaccard (of the
// sets of bytes: NULL for an empty string), jaro_similarity and
// jaro_winkler_similarity (0 for an empty string); sha256 in hex. And
// integer helpers: factorial (NULL below 0 or past int64, at 21),
// bit_count, xor, and nextafter of floats.

// similarityValue computes one of the functions above of v.
func similarityValue(fn string, args []*arithPlan, v []value) (value, bool) {
	switch fn {
	case "levenshtein":
		return value{i: int64(levenshtein(v[0].s, v[1].s))}, true
	case "damerau_levenshtein":
		return value{i: int64(damerauLevenshtein(v[0].s, v[1].s))}, true
	case "hamming":
		a, b := v[0].s, v[1].s
		if len(a) != len(b) {
			return nullValue, false
		}
		d := 0
		for i := range len(a) {
			if a[i] != b[i] {
				d++
			}
		}
		return value{i: int64(d)}, true
	case "jaccard":
		if v[0].s == "" || v[1].s == "" {
			return nullValue, false
		}
		var x, y [4]uint64
		for i := range len(v[0].s) {
			c := v[0].s[i]
			x[c>>6] |= 1 << (c & 63)
		}
		for i := range len(v[1].s) {
			c := v[1].s[i]
			y[c>>6] |= 1 << (c & 63)
		}
		inter, union := 0, 0
		for k := range x {
			inter += bits.OnesCount64(x[k] & y[k])
			union += bits.OnesCount64(x[k] | y[k])
		}
		return fv(float64(inter) / float64(union)), true
	case "jaro_similarity":
		return fv(jaro(v[0].s, v[1].s)), true
	case "jaro_winkler_similarity":
		return fv(jaroWinkler(v[0].s, v[1].s)), true
	case "sha256":
		sum := sha256.Sum256([]byte(v[0].s))
		return value{s: hex.EncodeToString(sum[:])}, true
	case "factorial":
		n := v[0].i
		if n < 0 || n > 20 {
			return nullValue, false
		}
		f := int64(1)
		for k := int64(2); k <= n; k++ {
			f *= k
		}
		return value{i: f}, true
	case "bit_count":
		return value{i: int64(bits.OnesCount64(uint64(v[0].i)))}, true
	case "xor":
		return value{i: v[0].i ^ v[1].i}, true
	case "nextafter":
		return fv(math.Nextafter(num(args[0].kind, v[0]), num(args[1].kind, v[1]))), true
	}
	return value{}, false
}

// levenshtein is the edit distance of a and b in bytes.
func levenshtein(a, b string) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		diag := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			up := row[j]
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			row[j] = min(row[j]+1, row[j-1]+1, diag+cost)
			diag = up
		}
	}
	return row[len(b)]
}

// damerauLevenshtein is the edit distance of a and b in bytes with
// transpositions of adjacent bytes, unrestricted (Lowrance and Wagner):
// a substring may be edited after a transposition ('ca' to 'abc' is 2).
func damerauLevenshtein(a, b string) int {
	n, m := len(a), len(b)
	inf := n + m
	// d[i+1][j+1] is the distance of a[:i] and b[:j]; row and column 0
	// hold inf.
	w := m + 2
	d := make([]int, (n+2)*w)
	d[0] = inf
	for i := 0; i <= n; i++ {
		d[(i+1)*w] = inf
		d[(i+1)*w+1] = i
	}
	for j := 0; j <= m; j++ {
		d[j+1] = inf
		d[w+j+1] = j
	}
	var last [256]int // the last row of a where each byte was seen
	for i := 1; i <= n; i++ {
		db := 0
		for j := 1; j <= m; j++ {
			i1, j1 := last[b[j-1]], db
			cost := 1
			if a[i-1] == b[j-1] {
				cost, db = 0, j
			}
			d[(i+1)*w+j+1] = min(d[i*w+j]+cost, d[(i+1)*w+j]+1, d[i*w+j+1]+1,
				d[i1*w+j1]+(i-i1-1)+1+(j-j1-1))
		}
		last[a[i-1]] = i
	}
	return d[(n+1)*w+m+1]
}

// jaro is the Jaro similarity of a and b in bytes: 0 when either is
// empty or nothing matches.
func jaro(a, b string) float64 {
	if a == "" || b == "" {
		return 0
	}
	if a == b {
		return 1
	}
	window := max(max(len(a), len(b))/2-1, 0)
	am, bm := make([]bool, len(a)), make([]bool, len(b))
	matches := 0
	for i := range len(a) {
		for j := max(0, i-window); j < min(len(b), i+window+1); j++ {
			if !bm[j] && a[i] == b[j] {
				am[i], bm[j] = true, true
				matches++
				break
			}
		}
	}
	if matches == 0 {
		return 0
	}
	half, k := 0, 0
	for i := range len(a) {
		if !am[i] {
			continue
		}
		for !bm[k] {
			k++
		}
		if a[i] != b[k] {
			half++
		}
		k++
	}
	m := float64(matches)
	return (m/float64(len(a)) + m/float64(len(b)) + (m-float64(half/2))/m) / 3
}

// jaroWinkler is jaro raised for a common prefix of up to 4 bytes,
// scaled by 0.1, when the similarity is above 0.7.
func jaroWinkler(a, b string) float64 {
	j := jaro(a, b)
	if j <= 0.7 {
		return j
	}
	l := 0
	for l < min(4, len(a), len(b)) && a[l] == b[l] {
		l++
	}
	return j + float64(l)*0.1*(1-j)
}
