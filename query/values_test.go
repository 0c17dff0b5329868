package query

import (
	"strings"
	"testing"
	"time"
)

// TestValues: FROM (VALUES ...) reads rows written out: columns named
// col0, ... or by the alias, typed by their values (integers beside a
// number numbers, NULL with any, times in text beside now() times); it
// joins, filters and aggregates as a subquery does; mixed types and
// ragged rows are refused where they are.
func TestValues(t *testing.T) {
	src, rows := testSource(t, 1000, 50)
	open := openOnly(src)
	cols, err := columnNamesOf("SELECT * FROM (VALUES (1, 'a'), (2, 'b'))", open)
	if err != nil || strings.Join(cols, "|") != "col0|col1" {
		t.Fatalf("names %q %v", cols, err)
	}
	got := mustRun(t, open, "SELECT * FROM (VALUES (1, 'a', 2.5, true, NULL), (2, NULL, 3, false, NULL), (-3, 'c', -1e3, NULL, NULL)) AS t(id, name, v, ok, nothing) WHERE id < 2 ORDER BY id")
	if d := diffCells(got, [][]any{{int64(-3), "c", -1000.0, nil, nil}, {int64(1), "a", 2.5, true, nil}}); d != "" {
		t.Fatal(d)
	}
	// A VALUES list alone is a statement, ORDER BY and LIMIT after it.
	got = mustRun(t, open, "VALUES (1, 'a'), (2, 'b'), (3, NULL) ORDER BY 1 DESC LIMIT 2;")
	if d := diffCells(got, [][]any{{int64(3), nil}, {int64(2), "b"}}); d != "" {
		t.Fatalf("VALUES statement: %s", d)
	}
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	got = mustRun(t, open, "SELECT time, x FROM (VALUES ('2024-01-01', 1), ('2024-01-01T00:00:01Z', 2)) AS t(time, x) WHERE time > '2024-01-01'")
	if d := diffCells(got, [][]any{{day + 1e9, int64(2)}}); d != "" {
		t.Fatalf("times: %s", d)
	}
	// A lookup table joined to a stream: each series' label, counted.
	want := map[string]int64{}
	for _, r := range rows {
		switch {
		case strings.Contains(r.series, `host="a"`):
			want["A"]++
		case strings.Contains(r.series, `host="b"`):
			want["B"]++
		}
	}
	got = mustRun(t, open, `SELECT l.label, count(*) FROM m JOIN (VALUES ('a', 'A'), ('b', 'B'), ('zz', 'Z')) AS l(host, label) ON label(m.series, 'host') = l.host GROUP BY l.label ORDER BY l.label`)
	if want["A"] == 0 || want["B"] == 0 {
		t.Fatalf("a weak source: %v", want)
	}
	if d := diffCells(got, [][]any{{"A", want["A"]}, {"B", want["B"]}}); d != "" {
		t.Fatalf("join: %s", d)
	}
	sameRows(t, open, "SELECT seq FROM m WHERE s IN (SELECT col0 FROM (VALUES ('alpha'), ('beta')))", "SELECT seq FROM m WHERE s IN ('alpha', 'beta')", 10)
	// As a WITH relation on a join's right side (held, read for its rows
	// though the statement names none of its columns), and in EXPLAIN.
	n := int64(len(rows))
	for _, q := range []string{"WITH k AS (VALUES (1, 'x')) SELECT count(*) FROM m CROSS JOIN k",
		"WITH k AS (SELECT * FROM (VALUES (1), (2))) SELECT count(*) / 2 FROM m, k"} {
		if got := mustRun(t, open, q); got[0][0] != n && got[0][0] != float64(n) {
			t.Errorf("%s: %v, want %d", q, got, n)
		}
	}
	if plan := planText(t, open, "EXPLAIN SELECT * FROM (VALUES (1), (2)) AS t(x)"); !strings.Contains(plan, "values: 2 rows of 1 columns, written out") {
		t.Errorf("EXPLAIN:\n%s", plan)
	}
	wantErrors(t, open, []errCase{
		{"SELECT * FROM (VALUES (1, 'a'), ('b', 2))", "VALUES: column col0 holds an integer and a string", "'b'"},
		{"SELECT * FROM (VALUES (1, 2), (3))", "VALUES: this row has 1 values, the first 2", "(3)"},
		{"SELECT * FROM (VALUES (1, 2)) AS t(x)", "VALUES has 2 columns and the alias names 1", "x)"},
		{"SELECT * FROM (VALUES (1), (v))", "expected a value", "v)"},
		{"VALUES (1) ORDER BY ALL", "ORDER BY ALL is not supported here", "ALL"},
		{"VALUES (1) WHERE true", "unexpected", "WHERE"},
	})
}

// TestValuesTypedTimes: typed time literals (TIMESTAMP '...', DATE
// '...', '...'::TIMESTAMP) make a VALUES column of timestamps, as
// DuckDB's; plain strings stay text.
func TestValuesTypedTimes(t *testing.T) {
	src, _ := testSource(t, 10, 50)
	got := mustRun(t, openOnly(src), "DESCRIBE SELECT * FROM (VALUES (TIMESTAMP '2021-01-01 12:34:56', DATE '2021-01-01', '2021-01-01'::TIMESTAMP, '2021-01-01')) v(a, b, c, d)")
	for i, want := range []string{"timestamp", "timestamp", "timestamp", "string"} {
		if got[i][1] != want {
			t.Errorf("column %v: %v, want %s", got[i][0], got[i][1], want)
		}
	}
	if r := mustRun(t, openOnly(src), "SELECT hour(a), day(b) FROM (VALUES (TIMESTAMP '2021-01-01 12:34:56', DATE '2021-01-02')) v(a, b)"); r[0][0] != int64(12) || r[0][1] != int64(2) {
		t.Errorf("time parts of typed literals: %v", r[0])
	}
}
