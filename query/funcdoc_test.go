package query

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestFuncDocs: SHOW FUNCTIONS lists every function the parser knows,
// once, and no other; LIKE narrows the list; the shell completes the
// same names.
func TestFuncDocs(t *testing.T) {
	known := map[string]bool{"date_part": true, "extract": true, "now": true, "cast": true, "try_cast": true, "grouping": true}
	for _, m := range []map[string]bool{aggregates, winFuncs, numFuncs, truncFuncs} {
		maps.Copy(known, m)
	}
	for f := range textTests {
		known[f] = true
	}
	for f := range timeFuncs {
		known[f] = true
	}
	for f := range textFuncs {
		if castNames[f] == "" && !strings.HasPrefix(f, "\x00") { // cast_double...: CAST's; a sample's draw, a row value's key: not names to call
			known[f] = true
		}
	}
	for f := range textAliases {
		known[f] = true
	}
	names := Functions()
	if d := slices.Compact(slices.Clone(names)); len(d) != len(names) {
		t.Errorf("a function is documented twice")
	}
	for _, n := range names {
		if !known[n] {
			t.Errorf("SHOW FUNCTIONS lists %s, which the parser does not know", n)
		}
		delete(known, n)
	}
	for n := range known {
		t.Errorf("SHOW FUNCTIONS lacks %s", n)
	}
	src, _ := testSource(t, 10, 50)
	open := openOnly(src)
	all := mustRun(t, open, "SHOW FUNCTIONS")
	if len(all) != len(names) {
		t.Fatalf("%d rows, %d functions", len(all), len(names))
	}
	for _, r := range all {
		if r[1] == "" || !strings.Contains(strings.ToLower(r[2].(string)), r[0].(string)) || r[3] == "" {
			t.Errorf("row %v", r)
		}
	}
	some := mustRun(t, open, "SHOW FUNCTIONS LIKE 'REGR%';")
	if len(some) != 4 || some[0][0] != "regr_slope" {
		t.Errorf("LIKE 'REGR%%': %v", some)
	}
	wantErrors(t, open, []errCase{
		{"SHOW FUNCTIONS LIKE regr", "SHOW FUNCTIONS LIKE wants a pattern string", "regr"},
		{"SELECT stdev(v) FROM m", `unknown function "stdev": did you mean stddev? (SHOW FUNCTIONS lists them)`, "stdev"},
		{"SELECT percentile(0.5, v) FROM m", `unknown function "percentile" (SHOW FUNCTIONS lists them)`, "percentile"},
		{"SELECT count(*) FROM m WHERE lenght(s) > 3", `unknown function "lenght": did you mean length?`, "lenght"},
		{"SELECT s, list(v) FROM m GROUP BY s", `unknown function "list": tsq has no list type; json_group_array(x) makes a JSON array`, "list"},
		{"SELECT s, array_agg(v ORDER BY time) FROM m GROUP BY s", `unknown function "array_agg": tsq has no list type`, "array_agg"},
		{"SELECT string_split(s, ',') FROM m", `unknown function "string_split": tsq has no list type`, "string_split"},
	})
}
