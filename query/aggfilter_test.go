package query

import (
	"slices"
	"testing"
)

// TestAggregateFilter: agg(x) FILTER ([WHERE] cond) takes the group's rows
// that meet cond, as WHERE cond would, while the group stays (count 0,
// other aggregates null, when none does); it is named by its text, in
// arithmetic, HAVING and ORDER BY too. TestModel draws filters as well.
func TestAggregateFilter(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	open := openOnly(src)
	run := func(q string) [][]any { return mustRun(t, open, q) }
	all := run("SELECT series, count(*), max(n) FROM m GROUP BY series")
	where := map[string][]any{}
	for _, r := range run("SELECT series, count(*), max(n) FROM m WHERE v > 195 AND s = 'beta' AND n > 50 GROUP BY series") {
		where[r[0].(string)] = r[1:]
	}
	got := run("SELECT series, count(*) FILTER (WHERE v > 195 AND s = 'beta' AND n > 50) AS c, max(n) FILTER (WHERE v > 195 AND s = 'beta' AND n > 50), count(*) FROM m GROUP BY series")
	if len(got) != len(all) {
		t.Fatalf("%d groups, want every one of the %d", len(got), len(all))
	}
	empty := 0
	for i, r := range got {
		want := []any{int64(0), nil}
		if w, ok := where[r[0].(string)]; ok {
			want = w
		} else {
			empty++
		}
		if d := diffCells([][]any{r[1:3]}, [][]any{want}); d != "" || r[3] != all[i][1] {
			t.Fatalf("series %s: %v, want %v and count %v", r[0], r[1:], want, all[i][1])
		}
	}
	if empty == 0 || empty == len(all) {
		t.Fatalf("%d of %d groups have no filtered row: choose a condition that splits them", empty, len(all))
	}
	// Named by its text: arithmetic, HAVING and ORDER BY.
	rows := run("SELECT series, count(*) FILTER (WHERE b), count(*) FILTER (WHERE b) * 100 / count(*) AS pct FROM m GROUP BY series " +
		"HAVING count(*) FILTER (WHERE b) > 0 ORDER BY count(*) FILTER (WHERE b = true) DESC LIMIT 3")
	if len(rows) != 3 {
		t.Fatalf("%d rows", len(rows))
	}
	if c := run("SELECT count(*) FILTER (WHERE b) FROM m")[0][0]; c != run("SELECT count(*) FROM m WHERE b = true")[0][0] {
		t.Fatalf("count(*) FILTER (WHERE b): %v", c)
	}
	st, err := Parse("SELECT count(*) FILTER (WHERE v > 1 AND (s = 'a' OR n < 2)) FROM m")
	if err != nil {
		t.Fatal(err)
	}
	if name := st.Items[0].Name(); name != "count(*) FILTER (WHERE v > 1 AND (s = 'a' OR n < 2))" {
		t.Errorf("name %q", name)
	}
	// WHERE may be left out, as in DuckDB; the column is named as with it.
	bare := run("SELECT count(*) FILTER (v > 1), max(n) FILTER (s = 'beta' OR b) FROM m")
	if want := run("SELECT count(*) FILTER (WHERE v > 1), max(n) FILTER (WHERE s = 'beta' OR b) FROM m"); !slices.Equal(bare[0], want[0]) || bare[0][0].(int64) == 0 {
		t.Errorf("FILTER (cond): %v, want %v", bare, want)
	}
	if st, err := Parse("SELECT count(*) FILTER (v > 1) FROM m"); err != nil || st.Items[0].Name() != "count(*) FILTER (WHERE v > 1)" {
		t.Errorf("FILTER (cond): %v, %v", st, err)
	}
	wantErrors(t, open, []errCase{
		{"SELECT count(*) FILTER (WHERE avg(v) > 1) FROM m", "aggregate avg in WHERE", ""},
		{"SELECT count(*) FILTER (WHERE nope > 1) FROM m", `unknown column "nope"`, ""},
		{"SELECT count(*) FILTER (v >) FROM m", "", ") FROM"},
		{"SELECT count(*) FROM m WHERE count(*) FILTER (WHERE v > 1) > 2", "aggregate count in WHERE", ""},
	})
}

// TestBareBool: a bool column alone is a condition, WHERE ok meaning
// ok = true (NOT ok: false, a null is neither); any other column alone
// is refused with what to write.
func TestBareBool(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	open := openOnly(src)
	count := func(q string) any {
		t.Helper()
		got, err := runCells(q, open, nil)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return got[0][0]
	}
	for _, c := range [][2]string{
		{"WHERE b", "WHERE b = true"},
		{"WHERE NOT b", "WHERE b = false"},
		{"WHERE b AND n > 10", "WHERE b = true AND n > 10"},
		{"WHERE (b) OR n > 90", "WHERE b = true OR n > 90"},
		{"WHERE n > 90 OR b GROUP BY series", "WHERE n > 90 OR b = true GROUP BY series"},
	} {
		if a, b := count("SELECT count(*) FROM m "+c[0]), count("SELECT count(*) FROM m "+c[1]); a != b || a == int64(0) {
			t.Errorf("%s: %v rows, %s: %v", c[0], a, c[1], b)
		}
	}
	wantErrors(t, open, []errCase{
		{"SELECT * FROM m WHERE n", `"n" is of type int64, not a bool`, ""},
		{"SELECT * FROM m WHERE s AND b", `"s" is of type string, not a bool`, ""},
		{"SELECT * FROM m WHERE b n", "expected a comparison after b", ""},
	})
}

// TestAggregateOfExpression: an aggregate of arithmetic on the row's
// columns (avg(v * 2), count(DISTINCT hour(time))) equals the aggregate
// of a subquery's computed column; it is named by its text; nested
// aggregates and non-numbers are refused.
func TestAggregateOfExpression(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	open := openOnly(src)
	run := func(q string) [][]any { return mustRun(t, open, q) }
	direct := run("SELECT series, avg(v * 2), max(abs(v - 50)), count(DISTINCT hour(time)), sum(n - 3), quantile(0.9, n + x) FILTER (WHERE b), count(v / 4) FROM m GROUP BY series")
	via := run("SELECT series, avg(a), max(m), count(DISTINCT h), sum(d), quantile(0.9, q) FILTER (WHERE b), count(c) FROM " +
		"(SELECT series, v * 2 AS a, abs(v - 50) AS m, hour(time) AS h, n - 3 AS d, n + x AS q, b, v / 4 AS c FROM m) GROUP BY series")
	if d := diffCells(direct, via); d != "" || len(direct) == 0 {
		t.Fatalf("aggregates of expressions against a subquery's columns: %s", d)
	}
	st, err := Parse("SELECT avg(v * 2), count(DISTINCT hour(time)), quantile(0.5, (n)) FROM m")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"avg(v * 2)", "count(DISTINCT hour(time))", "quantile(0.5, n)"} {
		if got := st.Items[i].Name(); got != want {
			t.Errorf("item %d named %q, want %q", i, got, want)
		}
	}
	if got := run("SELECT series, avg(v * 2) FROM m GROUP BY series HAVING avg(v * 2) > 0 ORDER BY avg(v * 2) DESC LIMIT 1"); len(got) != 1 {
		t.Fatalf("HAVING and ORDER BY by the text: %v", got)
	}
	wantErrors(t, open, []errCase{
		{"SELECT avg(max(v)) FROM m", "aggregates do not nest: max(v) inside avg()", ""},
		{"SELECT avg(s * 2) FROM m", `arithmetic on column "s"`, ""},
		{"SELECT sum(difference(v)) FROM m", "difference() is a window function: it runs over the result's rows", "difference"},
	})
}
