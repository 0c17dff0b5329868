package query

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// twoStreams opens "m" (the test source) and "w", a second stream of
// other rows, with an int field v where m has a float one.
func twoStreams(t *testing.T) Opener {
	t.Helper()
	m, _ := testSource(t, 400, 40)
	rng := rand.New(rand.NewPCG(5, 5))
	t0 := modelNow.Add(-3 * time.Hour).UnixNano()
	rows := make([]trow, 120)
	for i := range rows {
		rows[i] = trow{seq: uint64(i + 1), time: t0 + int64(i)*int64(time.Minute), series: fmt.Sprintf("w%d", i%3), op: 1,
			f: map[string]any{"v": int64(i), "s": []string{"red", "blue"}[i%2]}}
		if i%7 == 0 {
			delete(rows[i].f, "v")
		}
	}
	w, err := buildSource(rng, rows, 30)
	if err != nil {
		t.Fatal(err)
	}
	return func(name string) (Source, error) {
		switch name {
		case "m":
			return m, nil
		case "w":
			return w, nil
		}
		return nil, fmt.Errorf("stream %q not found", name)
	}
}

// TestUnion: UNION ALL gives every row of each SELECT in turn, under the
// first's names, integers widened to floats where another SELECT has
// floats; ORDER BY, LIMIT and OFFSET after the last SELECT order and cut
// the whole; a union works as a subquery, in IN (SELECT ...) and in
// INSERT ... SELECT's SELECT (parsed the same way).
func TestUnion(t *testing.T) {
	open := twoStreams(t)
	run := func(q string) [][]any {
		t.Helper()
		return mustRun(t, open, q)
	}
	cat := func(qs ...string) [][]any {
		var out [][]any
		for _, q := range qs {
			out = append(out, run(q)...)
		}
		return out
	}
	a := "SELECT time, series, v FROM m WHERE v > 100"
	b := "SELECT time, series, v FROM w WHERE series = 'w1'"
	c := "SELECT time, series, v FROM m WHERE series = 'cpu{host=\"a\"}'"
	for _, cs := range []struct {
		q    string
		want [][]any
	}{
		{a + " UNION ALL " + b, widen(cat(a, b), 2)},
		{b + " UNION ALL " + a, widen(cat(b, a), 2)},
		{a + " UNION ALL " + b + " union all " + c, widen(cat(a, b, c), 2)},
		{a + " UNION ALL " + a, cat(a, a)},
		{"SELECT series, count(*) AS n FROM m GROUP BY series UNION ALL SELECT series, count(*) FROM w GROUP BY series",
			cat("SELECT series, count(*) AS n FROM m GROUP BY series", "SELECT series, count(*) FROM w GROUP BY series")},
	} {
		if len(cs.want) == 0 {
			t.Fatalf("%s: the case selects nothing", cs.q)
		}
		if msg := diffCells(run(cs.q), cs.want); msg != "" {
			t.Errorf("%s: %s", cs.q, msg)
		}
	}
	// Ordered and cut as a whole.
	all := cat(a, b)
	slices.SortStableFunc(all, func(x, y []any) int { return compareAny(kTime, y[0], x[0]) })
	got := run(a + " UNION ALL " + b + " ORDER BY time DESC LIMIT 7 OFFSET 3")
	if msg := diffCells(got, widen(all[3:10], 2)); msg != "" {
		t.Errorf("ORDER BY over a union: %s", msg)
	}
	// A union as a subquery, and in IN (SELECT ...).
	got = run("SELECT count(*), max(v) FROM (" + a + " UNION ALL " + b + ")")
	if n := int64(len(cat(a, b))); got[0][0] != n {
		t.Errorf("count of a union subquery: %v, want %d", got, n)
	}
	got = run("SELECT count(*) FROM w WHERE series IN (SELECT series FROM w WHERE v = 4 UNION ALL SELECT series FROM w WHERE v = 5)")
	if want := run("SELECT count(*) FROM w WHERE series IN ('w1', 'w2')"); diffCells(got, want) != "" {
		t.Errorf("IN (a union): %v, want %v", got, want)
	}
	// Names are the first SELECT's; columns of two SELECTs of a field
	// that is int in one stream and float in the other are floats.
	rr, err := Run(context.Background(), "SELECT v AS x, s FROM w UNION ALL SELECT v, s FROM m", open, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := rr.Schema().String(); !strings.Contains(s, "x: type=float64, nullable") || !strings.Contains(s, "s: type=utf8") {
		t.Errorf("schema %s", s)
	}
	rr.Release()
	// series (a dictionary column) next to a text literal is text.
	got = run("SELECT series, count(*) FROM w GROUP BY series UNION ALL SELECT 'all', count(*) FROM w")
	if msg := diffCells(got, [][]any{{"w0", int64(40)}, {"w1", int64(40)}, {"w2", int64(40)}, {"all", int64(120)}}); msg != "" {
		t.Errorf("series next to a text literal: %s", msg)
	}
	// A column of NULL alone takes the other SELECTs' type: text, a
	// timestamp, an integer.
	got = run("SELECT NULL AS x, NULL AS t, 1 AS n UNION ALL SELECT s, time, v FROM w WHERE v = 3 UNION ALL SELECT NULL, NULL, NULL")
	if msg := diffCells(got, [][]any{{nil, nil, int64(1)}, {"blue", modelNow.Add(-3*time.Hour + 3*time.Minute).UnixNano(), int64(3)}, {nil, nil, nil}}); msg != "" {
		t.Errorf("NULL beside text and a time: %s", msg)
	}
	rr, err = Run(context.Background(), "SELECT NULL AS x, NULL AS t UNION ALL SELECT s, time FROM w LIMIT 1", open, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f := rr.Schema().Fields(); f[0].Type.ID() != arrow.STRING || f[1].Type.ID() != arrow.TIMESTAMP {
		t.Errorf("NULL beside text and a time: %s, %s", f[0].Type, f[1].Type)
	}
	rr.Release()
	got = run("EXPLAIN " + a + " UNION ALL " + b)
	var plan []string
	for _, r := range got {
		plan = append(plan, r[0].(string))
	}
	if p := strings.Join(plan, "\n"); !strings.Contains(p, "union all of 2 selects:") || !strings.Contains(p, "select 2:") || !strings.Contains(p, "stream w (raw view)") {
		t.Errorf("EXPLAIN of a union:\n%s", p)
	}
}

// TestUnionErrors: a union that cannot be run says why, pointing at the
// place.
func TestUnionErrors(t *testing.T) {
	wantErrors(t, twoStreams(t), []errCase{
		{"SELECT time FROM m UNION ALL time FROM w", "expected SELECT after UNION ALL", "time FROM w"},
		{"SELECT time, v FROM m UNION ALL SELECT time FROM w", "this SELECT gives 1 column, the first 2", "SELECT time FROM w"},
		{"SELECT time, v FROM m UNION ALL SELECT time, s FROM w", "column 2 (s) is text here and a float in the first SELECT (v)", "SELECT time, s"},
		{"SELECT time FROM m LIMIT 3 UNION ALL SELECT time FROM w", "go after the last SELECT of a UNION ALL", "UNION ALL SELECT"},
		{"SELECT time FROM m ORDER BY time UNION ALL SELECT time FROM w", "go after the last SELECT", "UNION ALL"},
		{"SELECT seq FROM m UNION ALL SELECT seq FROM w LIMIT 2", "keep no seq column: name it", ""},
		{"SELECT time FROM m UNION ALL SELECT time FROM nope", "stream \"nope\" not found", "nope"},
		{"SELECT time FROM m UNION ALL SELECT time FROM w ORDER BY nope", "nope", "nope"},
	})
}

// TestUnionModel: a generated query's union with itself gives its rows
// twice; for 300 queries of the model test's generator.
func TestUnionModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	rows := genRows(rng, 600, modelNow.Add(-5*time.Hour).UnixNano())
	src, err := buildSource(rng, rows, 64)
	if err != nil {
		t.Fatal(err)
	}
	open := openOnly(src)
	g := &qgen{rng: rng, rows: rows}
	for range 300 {
		q := g.query()
		if strings.Contains(q, " ORDER BY ") || strings.Contains(q, " LIMIT ") || strings.Contains(q, " OFFSET ") {
			q = "SELECT * FROM (" + q + ")" // ORDER BY and LIMIT would be the union's
		}
		once := mustRun(t, open, q)
		twice := mustRun(t, open, q+" UNION ALL "+q)
		if msg := diffCells(twice, append(slices.Clone(once), once...)); msg != "" {
			t.Fatalf("%s UNION ALL itself: %s", q, msg)
		}
		// Set operations with itself: its distinct rows, all, none. One
		// worker: sums of floats in one order, equal to the bit.
		one := &Options{Now: modelNow, Parallelism: 1}
		once, err := runCells(q, open, one)
		if err != nil {
			t.Fatal(err)
		}
		distinct := setOracle("union", false, once, nil)
		for op, want := range map[string][][]any{"UNION": distinct, "INTERSECT": distinct, "INTERSECT ALL": once, "EXCEPT": {}, "EXCEPT ALL": {}} {
			got, err := runCells(q+" "+op+" "+q, open, one)
			if err != nil {
				t.Fatalf("%s %s itself: %v", q, op, err)
			}
			if msg := diffCells(got, want); msg != "" {
				t.Fatalf("%s %s itself: %s", q, op, msg)
			}
		}
	}
}

// widen turns the int64 cells of column c into float64, as a union
// with a float column does.
func widen(rows [][]any, c int) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		out[i] = slices.Clone(r)
		if v, ok := r[c].(int64); ok {
			out[i][c] = float64(v)
		}
	}
	return out
}
