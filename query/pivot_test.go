package query

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestPivot: PIVOT makes a column of each ON value (sorted, NULL last),
// or of each IN value, or of each combination of several ON terms'
// values; each holds its aggregate over the group's rows with that value
// (count 0 and the others NULL where none), named as DuckDB names them;
// against the same computed in Go.
func TestPivot(t *testing.T) {
	src, rows := testSource(t, 3000, 50)
	open := openOnly(src)
	type key struct{ series, s string }
	count, sum := map[key]int64{}, map[key]float64{}
	sumSeen := map[key]bool{}
	seriesSet, sSet := map[string]bool{}, map[string]bool{}
	for _, r := range rows {
		if r.op != 1 {
			continue
		}
		s, ok := r.f["s"].(string)
		if !ok {
			s = "NULL"
		}
		k := key{r.series, s}
		seriesSet[r.series], sSet[s] = true, true
		count[k]++
		if v, ok := r.f["v"].(float64); ok {
			sum[k] += v
			sumSeen[k] = true
		}
	}
	sVals := slices.Sorted(func(yield func(string) bool) {
		for s := range sSet {
			if s != "NULL" && !yield(s) {
				return
			}
		}
	})
	if len(sVals) < 3 || len(seriesSet) < 3 {
		t.Fatalf("a weak source: %v, %d series", sVals, len(seriesSet))
	}
	q := "PIVOT (SELECT * FROM m WHERE op = 'put') ON s USING count(*), sum(v) AS total GROUP BY series ORDER BY series"
	cols, err := columnNamesOf(q, open)
	if err != nil {
		t.Fatal(err)
	}
	wantCols := []string{"series"}
	for _, s := range sVals {
		wantCols = append(wantCols, s+"_count(*)", s+"_total")
	}
	if !slices.Equal(cols, wantCols) {
		t.Fatalf("columns %q, want %q", cols, wantCols)
	}
	got := mustRun(t, open, q)
	var want [][]any
	for _, series := range slices.Sorted(func(yield func(string) bool) {
		for s := range seriesSet {
			if !yield(s) {
				return
			}
		}
	}) {
		row := []any{series}
		for _, s := range sVals {
			k := key{series, s}
			var total any
			if sumSeen[k] {
				total = sum[k]
			}
			row = append(row, count[k], total)
		}
		want = append(want, row)
	}
	// sums agree within rounding (summation order)
	for i := range got {
		for j := range got[i] {
			if g, ok := got[i][j].(float64); ok {
				if w, ok := want[i][j].(float64); ok && math.Abs(g-w) <= 1e-9*max(1, math.Abs(w)) {
					got[i][j] = w
				}
			}
		}
	}
	if d := diffCells(got, want); d != "" {
		t.Fatal(d)
	}
	// IN picks the columns, a value absent included, NULL too; one USING unnamed
	// names a column by the value alone; a source of the ON column alone is
	// one row.
	got = mustRun(t, open, "PIVOT (SELECT s FROM m WHERE op = 'put') ON s IN ('alpha', 'nothing', NULL) USING count(*)")
	var alpha, null int64
	for k, n := range count {
		switch k.s {
		case "alpha":
			alpha += n
		case "NULL":
			null += n
		}
	}
	if null == 0 {
		t.Fatal("a weak source: no put row without s")
	}
	if d := diffCells(got, [][]any{{alpha, int64(0), null}}); d != "" {
		t.Fatalf("IN: %s", d)
	}
	// Several ON terms: every combination of their values, a condition's
	// too.
	cols, err = columnNamesOf("PIVOT (SELECT b, n FROM m) ON b, n > 25 USING count(*)", open)
	if err != nil || strings.Join(cols, "|") != "false_false|false_true|true_false|true_true" {
		t.Fatalf("two ON terms: %q %v", cols, err)
	}
	got = mustRun(t, open, "PIVOT (SELECT b, n FROM m) ON b, n > 25 USING count(*)")
	var tt int64
	for _, r := range rows {
		if b, ok := r.f["b"].(bool); ok && b {
			if n, ok := r.f["n"].(int64); ok && n > 25 {
				tt++
			}
		}
	}
	if got[0][3] != tt {
		t.Fatalf("true_true %v, want %d", got[0][4], tt)
	}
	// Without GROUP BY it groups by the columns ON and USING leave, as
	// DuckDB does: a stream's series and other fields (not its seq, time,
	// key and op, nor bytes), a relation's own columns.
	if cols, err := columnNamesOf("PIVOT m ON s IN ('alpha') USING count(*)", open); err != nil || strings.Join(cols, "|") != "series|b|n|v|x|alpha" {
		t.Fatalf("implicit GROUP BY: %q %v", cols, err)
	}
	sameRows(t, open, "PIVOT m ON s IN ('alpha', 'beta') USING avg(v) ORDER BY ALL",
		"SELECT series, b, n, x, avg(v) FILTER (WHERE s = 'alpha') AS alpha, avg(v) FILTER (WHERE s = 'beta') AS beta FROM m GROUP BY series, b, n, x ORDER BY ALL", 100)
	sameRows(t, open, "PIVOT (SELECT series AS host, s, v, key FROM m) ON s IN ('alpha') USING sum(v) ORDER BY host, key",
		"SELECT series AS host, key, sum(v) FILTER (WHERE s = 'alpha') AS alpha FROM m GROUP BY host, key ORDER BY host, key", 20)
	sameRows(t, open, "PIVOT (VALUES ('a', 1, 2.5), ('a', 2, 3), ('b', 1, 5)) AS t(k, y, v) ON y USING sum(v)",
		"VALUES ('a', 2.5, 3.0), ('b', 5, NULL)", 2)
	// An expression of aggregates in USING takes each filtered.
	sameRows(t, open, "PIVOT m ON s IN ('alpha') USING max(v) - min(v) AS spread GROUP BY series",
		"SELECT max(v) FILTER (WHERE s = 'alpha') - min(v) FILTER (WHERE s = 'alpha') AS alpha_spread FROM m GROUP BY series", 3)
	// Time buckets group it, ORDER BY and LIMIT apply to the result.
	sameRows(t, open, "PIVOT m ON s IN ('alpha', 'beta') USING max(v) GROUP BY time(1h) ORDER BY time DESC LIMIT 3",
		"SELECT max(v) FILTER (WHERE s = 'alpha') AS alpha, max(v) FILTER (WHERE s = 'beta') AS beta FROM m GROUP BY time(1h) ORDER BY time DESC LIMIT 3", 3)
	// As a WITH relation, beside VALUES; DESCRIBE and SUMMARIZE take it.
	sameRows(t, open, "WITH p AS (PIVOT m ON s IN ('alpha', 'beta') USING count(*) GROUP BY series), k AS (VALUES ('alpha')) SELECT p.series, p.alpha FROM p, k ORDER BY p.series",
		"SELECT series, count(*) FILTER (WHERE s = 'alpha') AS alpha FROM m GROUP BY series ORDER BY series", 3)
	if d := diffCells(mustRun(t, open, "DESCRIBE PIVOT m ON s IN ('alpha') USING max(v) GROUP BY series"), [][]any{{"series", "string", false}, {"alpha", "float64", true}}); d != "" {
		t.Fatalf("DESCRIBE PIVOT: %s", d)
	}
	if got := mustRun(t, open, "SUMMARIZE UNPIVOT (SELECT v, x FROM m) ON v, x"); len(got) != 2 || got[0][0] != "name" || got[1][0] != "value" {
		t.Fatalf("SUMMARIZE UNPIVOT: %v", got)
	}
	wantErrors(t, open, []errCase{
		{"PIVOT m USING count(*)", "PIVOT wants ON <column> after its source", "USING"},
		{"PIVOT m ON s", "PIVOT wants USING <aggregate> after ON", ""},
		{"PIVOT m ON s USING v + 1", "PIVOT ... USING wants an aggregate", "+"},
		{"PIVOT m ON s, b IN (1) USING count(*)", "IN (...) lists the values of one ON column", "IN"},
		{"PIVOT m ON v USING count(*)", fmt.Sprintf("more than %d values", maxPivotColumns), "v USING"},
		{"PIVOT (SELECT * FROM m WHERE false) ON s USING count(*)", "ON has no value in the source", "PIVOT"},
		{"PIVOT m ON s USING count(*) GROUP BY ROLLUP (series)", "PIVOT's GROUP BY takes plain terms", "GROUP"},
		{"PIVOT m ON nope USING count(*)", `unknown column "nope"`, "nope"},
	})
}

// TestPivotModel: random PIVOTs (sources, ON terms with and without IN,
// USING aggregates and expressions of them, GROUP BY terms and time
// buckets) against the SELECT they stand for, each value's aggregate
// FILTER (WHERE term = value): the same rows, the same cells. The
// values without IN are the term's distinct ones but NULL.
func TestPivotModel(t *testing.T) {
	seed := *modelSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (replay with -model.seed=%d)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 9))
	rows := genRows(rng, 1200, modelNow.Add(-5*time.Hour).UnixNano())
	src, err := buildSource(rng, rows, 64)
	if err != nil {
		t.Fatal(err)
	}
	open := openOnly(src)
	g := &qgen{rng: rng, rows: rows}
	type using struct{ text, filtered string } // filtered: %[1]s the filter
	usings := []using{
		{"count(*)", "count(*) FILTER (WHERE %[1]s)"},
		{"sum(n)", "sum(n) FILTER (WHERE %[1]s)"},
		{"avg(v)", "avg(v) FILTER (WHERE %[1]s)"},
		{"min(x)", "min(x) FILTER (WHERE %[1]s)"},
		{"max(time)", "max(time) FILTER (WHERE %[1]s)"},
		{"count(DISTINCT key)", "count(DISTINCT key) FILTER (WHERE %[1]s)"},
		{"string_agg(key, ';')", "string_agg(key, ';') FILTER (WHERE %[1]s)"},
		{"max(v) - min(v)", "max(v) FILTER (WHERE %[1]s) - min(v) FILTER (WHERE %[1]s)"},
		{"bool_or(b)", "bool_or(b) FILTER (WHERE %[1]s)"},
	}
	ons := []struct{ term, in string }{
		{"s", "('alpha', 'beta', 'zeta')"}, {"b", ""}, {"n % 3", "(0, 2, 5)"}, {"key", ""}, {"v > 50", ""}, {"lower(s)", ""},
	}
	for i := range *modelQueries / 2 {
		source := "m"
		if rng.IntN(3) == 0 {
			source = "(SELECT * FROM m WHERE " + g.cond(2) + ")"
		}
		on := ons[rng.IntN(len(ons))]
		withIn := on.in != "" && rng.IntN(2) == 0
		var us []using
		for range 1 + rng.IntN(2) {
			us = append(us, usings[rng.IntN(len(usings))])
		}
		us = slices.CompactFunc(us, func(a, b using) bool { return a.text == b.text })
		group := g.pick("", " GROUP BY time(1h)", " GROUP BY series", " GROUP BY hour(time), series", " GROUP BY time(30m), s", " GROUP BY n % 2")
		q := "PIVOT " + source + " ON " + on.term
		if withIn {
			q += " IN " + on.in
		}
		var texts []string
		for _, u := range us {
			texts = append(texts, u.text)
		}
		q += " USING " + strings.Join(texts, ", ") + group
		if group == "" { // the columns ON and USING leave: series, the fields unnamed, in the source's order
			var left, cols []string
			for _, r := range mustRun(t, open, "DESCRIBE SELECT * FROM "+source) {
				if c := r[0].(string); slices.Contains([]string{"series", "b", "n", "s", "v", "x"}, c) {
					cols = append(cols, c)
				}
			}
			for _, f := range cols {
				if !regexp.MustCompile(`\b` + f + `\b`).MatchString(on.term + " " + strings.Join(texts, " ")) {
					left = append(left, f)
				}
			}
			group = " GROUP BY " + strings.Join(left, ", ")
		}
		// The values the SELECT filters on.
		var values []string
		if withIn {
			values = strings.Split(strings.Trim(on.in, "()"), ", ")
		} else {
			for _, r := range mustRun(t, open, "SELECT DISTINCT "+on.term+" AS t FROM "+source+" WHERE "+on.term+" IS NOT NULL ORDER BY t") {
				switch v := r[0].(type) {
				case string:
					values = append(values, "'"+v+"'")
				default:
					values = append(values, fmt.Sprint(v))
				}
			}
		}
		var items []string
		for _, v := range values {
			filter := on.term + " = " + v
			if v == "true" || v == "false" {
				filter = "(" + on.term + ") = " + v
			}
			for _, u := range us {
				items = append(items, fmt.Sprintf(u.filtered, filter))
			}
		}
		if len(items) == 0 {
			continue // an empty source: PIVOT says so (TestPivot)
		}
		same := "SELECT " + strings.Join(items, ", ") + " FROM " + source + group
		got, err := runCells(q, open, &Options{BatchRows: 1 + rng.IntN(300), Parallelism: 1 + rng.IntN(3), Now: modelNow})
		if err != nil {
			t.Fatalf("query %d %q: %v", i, q, err)
		}
		want, err := runCells(same, open, &Options{Now: modelNow})
		if err != nil {
			t.Fatalf("query %d %q: %v", i, same, err)
		}
		sortRows := func(rows [][]any) {
			slices.SortFunc(rows, func(a, b []any) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
		}
		sortRows(got)
		sortRows(want)
		if d := diffCells(got, want); d != "" {
			t.Fatalf("query %d (seed %d)\n%s\nagainst\n%s\n%s", i, seed, q, same, d)
		}
	}
}

// TestPivotSubqueryOnce: a PIVOT or UNPIVOT of a subquery runs the
// subquery once, whatever queries it makes of it: the stream is opened
// once.
func TestPivotSubqueryOnce(t *testing.T) {
	src, _ := testSource(t, 500, 20)
	for _, q := range []string{
		"PIVOT (SELECT series, s, v FROM m) ON s USING avg(v)",
		"PIVOT (SELECT series, s, v FROM m) ON s IN ('alpha', 'nothing') USING count(*), max(v) GROUP BY series",
		"UNPIVOT (SELECT series, v, x, n FROM m) ON v, x, n",
	} {
		opened := 0
		open := func(name string) (Source, error) {
			opened++
			return openOnly(src)(name)
		}
		if rows := mustRun(t, open, q); len(rows) == 0 {
			t.Fatalf("%s: no rows", q)
		}
		if opened != 1 {
			t.Errorf("%s: the stream opened %d times, want once", q, opened)
		}
	}
}
