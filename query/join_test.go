package query

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
)

// joinStreams are two generated streams, m and w, with soft deletes in
// m, and an opener of both.
func joinStreams(t *testing.T, n int, maxBlock int) (Opener, []trow, []trow) {
	t.Helper()
	var sides [2][]trow
	srcs := map[string]*memSource{}
	for i, name := range []string{"m", "w"} {
		rng := rand.New(rand.NewPCG(uint64(7+i), 9))
		rows := genRows(rng, n, modelNow.Add(-5*time.Hour).UnixNano())
		src, err := buildSource(rng, rows, maxBlock)
		if err != nil {
			t.Fatal(err)
		}
		if name == "m" {
			src.deleted = roaring64.BitmapOf(3, 4, 50, 51, 52)
			rows = slices.DeleteFunc(rows, func(r trow) bool { return src.deleted.Contains(r.seq) })
		}
		sides[i], srcs[name] = rows, src
	}
	open := func(name string) (Source, error) {
		if s, ok := srcs[name]; ok {
			return s, nil
		}
		return nil, errors.New("stream not found")
	}
	return open, sides[0], sides[1]
}

// joinEqual is SQL equality of two cells: NULL equals nothing; an int
// and a float compare as numbers.
func joinEqual(a, b any) bool {
	if a == nil || b == nil {
		return false
	}
	_, ai := a.(int64)
	_, af := a.(float64)
	_, bi := b.(int64)
	_, bf := b.(float64)
	if (ai || af) && (bi || bf) {
		return anyFloat(a) == anyFloat(b)
	}
	return a == b
}

// joinOracle pairs the rows of l and r by nested loops: each left row
// with every right row whose eq columns are equal (in the right's
// order), or for asof with the one nearest by the ord column as op
// allows (the last of equal values); -1 for an outer join's unmatched
// left row.
func joinOracle(l, r []trow, eq [][2]string, ord [2]string, op string, outer bool) [][2]int {
	var out [][2]int
	for i, lr := range l {
		n := len(out)
		best := -1
		for k, rr := range r {
			match := true
			for _, e := range eq {
				match = match && joinEqual(cellAt(&lr, e[0]), cellAt(&rr, e[1]))
			}
			if !match {
				continue
			}
			if op == "" {
				out = append(out, [2]int{i, k})
				continue
			}
			lv, rv := cellAt(&lr, ord[0]), cellAt(&rr, ord[1])
			if lv == nil || rv == nil {
				continue
			}
			x, y := anyFloat(lv), anyFloat(rv)
			if li, ok := lv.(int64); ok {
				if ri, ok := rv.(int64); ok { // exact for times
					x, y = float64(cmp.Compare(li, ri)), 0
				}
			}
			ok := map[string]bool{">=": x >= y, ">": x > y, "<=": x <= y, "<": x < y}[op]
			if !ok {
				continue
			}
			if best < 0 {
				best = k
				continue
			}
			c := compareCells(rv, cellAt(&r[best], ord[1]))
			if c == 0 || (op == ">=" || op == ">") == (c > 0) {
				best = k // nearer, or as near and later
			}
		}
		if best >= 0 {
			out = append(out, [2]int{i, best})
		}
		if outer && len(out) == n {
			out = append(out, [2]int{i, -1})
		}
	}
	return out
}

func compareCells(a, b any) int {
	if x, ok := a.(int64); ok {
		if y, ok := b.(int64); ok {
			return cmp.Compare(x, y)
		}
	}
	x, y := anyFloat(a), anyFloat(b)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// TestJoin holds every kind of join against the nested-loop oracle on two
// generated streams (soft deletes in one, nulls, ints against floats,
// text, bools, times), in blocks of 8192 rows and of 7: the pairs of
// seqs in order, and the left's time, series, key and op as the
// relation's own.
func TestJoin(t *testing.T) {
	open, l, r := joinStreams(t, 1500, 40)
	defer func(n int) { subBlockRows = n }(subBlockRows)
	cases := []struct {
		on    string
		eq    [][2]string
		ord   [2]string
		op    string
		outer bool
	}{
		{on: "JOIN w b ON a.series = b.series AND a.n = b.n", eq: [][2]string{{"series", "series"}, {"n", "n"}}},
		{on: "LEFT JOIN w b ON a.series = b.series AND a.n = b.n", eq: [][2]string{{"series", "series"}, {"n", "n"}}, outer: true},
		{on: "LEFT OUTER JOIN w b ON b.s = a.s AND a.key = b.key", eq: [][2]string{{"s", "s"}, {"key", "key"}}, outer: true},
		{on: "JOIN w b ON a.v = b.x", eq: [][2]string{{"v", "x"}}},
		{on: "INNER JOIN w b ON a.n = b.v AND a.b = b.b", eq: [][2]string{{"n", "v"}, {"b", "b"}}},
		{on: "JOIN w b USING (series, key)", eq: [][2]string{{"series", "series"}, {"key", "key"}}},
		{on: "ASOF JOIN w b ON a.series = b.series AND a.time >= b.time", eq: [][2]string{{"series", "series"}}, ord: [2]string{"time", "time"}, op: ">="},
		{on: "ASOF LEFT JOIN w b ON a.series = b.series AND b.time < a.time", eq: [][2]string{{"series", "series"}}, ord: [2]string{"time", "time"}, op: ">", outer: true},
		{on: "ASOF JOIN w b ON a.s = b.s AND a.time <= b.time", eq: [][2]string{{"s", "s"}}, ord: [2]string{"time", "time"}, op: "<="},
		{on: "ASOF LEFT JOIN w b ON a.v < b.x", ord: [2]string{"v", "x"}, op: "<", outer: true},
		{on: "ASOF JOIN w b ON a.n >= b.v AND a.key = b.key", eq: [][2]string{{"key", "key"}}, ord: [2]string{"n", "v"}, op: ">="},
		{on: "ASOF JOIN w b USING (series, time)", eq: [][2]string{{"series", "series"}}, ord: [2]string{"time", "time"}, op: ">="},
	}
	for _, rows := range []int{8192, 7} {
		subBlockRows = rows
		for _, c := range cases {
			q := "SELECT a.seq, b.seq, time, series, key, op FROM m a " + c.on
			got := mustRun(t, open, q)
			want := joinOracle(l, r, c.eq, c.ord, c.op, c.outer)
			if len(want) < 20 {
				t.Fatalf("%s: the oracle pairs %d rows: too few to test", q, len(want))
			}
			if len(got) != len(want) {
				t.Fatalf("%s: %d rows, want %d", q, len(got), len(want))
			}
			for i, w := range want {
				lr := l[w[0]]
				var rs any
				if w[1] >= 0 {
					rs = int64(r[w[1]].seq)
				}
				exp := []any{int64(lr.seq), rs, lr.time, lr.series, lr.key, opNames[lr.op]}
				if d := diffCells([][]any{got[i]}, [][]any{exp}); d != "" {
					t.Fatalf("%s (blocks of %d), row %d: %s", q, rows, i, d)
				}
			}
		}
	}
}

// TestJoinColumns: a join's relation has each side's columns by the
// side's name (the stream's when not named), the fields of one side and
// USING's columns also bare, SELECT * the named ones in order, times as
// timestamps; it groups, buckets and filters as a stream does, and a
// join of subqueries reads their results.
func TestJoinColumns(t *testing.T) {
	open, l, r := joinStreams(t, 800, 50)
	star := mustRun(t, open, "SELECT * FROM m JOIN w USING (series) LIMIT 1")
	if len(star) != 1 || len(star[0]) != 2*(5+5) {
		t.Fatalf("SELECT * of a join: %v, want the 10 columns of each side", star)
	}
	names, err := columnNamesOf("SELECT * FROM m JOIN w USING (series) LIMIT 1", open)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"m.seq", "m.time", "m.series", "m.key", "m.op", "m.v", "m.n", "m.s", "m.b", "m.x", "w.seq", "w.time", "w.series", "w.key", "w.op", "w.v", "w.n", "w.s", "w.b", "w.x"}
	if !sameSet(names, want) || names[0] != "m.seq" || names[10] != "w.seq" {
		t.Fatalf("SELECT * names %v, want %v (left's first)", names, want)
	}
	// Counts per series: the oracle's pairs.
	pairs := joinOracle(l, r, [][2]string{{"series", "series"}}, [2]string{}, "", false)
	per := map[string]int64{}
	for _, p := range pairs {
		per[l[p[0]].series]++
	}
	got := mustRun(t, open, "SELECT series, count(*) FROM m JOIN w USING (series) GROUP BY series")
	if len(got) != len(per) {
		t.Fatalf("groups %v, want %v", got, per)
	}
	for _, g := range got {
		if per[g[0].(string)] != g[1].(int64) {
			t.Fatalf("series %v: %v rows, want %d", g[0], g[1], per[g[0].(string)])
		}
	}
	// A time bucket and a WHERE on the relation's own time (the left's).
	cut := l[len(l)/2].time
	var inHour int64
	for _, p := range pairs {
		if l[p[0]].time >= cut {
			inHour++
		}
	}
	ts := time.Unix(0, cut).UTC().Format(time.RFC3339Nano)
	n := mustRun(t, open, fmt.Sprintf("SELECT count(*) FROM m a JOIN w b USING (series) WHERE time >= '%s'", ts))
	if n[0][0] != inHour {
		t.Fatalf("WHERE time on the join: %v, want %d", n[0][0], inHour)
	}
	// b.time is a timestamp: compared with a time, it counts the pairs.
	var later int64
	for _, p := range pairs {
		if r[p[1]].time > l[p[0]].time {
			later++
		}
	}
	n = mustRun(t, open, "SELECT count(*) FROM m a JOIN w b USING (series) WHERE b.time > a.time")
	if n[0][0] != later {
		t.Fatalf("b.time > a.time: %v, want %d", n[0][0], later)
	}
	// Subqueries on both sides, joined on an aggregate's bucket.
	hours := mustRun(t, open, "SELECT a.time, a.series, a.n, b.n FROM (SELECT time, series, count(*) AS n FROM m GROUP BY time(1h), series) AS a "+
		"JOIN (SELECT time, series, count(*) AS n FROM w GROUP BY time(1h), series) b USING (time, series) ORDER BY a.time, a.series")
	count := func(rows []trow, series string, hour int64) int64 {
		var n int64
		for _, r := range rows {
			if r.series == series && r.time-r.time%int64(time.Hour) == hour {
				n++
			}
		}
		return n
	}
	if len(hours) < 10 {
		t.Fatalf("hourly join: %d rows", len(hours))
	}
	for _, h := range hours {
		hour, series := h[0].(int64), h[1].(string)
		if h[2] != count(l, series, hour) || h[3] != count(r, series, hour) {
			t.Fatalf("hourly join row %v: want %d and %d", h, count(l, series, hour), count(r, series, hour))
		}
	}
}

// TestJoinErrors: what a join refuses says so, at the place.
func TestJoinErrors(t *testing.T) {
	open, _, _ := joinStreams(t, 200, 50)
	wantErrors(t, open, []errCase{
		{"SELECT * FROM m JOIN m USING (series)", "two sources of the JOIN are named m", "m USING"},
		{"SELECT * FROM m a JOIN w b", "expected ON or USING", ""},
		{"SELECT * FROM m AS a JOIN w x.a USING (series)", "a source's name cannot hold a dot (x.a)", "x.a"}, // FuzzQuery found it duplicating a.seq
		{"SELECT * FROM (SELECT 1 AS one) AS t.u", "a source's name cannot hold a dot", "t.u"},
		{"SELECT count(*) FROM m a JOIN (SELECT time, v AS vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv FROM w) b USING (time)", "has a name of 300 bytes, which the joined rows cannot keep", "JOIN"},
		{"SELECT * FROM m a JOIN w b ON a.n > b.n", "an INNER JOIN matches by equality", ">"},
		{"SELECT * FROM m a ASOF JOIN w b ON a.n = b.n", "exactly one inequality in ON", "ASOF"},
		{"SELECT * FROM m a ASOF JOIN w b ON a.n >= b.n AND a.v <= b.v", "exactly one inequality in ON", "ASOF"},
		{"SELECT * FROM m a JOIN w b ON a.n = b.n OR a.v = b.v", "ON takes conditions joined by AND", "OR"},
		{"SELECT * FROM m a JOIN w b ON a.n = a.v", "compares two columns of a", "a.n"},
		{"SELECT * FROM m a JOIN w b ON a.nope = b.n", "a has no column nope", "a.nope"},
		{"SELECT * FROM m a JOIN w b ON n = b.n", "both sides have a column n", "n ="},
		{"SELECT * FROM m a JOIN w b ON a.s = b.n", "a.s is text and b.n is a number", "a.s"},
		{"SELECT * FROM m a JOIN w b ON a.time = b.n", "a.time is a timestamp and b.n is a number", "a.time"},
		{"SELECT * FROM m a ASOF JOIN w b ON a.s >= b.s", "ASOF orders by numbers or times", "a.s"},
		{"SELECT * FROM m a JOIN w b USING (a.series)", "without a side's name", "a.series"},
		{"SELECT * FROM m a JOIN w b USING (series, series)", "series appears twice in USING", "series)"},
		{"SELECT * FROM m a JOIN nope b USING (series)", "stream not found", "nope"},
		{"SELECT * FROM m a JOIN (SELECT * FROM w) USING (series)", "a joined subquery needs a name", "(SELECT"},
		{"SELECT * FROM m a b WHERE n > 1", "after FROM m a: a clause (WHERE, GROUP BY, ...) or a JOIN goes there", "b WHERE"},
		{"SELECT v FROM m a JOIN w b USING (series)", "both sides of the join have a column v: write a.v or b.v", "v FROM"},
		{"SELECT zz FROM m a JOIN w b USING (series)", `unknown column "zz" in the join`, "zz"},
		{"SELECT * FROM m a JOIN w b USING (series) JOIN w a USING (series)", "two sources of the JOIN are named a", "a USING"},
		{"DELETE FROM m a JOIN w b USING (series)", "unexpected", ""},
		{"SELECT count(*) FROM (SELECT n AS time, series FROM m) a JOIN w b USING (series)", "column time of a is a number, not a timestamp", "a JOIN"},
		{"SELECT count(*) FROM (SELECT n AS key, series FROM m) a JOIN w b USING (series)", "column key of a is a number, not text", "a JOIN"},
	})
	defer func(n int) { maxJoinRightRows = n }(maxJoinRightRows)
	maxJoinRightRows = 100
	wantErrors(t, open, []errCase{{"SELECT count(*) FROM m a JOIN w b USING (series)", "its right side b passes 100 rows or 1024 MiB", "b USING"}})
	maxJoinRightRows = 1 << 22
	defer func(n int) { maxJoinRightBytes = n }(maxJoinRightBytes)
	maxJoinRightBytes = 100
	wantErrors(t, open, []errCase{{"SELECT count(*) FROM m a JOIN w b USING (series)", "its right side b passes 4194304 rows or 0 MiB", "b USING"}})
	maxJoinRightBytes = 1 << 30
	defer func(n int) { maxSubqueryRows = n }(maxSubqueryRows)
	maxSubqueryRows = 1000
	wantErrors(t, open, []errCase{{"SELECT count(*) FROM m a JOIN w b USING (series)", "join: its result passes 1000 rows", "JOIN"}})
}

func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// columnNamesOf returns the names of q's result columns.
func columnNamesOf(q string, open Opener) ([]string, error) {
	rr, err := Run(context.Background(), q, open, nil)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	var names []string
	for _, f := range rr.Schema().Fields() {
		names = append(names, f.Name)
	}
	return names, nil
}

// TestJoinFolded: a folded view joins by its name after AS (not AS OF),
// also after AS OF; the folded side has only the current rows.
func TestJoinFolded(t *testing.T) {
	open, _, _ := joinStreams(t, 600, 50)
	folded := mustRun(t, open, "SELECT count(*) FROM fold(w)")
	for _, q := range []string{
		"SELECT count(*) FROM m AS a JOIN fold(w) AS f USING (series)",
		"SELECT count(*) FROM fold(w) AS f JOIN m USING (series)",
		"SELECT count(*) FROM fold(w) AS OF SEQ 100000 f JOIN m USING (series)",
	} {
		n := mustRun(t, open, q)
		if n[0][0].(int64) == 0 {
			t.Fatalf("%s: no rows", q)
		}
	}
	// Each folded row of w with itself: as many pairs as folded rows
	// with a key (samples have key "" and pair with each other).
	keyed := mustRun(t, open, "SELECT count(*) FROM fold(w) WHERE key != ''")
	pairs := mustRun(t, open, "SELECT count(*) FROM fold(w) AS f JOIN fold(w) AS g ON f.series = g.series AND f.key = g.key WHERE f.key != ''")
	if pairs[0][0] != keyed[0][0] || folded[0][0].(int64) <= keyed[0][0].(int64) {
		t.Fatalf("folded self-join on (series, key): %v pairs, want %v (folded rows %v)", pairs[0][0], keyed[0][0], folded[0][0])
	}
}

// TestJoinPushdown: WHERE's terms on one stream side reach that side's
// scan (EXPLAIN shows them under the side; the left side of every join,
// the right side of INNER joins only) and the rows are the oracle's
// pairs that pass the whole condition.
func TestJoinPushdown(t *testing.T) {
	open, l, r := joinStreams(t, 1500, 40)
	cut := l[len(l)/3].time
	ts := time.Unix(0, cut).UTC().Format(time.RFC3339Nano)
	num := func(v any) (float64, bool) {
		if v == nil {
			return 0, false
		}
		return anyFloat(v), true
	}
	cond := func(lr trow, rr *trow) bool { // a.n > 20 AND time >= cut AND b.v < 100
		n, ok := num(lr.f["n"])
		if !ok || n <= 20 || lr.time < cut || rr == nil {
			return false
		}
		v, ok := num(rr.f["v"])
		return ok && v < 100
	}
	where := fmt.Sprintf(" WHERE a.n > 20 AND time >= '%s' AND b.v < 100", ts)
	for _, c := range []struct {
		on        string
		eq        [][2]string
		ord       [2]string
		op        string
		outer     bool
		pushRight bool
	}{
		{on: "JOIN w b USING (series)", eq: [][2]string{{"series", "series"}}, pushRight: true},
		{on: "LEFT JOIN w b USING (series, key)", eq: [][2]string{{"series", "series"}, {"key", "key"}}, outer: true},
		{on: "ASOF JOIN w b USING (series, time)", eq: [][2]string{{"series", "series"}}, ord: [2]string{"time", "time"}, op: ">="},
		{on: "ASOF LEFT JOIN w b ON a.s = b.s AND a.time < b.time", eq: [][2]string{{"s", "s"}}, ord: [2]string{"time", "time"}, op: "<", outer: true},
	} {
		q := "SELECT a.seq, b.seq FROM m a " + c.on + where
		var want [][]any
		for _, p := range joinOracle(l, r, c.eq, c.ord, c.op, c.outer) {
			var rr *trow
			if p[1] >= 0 {
				rr = &r[p[1]]
			}
			if cond(l[p[0]], rr) {
				want = append(want, []any{int64(l[p[0]].seq), int64(rr.seq)})
			}
		}
		if len(want) < 10 {
			t.Fatalf("%s: the oracle keeps %d rows: too few to test", q, len(want))
		}
		if d := diffCells(mustRun(t, open, q), want); d != "" {
			t.Fatalf("%s: %s", q, d)
		}
		plan, left, right := sidePlans(t, open, q)
		if !strings.Contains(left, "filter: ") || !strings.Contains(left, "n > 20") || !strings.Contains(left, "time >= ") {
			t.Fatalf("%s: the left side's plan has no filter of its terms:\n%s", q, plan)
		}
		if strings.Contains(right, "v < 100") != c.pushRight {
			t.Fatalf("%s: b.v < 100 in the right side's plan: %v, want %v:\n%s", q, !c.pushRight, c.pushRight, plan)
		}
	}
	// Terms that do not move: a bare field, seq, a mix of sides, OR of
	// sides, a subquery side; their results are the oracle's all the same.
	for _, q := range []string{
		"EXPLAIN SELECT count(*) FROM m a JOIN w b USING (series) WHERE seq > 3 AND (a.n > 1 OR b.n > 1) AND a.n > b.n",
		"EXPLAIN SELECT count(*) FROM (SELECT * FROM m) a JOIN w b USING (series) WHERE a.n > 1",
	} {
		plan, left, _ := sidePlans(t, open, strings.TrimPrefix(q, "EXPLAIN "))
		if strings.Contains(left, "filter: ") {
			t.Fatalf("%s: a term moved to the left side:\n%s", q, plan)
		}
	}
}

// sidePlans returns EXPLAIN q, and the plans of its join's sides a and b.
func sidePlans(t *testing.T, open Opener, q string) (plan, a, b string) {
	t.Helper()
	plan = strings.Join(flatten(mustRun(t, open, "EXPLAIN "+q)), "\n")
	_, a, _ = strings.Cut(plan, "  | a:")
	a, b, _ = strings.Cut(a, "  | b:")
	b, _, _ = strings.Cut(b, "\nrange:") // the joined statement's own plan follows the sides'
	if !strings.Contains(a, "stream ") || !strings.Contains(b, "stream ") && !strings.Contains(b, "subquery") {
		t.Fatalf("EXPLAIN %s: no plan of each side:\n%s", q, plan)
	}
	return plan, a, b
}

func flatten(rows [][]any) []string {
	var out []string
	for _, r := range rows {
		out = append(out, fmt.Sprint(r[0]))
	}
	return out
}

// TestEmptyRelationColumns: a subquery or a join that gives no row still
// has its columns, their types and instants: the statement over it
// plans and gives its empty or zero result.
func TestEmptyRelationColumns(t *testing.T) {
	open, _, _ := joinStreams(t, 300, 50)
	for q, want := range map[string][]any{
		"SELECT count(s), max(n), min(v), max(last) FROM (SELECT s, n, v, max(time) AS last FROM m WHERE n > 1000 GROUP BY s, n, v)": {int64(0), nil, nil, nil},
		"SELECT count(*), max(b.n), min(a.time) FROM m a JOIN w b USING (series) WHERE a.n > 1000":                                   {int64(0), nil, nil},
		"SELECT count(*), max(b.x) FROM m a ASOF JOIN w b USING (series, time) WHERE b.s = 'none'":                                   {int64(0), nil},
	} {
		got := mustRun(t, open, q)
		if d := diffCells(got, [][]any{want}); d != "" {
			t.Errorf("%s: %s", q, d)
		}
	}
	names, err := columnNamesOf("SELECT b.time, b.s FROM m a JOIN w b USING (series) WHERE a.n > 1000", open)
	if err != nil || !slices.Equal(names, []string{"b.time", "b.s"}) {
		t.Fatalf("columns of an empty join: %v, %v", names, err)
	}
	rr, err := Run(context.Background(), "SELECT b.time FROM m a JOIN w b USING (series) WHERE a.n > 1000", open, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if typ := rr.Schema().Field(0).Type; typ.ID() != TimeType.ID() {
		t.Fatalf("b.time of an empty join is %s, want a timestamp", typ)
	}
}

// TestJoinSideStarAndLimit: SELECT a.* lists side a's columns in order;
// a LIMIT with nothing else to wait for stops the join at the rows it
// takes (the first rows of the whole join, past a bound the whole join
// would break); a.* names a side.
func TestJoinSideStarAndLimit(t *testing.T) {
	open, _, _ := joinStreams(t, 600, 50)
	names, err := columnNamesOf("SELECT b.*, a.n FROM m a JOIN w b USING (series) LIMIT 1", open)
	want := []string{"b.seq", "b.time", "b.series", "b.key", "b.op", "b.v", "b.n", "b.s", "b.b", "b.x", "a.n"}
	if err != nil || !sameSet(names, want) || names[0] != "b.seq" || names[len(names)-1] != "a.n" {
		t.Fatalf("SELECT b.*, a.n: %v, %v; want %v", names, err, want)
	}
	all := mustRun(t, open, "SELECT a.seq, b.seq FROM m a JOIN w b USING (series)")
	defer func(n int) { maxSubqueryRows = n }(maxSubqueryRows)
	maxSubqueryRows = len(all) / 2
	first := mustRun(t, open, "SELECT a.seq, b.seq FROM m a JOIN w b USING (series) LIMIT 25 OFFSET 1000")
	if d := diffCells(first, all[1000:1025]); d != "" {
		t.Fatalf("LIMIT 25 OFFSET 1000: %s", d)
	}
	wantErrors(t, open, []errCase{
		{"SELECT a.seq FROM m a JOIN w b USING (series) ORDER BY b.seq LIMIT 5", "its result passes", ""},
		{"SELECT a.seq FROM m a JOIN w b USING (series) WHERE seq > 0 LIMIT 5", "its result passes", ""},
		{"SELECT c.* FROM m a JOIN w b USING (series)", "c.*: the join's sources are a, b", "c.*"},
		{"SELECT m.*, seq FROM m", "m.* selects the columns of a side of a JOIN", "m.*"},
	})
}

// TestJoinWhereInJoin: WHERE applies while the join writes its relation,
// so that what it refuses is never held: the rows and their numbers
// (seq, 1, 2, ... over the rows kept) are those of the condition on the
// whole join; a LIMIT after it stops the join once it has its rows; a
// condition on seq (the whole join's row numbers) is applied after.
func TestJoinWhereInJoin(t *testing.T) {
	open, l, r := joinStreams(t, 1500, 40)
	defer func(n int) { subBlockRows = n }(subBlockRows)
	for _, rows := range []int{8192, 100} {
		subBlockRows = rows
		var want [][]any
		for _, p := range joinOracle(l, r, [][2]string{{"series", "series"}}, [2]string{}, "", false) {
			ln, lok := l[p[0]].f["n"].(int64)
			rn, rok := r[p[1]].f["n"].(int64)
			if lok && rok && ln > rn {
				want = append(want, []any{uint64(len(want) + 1), int64(l[p[0]].seq), int64(r[p[1]].seq)})
			}
		}
		got := mustRun(t, open, "SELECT seq, a.seq, b.seq FROM m a JOIN w b USING (series) WHERE a.n > b.n")
		if d := diffCells(got, want); d != "" {
			t.Fatalf("blocks of %d: %s", rows, d)
		}
		all := mustRun(t, open, "SELECT a.seq, b.seq FROM m a JOIN w b USING (series)")
		even := mustRun(t, open, "SELECT a.seq, b.seq FROM m a JOIN w b USING (series) WHERE seq % 2 = 0")
		if len(even) != len(all)/2 || diffCells(even[:1], all[1:2]) != "" {
			t.Fatalf("blocks of %d: WHERE seq %% 2 = 0 gave %d rows of %d, first %v, want %v", rows, len(even), len(all), even[:1], all[1])
		}
		func() {
			defer func(n int) { maxSubqueryRows = n }(maxSubqueryRows)
			maxSubqueryRows = len(want) / 2
			first := mustRun(t, open, "SELECT seq, a.seq, b.seq FROM m a JOIN w b USING (series) WHERE a.n > b.n LIMIT 7 OFFSET 100")
			if d := diffCells(first, want[100:107]); d != "" {
				t.Fatalf("blocks of %d, LIMIT 7 OFFSET 100 after WHERE: %s", rows, d)
			}
		}()
	}
}

// TestJoinFloatKeys: -0 equals 0, NaN equals NaN (as DuckDB joins them),
// an int equals the float of its value, and NULL equals nothing.
func TestJoinFloatKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	mk := func(vals ...any) *memSource {
		var rows []trow
		for i, v := range vals {
			r := trow{seq: uint64(i + 1), time: int64(i) * 1e9, series: "s", op: 1, f: map[string]any{}}
			if v != nil {
				r.f["v"] = v
			}
			rows = append(rows, r)
		}
		src, err := buildSource(rng, rows, 2)
		if err != nil {
			t.Fatal(err)
		}
		return src
	}
	srcs := map[string]*memSource{
		"l": mk(math.Copysign(0, -1), math.NaN(), 2.0, nil, 7.5),
		"r": mk(0.0, math.NaN(), int64(2), nil, 7.25),
		"i": mk(int64(0), int64(2), int64(7)),
	}
	open := func(name string) (Source, error) { return srcs[name], nil }
	got := mustRun(t, open, "SELECT a.seq, b.seq FROM l a JOIN r b ON a.v = b.v")
	if d := diffCells(got, [][]any{{int64(1), int64(1)}, {int64(2), int64(2)}, {int64(3), int64(3)}}); d != "" {
		t.Fatalf("float keys: %s", d)
	}
	got = mustRun(t, open, "SELECT a.seq, b.seq FROM l a JOIN i b ON a.v = b.v")
	if d := diffCells(got, [][]any{{int64(1), int64(1)}, {int64(3), int64(2)}}); d != "" {
		t.Fatalf("floats against ints: %s", d)
	}
}

// TestJoinComputedTerms: ON compares arithmetic on each side's columns
// (shifted times, truncated times, text functions, int arithmetic,
// a subquery side's aggregate), for equality and as ASOF's inequality,
// against nested loops over the same values.
func TestJoinComputedTerms(t *testing.T) {
	open, l, r := joinStreams(t, 1200, 40)
	const minute, hour = int64(60e9), int64(3600e9)
	trunc := func(t int64) int64 { return t - t%hour }
	intOf := func(row trow, f string) (int64, bool) { v, ok := row.f[f].(int64); return v, ok }
	strOf := func(row trow, f string) (string, bool) { v, ok := row.f[f].(string); return v, ok }
	for _, c := range []struct {
		q     string
		match func(a, b trow) bool
	}{
		{"SELECT a.seq, b.seq FROM m a JOIN w b ON a.series = b.series AND a.time = b.time + 1m",
			func(a, b trow) bool { return a.series == b.series && a.time == b.time+minute }},
		{"SELECT a.seq, b.seq FROM m a JOIN w b ON b.time + 60s = a.time AND b.series = a.series",
			func(a, b trow) bool { return a.series == b.series && a.time == b.time+minute }},
		{"SELECT a.seq, b.seq FROM m a JOIN w b ON date_trunc('hour', a.time) = date_trunc('hour', b.time) AND a.key = b.key AND a.series = b.series",
			func(a, b trow) bool { return trunc(a.time) == trunc(b.time) && a.key == b.key && a.series == b.series }},
		{"SELECT a.seq, b.seq FROM m a JOIN w b ON lower(a.s) = lower(b.s) AND a.n * 2 = b.n",
			func(a, b trow) bool {
				as, ok1 := strOf(a, "s")
				bs, ok2 := strOf(b, "s")
				an, ok3 := intOf(a, "n")
				bn, ok4 := intOf(b, "n")
				//lint:ignore SA6005 the oracle of lower(a.s) = lower(b.s), which is no case folding
				return ok1 && ok2 && ok3 && ok4 && strings.ToLower(as) == strings.ToLower(bs) && an*2 == bn
			}},
	} {
		var want [][]any
		for _, a := range l {
			for _, b := range r {
				if c.match(a, b) {
					want = append(want, []any{int64(a.seq), int64(b.seq)})
				}
			}
		}
		if len(want) < 20 {
			t.Fatalf("%s: the oracle pairs %d rows: too few to test", c.q, len(want))
		}
		if d := diffCells(mustRun(t, open, c.q), want); d != "" {
			t.Fatalf("%s: %s", c.q, d)
		}
	}
	// ASOF by a shifted time: the latest of w's series at or before 5
	// minutes before each of m's rows.
	var want [][]any
	for _, a := range l {
		best := -1
		for k, b := range r {
			if a.series == b.series && a.time-5*minute >= b.time && (best < 0 || b.time >= r[best].time) {
				best = k
			}
		}
		if best >= 0 {
			want = append(want, []any{int64(a.seq), int64(r[best].seq)})
		}
	}
	if d := diffCells(mustRun(t, open, "SELECT a.seq, b.seq FROM m a ASOF JOIN w b ON a.series = b.series AND a.time - 5m >= b.time"), want); d != "" {
		t.Fatalf("ASOF a.time - 5m >= b.time: %s", d)
	}
	// A subquery side's aggregate against arithmetic of the other.
	mx := map[string]int64{}
	for _, b := range r {
		if s, ok := strOf(b, "s"); ok {
			if n, ok := intOf(b, "n"); ok {
				mx[s] = max(mx[s], n)
			}
		}
	}
	var agg int64
	for _, a := range l {
		s, ok1 := strOf(a, "s")
		n, ok2 := intOf(a, "n")
		if m, ok := mx[s]; ok && ok1 && ok2 && n+1 == m {
			agg++
		}
	}
	got := mustRun(t, open, "SELECT count(*) FROM m a JOIN (SELECT s, max(n) AS mx FROM w GROUP BY s) b ON a.n + 1 = b.mx AND a.s = b.s")
	if got[0][0] != agg || agg == 0 {
		t.Fatalf("a.n + 1 = b.mx: %v rows, want %d", got[0][0], agg)
	}
	wantErrors(t, open, []errCase{
		{"SELECT * FROM m a JOIN w b ON a.n + b.n = b.x", "takes columns of both sides", "a.n + b.n"},
		{"SELECT * FROM m a JOIN w b ON 1 = b.n", "names no column", "1 ="},
		{"SELECT * FROM m a JOIN w b ON max(a.n) = b.n", "not aggregates", "max"},
		{"SELECT * FROM m a JOIN w b ON a.time + 1m = b.n", "a.time + 1m is a timestamp and b.n is a number", "a.time"},
	})
}

// TestJoinPushdownEqual: a term holding a column equal to values gives
// the same term on the column ON makes it equal to, to the other side,
// in every kind of join (EXPLAIN shows it under b); the rows are the
// oracle's.
func TestJoinPushdownEqual(t *testing.T) {
	open, l, r := joinStreams(t, 1500, 40)
	const series = `cpu{host="a"}`
	for _, c := range []struct {
		on    string
		where string
		eq    [][2]string
		ord   [2]string
		op    string
		outer bool
	}{
		{on: "JOIN w b USING (series)", where: "series = 'cpu{host=\"a\"}'", eq: [][2]string{{"series", "series"}}},
		{on: "LEFT JOIN w b ON a.series = b.series AND a.key = b.key", where: "a.series IN ('cpu{host=\"a\"}')", eq: [][2]string{{"series", "series"}, {"key", "key"}}, outer: true},
		{on: "ASOF JOIN w b USING (series, time)", where: "a.series = 'cpu{host=\"a\"}'", eq: [][2]string{{"series", "series"}}, ord: [2]string{"time", "time"}, op: ">="},
		{on: "ASOF LEFT JOIN w b ON b.series = a.series AND a.time < b.time", where: "b.series = 'cpu{host=\"a\"}'", eq: [][2]string{{"series", "series"}}, ord: [2]string{"time", "time"}, op: "<", outer: true},
	} {
		q := "SELECT a.seq, b.seq FROM m a " + c.on + " WHERE " + c.where
		var want [][]any
		for _, p := range joinOracle(l, r, c.eq, c.ord, c.op, c.outer) {
			if l[p[0]].series != series || p[1] < 0 && strings.HasPrefix(c.where, "b.") {
				continue
			}
			var rs any
			if p[1] >= 0 {
				rs = int64(r[p[1]].seq)
			}
			want = append(want, []any{int64(l[p[0]].seq), rs})
		}
		if len(want) < 10 {
			t.Fatalf("%s: the oracle keeps %d rows: too few to test", q, len(want))
		}
		if d := diffCells(mustRun(t, open, q), want); d != "" {
			t.Fatalf("%s: %s", q, d)
		}
		plan, left, right := sidePlans(t, open, q)
		for side, text := range map[string]string{"a": left, "b": right} {
			if !strings.Contains(text, "series =") && !strings.Contains(text, "series IN") {
				t.Fatalf("%s: side %s has no series filter:\n%s", q, side, plan)
			}
		}
	}
}

// TestJoinPushdownShifted: a time range on a column ON equates with the
// other side's moved by a duration reaches the other side moved back
// (ON a.time = b.time + 20s: a.time >= t gives b.time >= t - 20s), in
// INNER and LEFT joins; the rows are the nested loops'.
func TestJoinPushdownShifted(t *testing.T) {
	open, l, r := joinStreams(t, 1500, 40)
	lo, hi := l[200].time, l[1300].time
	for _, kind := range []string{"JOIN", "LEFT JOIN"} {
		q := fmt.Sprintf("SELECT a.seq, b.seq FROM m a %s w b ON a.time = b.time + 20s WHERE a.time >= '%s' AND time < '%s'",
			kind, time.Unix(0, lo).UTC().Format(time.RFC3339Nano), time.Unix(0, hi).UTC().Format(time.RFC3339Nano))
		var want [][]any
		for _, a := range l {
			if a.time < lo || a.time >= hi {
				continue
			}
			n := len(want)
			for _, b := range r {
				if a.time == b.time+20e9 {
					want = append(want, []any{int64(a.seq), int64(b.seq)})
				}
			}
			if kind == "LEFT JOIN" && len(want) == n {
				want = append(want, []any{int64(a.seq), nil})
			}
		}
		if len(want) < 20 {
			t.Fatalf("%s: the oracle keeps %d rows: too few to test", q, len(want))
		}
		if d := diffCells(mustRun(t, open, q), want); d != "" {
			t.Fatalf("%s: %s", q, d)
		}
		plan, _, right := sidePlans(t, open, q)
		wantRange := fmt.Sprintf("time [%s, %s]", fmtTime(lo-20e9), fmtTime(hi-20e9-1))
		if !strings.Contains(right, wantRange) {
			t.Fatalf("%s: the right side's plan has no %s:\n%s", q, wantRange, plan)
		}
	}
}

// TestJoinUnnamedBase: the relation's time and series are the left
// row's even when the statement does not name them (the left side reads
// them though the text never says time or series): first and last order
// by that time, a label groups by that series, as when they are named.
func TestJoinUnnamedBase(t *testing.T) {
	open, _, _ := joinStreams(t, 800, 50)
	for _, c := range [][2]string{
		{"SELECT first(a.n), last(a.n), count(*) FROM m a JOIN w b USING (key) WHERE a.n IS NOT NULL",
			"SELECT first(a.n), last(a.n), count(*) FROM m a JOIN w b USING (key) WHERE a.n IS NOT NULL AND time IS NOT NULL"},
		{"SELECT host, count(*) FROM m a JOIN w b USING (key) GROUP BY host ORDER BY host",
			"SELECT host, count(*) FROM m a JOIN w b USING (key) WHERE series IS NOT NULL GROUP BY host ORDER BY host"},
	} {
		got, want := mustRun(t, open, c[0]), mustRun(t, open, c[1])
		if len(want) == 0 || len(want) == 1 && want[0][len(want[0])-1] == int64(0) {
			t.Fatalf("%s: nothing to compare: %v", c[1], want)
		}
		if d := diffCells(got, want); d != "" {
			t.Errorf("%s: %s", c[0], d)
		}
	}
}
