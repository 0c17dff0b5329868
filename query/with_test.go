package query

import (
	"slices"
	"strings"
	"testing"
)

// TestWith: a WITH relation reads as the subquery it names, wherever a
// stream name goes: FROM, fold(), both sides of a join, IN (SELECT ...),
// a union's SELECTs and later WITH relations; it hides a stream of its
// name; EXPLAIN shows its plan.
func TestWith(t *testing.T) {
	open := twoStreams(t)
	run := func(q string) [][]any {
		t.Helper()
		return mustRun(t, open, q)
	}
	h := "SELECT time, series, avg(v) AS a, count(*) AS n FROM m GROUP BY time(30m), series"
	for _, c := range []struct{ with, plain string }{
		{"WITH h AS (" + h + ") SELECT series, max(a), sum(n) FROM h GROUP BY series ORDER BY series",
			"SELECT series, max(a), sum(n) FROM (" + h + ") GROUP BY series ORDER BY series"},
		{"WITH h AS (" + h + "), top AS (SELECT series, max(a) AS mx FROM h GROUP BY series) SELECT h.series, h.time, h.a FROM h JOIN top ON h.series = top.series AND h.a = top.mx ORDER BY h.series",
			"SELECT h.series, h.time, h.a FROM (" + h + ") AS h JOIN (SELECT series, max(a) AS mx FROM (" + h + ") GROUP BY series) AS top ON h.series = top.series AND h.a = top.mx ORDER BY h.series"},
		{"WITH s AS (SELECT series FROM w WHERE v > 100) SELECT count(*) FROM w WHERE series IN (SELECT series FROM s)",
			"SELECT count(*) FROM w WHERE series IN (SELECT series FROM w WHERE v > 100)"},
		{"WITH x AS (SELECT time, v FROM w WHERE v < 10) SELECT time, v FROM x UNION ALL SELECT time, v FROM x WHERE v > 5",
			"SELECT time, v FROM w WHERE v < 10 UNION ALL SELECT time, v FROM w WHERE v < 10 AND v > 5"},
		{"WITH w AS (SELECT time, series, v FROM m WHERE v > 200) SELECT count(*), min(v) FROM w", // hides stream w
			"SELECT count(*), min(v) FROM m WHERE v > 200"},
		{"WITH k AS (SELECT time, series, key, op, v FROM m) SELECT count(*), sum(v) FROM fold(k)",
			"SELECT count(*), sum(v) FROM fold(m)"}, // the same rows in the same order fold alike
	} {
		got := run(c.with)
		want := run(c.plain)
		if len(want) == 0 {
			t.Fatalf("%s: the case selects nothing", c.plain)
		}
		if msg := diffCells(got, want); msg != "" {
			t.Errorf("%s: %s", c.with, msg)
		}
	}
	var plan []string
	for _, r := range run("EXPLAIN WITH h AS (" + h + ") SELECT * FROM h WHERE n > 1") {
		plan = append(plan, r[0].(string))
	}
	if !slices.ContainsFunc(plan, func(l string) bool { return strings.HasPrefix(l, "source: WITH h, run first: ") }) ||
		!slices.Contains(plan, "  | stream m (raw view)") {
		t.Errorf("EXPLAIN WITH:\n%s", strings.Join(plan, "\n"))
	}
}

// TestWithErrors: a WITH list that cannot run says why, and where.
func TestWithErrors(t *testing.T) {
	wantErrors(t, twoStreams(t), []errCase{
		{"WITH RECURSIVE x AS (SELECT time FROM m) SELECT * FROM x", "WITH RECURSIVE is not supported", "RECURSIVE"},
		{"WITH x AS (SELECT time FROM m), x AS (SELECT time FROM w) SELECT * FROM x", "WITH names x twice", "x AS (SELECT time FROM w)"},
		{"WITH x (SELECT time FROM m) SELECT * FROM x", "expected AS ( SELECT ... ) after WITH x", "(SELECT"},
		{"WITH x AS (time FROM m) SELECT * FROM x", "expected SELECT after x AS (", "time FROM m)"},
		{"WITH x AS (SELECT time FROM m) DELETE FROM x", "expected SELECT after the WITH list", "DELETE"},
		{"WITH x AS (SELECT time FROM nope) SELECT * FROM x", `stream "nope" not found`, "nope"},
		{"WITH x AS (SELECT time FROM m) SELECT * FROM y", `stream "y" not found`, "y"},
		{"WITH x AS (SELECT time, nope FROM m) SELECT * FROM x", "nope", "nope"},
		{"WITH x AS (SELECT time FROM m) SELECT v FROM x", "v", "v FROM x"},
	})
}

// TestNoFrom: a SELECT without FROM evaluates its items over one row:
// constants, now() arithmetic, aggregates of that row, in unions; it
// has no fields, and SELECT * wants FROM.
func TestNoFrom(t *testing.T) {
	open := twoStreams(t)
	got := mustRun(t, open, "SELECT 2 * 3 AS six, 'x' AS s, now() - 1h AS t, count(*) AS n")
	if len(got) != 1 || got[0][0] != int64(6) || got[0][1] != "x" || got[0][3] != int64(1) {
		t.Fatalf("SELECT without FROM: %v", got)
	}
	got = mustRun(t, open, "SELECT 'w' AS s, count(*) FROM w UNION ALL SELECT 'none', 0 UNION ALL SELECT 'one', count(*) WHERE 1 = 1")
	if msg := diffCells(got, [][]any{{"w", int64(120)}, {"none", int64(0)}, {"one", int64(1)}}); msg != "" {
		t.Fatalf("unions with SELECTs without FROM: %s", msg)
	}
	if got := mustRun(t, open, "SELECT 1 AS a WHERE 1 = 2"); len(got) != 0 {
		t.Fatalf("WHERE false: %v", got)
	}
	wantErrors(t, open, []errCase{
		{"SELECT *", "SELECT * needs FROM", ""},
		{"SELECT v + 1", `unknown column "v": a SELECT without FROM has no columns`, "v + 1"},
		{"SELECT time cpu", `unknown column "time": a SELECT without FROM has no columns (FROM <stream> reads a stream's)`, "time cpu"}, // FROM forgotten
		{"SELECT seq", `unknown column "seq": a SELECT without FROM has no columns`, "seq"},
	})
}
