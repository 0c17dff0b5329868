package tsq

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/query"
)

// TestQueryMixedTypes: a field stored as numbers or bools in some blocks
// and as text in others (appends of changing types; an import whose
// later rows turned a number column to text) reads as text in every
// block, the numbers and bools written out, instead of failing every
// query of the stream; int and float stay float; bytes win over text.
func TestQueryMixedTypes(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{})
	appendOne := func(i int, v, w Value) {
		t.Helper()
		if _, err := s.Append(ctx, "m", Record{Time: day0 + int64(i)*1e9, Series: "a", Fields: []Field{{"v", v}, {"w", w}}}); err != nil {
			t.Fatal(err)
		}
	}
	appendOne(0, Int(42), Int(1))
	appendOne(1, Float(1234567.5), Float(2.5))
	appendOne(2, Bool(true), Int(3))
	appendOne(3, Str("n/a"), Float(-0.5))
	appendOne(4, Float(1e-7), Int(5))
	_, rows := queryT(t, s, "SELECT v, w FROM m")
	want := []string{"42|1", "1234567.5|2.5", "true|3", "n/a|-0.5", "1e-07|5"}
	if !slices.Equal(rows, want) {
		t.Fatalf("got %q, want %q", rows, want)
	}
	schema, _ := queryT(t, s, "SELECT v, w FROM m LIMIT 1")
	if got := fmt.Sprint(schema.Field(0).Type, schema.Field(1).Type); got != "utf8 float64" {
		t.Fatalf("types %s", got)
	}
	for q, want := range map[string][]string{
		"SELECT count(*) FROM m WHERE v = 'true'":                {"1"},
		"SELECT count(v), min(v), max(v) FROM m":                 {"5|1234567.5|true"},
		"SELECT v, count(*) FROM m WHERE v LIKE '4%' GROUP BY v": {"42|1"},
		"SELECT v FROM fold(m) ORDER BY v DESC LIMIT 2":          {"true", "n/a"},
	} {
		if _, got := queryT(t, s, q); !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", q, got, want)
		}
	}
	// Bytes in one block and text in another: bytes.
	appendOne(5, Bytes([]byte{0xff, 'x'}), Int(6))
	schema, rows = queryT(t, s, "SELECT v FROM m")
	if schema.Field(0).Type.String() != "binary" || len(rows) != 6 || rows[0] != "NDI=" || rows[5] != "/3g=" { // base64 of 42 and of ff 78
		t.Fatalf("with bytes: %s %q", schema.Field(0).Type, rows)
	}
	closeT(t, s)
}

// TestImportLateText: a CSV column of numbers whose only text comes after
// the first batch (8,192 rows) was int64 in some blocks and string in
// others, and every query of the stream failed; so with bools.
func TestImportLateText(t *testing.T) {
	var b strings.Builder
	b.WriteString("ts,n,flag\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "%d,%d,%s\n", 1700000000000+i, i, []string{"false", "TRUE"}[i%2])
	}
	b.WriteString("1700000020000,n/a,maybe\n")
	s := openT(t, vfs.NewMem(), Options{})
	o := &ImportOptions{}
	if err := o.Mapping.Set("time=ts"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Import(ctx, "late", bytes.NewReader([]byte(b.String())), o); err != nil {
		t.Fatal(err)
	}
	_, rows := queryT(t, s, "SELECT n, flag FROM late WHERE seq >= 19999")
	if want := []string{"19998|false", "19999|true", "n/a|maybe"}; !slices.Equal(rows, want) {
		t.Fatalf("got %q, want %q", rows, want)
	}
	_, rows = queryT(t, s, "SELECT flag, count(*) FROM late GROUP BY flag")
	if want := []string{"false|10000", "maybe|1", "true|10000"}; !slices.Equal(rows, want) {
		t.Fatalf("got %q, want %q", rows, want)
	}
	closeT(t, s)
}

// TestQueryOffset: LIMIT n OFFSET m (and OFFSET alone) gives rows m to
// m+n of the query without them, for raw results streamed in batches of
// 7 and in built records, ordered ones, aggregates and folded views.
func TestQueryOffset(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 50})
	var recs []Record
	for i := range 500 {
		recs = append(recs, Record{Time: day0 + int64(i)*1e9, Series: fmt.Sprintf("s%d", i%7), Key: fmt.Sprintf("k%d", i%60),
			Fields: []Field{{"v", Int(int64((i * 37) % 101))}}})
	}
	if _, err := s.Append(ctx, "o", recs...); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"SELECT seq, v FROM o",
		"SELECT seq, v FROM o WHERE v > 50",
		"SELECT seq, v FROM o ORDER BY v DESC, seq",
		"SELECT series, count(*), max(v) FROM o GROUP BY series",
		"SELECT key, v FROM fold(o)",
		"SELECT DISTINCT key FROM o ORDER BY key DESC",
	} {
		_, all := queryT(t, s, q)
		for _, c := range [][2]int{{0, 3}, {5, 0}, {5, 10}, {7, 7}, {49, 3}, {len(all) - 2, 5}, {len(all), 1}, {len(all) + 3, 2}, {3, -1}, {0, -1}} {
			off, lim := c[0], c[1]
			text := q
			if lim >= 0 {
				text += fmt.Sprintf(" LIMIT %d", lim)
			}
			text += fmt.Sprintf(" OFFSET %d", off)
			_, got := queryT(t, s, text)
			want := all[min(off, len(all)):]
			if lim >= 0 {
				want = want[:min(lim, len(want))]
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: %d rows %q, want %d rows %q", text, len(got), got, len(want), want)
			}
		}
	}
	closeT(t, s)
}

// TestQueryCountDistinct: count(DISTINCT x) against counting in Go, over
// every kind of column, with groups, a filter and a folded view, on 1
// and 4 workers (their partial sets merge); 0 and -0 are one value, so
// are all NaNs; nulls are not counted.
func TestQueryCountDistinct(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 64})
	rng := rand.New(rand.NewPCG(7, 7))
	floats := []float64{0, math.Copysign(0, -1), math.NaN(), 1.5, -2, math.Inf(1)}
	var recs []Record
	for i := range 3000 {
		fs := []Field{{"i", Int(int64(rng.IntN(300)))}, {"f", Float(floats[rng.IntN(len(floats))])}, {"b", Bool(rng.IntN(2) == 0)}}
		if i%5 != 0 {
			fs = append(fs, Field{"s", Str(fmt.Sprintf("w%d", rng.IntN(500)))})
		}
		recs = append(recs, Record{Time: day0 + int64(rng.IntN(1000))*1e9, Series: fmt.Sprintf("s%d", rng.IntN(9)), Key: fmt.Sprintf("k%d", rng.IntN(700)), Fields: fs})
	}
	if _, err := s.Append(ctx, "d", recs...); err != nil {
		t.Fatal(err)
	}
	distinct := func(keep func(r *Record) bool, val func(r *Record) (string, bool)) map[string]int {
		sets := map[string]map[string]bool{}
		for i := range recs {
			r := &recs[i]
			if !keep(r) {
				continue
			}
			if sets[r.Series] == nil {
				sets[r.Series] = map[string]bool{}
			}
			if v, ok := val(r); ok {
				sets[r.Series][v] = true
			}
		}
		out := map[string]int{}
		for k, v := range sets {
			out[k] = len(v)
		}
		return out
	}
	field := func(name string) func(r *Record) (string, bool) {
		return func(r *Record) (string, bool) {
			v, ok := r.Field(name)
			if !ok {
				return "", false
			}
			if name == "f" {
				f := v.Float()
				switch {
				case f == 0:
					return "0", true
				case f != f:
					return "NaN", true
				}
			}
			return fmt.Sprint(v), true
		}
	}
	all := func(*Record) bool { return true }
	for _, c := range []struct {
		col  string
		val  func(r *Record) (string, bool)
		keep func(r *Record) bool
		cond string
	}{
		{"i", field("i"), all, ""},
		{"f", field("f"), all, ""},
		{"b", field("b"), all, ""},
		{"s", field("s"), all, ""},
		{"key", func(r *Record) (string, bool) { return r.Key, true }, all, ""},
		{"time", func(r *Record) (string, bool) { return fmt.Sprint(r.Time), true }, all, ""},
		{"s", field("s"), func(r *Record) bool { v, _ := r.Field("i"); return v.Int() < 100 }, " WHERE i < 100"},
	} {
		want := distinct(c.keep, c.val)
		for _, par := range []int{1, 4} {
			q := fmt.Sprintf("SELECT series, count(DISTINCT %s) FROM d%s GROUP BY series", c.col, c.cond)
			rr, err := s.Query(ctx, q, &query.Options{Parallelism: par, BatchRows: 7})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for rr.Next() {
				rec := rr.RecordBatch()
				for i := range int(rec.NumRows()) {
					got[cellString(rec.Column(0), i)] = int(rec.Column(1).(*array.Int64).Value(i))
				}
			}
			if err := rr.Err(); err != nil {
				t.Fatal(err)
			}
			rr.Release()
			if !maps.Equal(got, want) {
				t.Errorf("%s on %d workers: %v, want %v", q, par, got, want)
			}
		}
	}
	// Without groups, over the folded view (the latest put of each key).
	keys, pairs := map[string]bool{}, map[string]bool{}
	for _, r := range recs {
		keys[r.Key], pairs[r.Series+"/"+r.Key] = true, true
	}
	_, rows := queryT(t, s, "SELECT count(DISTINCT key), count(*) FROM fold(d)")
	if want := fmt.Sprintf("%d|%d", len(keys), len(pairs)); len(rows) != 1 || rows[0] != want {
		t.Fatalf("fold: %q, want %q", rows, want)
	}
	closeT(t, s)
}

// TestQueryHaving: a query with HAVING returns exactly the rows of the
// same query without it that the condition holds for, tested here in Go
// on the cells, before ORDER BY, LIMIT and OFFSET apply.
func TestQueryHaving(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 64})
	rng := rand.New(rand.NewPCG(3, 9))
	var recs []Record
	for i := range 4000 {
		var fs []Field
		if i%9 != 0 {
			fs = append(fs, Field{"v", Float(float64(rng.IntN(1000)) / 10)})
		}
		series := fmt.Sprintf("s%d", rng.IntN(30))
		if series == "s29" {
			fs = nil // a group whose avg(v) is null
		}
		recs = append(recs, Record{Time: day0 + int64(rng.IntN(4*86400))*1e9, Series: series, Fields: fs})
	}
	if _, err := s.Append(ctx, "h", recs...); err != nil {
		t.Fatal(err)
	}
	const base = "SELECT series, count(*) AS n, avg(v) FROM h GROUP BY series"
	// One worker: the sums of avg then add up in one order, run to run.
	queryT := func(t *testing.T, s *Store, text string) (*arrow.Schema, []string) {
		return queryOptsT(t, s, text, query.Options{Parallelism: 1, BatchRows: 7})
	}
	_, all := queryT(t, s, base)
	type row struct {
		series string
		n      int
		avg    float64
		null   bool
	}
	var rows []row
	for _, line := range all {
		f := strings.Split(line, "|")
		var r row
		r.series = f[0]
		fmt.Sscan(f[1], &r.n)
		if f[2] == "null" {
			r.null = true
		} else {
			fmt.Sscan(f[2], &r.avg)
		}
		rows = append(rows, r)
	}
	for _, c := range []struct {
		having string
		holds  func(r row) bool
	}{
		{"n > 140", func(r row) bool { return r.n > 140 }},
		{"count(*) <= 120 AND avg(v) > 50", func(r row) bool { return r.n <= 120 && !r.null && r.avg > 50 }},
		// A null avg fails the comparison and its negation, as in WHERE.
		{"NOT (avg(v) >= 49.5) OR series = 's3'", func(r row) bool { return !r.null && !(r.avg >= 49.5) || r.series == "s3" }},
		{"avg(v) IS NULL", func(r row) bool { return r.null }},
		{"series LIKE 's1%' AND n >= 130.5", func(r row) bool { return strings.HasPrefix(r.series, "s1") && float64(r.n) >= 130.5 }},
		{"series IN ('s4', 's29', 'zz')", func(r row) bool { return r.series == "s4" || r.series == "s29" }},
		{"series NOT IN ('s4')", func(r row) bool { return r.series != "s4" }},
	} {
		var want []string
		for i, r := range rows {
			if c.holds(r) {
				want = append(want, all[i])
			}
		}
		_, got := queryT(t, s, base+" HAVING "+c.having)
		if !slices.Equal(got, want) || len(want) == 0 || len(want) == len(all) {
			t.Errorf("HAVING %s: %d rows %q, want %d of %d: %q", c.having, len(got), got, len(want), len(all), want)
		}
		// ORDER BY, LIMIT and OFFSET apply to the rows HAVING keeps.
		_, got = queryT(t, s, base+" HAVING "+c.having+" ORDER BY n DESC, series LIMIT 2 OFFSET 1")
		slices.SortStableFunc(want, func(a, b string) int {
			var na, nb int
			fmt.Sscan(strings.Split(a, "|")[1], &na)
			fmt.Sscan(strings.Split(b, "|")[1], &nb)
			if na != nb {
				return nb - na
			}
			return strings.Compare(strings.Split(a, "|")[0], strings.Split(b, "|")[0])
		})
		want = want[min(1, len(want)):]
		want = want[:min(2, len(want))]
		if !slices.Equal(got, want) {
			t.Errorf("HAVING %s ORDER BY n DESC LIMIT 2 OFFSET 1: %q, want %q", c.having, got, want)
		}
	}
	// Bad conditions are refused at the column.
	for having, msg := range map[string]string{
		"n LIKE 'x%'":    `type mismatch: LIKE on int64 column "n"`,
		"avg(v) =~ 'x'":  `type mismatch: regular expression match on float64 column "avg(v)"`,
		"n > 'x'":        `type mismatch: int64 column "n" compared with a string`,
		"nope > 1":       "HAVING nope: not a column of the result",
		"series ~ cpu{}": "HAVING does not take series selectors",
		"avg(v) = NULL":  "use avg(v) IS NULL",
	} {
		if _, err := s.Query(ctx, base+" HAVING "+having, nil); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("HAVING %s: %v, want %q", having, err, msg)
		}
	}
	// On a time bucket.
	_, got := queryT(t, s, "SELECT time, count(*) FROM h GROUP BY time(1d) HAVING time >= '2026-12-03T00:00:00Z'")
	_, every := queryT(t, s, "SELECT time, count(*) FROM h GROUP BY time(1d)")
	if len(got) == 0 || len(got) >= len(every) || !slices.Equal(got, every[len(every)-len(got):]) {
		t.Errorf("HAVING on the bucket: %q of %q", got, every)
	}
	closeT(t, s)
}

// TestQueryOrderByPosition: ORDER BY 2 orders by the second column
// returned, as ORDER BY its name does; an aggregate renamed by AS is
// ordered by its text too; a position past the columns is an error.
func TestQueryOrderByPosition(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 16})
	var recs []Record
	for i := range 300 {
		recs = append(recs, Record{Time: day0 + int64(i)*1e9, Series: fmt.Sprintf("s%d", (i*7)%11), Fields: []Field{{"v", Int(int64((i * 13) % 17))}}})
	}
	if _, err := s.Append(ctx, "p", recs...); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][2]string{
		{"SELECT seq, v FROM p ORDER BY 2 DESC, 1 LIMIT 20", "SELECT seq, v FROM p ORDER BY v DESC, seq LIMIT 20"},
		{"SELECT series, count(*) AS n, max(v) FROM p GROUP BY series ORDER BY 2, 1 DESC", "SELECT series, count(*) AS n, max(v) FROM p GROUP BY series ORDER BY n, series DESC"},
		{"SELECT series, count(*) AS n FROM p GROUP BY series ORDER BY count(*) DESC, series", "SELECT series, count(*) AS n FROM p GROUP BY series ORDER BY n DESC, series"},
		{"SELECT * FROM p ORDER BY 6, 1 DESC LIMIT 5", "SELECT * FROM p ORDER BY v, seq DESC LIMIT 5"},
	} {
		_, got := queryT(t, s, c[0])
		_, want := queryT(t, s, c[1])
		if !slices.Equal(got, want) || len(want) < 5 {
			t.Errorf("%s: %q, want %q", c[0], got, want)
		}
	}
	if _, err := s.Query(ctx, "SELECT seq, v FROM p ORDER BY 3", nil); err == nil || !strings.Contains(err.Error(), "ORDER BY 3: the result has 2 columns") {
		t.Fatalf("%v", err)
	}
	closeT(t, s)
}
