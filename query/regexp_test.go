package query

import (
	"regexp"
	"strings"
	"testing"
)

// TestRegexpFuncs: regexp_extract and regexp_replace on literals and on
// columns (row by row and over a dictionary), against Go's regexp
// applied to the same rows; the backreference syntax, the flags, and
// the errors a pattern or an argument can make.
func TestRegexpFuncs(t *testing.T) {
	src, rows := testSource(t, 500, 50)
	open := openOnly(src)
	got := mustRun(t, open, `SELECT regexp_extract('cpu{host="a",dc="x"}', 'host="(\w+)"', 1), regexp_extract('abc', 'z'), regexp_extract('abc', 'b.'), `+
		`regexp_replace('a-b-c', '-', '+'), regexp_replace('a-b-c', '-', '+', 'g'), regexp_replace('Ab-ab', 'a(b)', '<\1$>', 'gi'), regexp_replace('x', 'x', '\\')`)
	want := []any{"a", "", "bc", "a+b-c", "a+b+c", "<b$>-<b$>", `\`}
	for i, w := range want {
		if got[0][i] != w {
			t.Errorf("item %d = %q, want %q", i+1, got[0][i], w)
		}
	}
	got = mustRun(t, open, `SELECT seq, regexp_extract(series, 'host="(\w+)"', 1), regexp_replace(s, '[ae]', '', 'g'), regexp_replace(concat(key, series), '^k(\d)', 'K\1') FROM m`)
	host := regexp.MustCompile(`host="(\w+)"`)
	checked := 0
	for i, r := range rows {
		g := got[i]
		var h string
		if m := host.FindStringSubmatch(r.series); m != nil {
			h = m[1]
		}
		var s any
		if x, ok := r.f["s"].(string); ok {
			s = strings.NewReplacer("a", "", "e", "").Replace(x)
			checked++
		}
		k := r.key + r.series
		if strings.HasPrefix(k, "k") && len(k) > 1 && k[1] >= '0' && k[1] <= '9' {
			k = "K" + k[1:]
		}
		if g[1] != h || !sameCell(g[2], s) || g[3] != k {
			t.Fatalf("seq %d (%q, %v, %q): %v, want %q %v %q", r.seq, r.series, r.f["s"], r.key, g[1:], h, s, k)
		}
	}
	if checked < 100 {
		t.Fatalf("only %d rows with s", checked)
	}
	// In WHERE and GROUP BY.
	groups := mustRun(t, open, `SELECT regexp_extract(series, 'host="(\w+)"', 1) AS h, count(*) FROM m WHERE regexp_extract(series, '^(\w+)', 1) = 'cpu' GROUP BY h ORDER BY h`)
	counts := map[string]int64{}
	for _, r := range rows {
		if strings.HasPrefix(r.series, "cpu{") {
			counts[host.FindStringSubmatch(r.series)[1]]++
		}
	}
	if len(groups) != 3 || len(groups) != len(counts) {
		t.Fatalf("groups %v, want %v", groups, counts)
	}
	for _, g := range groups {
		if g[1] != counts[g[0].(string)] {
			t.Fatalf("groups %v, want %v", groups, counts)
		}
	}
	wantErrors(t, open, []errCase{
		{"SELECT regexp_extract(s, s) FROM m", "regexp_extract() wants a string literal here, not s", "s)"},
		{"SELECT regexp_extract(s, '(') FROM m", "regexp_extract(): bad regular expression '('", "'('"},
		{"SELECT regexp_extract(s, '(a)', 2) FROM m", "regexp_extract(): group 2, but '(a)' has 1", "2)"},
		{"SELECT regexp_replace(s, 'a', 'b', 'x') FROM m", "unknown flag 'x'", "'x'"},
		{"SELECT regexp_replace(s, 'a') FROM m", "regexp_replace() takes 3 or 4 arguments, not 2", ""},
		{"SELECT regexp_extract(v, 'a') FROM m", "regexp_extract() wants text, v is a float", "v,"},
	})
}
