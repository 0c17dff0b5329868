package tsq

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/query"
)

// queryT runs a query and returns its batches' rows as strings (one per
// row, columns joined by |), checking the allocator for leaks.
func queryT(t testing.TB, s *Store, text string) (*arrow.Schema, []string) {
	t.Helper()
	return queryOptsT(t, s, text, query.Options{BatchRows: 7})
}

// queryOptsT is queryT with options o.
func queryOptsT(t testing.TB, s *Store, text string, o query.Options) (*arrow.Schema, []string) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	o.Allocator = mem
	rr, err := s.Query(ctx, text, &o)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	defer rr.Release()
	var rows []string
	for rr.Next() {
		rec := rr.RecordBatch()
		for i := range int(rec.NumRows()) {
			var cells []string
			for c := range int(rec.NumCols()) {
				cells = append(cells, cellString(rec.Column(c), i))
			}
			rows = append(rows, strings.Join(cells, "|"))
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return rr.Schema(), rows
}

func cellString(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "null"
	}
	if d, ok := a.(*array.Dictionary); ok {
		return d.Dictionary().ValueStr(d.GetValueIndex(i))
	}
	if ts, ok := a.(*array.Timestamp); ok {
		return time.Unix(0, int64(ts.Value(i))).UTC().Format(time.RFC3339Nano)
	}
	return a.ValueStr(i)
}

func TestQuerySmoke(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 4})
	defer closeT(t, s)
	times := []int64{day0, day0 + int64(time.Minute), day0 + int64(6*time.Minute), day0 + int64(7*time.Minute)}
	if _, err := s.AppendSamples(ctx, "m", `cpu{host="a"}`, times, []float64{1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendSamples(ctx, "m", `cpu{host="b"}`, times, []float64{10, 20, 30, 40}); err != nil {
		t.Fatal(err)
	}
	sch, rows := queryT(t, s, `SELECT * FROM m WHERE series ~ cpu{host="a"} AND value > 1`)
	if got := sch.String(); !strings.Contains(got, "series: type=dictionary<values=utf8, indices=int32") {
		t.Errorf("schema %s", got)
	}
	want := []string{
		`2|2026-12-01T00:01:00Z|cpu{host="a"}||put|2`,
		`3|2026-12-01T00:06:00Z|cpu{host="a"}||put|3`,
		`4|2026-12-01T00:07:00Z|cpu{host="a"}||put|4`,
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("raw rows:\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	_, rows = queryT(t, s, `SELECT count(*), avg(value), max(value) FROM m GROUP BY time(5m), series`)
	want = []string{
		`2026-12-01T00:00:00Z|cpu{host="a"}|2|1.5|2`,
		`2026-12-01T00:00:00Z|cpu{host="b"}|2|15|20`,
		`2026-12-01T00:05:00Z|cpu{host="a"}|2|3.5|4`,
		`2026-12-01T00:05:00Z|cpu{host="b"}|2|35|40`,
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("agg rows:\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	_, err := s.Query(ctx, "SELECT * FROM nope", nil)
	var qe *query.Error
	if !errors.As(err, &qe) || qe.Col != 15 || !errors.Is(err, ErrStreamNotFound) {
		t.Errorf("unknown stream: %v", err)
	}
}

// TestQueryInvalidUTF8: text stored as given, not UTF-8 (series, key and
// a string field), comes out of raw, folded and aggregated results with
// each run of invalid bytes as U+FFFD (Arrow's utf8 must be UTF-8), while
// filters still match the stored bytes; bytes fields stay as they are.
func TestQueryInvalidUTF8(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{})
	defer closeT(t, s)
	_, err := s.Append(ctx, "m", Record{Time: day0, Series: "caf\xe9", Key: "k\xff", Fields: []Field{
		{"note", Str("r\xe9sum\xe9")}, {"raw", Bytes([]byte{0xe9})}, {"v", Float(1)}}},
		Record{Time: day0 + 1, Series: "ok", Key: "k2", Fields: []Field{{"note", Str("gr\u00fc\u00dfe")}, {"v", Float(2)}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ q, want string }{
		{"SELECT series, key, note FROM m", "caf\uFFFD|k\uFFFD|r\uFFFDsum\uFFFD\nok|k2|gr\u00fc\u00dfe"},
		{"SELECT series, key, note FROM fold(m)", "caf\uFFFD|k\uFFFD|r\uFFFDsum\uFFFD\nok|k2|gr\u00fc\u00dfe"},
		{"SELECT series, count(*), min(note) FROM m GROUP BY series", "caf\uFFFD|1|r\uFFFDsum\uFFFD\nok|1|gr\u00fc\u00dfe"},
		{"SELECT note FROM m WHERE series = 'caf\xe9'", "r\uFFFDsum\uFFFD"},
	} {
		_, rows := queryT(t, s, c.q)
		if got := strings.Join(rows, "\n"); got != c.want {
			t.Errorf("%s:\n%q\nwant\n%q", c.q, got, c.want)
		}
	}
	rr, err := s.Query(ctx, "SELECT raw FROM m WHERE raw IS NOT NULL", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if !rr.Next() || rr.RecordBatch().NumRows() != 1 || string(rr.RecordBatch().Column(0).(*array.Binary).Value(0)) != "\xe9" {
		t.Errorf("bytes field changed")
	}
}

// TestQueryExtremeTimes stores records at the ends of int64 time (and
// NaN and infinite values): they read back in time order, survive a
// reopen and a compaction, and time buckets saturate instead of wrapping
// (the bucket of math.MinInt64 starts there, not in 2262).
func TestQueryExtremeTimes(t *testing.T) {
	fs := vfs.NewMem()
	s := openT(t, fs, Options{})
	for _, tm := range []int64{math.MinInt64, -1, 0, math.MaxInt64} {
		if _, err := s.Append(ctx, "e", Record{Time: tm, Series: "a", Fields: []Field{{"v", Float(math.NaN())}}}); err != nil {
			t.Fatalf("time %d: %v", tm, err)
		}
	}
	if _, err := s.AppendSamples(ctx, "e", "b", []int64{math.MaxInt64, math.MinInt64}, []float64{math.Inf(1), math.Inf(-1)}); err != nil {
		t.Fatal(err)
	}
	check := func(q string, want ...string) {
		t.Helper()
		if _, rows := queryT(t, s, q); strings.Join(rows, " ") != strings.Join(want, " ") {
			t.Errorf("%s:\n%v\nwant\n%v", q, rows, want)
		}
	}
	for round := range 2 {
		check("SELECT time, series, v, value FROM e ORDER BY time, series",
			"1677-09-21T00:12:43.145224192Z|a|NaN|null", "1677-09-21T00:12:43.145224192Z|b|null|-Inf",
			"1969-12-31T23:59:59.999999999Z|a|NaN|null", "1970-01-01T00:00:00Z|a|NaN|null",
			"2262-04-11T23:47:16.854775807Z|a|NaN|null", "2262-04-11T23:47:16.854775807Z|b|null|+Inf")
		check("SELECT count(*) FROM e GROUP BY time(1d)",
			"1677-09-21T00:12:43.145224192Z|2", "1969-12-31T00:00:00Z|1", "1970-01-01T00:00:00Z|1", "2262-04-11T00:00:00Z|2")
		check("SELECT series, count(*), min(value), max(value) FROM e GROUP BY series", "a|4|null|null", "b|2|-Inf|+Inf")
		check("SELECT count(*) FROM e WHERE time < 0", "3")
		if round == 0 {
			closeT(t, s)
			s = openT(t, fs, Options{})
			if _, err := s.Compact(ctx, "e"); err != nil {
				t.Fatal(err)
			}
		}
	}
	closeT(t, s)
}

// TestQueryStorePruning builds a store over four days (four segments,
// three sealed) and checks pruning by time and by the series bloom
// filters, and the answers.
func TestQueryStorePruning(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 64})
	defer closeT(t, s)
	const perDay = 1000
	for d := range 4 {
		times := make([]int64, perDay)
		vals := make([]float64, perDay)
		for i := range times {
			times[i] = day0 + int64(d)*int64(24*time.Hour) + int64(i)*int64(time.Minute)
			vals[i] = float64(d*perDay + i)
		}
		for _, series := range []string{"a", "b"} {
			if _, err := s.AppendSamples(ctx, "m", series, times, vals); err != nil {
				t.Fatal(err)
			}
		}
		if d == 1 {
			if _, err := s.AppendSamples(ctx, "m", "rare", times[:10], vals[:10]); err != nil {
				t.Fatal(err)
			}
		}
	}
	explain := func(q string) string {
		_, rows := queryT(t, s, q)
		return strings.Join(rows, "\n")
	}
	out := explain("EXPLAIN SELECT * FROM m WHERE series = 'rare'")
	if !strings.Contains(out, "segments: 4 total, 2 scanned, 0 pruned by seq, 0 pruned by time, 2 pruned by series bloom") {
		t.Errorf("bloom pruning:\n%s", out)
	}
	out = explain("EXPLAIN SELECT avg(value) FROM m WHERE time >= '2026-12-03T00:00:00Z' AND time < '2026-12-03T01:00:00Z' GROUP BY series")
	if !strings.Contains(out, "segments: 4 total, 1 scanned, 0 pruned by seq, 3 pruned by time") {
		t.Errorf("time pruning:\n%s", out)
	}
	_, rows := queryT(t, s, "SELECT count(*), sum(value), min(time), max(time) FROM m WHERE series = 'rare'")
	if want := "10|10045|2026-12-02T00:00:00Z|2026-12-02T00:09:00Z"; len(rows) != 1 || rows[0] != want {
		t.Errorf("rare: %v, want %s", rows, want)
	}
	_, rows = queryT(t, s, "SELECT avg(value), max(value) FROM m WHERE time >= '2026-12-03T00:00:00Z' AND time < '2026-12-03T01:00:00Z' GROUP BY series")
	if want := "a|2029.5|2059\nb|2029.5|2059"; strings.Join(rows, "\n") != want {
		t.Errorf("day 3 hour 0: %v, want %s", rows, want)
	}
	series, err := s.Series("m", 0)
	if err != nil || strings.Join(series, ",") != "a,b,rare" {
		t.Errorf("Series = %v, %v", series, err)
	}
	// Appends to the active segment extend the cached names.
	if _, err := s.AppendSamples(ctx, "m", "late", []int64{day0 + 3*int64(24*time.Hour)}, []float64{1}); err != nil {
		t.Fatal(err)
	}
	series, err = s.Series("m", 2)
	if err != nil || strings.Join(series, ",") != "a,b" {
		t.Errorf("Series(2) = %v, %v", series, err)
	}
	series, err = s.Series("m", 0)
	if err != nil || strings.Join(series, ",") != "a,b,late,rare" {
		t.Errorf("Series after an append = %v, %v", series, err)
	}
	sch, err := s.Schema("m")
	if err != nil || sch.NumFields() != 6 || sch.Field(5).Name != "value" {
		t.Errorf("Schema = %v, %v", sch, err)
	}
	if _, err := s.Schema("nope"); !errors.Is(err, ErrStreamNotFound) {
		t.Errorf("Schema of a missing stream: %v", err)
	}
}

// TestQueryFoldStore checks the folded view over records appended to a
// real store: puts, updates, deletes and drops.
func TestQueryFoldStore(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 3})
	defer closeT(t, s)
	put := func(series, key string, v int64) Record {
		return Record{Time: day0, Series: series, Key: key, Fields: []Field{{"v", Int(v)}}}
	}
	recs := []Record{
		put("u", "alice", 1), put("u", "bob", 2), put("u", "carol", 3), // seqs 1-3
		put("u", "alice", 10),                               // 4: update
		{Time: day0, Series: "u", Key: "bob", Op: OpDelete}, // 5: delete
		put("g", "x", 7), put("g", "y", 8),                  // 6, 7
		{Time: day0, Series: "g", Op: OpDrop}, // 8: drop g
		put("g", "y", 9),                      // 9: after the drop
	}
	if _, err := s.Append(ctx, "kv", recs...); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ q, want string }{
		{"SELECT seq, series, key, v FROM fold(kv)", "3|u|carol|3\n4|u|alice|10\n9|g|y|9"},
		{"SELECT seq, key, v FROM fold(kv) WHERE series = 'u' ORDER BY key", "4|alice|10\n3|carol|3"},
		{"SELECT seq, key, v FROM fold(kv) AS OF SEQ 4", "2|bob|2\n3|carol|3\n4|alice|10"},
		{"SELECT key, v FROM fold(kv) AS OF SEQ 7 WHERE series = 'g'", "x|7\ny|8"},
		{"SELECT count(*) FROM kv", "9"},
		{"SELECT count(*) FROM kv WHERE op = 'delete' OR op = 'drop'", "2"},
	} {
		_, rows := queryT(t, s, tc.q)
		if got := strings.Join(rows, "\n"); got != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.q, got, tc.want)
		}
	}
}

// TestQueryWhileAppending runs queries while another goroutine appends:
// each sees a consistent snapshot (counts never go down, sums match).
func TestQueryWhileAppending(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 50})
	defer closeT(t, s)
	if _, err := s.AppendSamples(ctx, "m", "a", []int64{day0}, []float64{1}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		for i := 1; i < 200; i++ {
			times := make([]int64, 20)
			vals := make([]float64, 20)
			for k := range times {
				times[k] = day0 + int64(i*20+k)*int64(time.Second)
				vals[k] = 1
			}
			if _, err := s.AppendSamples(ctx, "m", "a", times, vals); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	last := 0
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			running = false
		default:
		}
		_, rows := queryT(t, s, "SELECT count(*), sum(value) FROM m")
		var n int
		var sum float64
		if _, err := fmt.Sscanf(strings.ReplaceAll(rows[0], "|", " "), "%d %g", &n, &sum); err != nil {
			t.Fatal(err)
		}
		if n < last || float64(n) != sum {
			t.Fatalf("count %d sum %g after count %d", n, sum, last)
		}
		last = n
	}
}

// TestQueryUnknownStream: a query of a stream that does not exist says
// so at the name, with the streams there are.
func TestQueryUnknownStream(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{CompactInterval: 0})
	defer closeT(t, s)
	for n := 0; n <= 14; n++ {
		want := []string{"(streams: s00"}
		switch {
		case n == 0:
			want = []string{"(the store has no stream yet)"}
		case n == 1:
			want = []string{"(streams: s00)"}
		case n == 14:
			want = []string{"(streams: s00, s01,", "s11 and 2 more)"}
		}
		_, err := s.Query(ctx, "SELECT * FROM nosuch", nil)
		var qe *query.Error
		if !errors.As(err, &qe) || !errors.Is(err, ErrStreamNotFound) || qe.Col != 15 {
			t.Fatalf("%v (%T), want a *query.Error at the name matching ErrStreamNotFound", err, err)
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Fatalf("with %d streams: %v, want %q in it", n, err, w)
			}
		}
		appendN(t, s, fmt.Sprintf("s%02d", n), 1)
	}
}
