package query

import (
	"math/rand/v2"
	"testing"
)

// TestSimilarity: the string similarity functions, sha256 and the
// integer helpers give DuckDB's answers (taken from DuckDB 1.5), NULL
// where DuckDB fails the query; damerau_levenshtein is the unrestricted
// distance: at most levenshtein and at least half of it, and for short
// words the fewest insertions, deletions, substitutions and swaps of
// adjacent bytes, found by search.
func TestSimilarity(t *testing.T) {
	src, _ := testSource(t, 10, 10)
	open := openOnly(src)
	for _, c := range []struct {
		q    string
		want []any
	}{
		{"SELECT levenshtein('kitten', 'sitting'), damerau_levenshtein('ca', 'abc'), damerau_levenshtein('hello', 'ehllo'), hamming('karolin', 'kathrin')",
			[]any{int64(3), int64(2), int64(1), int64(3)}},
		{"SELECT jaccard('duck', 'luck'), jaro_similarity('duck', 'duckdb'), jaro_winkler_similarity('duck', 'duckdb')",
			[]any{0.6, 0.8888888888888888, 0.9333333333333333}},
		{"SELECT jaccard('aab', 'ab'), jaccard('abc', 'xyz'), jaro_similarity('martha', 'marhta'), jaro_winkler_similarity('martha', 'marhta'), jaro_winkler_similarity('dixon', 'dicksonx')",
			[]any{1.0, 0.0, 0.9444444444444445, 0.9611111111111111, 0.8133333333333332}},
		{"SELECT levenshtein('héllo', 'hello'), levenshtein('', ''), levenshtein('', 'abc'), damerau_levenshtein('', 'ab'), jaro_similarity('', ''), jaro_winkler_similarity('abc', ''), jaro_winkler_similarity('ab', 'abc'), jaro_similarity('a', 'a'), jaccard('a', 'A')",
			[]any{int64(2), int64(0), int64(3), int64(2), 0.0, 0.0, 0.9111111111111111, 1.0, 0.0}},
		{"SELECT hamming('ab', 'abc'), jaccard('ab', ''), factorial(-1), factorial(21), levenshtein(NULL, 'a')", []any{nil, nil, nil, nil, nil}},
		{"SELECT sha256('abc'), factorial(0), factorial(20), bit_count(7), bit_count(-1), xor(12, 10), nextafter(1, 2)",
			[]any{"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", int64(1), int64(2432902008176640000), int64(3), int64(64), int64(6), 1.0000000000000002}},
	} {
		got := mustRun(t, open, c.q+" FROM m LIMIT 1")
		for i := range c.want {
			if !near(got[0][i], c.want[i]) {
				t.Errorf("%s: column %d = %v, want %v", c.q, i, got[0][i], c.want[i])
			}
		}
	}
	rng := rand.New(rand.NewPCG(4, 4))
	word := func() string {
		b := make([]byte, rng.IntN(9))
		for i := range b {
			b[i] = "abcd"[rng.IntN(4)]
		}
		return string(b)
	}
	for range 3000 {
		a, b := word(), word()
		if rng.IntN(2) == 0 { // short: editsBFS checks them
			a, b = a[:min(len(a), 4)], b[:min(len(b), 4)]
		}
		l, d := levenshtein(a, b), damerauLevenshtein(a, b)
		if d > l || 2*d < l || levenshtein(a, b) != levenshtein(b, a) || d != damerauLevenshtein(b, a) {
			t.Fatalf("%q, %q: levenshtein %d, damerau_levenshtein %d", a, b, l, d)
		}
		if len(a) <= 4 && len(b) <= 3 {
			if want := editsBFS(a, b); d != want {
				t.Fatalf("%q, %q: damerau_levenshtein %d, want %d (the fewest edits)", a, b, d, want)
			}
		}
		if j := jaroWinkler(a, b); j < jaro(a, b) || j > 1 || (a == b && a != "" && j != 1) {
			t.Fatalf("%q, %q: jaro %v, jaro_winkler %v", a, b, jaro(a, b), j)
		}
	}
	wantErrors(t, open, []errCase{
		{"SELECT levenshtein(v, 'a') FROM m", "levenshtein() wants text", "v,"},
		{"SELECT factorial(v) FROM m", "factorial() wants an integer", "v)"},
	})
}

// editsBFS is the fewest insertions, deletions, substitutions and swaps
// of adjacent bytes that turn a into b, by breadth-first search over
// the strings of the bytes a and b hold.
func editsBFS(a, b string) int {
	alphabet := map[byte]bool{}
	for i := range len(a) {
		alphabet[a[i]] = true
	}
	for i := range len(b) {
		alphabet[b[i]] = true
	}
	seen := map[string]bool{a: true}
	level := []string{a}
	for d := 0; ; d++ {
		var next []string
		for _, s := range level {
			if s == b {
				return d
			}
			add := func(x string) {
				if !seen[x] && len(x) <= len(a)+len(b) {
					seen[x] = true
					next = append(next, x)
				}
			}
			for i := 0; i <= len(s); i++ {
				for c := range alphabet {
					add(s[:i] + string(c) + s[i:])
					if i < len(s) {
						add(s[:i] + string(c) + s[i+1:])
					}
				}
				if i < len(s) {
					add(s[:i] + s[i+1:])
				}
				if i+1 < len(s) {
					add(s[:i] + string(s[i+1]) + string(s[i]) + s[i+2:])
				}
			}
		}
		level = next
	}
}

// TestTypeof: typeof(x) names x's type as DuckDB does, a constant of
// the query: BIGINT, DOUBLE, VARCHAR (text, series, key), BOOLEAN,
// TIMESTAMP (time, arithmetic on it, typed literals, now(), an
// aggregate of times), "NULL"; it may be grouped by.
func TestTypeof(t *testing.T) {
	src, _ := testSource(t, 300, 50)
	open := openOnly(src)
	got := mustRun(t, open, "SELECT typeof(n), typeof(v), typeof(s), typeof(series), typeof(key), typeof(b), typeof(time), typeof(time + INTERVAL 1 HOUR), "+
		"typeof(TIMESTAMP '2024-01-01'), typeof(now()), typeof('2024-01-01'), typeof(NULL), typeof(n > 1), typeof(n / 2), typeof(n // 2) FROM m LIMIT 1")
	want := []any{"BIGINT", "DOUBLE", "VARCHAR", "VARCHAR", "VARCHAR", "BOOLEAN", "TIMESTAMP", "TIMESTAMP", "TIMESTAMP", "TIMESTAMP", "VARCHAR", `"NULL"`, "BOOLEAN", "DOUBLE", "BIGINT"}
	for i := range want {
		if got[0][i] != want[i] {
			t.Errorf("column %d: %v, want %v", i, got[0][i], want[i])
		}
	}
	got = mustRun(t, open, "SELECT typeof(avg(n)), typeof(count(*)), typeof(max(time)), typeof(n) AS ty, count(*) FROM m GROUP BY ty")
	if len(got) != 1 || got[0][0] != "DOUBLE" || got[0][1] != "BIGINT" || got[0][2] != "TIMESTAMP" || got[0][3] != "BIGINT" || got[0][4] != int64(300) {
		t.Errorf("aggregates: %v", got)
	}
}
