package query

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

var (
	modelSeed    = flag.Uint64("model.seed", 0, "seed of TestModel (0: from the clock)")
	modelQueries = flag.Int("model.queries", 400, "queries TestModel runs")
)

// fieldKinds are the stream-wide types of the generated fields.
var fieldKinds = map[string]colKind{"v": kFloat, "n": kInt, "s": kString, "b": kBool, "x": kFloat}

var modelNow = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// TestModel runs random queries over generated records and compares
// every result with a brute-force evaluation over the same rows.
func TestModel(t *testing.T) {
	seed := *modelSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (replay with -model.seed=%d)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	t0 := modelNow.Add(-5 * time.Hour).UnixNano()
	rows := genRows(rng, 1500, t0)
	src, err := buildSource(rng, rows, 64)
	if err != nil {
		t.Fatal(err)
	}
	src.deleted = roaring64.New()
	for _, r := range rows {
		if rng.IntN(30) == 0 {
			src.deleted.Add(r.seq)
		}
	}
	open := func(name string) (Source, error) {
		if name != "m" {
			return nil, fmt.Errorf("no stream %q", name)
		}
		return src, nil
	}
	defs, err := Fields(src)
	if err != nil {
		t.Fatal(err)
	}
	var star []string
	for _, d := range defs {
		if k := kindOfField(d.Type); k != fieldKinds[d.Name] {
			t.Fatalf("field %s is %s, want %s", d.Name, k, fieldKinds[d.Name])
		}
		star = append(star, d.Name)
	}
	if len(star) != len(fieldKinds) {
		t.Fatalf("fields %v", star)
	}
	g := &qgen{rng: rng, rows: rows}
	joined := 0
	defer func() { t.Logf("%d of the queries read a join", joined) }()
	for i := range *modelQueries {
		g.join = rng.IntN(4) == 0
		q := g.query()
		if g.join && (strings.Contains(q, "seq") || strings.Contains(q, "SELECT *")) {
			continue // a join's seq is its row number, and * its sides' columns
		}
		if g.join {
			joined++
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		got, err := runCells(q, open, &Options{Allocator: mem, BatchRows: 1 + rng.IntN(300), Parallelism: 1 + rng.IntN(3), Now: modelNow})
		if err != nil {
			t.Fatalf("query %d %q: %v", i, q, err)
		}
		mem.AssertSize(t, 0)
		want, err := brute(q, rows, src.deleted, star)
		if err != nil {
			t.Fatalf("query %d %q: brute: %v", i, q, err)
		}
		if msg := diffCells(got, want); msg != "" {
			t.Fatalf("query %d %q (seed %d): %s", i, q, seed, msg)
		}
	}
}

// runCells runs a query and returns its cells: nil, uint64, int64,
// float64, string or bool.
func runCells(q string, open Opener, o *Options) ([][]any, error) {
	rr, err := Run(context.Background(), q, open, o)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	var out [][]any
	for rr.Next() {
		rec := rr.RecordBatch()
		for i := range int(rec.NumRows()) {
			row := make([]any, rec.NumCols())
			for c := range row {
				row[c] = cellOf(rec.Column(c), i)
			}
			out = append(out, row)
		}
	}
	return out, rr.Err()
}

func cellOf(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.Uint64:
		return a.Value(i)
	case *array.Int64:
		return a.Value(i)
	case *array.Timestamp:
		return int64(a.Value(i))
	case *array.Duration:
		return int64(a.Value(i))
	case *array.Float64:
		return a.Value(i)
	case *array.String:
		return a.Value(i)
	case *array.Boolean:
		return a.Value(i)
	case *array.Dictionary:
		return a.Dictionary().(*array.String).Value(a.GetValueIndex(i))
	}
	panic(fmt.Sprintf("cell of %T", a))
}

func diffCells(got, want [][]any) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d rows, want %d\ngot  %v\nwant %v", len(got), len(want), head(got), head(want))
	}
	for i := range got {
		if len(got[i]) != len(want[i]) {
			return fmt.Sprintf("row %d: %v, want %v", i, got[i], want[i])
		}
		for c := range got[i] {
			if !sameCell(got[i][c], want[i][c]) {
				return fmt.Sprintf("row %d col %d: %v (%T), want %v (%T)\nrow %v\nwant %v", i, c, got[i][c], got[i][c], want[i][c], want[i][c], got[i], want[i])
			}
		}
	}
	return ""
}

func head(rows [][]any) [][]any { return rows[:min(len(rows), 5)] }

func sameCell(a, b any) bool {
	if fa, ok := a.(float64); ok {
		fb, ok := b.(float64)
		return ok && (fa == fb || math.Abs(fa-fb) <= 1e-9*max(1, math.Abs(fa), math.Abs(fb)))
	}
	return a == b
}

// qgen generates random queries over the generated stream "m".
type qgen struct {
	rng  *rand.Rand
	rows []trow
	// join: the query reads its source joined with the distinct series
	// (each row pairs with one right row: the relation is the source's
	// rows, in order, as the oracle reads them, but for seq and *)
	join bool
}

// modelJoin is what a join query's source is followed by; or
// modelComma, with modelTie first in WHERE (a comma join, made INNER).
const (
	modelJoin  = " AS a JOIN (SELECT DISTINCT series FROM m) AS k USING (series)"
	modelComma = " AS a, (SELECT DISTINCT series FROM m) AS k"
	modelTie   = " WHERE a.series = k.series"
)

// unjoined is q without its join (the same rows: qgen.join).
func unjoined(q string) string {
	q = strings.Replace(q, modelJoin, "", 1)
	q = strings.Replace(q, modelComma, "", 1)
	q = strings.Replace(q, modelTie+" AND ", " WHERE ", 1)
	return strings.Replace(q, modelTie, "", 1)
}

func (g *qgen) pick(s ...string) string { return s[g.rng.IntN(len(s))] }

func (g *qgen) timeLit() string {
	r := g.rows[g.rng.IntN(len(g.rows))]
	if g.rng.IntN(3) == 0 {
		d := modelNow.Sub(time.Unix(0, r.time)).Round(time.Minute)
		return fmt.Sprintf("now() - %dm", int(d.Minutes()))
	}
	return "'" + time.Unix(0, r.time).UTC().Format(time.RFC3339) + "'"
}

func (g *qgen) atom() string {
	switch g.rng.IntN(19) {
	case 0:
		return "time " + g.pick(">=", "<", ">", "<=") + " " + g.timeLit()
	case 1:
		return fmt.Sprintf("seq %s %d", g.pick(">", "<=", "=", "!="), 1+g.rng.IntN(len(g.rows)))
	case 2:
		return "series = '" + testSeries[g.rng.IntN(len(testSeries))] + "'"
	case 3:
		return "series LIKE '" + g.pick("cpu%", "m%", "%a%", "nab/%", "d_sk") + "'"
	case 4:
		return "series =~ '" + g.pick("cpu.*", ".*host=\"a\".*", "disk|mem.*") + "'"
	case 5:
		return "series ~ " + g.pick(`cpu{host="a"}`, `{host="a"}`, `cpu{host!="a"}`, `{host=~"a|b"}`, `{dc="x"}`, `mem`)
	case 6:
		if g.rng.IntN(3) == 0 { // ranges and prefixes: pruned by key span
			return g.pick("key >= 'k2' AND key < 'k5'", "key LIKE 'k1%'", "key <= 'k3'", "key > 'k6'", "key >= ''")
		}
		return "key " + g.pick("=", "!=", ">") + fmt.Sprintf(" 'k%d'", g.rng.IntN(8))
	case 7:
		return "op = '" + g.pick("put", "delete", "drop") + "'"
	case 8:
		return fmt.Sprintf("v %s %d", g.pick(">", "<", ">=", "=", "!="), g.rng.IntN(200)-50)
	case 9:
		return fmt.Sprintf("v %s %.2f", g.pick(">", "<="), g.rng.Float64()*200-50)
	case 10:
		return fmt.Sprintf("n %s %d", g.pick(">", "<", "=", "!=", "<="), g.rng.IntN(100))
	case 11:
		return g.pick("s", "v", "n", "b", "x") + g.pick(" IS NULL", " IS NOT NULL")
	case 12:
		return "s " + g.pick("= 'alpha'", "< 'beta'", "LIKE '%a'", "NOT LIKE 'g%'", "IN ('beta', 'Delta')", "=~ '[a-d].*'")
	case 13:
		return "b = " + g.pick("true", "false")
	case 14:
		return fmt.Sprintf("x %s %d", g.pick(">", "<", "="), g.rng.IntN(50))
	case 15:
		return "key IN ('k1', 'k2', '')"
	case 16:
		if !g.join { // correlated: the outer rows are the stream's, m.x
			return g.correlated()
		}
	case 17:
		return g.pick("v * 2 > n", "n + 3 <= x", "abs(v) < n", "v - x != 0", "n * n > 2000", "(n + 1) / 2 >= 10",
			"2 * v > 40", "-v < 10", "x > v", "seq * 2 < 500", "n - seq > -300", "floor(v / 10) = n", "s = series",
			"series != key", "key < s", "round(v) - n <= 1", "(v) > 20", "1 > n - x", "sqrt(v) > 3", "n / 0 > 1", "b != b",
			"-n >= -50", "abs(n - 50) < 10", "-(n * 3) + time > time - 100",
			"hour(time) >= 12", "minute(time) < 30", "dayofweek(time) = 3", "day(time, 'Pacific/Chatham') > 1",
			"isodow(time) + hour(time) > 8", "hour(time, 'America/New_York') <= 20", "second(time) != 0",
			"coalesce(v, n, -1) > 20", "coalesce(n, 5) = 5", "coalesce(x, v) < coalesce(n, 0)",
			"greatest(v, n) > 60", "least(n, x, 20) < 10", "nullif(n % 10, 5) > 3", "greatest(s, key) = 'k1'", "least(v, x) * 2 > greatest(n, 3)",
			"nullif(s, 'beta') < 'c'", "greatest(time, now() - 2h) = time",
			"lower(s) = 'delta'", "length(series) > 8", "substr(series, 1, 3) = 'cpu'", "split_part(series, '{', 1) = 'cpu'",
			"strpos(series, 'host') > 0", "concat(s, key) = 'alphak1'", "s || key = 'alphak1'", "'x' || s || n > 'xbeta'",
			"n * 2 BETWEEN 10 AND 60", "v NOT BETWEEN n AND n + 50", "(n + 1) IN (3, 5, 8)", "(v / 2) NOT BETWEEN 5 AND 30", "n BETWEEN x AND 40", "upper(key) < 'K3'", "label(series, 'host') = 'a'",
			"CASE WHEN v > 50 THEN 1 WHEN n > 10 THEN 2 ELSE 3 END = 2", "CASE WHEN b THEN s ELSE key END = 'beta'",
			"replace(s, 'a', '') = 'lph'", "trim(concat(' ', s)) = 'beta'", "CASE WHEN n > 50 THEN 'x' END IS NULL",
			"substr(s, 2) >= 'eta'", "concat(n, '-', s) = '7-beta'", "n % 7 = 3", "v % 10 < 5", "n % 0 > 1", "-n % 4 = -1", "x % 2.5 > 1",
			"time + 1h > now()", "now() - time < 90m", "date_trunc('hour', time) = date_trunc('hour', now() - 2h)",
			"time_bucket(20m, time, 5m) + 20m > now() - 1h", "date_trunc('day', time, 'Asia/Kolkata') < now() - 12h",
			"time - date_trunc('minute', time) < 30s", "now() - 3h <= time_bucket(1h, time)")
	}
	return fmt.Sprintf("n NOT IN (%d, %d)", g.rng.IntN(100), g.rng.IntN(100))
}

// correlated is a condition with a correlated subquery over the raw
// rows (as i), tied to the outer row by one or two equalities.
func (g *qgen) correlated() string {
	keys := [][2]string{{"i.series", "m.series"}, {"i.key", "m.key"}, {"i.s", "m.s"}, {"i.n % 3", "m.n % 3"},
		{"i.n", "m.x"}, {"hour(i.time)", "hour(m.time)"}, {"m.series", "i.series"}, {"i.time", "m.time"}}
	k := keys[g.rng.IntN(len(keys))]
	where := k[0] + " = " + k[1]
	if g.rng.IntN(3) == 0 {
		k2 := keys[g.rng.IntN(len(keys))]
		where += " AND " + k2[1] + " = " + k2[0]
	}
	if g.rng.IntN(2) == 0 {
		where += g.pick(" AND i.v > 20", " AND i.op = 'put'", " AND i.seq < 700", " AND i.s IS NOT NULL")
	}
	if g.rng.IntN(4) == 0 {
		return g.pick("", "NOT ") + "EXISTS (SELECT 1 FROM m AS i WHERE " + where + ")"
	}
	if g.rng.IntN(3) == 0 {
		in := [][2]string{{"n", "i.n"}, {"x", "i.n"}, {"n", "i.n + 1"}, {"s", "i.s"}, {"key", "i.key"}, {"v", "max(i.v)"}, {"n", "count(*)"}}[g.rng.IntN(7)]
		return fmt.Sprintf("%s %sIN (SELECT %s FROM m AS i WHERE %s)", in[0], g.pick("", "NOT "), in[1], where)
	}
	agg := g.pick("avg(i.v)", "max(i.n)", "count(*)", "min(i.x)", "sum(i.n)", "count(i.s)", "max(i.s)")
	col := g.pick("v", "n", "x")
	if agg == "max(i.s)" {
		col = "s"
	}
	return fmt.Sprintf("%s %s (SELECT %s FROM m AS i WHERE %s)", col, g.pick(">", "<", "=", ">=", "!="), agg, where)
}

func (g *qgen) cond(depth int) string {
	if depth <= 0 || g.rng.IntN(3) == 0 {
		return g.atom()
	}
	switch g.rng.IntN(4) {
	case 0:
		return "(" + g.cond(depth-1) + " OR " + g.cond(depth-1) + ")"
	case 1:
		return "NOT (" + g.cond(depth-1) + ")"
	}
	return g.cond(depth-1) + " AND " + g.cond(depth-1)
}

func (g *qgen) query() string {
	var sb strings.Builder
	from := "m"
	if g.rng.IntN(3) == 0 {
		from = "fold(m)"
		switch g.rng.IntN(3) {
		case 0:
			from += fmt.Sprintf(" AS OF SEQ %d", 1+g.rng.IntN(len(g.rows)))
		case 1:
			from += " AS OF TIME " + g.timeLit()
		}
	}
	comma := g.join && g.rng.IntN(2) == 0
	switch {
	case comma:
		from += modelComma
	case g.join:
		from += modelJoin
	}
	where := ""
	if g.rng.IntN(5) > 0 {
		where = " WHERE " + g.cond(3)
	}
	if comma {
		where = modelTie + strings.Replace(where, " WHERE ", " AND (", 1)
		if where != modelTie {
			where += ")"
		}
	}
	if g.rng.IntN(2) == 0 {
		// raw
		cols := "*"
		var outCols []string
		if g.rng.IntN(2) == 0 {
			all := []string{"seq", "time", "series", "key", "op", "v", "n", "s", "b", "x"}
			g.rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
			outCols = all[:1+g.rng.IntN(5)]
			cols = strings.Join(outCols, ", ")
		}
		fmt.Fprintf(&sb, "SELECT %s FROM %s%s", cols, from, where)
		if g.rng.IntN(2) == 0 {
			fmt.Fprintf(&sb, " ORDER BY %s %s", g.pick("time", "v", "series", "seq", "n", "s"), g.pick("ASC", "DESC", ""))
		}
	} else {
		var aggs []string
		for range 1 + g.rng.IntN(4) {
			fn := g.pick("count", "sum", "min", "max", "avg", "first", "last", "rate", "quantile", "count(*)",
				"median", "stddev", "stddev_pop", "variance", "var_pop", "spread", "arg_max", "arg_min", "max_by", "string_agg",
				"corr", "covar_pop", "covar_samp", "regr_slope", "regr_intercept", "regr_r2", "regr_count", "quantile_disc")
			arg := g.pick("v", "n", "x")
			if g.rng.IntN(6) == 0 {
				arg = g.pick("v * 2", "n + x", "abs(v - 50)", "hour(time)", "n - 3", "v / 4", "-n", "CASE WHEN b THEN v ELSE 0.5 END",
					"greatest(v, x, 10.5)", "least(n, 7)", "nullif(n, 50)", // (a mixed pair is a float, which the oracle cannot tell)
					"date_trunc('minute', time) - now()")
			}
			var text string
			switch fn {
			case "count(*)":
				text = fn
			case "quantile":
				text = fmt.Sprintf("quantile(%s, %s)", g.pick("0", "0.5", "0.9", "1", "0.25"), arg)
			case "quantile_disc":
				q := g.pick("0", "0.5", "0.9", "1", "0.25", "0.33")
				text = g.pick(fmt.Sprintf("quantile_disc(%s, %s)", arg, q), fmt.Sprintf("percentile_disc(%s) WITHIN GROUP (ORDER BY %s)", q, arg))
			case "string_agg":
				text = fmt.Sprintf("string_agg(%s%s%s)", g.pick("", "", "DISTINCT "), g.pick("s", "series", "key", "lower(s)", "concat(key, '/', s)"), g.pick("", ", ';'", ", ''"))
			case "corr", "covar_pop", "covar_samp", "regr_slope", "regr_intercept", "regr_r2", "regr_count":
				text = fmt.Sprintf("%s(%s, %s)", fn, g.pick("v", "n", "x", "v * 2", "n % 5"), g.pick("n", "x", "v", "hour(time)", "n % 7", "x / 3"))
			case "arg_max", "arg_min", "max_by":
				text = fmt.Sprintf("%s(%s, %s)", fn, g.pick("v", "n", "s", "time", "series", "key", "b", "v * 2", "date_trunc('minute', time)"),
					g.pick("v", "n", "x", "s", "time", "n % 7", "abs(v - 50)", "series"))
			case "min", "max", "first", "last", "count":
				arg = g.pick("v", "n", "x", "s", "time", "series", "date_trunc('minute', time)", "time_bucket(7m, time) + 1h")
				if fn != "min" && fn != "max" && g.rng.IntN(4) == 0 { // a condition's value: a bool, NULL when unknown
					arg = g.pick("v > 50", "NOT b", "s LIKE 'a%' OR n < 5", "n BETWEEN 10 AND 30", "coalesce(x > 2, b)")
				}
				fallthrough
			default:
				text = fn + "(" + arg + ")"
			}
			if g.rng.IntN(5) == 0 {
				text += " FILTER (WHERE " + g.cond(1) + ")"
			}
			aggs = append(aggs, text)
		}
		aggs = distinctStrings(aggs) // a column named twice is an error in a subquery
		fmt.Fprintf(&sb, "SELECT %s FROM %s%s", strings.Join(aggs, ", "), from, where)
		var groups []string
		if g.rng.IntN(3) > 0 {
			groups = append(groups, "time("+g.pick("5m", "1h", "90s", "1d", "1h, 15m", "90s, -30s", "1d, 'Europe/Berlin'",
				"1h, 'Asia/Kolkata'", "2h, 1h, 'America/New_York'", "2d, 'Pacific/Chatham'")+")")
		}
		for _, c := range []string{"series", "host", "key", "s"} {
			if g.rng.IntN(4) == 0 {
				groups = append(groups, c)
			}
		}
		if g.rng.IntN(4) == 0 {
			groups = append(groups, g.pick("hour(time)", "floor(v / 25)", "dayofweek(time, 'Asia/Kolkata')", "n / 10", "minute(time) * 2 + isodow(time)",
				"lower(s)", "CASE WHEN v > 50 THEN 'hi' WHEN v > 0 THEN 'mid' END", "split_part(series, '{', 1)",
				"date_trunc('hour', time)", "time_bucket(25m, time, -5m)", "date_trunc('day', time, 'America/New_York')", "v > 50", "n IS NULL OR b"))
		}
		if len(groups) > 0 {
			sb.WriteString(" GROUP BY " + strings.Join(groups, ", "))
		}
		// stddev, variance and the bivariate aggregates agree with the
		// oracle's two-pass formulas within rounding only: groups whose
		// values tie exactly in one may not in the other, so they do not
		// order the result.
		exact := slices.DeleteFunc(slices.Clone(aggs), func(a string) bool {
			return strings.HasPrefix(a, "stddev") || strings.HasPrefix(a, "var") || strings.HasPrefix(a, "corr") || strings.HasPrefix(a, "covar") ||
				strings.HasPrefix(a, "regr_") && !strings.HasPrefix(a, "regr_count")
		})
		if len(exact) > 0 && g.rng.IntN(2) == 0 {
			sb.WriteString(" ORDER BY " + exact[g.rng.IntN(len(exact))] + g.pick(" DESC", ""))
		}
	}
	switch g.rng.IntN(6) {
	case 0, 1:
		fmt.Fprintf(&sb, " LIMIT %d", g.rng.IntN(20))
	case 2:
		fmt.Fprintf(&sb, " LIMIT %s%%", strconv.FormatFloat(float64(g.rng.IntN(1001))/10, 'f', -1, 64))
	}
	return sb.String()
}

// brute evaluates a query naively over rows.
func brute(q string, rows []trow, deleted *roaring64.Bitmap, star []string) ([][]any, error) {
	st, err := Parse(unjoined(q)) // the same rows (qgen.join)
	if err != nil {
		return nil, err
	}
	var live []trow
	for _, r := range rows {
		if !deleted.Contains(r.seq) {
			live = append(live, r)
		}
	}
	bruteRaw, bruteMemo = live, map[string]any{}
	if st.Fold {
		live = bruteFold(st, live)
	}
	var sel []trow
	for _, r := range live {
		if st.Where == nil || evalExpr(st.Where, &r) == tTrue {
			sel = append(sel, r)
		}
	}
	if isAggregate(st) {
		return bruteAgg(st, sel), nil
	}
	names := []string{"seq", "time", "series", "key", "op"}
	if st.Star {
		names = append(names, star...)
	} else {
		names = nil
		for _, it := range st.Items {
			names = append(names, it.Col.Name)
		}
	}
	if len(st.OrderBy) > 0 {
		o := st.OrderBy[0]
		k := kindOfName(o.Name)
		sort.SliceStable(sel, func(i, j int) bool {
			c := compareAny(k, cellAt(&sel[i], o.Name), cellAt(&sel[j], o.Name))
			if o.Desc {
				c = -c
			}
			return c < 0
		})
	}
	out := [][]any{}
	for _, r := range sel {
		row := make([]any, len(names))
		for i, n := range names {
			row[i] = cellAt(&r, n)
		}
		out = append(out, row)
	}
	if st.Limit >= 0 && int64(len(out)) > st.Limit {
		out = out[:st.Limit]
	}
	if st.limitPct != nil { // LIMIT p%: the first floor(p·n/100)
		out = out[:int(math.Floor(*st.limitPct*float64(len(out))/100))]
	}
	return out, nil
}

// bruteFold keeps, scanning backwards from the newest row within AS OF,
// the puts that no later row of their key or later drop of their series
// overrides.
func bruteFold(st *Statement, rows []trow) []trow {
	asSeq, asTime := uint64(math.MaxUint64), int64(math.MaxInt64)
	if st.AsOf != nil {
		if st.AsOf.Seq > 0 {
			asSeq = st.AsOf.Seq
		} else {
			asTime = litTime(st.AsOf.Time)
		}
	}
	dropped := map[string]bool{}
	seen := map[string]bool{}
	var keep []trow
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		if r.seq > asSeq || r.time > asTime {
			continue
		}
		id := r.series + "\x00" + r.key
		switch {
		case r.op == 3:
			dropped[r.series] = true
		case dropped[r.series]:
		case r.key == "":
			if r.op == 1 {
				keep = append(keep, r)
			}
		default:
			if !seen[id] && r.op == 1 {
				keep = append(keep, r)
			}
			seen[id] = true
		}
		if r.key != "" && r.op != 3 {
			seen[id] = true
		}
	}
	slices.Reverse(keep)
	return keep
}

func litTime(l *Lit) int64 {
	if l.Kind == LitInt {
		return l.Int
	}
	base := modelNow.UnixNano()
	if !l.Now {
		base, _ = parseTime(l.Str)
	}
	return base + l.Shift
}

func kindOfName(n string) colKind {
	k, ok := kindOfCol(n, &fieldSet{})
	if ok {
		return k
	}
	return fieldKinds[n]
}

// cellAt returns a row's column as an output cell.
func cellAt(r *trow, name string) any {
	switch name {
	case "seq":
		return r.seq
	case "time":
		return r.time
	case "series":
		return r.series
	case "key":
		return r.key
	case "op":
		return opName(r.op)
	}
	v, ok := r.f[name]
	if !ok {
		return nil
	}
	if name == "x" {
		return anyFloat(v)
	}
	return v
}

// tri is a three-valued truth.
type tri uint8

const (
	tFalse tri = iota
	tTrue
	tUnknown
)

func triOf(b bool) tri {
	if b {
		return tTrue
	}
	return tFalse
}

func evalExpr(e Expr, r *trow) tri {
	switch e := e.(type) {
	case *And:
		a, b := evalExpr(e.L, r), evalExpr(e.R, r)
		if a == tFalse || b == tFalse {
			return tFalse
		}
		if a == tTrue && b == tTrue {
			return tTrue
		}
		return tUnknown
	case *Or:
		a, b := evalExpr(e.L, r), evalExpr(e.R, r)
		if a == tTrue || b == tTrue {
			return tTrue
		}
		if a == tFalse && b == tFalse {
			return tFalse
		}
		return tUnknown
	case *Not:
		switch evalExpr(e.X, r) {
		case tTrue:
			return tFalse
		case tFalse:
			return tTrue
		}
		return tUnknown
	case *IsNull:
		return triOf((cellAt(r, e.Col.Name) == nil) != e.Neg)
	case *ArithCompare:
		return bruteArithCompare(e, r)
	case *ExprMatch:
		v := bruteArith(e.X, r)
		if e.Null {
			return triOf((v == nil) != e.Neg)
		}
		if v == nil {
			return tUnknown
		}
		if e.Re != nil {
			return triOf(e.Re.MatchString(v.(string)) != e.Neg)
		}
		re := regexp.MustCompile("^(?s:" + strings.NewReplacer("%", ".*", "_", ".").Replace(regexp.QuoteMeta(e.Pattern)) + ")$")
		return triOf(re.MatchString(v.(string)) != e.Neg)
	}
	var col string
	switch e := e.(type) {
	case *Compare:
		col = e.Col.Name
	case *Like:
		col = e.Col.Name
	case *Regex:
		col = e.Col.Name
	case *In:
		col = e.Col.Name
	case *SeriesMatch:
		col = e.Col.Name
	}
	v := cellAt(r, col)
	if v == nil {
		return tUnknown
	}
	switch e := e.(type) {
	case *Compare:
		return triOf(cmpHolds(e.Op, compareLit(col, v, e.Lit)) && !isNaNCmp(v, e.Lit))
	case *Like:
		re := regexp.MustCompile("^(?s:" + strings.NewReplacer("%", ".*", "_", ".").Replace(regexp.QuoteMeta(e.Pattern)) + ")$")
		return triOf(re.MatchString(v.(string)) != e.Neg)
	case *Regex:
		return triOf(e.Re.MatchString(v.(string)) != e.Neg)
	case *In:
		in := slices.ContainsFunc(e.Lits, func(l *Lit) bool { return compareLit(col, v, l) == 0 })
		return triOf(in != e.Neg)
	case *SeriesMatch:
		return triOf(bruteSelector(e, v.(string)))
	}
	panic("expr")
}

func isNaNCmp(v any, l *Lit) bool { f, ok := v.(float64); return ok && f != f }

// compareLit compares a cell with a literal.
func compareLit(col string, v any, l *Lit) int {
	switch col {
	case "time":
		return cmp3(v.(int64), litTime(l))
	case "seq":
		return cmp3(v.(uint64), uint64(l.Int))
	case "op":
		return strings.Compare(v.(string), l.Str)
	}
	switch v := v.(type) {
	case int64:
		if l.Kind == LitInt {
			return cmp3(v, l.Int)
		}
		return cmpFloat(float64(v), l.Float)
	case float64:
		lf := l.Float
		if l.Kind == LitInt {
			lf = float64(l.Int)
		}
		return cmpFloat(v, lf)
	case string:
		return strings.Compare(v, l.Str)
	case bool:
		return cmp3(b2i(v), b2i(l.Bool))
	}
	panic("compare")
}

var labelRe = regexp.MustCompile(`([a-z_]+)="([^"]*)"`)

func bruteLabels(s string) (string, map[string]string) {
	m := map[string]string{}
	i := strings.IndexByte(s, '{')
	if i < 0 {
		return s, m
	}
	for _, kv := range labelRe.FindAllStringSubmatch(s[i:], -1) {
		m[kv[1]] = kv[2]
	}
	return s[:i], m
}

func bruteSelector(e *SeriesMatch, s string) bool {
	name, labels := bruteLabels(s)
	if e.Name != "" && name != e.Name {
		return false
	}
	for _, m := range e.Matchers {
		v := labels[m.Label]
		ok := map[string]bool{"=": v == m.Value, "!=": v != m.Value}[m.Op]
		if m.Op == "=~" || m.Op == "!~" {
			ok = regexp.MustCompile("^(?:"+m.Value+")$").MatchString(v) == (m.Op == "=~")
		}
		if !ok {
			return false
		}
	}
	return true
}

func compareAny(k colKind, a, b any) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	switch a := a.(type) {
	case uint64:
		return cmp3(a, b.(uint64))
	case int64:
		return cmp3(a, b.(int64))
	case float64:
		return cmpFloat(a, b.(float64))
	case bool:
		return cmp3(b2i(a), b2i(b.(bool)))
	}
	return strings.Compare(a.(string), b.(string))
}

// bruteAgg groups the selected rows and computes each aggregate from
// the group's rows.
func bruteAgg(st *Statement, sel []trow) [][]any {
	type grp struct {
		key  []any
		rows []trow
	}
	groupOf := func(r *trow) []any {
		var k []any
		for _, g := range st.GroupBy {
			switch {
			case g.Expr != nil:
				k = append(k, bruteArith(g.Expr, r))
			case g.Bucket > 0 && (g.Zone != nil || g.Offset != 0):
				k = append(k, bruteBucket(r.time, g))
			case g.Bucket > 0:
				k = append(k, int64(math.Floor(float64(r.time)/float64(g.Bucket)))*g.Bucket)
			case g.Col.Name == "series" || g.Col.Name == "key" || g.Col.Name == "s":
				k = append(k, cellAt(r, g.Col.Name))
			default:
				_, labels := bruteLabels(r.series)
				k = append(k, labels[g.Col.Name])
			}
		}
		return k
	}
	var gs []*grp
	for _, r := range sel {
		k := groupOf(&r)
		i := slices.IndexFunc(gs, func(g *grp) bool { return slices.Equal(g.key, k) })
		if i < 0 {
			gs = append(gs, &grp{key: k})
			i = len(gs) - 1
		}
		gs[i].rows = append(gs[i].rows, r)
	}
	if len(st.GroupBy) == 0 && len(gs) == 0 {
		gs = append(gs, &grp{})
	}
	sort.SliceStable(gs, func(i, j int) bool {
		for c := range gs[i].key {
			if d := compareAny(0, gs[i].key[c], gs[j].key[c]); d != 0 {
				return d < 0
			}
		}
		return false
	})
	var out [][]any
	for _, g := range gs {
		row := slices.Clone(g.key)
		for _, it := range st.Items {
			rows := g.rows
			if f := it.Agg.Filter; f != nil {
				rows = nil
				for _, r := range g.rows {
					if evalExpr(f, &r) == tTrue {
						rows = append(rows, r)
					}
				}
			}
			row = append(row, bruteCall(it.Agg, rows))
		}
		out = append(out, row)
	}
	if len(st.OrderBy) > 0 {
		o := st.OrderBy[0]
		col := len(st.GroupBy)
		for i, it := range st.Items {
			if it.Name() == o.Name {
				col += i
				break
			}
		}
		sort.SliceStable(out, func(i, j int) bool {
			c := compareAny(0, out[i][col], out[j][col])
			if o.Desc {
				c = -c
			}
			return c < 0
		})
	}
	if st.Limit >= 0 && int64(len(out)) > st.Limit {
		out = out[:st.Limit]
	}
	if st.limitPct != nil { // LIMIT p%: the first floor(p·n/100)
		out = out[:int(math.Floor(*st.limitPct*float64(len(out))/100))]
	}
	return out
}

// spanArith reports whether a is a span of time as the model writes
// one: the difference of two instants (time, date_trunc of one, now()).
func spanArith(a *Arith) bool {
	instant := func(x *Arith) bool {
		return x != nil && (x.Col != nil && x.Col.Name == ColTime || x.Trunc != nil || x.Lit != nil && x.Lit.Kind == LitTime)
	}
	return a != nil && a.Op == '-' && instant(a.L) && instant(a.R)
}

func bruteCall(c *Call, rows []trow) any {
	if c.Star {
		return int64(len(rows))
	}
	type pt struct {
		r trow
		v any
	}
	var pts []pt
	for _, r := range rows {
		v := cellAt(&r, c.Arg.Name)
		if c.Expr != nil {
			v = bruteArith(c.Expr, &r)
		}
		if c.By != nil && v != nil {
			by := cellAt(&r, c.By.Name)
			if c.ByExpr != nil {
				by = bruteArith(c.ByExpr, &r)
			}
			if by == nil {
				continue
			}
			v = [2]any{v, by}
		}
		if v != nil {
			pts = append(pts, pt{r, v})
		}
	}
	if c.Func == "count" || c.Func == "regr_count" {
		return int64(len(pts))
	}
	if len(pts) == 0 {
		return nil
	}
	if bivariate[c.Func] {
		var yx [][2]float64
		for _, p := range pts {
			yx = append(yx, [2]float64{anyFloat(p.v.([2]any)[0]), anyFloat(p.v.([2]any)[1])})
		}
		return bruteBivariate(c.Func, yx)
	}
	if c.By != nil { // the row with the largest (smallest) by, the earliest of ties
		best := pts[0]
		for _, p := range pts[1:] {
			d := compareAny(0, p.v.([2]any)[1], best.v.([2]any)[1])
			if argExtremes[c.Func] == "arg_min" {
				d = -d
			}
			if d > 0 || d == 0 && (p.r.time < best.r.time || p.r.time == best.r.time && p.r.seq < best.r.seq) {
				best = p
			}
		}
		return best.v.([2]any)[0]
	}
	fl := func(v any) float64 { return anyFloat(v) }
	switch c.Func {
	case "sum":
		if _, ok := pts[0].v.(int64); ok {
			var s int64
			for _, p := range pts {
				s += p.v.(int64)
			}
			return s
		}
		var s float64
		for _, p := range pts {
			s += fl(p.v)
		}
		return s
	case "avg":
		var s float64
		for _, p := range pts {
			s += fl(p.v)
		}
		if spanArith(c.Expr) { // the mean span, to the nanosecond
			return int64(math.Round(s / float64(len(pts))))
		}
		return s / float64(len(pts))
	case "min", "max":
		best := pts[0].v
		for _, p := range pts[1:] {
			d := compareAny(0, p.v, best)
			if c.Func == "min" && d < 0 || c.Func == "max" && d > 0 {
				best = p.v
			}
		}
		return best
	}
	sort.SliceStable(pts, func(i, j int) bool {
		if pts[i].r.time != pts[j].r.time {
			return pts[i].r.time < pts[j].r.time
		}
		return pts[i].r.seq < pts[j].r.seq
	})
	switch c.Func {
	case "string_agg":
		var parts []string
		for _, p := range pts {
			if !c.Distinct || !slices.Contains(parts, p.v.(string)) {
				parts = append(parts, p.v.(string))
			}
		}
		return strings.Join(parts, c.Sep)
	case "first":
		return pts[0].v
	case "last":
		return pts[len(pts)-1].v
	case "rate":
		span := float64(pts[len(pts)-1].r.time-pts[0].r.time) / 1e9
		if len(pts) < 2 || span <= 0 {
			return nil
		}
		var inc float64
		for i := 1; i < len(pts); i++ {
			a, b := fl(pts[i-1].v), fl(pts[i].v)
			if b >= a {
				inc += b - a
			} else {
				inc += b
			}
		}
		return inc / span
	case "stddev", "stddev_pop", "variance", "var_pop":
		// Two passes: the mean, then the squared deviations.
		var sum float64
		for _, p := range pts {
			sum += fl(p.v)
		}
		mean := sum / float64(len(pts))
		var ss float64
		for _, p := range pts {
			ss += (fl(p.v) - mean) * (fl(p.v) - mean)
		}
		n := float64(len(pts))
		if c.Func == "stddev" || c.Func == "variance" {
			if len(pts) < 2 {
				return nil
			}
			n--
		}
		if c.Func == "stddev" || c.Func == "stddev_pop" {
			return math.Sqrt(ss / n)
		}
		return ss / n
	case "spread":
		lo, hi := pts[0].v, pts[0].v
		for _, p := range pts[1:] {
			if compareAny(0, p.v, lo) < 0 {
				lo = p.v
			}
			if compareAny(0, p.v, hi) > 0 {
				hi = p.v
			}
		}
		if l, ok := lo.(int64); ok {
			return hi.(int64) - l
		}
		return fl(hi) - fl(lo)
	case "quantile", "median":
		vals := make([]float64, len(pts))
		for i, p := range pts {
			vals[i] = fl(p.v)
		}
		sort.Float64s(vals)
		h := float64(len(vals)-1) * c.Q
		lo := int(math.Floor(h))
		q := vals[len(vals)-1]
		if lo < len(vals)-1 {
			q = vals[lo] + (h-float64(lo))*(vals[lo+1]-vals[lo])
		}
		if spanArith(c.Expr) { // a span, to the nanosecond
			return int64(math.Round(q))
		}
		return q
	case "quantile_disc": // the first value whose rank (from 1) reaches q of them
		k := 0
		for k < len(pts)-1 && float64(k+1) < c.Q*float64(len(pts)) {
			k++
		}
		slices.SortStableFunc(pts, func(a, b pt) int { return compareAny(0, a.v, b.v) })
		return pts[k].v
	}
	panic(c.Func)
}

// bruteBucket is the start of t's bucket of time(d[, offset][, zone]):
// whole days by the zone's calendar date (midnights), shorter buckets
// by its wall clock.
func bruteBucket(t int64, g GroupItem) int64 {
	const day = int64(24 * time.Hour)
	off := ((g.Offset % g.Bucket) + g.Bucket) % g.Bucket
	if g.Zone == nil {
		return floorDiv(t-off, g.Bucket)*g.Bucket + off
	}
	lt := time.Unix(0, t).In(g.Zone)
	if g.Bucket%day == 0 && off == 0 {
		days := time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 0, 0, 0, time.UTC).Unix() / 86400
		n := g.Bucket / day
		y, m, d := time.Unix(floorDiv(days, n)*n*86400, 0).UTC().Date()
		return time.Date(y, m, d, 0, 0, 0, 0, g.Zone).UnixNano()
	}
	wall := time.Date(lt.Year(), lt.Month(), lt.Day(), lt.Hour(), lt.Minute(), lt.Second(), lt.Nanosecond(), time.UTC).UnixNano()
	w := time.Unix(0, floorDiv(wall-off, g.Bucket)*g.Bucket+off).UTC()
	return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), g.Zone).UnixNano()
}

// bruteArithCompare evaluates a comparison of expressions on r: numbers
// through big integers (an int64 overflow is null) and float64, or two
// text or bool columns compared as they are.
func bruteArithCompare(e *ArithCompare, r *trow) tri {
	if e.L.Col != nil && e.R.Col != nil {
		if _, pair := sameKindPair(kindOfName(e.L.Col.Name), kindOfName(e.R.Col.Name)); pair {
			x, y := cellAt(r, e.L.Col.Name), cellAt(r, e.R.Col.Name)
			if x == nil || y == nil {
				return tUnknown
			}
			switch x := x.(type) {
			case string:
				return triOf(cmpHolds(e.Op, strings.Compare(x, y.(string))))
			case bool:
				return triOf((x == y.(bool)) == (e.Op == "="))
			}
			return tUnknown
		}
	}
	x, y := bruteArith(e.L, r), bruteArith(e.R, r)
	if x == nil || y == nil {
		return tUnknown
	}
	if xs, ok := x.(string); ok {
		return triOf(cmpHolds(e.Op, strings.Compare(xs, y.(string))))
	}
	xi, ok1 := x.(int64)
	yi, ok2 := y.(int64)
	if ok1 && ok2 {
		return triOf(cmpHolds(e.Op, cmp3(xi, yi)))
	}
	return triOf(floatHolds(e.Op, asF(x), asF(y)))
}

func asF(v any) float64 {
	if i, ok := v.(int64); ok {
		return float64(i)
	}
	return v.(float64)
}

// bruteRaw are the raw rows a correlated subquery reads, bruteMemo its
// values by subquery and outer terms (set by brute).
var (
	bruteRaw  []trow
	bruteMemo map[string]any
)

// bruteCorrelated computes correlated subquery a for the outer row r,
// as written: the aggregate (or EXISTS) of the raw rows that meet its
// WHERE, the equalities to the outer row's terms included.
func bruteCorrelated(a *Arith, r *trow) any {
	c := a.Corr
	outer := make([]any, len(a.Args))
	for k, x := range a.Args {
		outer[k] = bruteArith(x, r)
	}
	memo := fmt.Sprintf("%p %#v", c, outer)
	if v, ok := bruteMemo[memo]; ok {
		return v
	}
	v := bruteMatch(c, outer)
	bruteMemo[memo] = v
	return v
}

// bruteMatch computes correlated subquery c for the outer terms' values.
func bruteMatch(c *Correlated, outer []any) any {
	if c.In { // x IN (SELECT ...): a NULL x is neither in nor out, unless a NULL key leaves no rows
		if slices.Contains(outer[:c.Keys-1], nil) {
			return int64(0)
		}
		if outer[c.Keys-1] == nil {
			return nil
		}
	}
	first := 1
	if c.Exists {
		first = 0
	}
	var match []trow
rows:
	for _, x := range bruteRaw {
		if c.Sub.Where != nil && evalExpr(c.Sub.Where, &x) != tTrue {
			continue
		}
		for k := range c.Keys {
			it := c.Sub.Items[first+k]
			term := it.Expr
			if term == nil {
				term = &Arith{Col: it.Col}
			}
			v := bruteArith(term, &x)
			if v == nil || outer[k] == nil {
				continue rows
			}
			if vs, ok := v.(string); ok {
				if os, ok := outer[k].(string); !ok || os != vs {
					continue rows
				}
			} else if _, ok := outer[k].(string); ok || asF(v) != asF(outer[k]) {
				continue rows
			}
		}
		match = append(match, x)
	}
	if c.Exists {
		return int64(min(len(match), 1))
	}
	v := bruteCall(c.Sub.Items[0].Agg, match)
	if u, ok := v.(uint64); ok {
		return int64(u)
	}
	return v
}

// bruteArith computes a on r: int64, float64, or nil for null.
func bruteArith(a *Arith, r *trow) any {
	switch {
	case a.Corr != nil:
		return bruteCorrelated(a, r)
	case a.Lit != nil:
		switch a.Lit.Kind {
		case LitInt, LitDuration:
			return a.Lit.Int
		case LitString:
			return a.Lit.Str
		case LitTime:
			return litTime(a.Lit)
		case LitBool:
			return a.Lit.Bool
		}
		return a.Lit.Float
	case a.Col != nil:
		switch v := cellAt(r, a.Col.Name).(type) {
		case uint64:
			return int64(v)
		case int64, float64, string, bool:
			return v
		}
		return nil
	}
	switch a.Func {
	case "coalesce":
		if x := bruteArith(a.L, r); x != nil {
			return x
		}
		return bruteArith(a.R, r)
	case "greatest", "least":
		x, y := bruteArith(a.L, r), bruteArith(a.R, r)
		switch {
		case x == nil:
			return y
		case y == nil:
			return x
		}
		xs, ok := x.(string)
		if ok {
			if (strings.Compare(xs, y.(string)) < 0) == (a.Func == "greatest") {
				return y
			}
			return x
		}
		xi, ok1 := x.(int64)
		yi, ok2 := y.(int64)
		if ok1 && ok2 {
			if (xi < yi) == (a.Func == "greatest") {
				return yi
			}
			return xi
		}
		if (asF(x) < asF(y)) == (a.Func == "greatest") {
			return asF(y)
		}
		return asF(x)
	case "nullif":
		x, y := bruteArith(a.L, r), bruteArith(a.R, r)
		if x == nil || y == nil {
			return x
		}
		if xs, ok := x.(string); ok {
			if xs == y.(string) {
				return nil
			}
			return x
		}
		if asF(x) == asF(y) {
			return nil
		}
		return x
	}
	if a.Op == 'c' {
		for _, w := range a.Whens {
			if evalExpr(w.Cond, r) == tTrue {
				return bruteArith(w.Then, r)
			}
		}
		if a.Else != nil {
			return bruteArith(a.Else, r)
		}
		return nil
	}
	if a.Args != nil {
		return bruteText(a, r)
	}
	x := bruteArith(a.L, r)
	if x == nil {
		return nil
	}
	switch a.Op {
	case 'n':
		if i, ok := x.(int64); ok {
			if i == math.MinInt64 {
				return nil
			}
			return -i
		}
		return -x.(float64)
	case 'f':
		if tr := a.Trunc; tr != nil { // UTC, or a zone without a change in the model's hours
			loc := a.Zone
			if loc == nil {
				loc = time.UTC
			}
			if a.Func == "date_trunc" {
				return truncOracle(strings.TrimSuffix(strings.ToLower(tr.Unit), "s"), x.(int64), loc)
			}
			t := x.(int64) - tr.Offset
			return t - ((t%tr.Width)+tr.Width)%tr.Width + tr.Offset
		}
		if timeFuncs[a.Func] != "" {
			loc := a.Zone
			if loc == nil {
				loc = time.UTC
			}
			tm := time.Unix(0, x.(int64)).In(loc)
			_, week := tm.ISOWeek()
			return map[string]int64{"year": int64(tm.Year()), "quarter": int64(tm.Month()+2) / 3, "month": int64(tm.Month()), "day": int64(tm.Day()),
				"hour": int64(tm.Hour()), "minute": int64(tm.Minute()), "second": int64(tm.Second()),
				"dayofweek": int64(tm.Weekday()), "isodow": (int64(tm.Weekday())+6)%7 + 1,
				"dayofyear": int64(tm.YearDay()), "week": int64(week)}[a.Func]
		}
		if i, ok := x.(int64); ok && a.Func != "sqrt" {
			if a.Func == "abs" && i < 0 {
				if i == math.MinInt64 {
					return nil
				}
				return -i
			}
			return i
		}
		f := asF(x)
		switch a.Func {
		case "abs":
			return math.Abs(f)
		case "floor":
			return math.Floor(f)
		case "round":
			return math.Round(f)
		case "sqrt":
			if f < 0 {
				return nil
			}
			return math.Sqrt(f)
		}
		panic("brute: function " + a.Func)
	}
	y := bruteArith(a.R, r)
	if y == nil {
		return nil
	}
	xi, ok1 := x.(int64)
	yi, ok2 := y.(int64)
	if ok1 && ok2 && a.Op == '%' {
		switch yi {
		case 0:
			return nil
		case -1:
			return int64(0)
		}
		return new(big.Int).Rem(big.NewInt(xi), big.NewInt(yi)).Int64()
	}
	if a.Op == '%' {
		if asF(y) == 0 {
			return nil
		}
		return math.Mod(asF(x), asF(y))
	}
	if ok1 && ok2 && a.Op != '/' {
		z := new(big.Int)
		switch a.Op {
		case '+':
			z.Add(big.NewInt(xi), big.NewInt(yi))
		case '-':
			z.Sub(big.NewInt(xi), big.NewInt(yi))
		case '*':
			z.Mul(big.NewInt(xi), big.NewInt(yi))
		}
		if !z.IsInt64() {
			return nil
		}
		return z.Int64()
	}
	xf, yf := asF(x), asF(y)
	switch a.Op {
	case '+':
		return xf + yf
	case '-':
		return xf - yf
	case '*':
		return xf * yf
	}
	if yf == 0 {
		return nil
	}
	return xf / yf
}

// bruteText computes a text function on r; nil for null.
func bruteText(a *Arith, r *trow) any {
	var args []any
	for _, x := range a.Args {
		v := bruteArith(x, r)
		if v == nil && a.Func == "concat" && !a.pipes { // concat leaves NULLs out; || does not
			continue
		}
		if v == nil {
			return nil
		}
		args = append(args, v)
	}
	str := func(i int) string { return args[i].(string) }
	switch a.Func {
	case "lower":
		return strings.ToLower(str(0))
	case "upper":
		return strings.ToUpper(str(0))
	case "trim":
		return strings.Trim(str(0), " \t\n\r\v\f")
	case "length":
		return int64(len([]rune(str(0))))
	case "substr":
		rs := []rune(str(0))
		var out []rune
		for i, c := range rs {
			pos := int64(i + 1)
			if pos >= args[1].(int64) && (len(args) < 3 || pos < args[1].(int64)+args[2].(int64)) {
				out = append(out, c)
			}
		}
		return string(out)
	case "replace":
		if str(1) == "" {
			return str(0)
		}
		return strings.Replace(str(0), str(1), str(2), -1)
	case "split_part":
		parts := strings.Split(str(0), str(1))
		n := args[2].(int64)
		if n < 1 || int(n) > len(parts) {
			return ""
		}
		return parts[n-1]
	case "strpos":
		i := strings.Index(str(0), str(1))
		if i < 0 {
			return int64(0)
		}
		return int64(len([]rune(str(0)[:i]))) + 1
	case "label":
		_, labels := bruteLabels(str(0))
		return labels[str(1)]
	case "concat":
		var sb strings.Builder
		for _, v := range args {
			switch v := v.(type) {
			case float64:
				sb.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			default:
				fmt.Fprint(&sb, v)
			}
		}
		return sb.String()
	}
	panic("brute: text function " + a.Func)
}

// distinctStrings returns v without repeats, in first-seen order.
func distinctStrings(v []string) []string {
	var out []string
	for _, s := range v {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// bruteBivariate is bivariate aggregate fn of the pairs (y, x), in two
// passes: the means, then the sums of squares and products.
func bruteBivariate(fn string, yx [][2]float64) any {
	var my, mx float64
	for _, p := range yx {
		my += p[0]
		mx += p[1]
	}
	n := float64(len(yx))
	my, mx = my/n, mx/n
	var sxx, syy, sxy float64
	constX, constY := true, true // then their sums are 0 exactly (a rounded mean would leave dust)
	for _, p := range yx {
		sxx += (p[1] - mx) * (p[1] - mx)
		syy += (p[0] - my) * (p[0] - my)
		sxy += (p[1] - mx) * (p[0] - my)
		constX, constY = constX && p[1] == yx[0][1], constY && p[0] == yx[0][0]
	}
	if constX {
		sxx, sxy = 0, 0
	}
	if constY {
		syy, sxy = 0, 0
	}
	switch {
	case fn == "covar_pop":
		return sxy / n
	case fn == "covar_samp" && n < 2:
		return nil
	case fn == "covar_samp":
		return sxy / (n - 1)
	case sxx == 0:
		return nil
	case fn == "regr_slope":
		return sxy / sxx
	case fn == "regr_intercept":
		return my - sxy/sxx*mx
	case fn == "regr_r2" && syy == 0:
		return 1.0
	case fn == "regr_r2":
		return sxy * sxy / (sxx * syy)
	case syy == 0:
		return nil
	}
	return sxy / math.Sqrt(sxx*syy)
}
