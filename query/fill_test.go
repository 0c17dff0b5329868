package query

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestFill: GROUP BY time(d) FILL(...) gives every bucket from the first
// to the last (or the WHERE clause's time bounds; with a lower bound
// only, up to now) a row for each combination of the other group
// values: count 0 and NULL (null), the bucket before's values
// (previous), or a number (n); FILL(none) and no FILL leave the gaps;
// what it cannot do is refused before any read.
func TestFill(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	minute := int64(time.Minute)
	rows := []trow{
		{seq: 1, time: t0, series: "a", op: 1, f: map[string]any{"v": 1.0}},
		{seq: 2, time: t0 + 10*minute, series: "a", op: 1, f: map[string]any{"v": 2.0}},
		{seq: 3, time: t0 + 20*minute, series: "b", op: 1, f: map[string]any{"v": 10.0}},
		{seq: 4, time: t0 + 30*minute, series: "a", op: 1, f: map[string]any{"v": 4.0}},
	}
	src, err := buildSource(rand.New(rand.NewPCG(3, 4)), rows, 2)
	if err != nil {
		t.Fatal(err)
	}
	open := openOnly(src)
	ts := func(m int64) int64 { return t0 + m*minute } // as runCells gives times
	run := func(q string) [][]any {
		t.Helper()
		got, err := runCells(q, open, &Options{Now: time.Unix(0, t0+45*minute)})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return got
	}
	check := func(q string, want [][]any) {
		t.Helper()
		got := run(q)
		if len(got) != len(want) {
			t.Fatalf("%s:\n%v\nwant\n%v", q, got, want)
		}
		for i := range want {
			if !slices.Equal(got[i], want[i]) {
				t.Fatalf("%s: row %d %v, want %v", q, i, got[i], want[i])
			}
		}
	}
	check("SELECT time, series, count(*), avg(v) FROM m GROUP BY time(10m), series FILL(null)", [][]any{
		{ts(0), "a", int64(1), 1.0}, {ts(0), "b", int64(0), nil},
		{ts(10), "a", int64(1), 2.0}, {ts(10), "b", int64(0), nil},
		{ts(20), "a", int64(0), nil}, {ts(20), "b", int64(1), 10.0},
		{ts(30), "a", int64(1), 4.0}, {ts(30), "b", int64(0), nil},
	})
	check("SELECT time, series, avg(v) * 2, count(*) FROM m GROUP BY time(10m), series FILL(previous)", [][]any{
		{ts(0), "a", 2.0, int64(1)}, {ts(0), "b", nil, int64(0)},
		{ts(10), "a", 4.0, int64(1)}, {ts(10), "b", nil, int64(0)},
		{ts(20), "a", 4.0, int64(1)}, {ts(20), "b", 20.0, int64(1)},
		{ts(30), "a", 8.0, int64(1)}, {ts(30), "b", 20.0, int64(1)},
	})
	check("SELECT time, sum(v), count(*) FROM m WHERE time >= '2023-12-31T23:40:00Z' AND time < '2024-01-01T00:50:00Z' GROUP BY time(10m) FILL(-1)", [][]any{
		{ts(-20), -1.0, int64(-1)}, {ts(-10), -1.0, int64(-1)}, {ts(0), 1.0, int64(1)}, {ts(10), 2.0, int64(1)},
		{ts(20), 10.0, int64(1)}, {ts(30), 4.0, int64(1)}, {ts(40), -1.0, int64(-1)},
	})
	// a lower bound only: up to now (t0 + 45m); no row in range: the
	// buckets of the one combination
	check("SELECT time, count(*) FROM m WHERE time >= '2024-01-01T00:35:00Z' GROUP BY time(10m) FILL(0)", [][]any{
		{ts(30), int64(0)}, {ts(40), int64(0)},
	})
	for _, q := range []string{"SELECT time, count(*) FROM m GROUP BY time(10m) FILL(none)", "SELECT time, count(*) FROM m GROUP BY time(10m)"} {
		if got := run(q); len(got) != 4 {
			t.Fatalf("%s: %v", q, got)
		}
	}
	for _, c := range []struct{ q, err string }{
		{"SELECT series, count(*) FROM m GROUP BY series FILL(0)", "FILL needs GROUP BY time(...)"},
		{"SELECT time, count(*) FROM m GROUP BY time(10m) FILL(0.5)", "FILL(0.5) on count(*), an int64"},
		{"SELECT time, count(*) FROM m GROUP BY time(10m) FILL(nearest)", `FILL wants null, previous, linear, none or a number, found "nearest"`},
		{"SELECT time, count(*) FROM m WHERE time >= '2020-01-01' GROUP BY time(1s) FILL(0)", "FILL would make"},
	} {
		if _, err := runCells(c.q, open, &Options{Now: time.Unix(0, t0+45*minute)}); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v, want %q", c.q, err, c.err)
		}
	}
}

// TestFillLinear: FILL(linear) puts each filled bucket's numeric
// aggregates on the straight line between the nearest buckets with
// values of its partition, in time; the edges stay unfilled (count 0,
// else NULL), int64 aggregates are rounded, arithmetic sees the
// interpolated values, and partitions do not mix.
func TestFillLinear(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	minute := int64(time.Minute)
	var rows []trow
	add := func(m int64, series string, v float64, n int64) {
		rows = append(rows, trow{seq: uint64(len(rows) + 1), time: t0 + m*minute, series: series, op: 1, f: map[string]any{"v": v, "n": n}})
	}
	add(0, "a", 1, 10)
	add(30, "a", 4, 40) // a: gaps at 10 and 20
	add(10, "b", 100, 1)
	add(40, "b", 70, 2) // b: gaps at 20 and 30; nothing at 0 (before its first)
	src, err := buildSource(rand.New(rand.NewPCG(5, 6)), rows, 2)
	if err != nil {
		t.Fatal(err)
	}
	got, err := runCells("SELECT series, time, avg(v), sum(n), avg(v) * 2 AS twice, count(*) FROM m GROUP BY time(10m), series FILL(linear) ORDER BY series, time", openOnly(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := func(m int64) int64 { return t0 + m*minute }
	want := [][]any{
		{"a", ts(0), 1.0, int64(10), 2.0, int64(1)},
		{"a", ts(10), 2.0, int64(20), 4.0, int64(1)},
		{"a", ts(20), 3.0, int64(30), 6.0, int64(1)},
		{"a", ts(30), 4.0, int64(40), 8.0, int64(1)},
		{"a", ts(40), nil, nil, nil, int64(0)},
		{"b", ts(0), nil, nil, nil, int64(0)},
		{"b", ts(10), 100.0, int64(1), 200.0, int64(1)},
		{"b", ts(20), 90.0, int64(1), 180.0, int64(1)},
		{"b", ts(30), 80.0, int64(2), 160.0, int64(1)},
		{"b", ts(40), 70.0, int64(2), 140.0, int64(1)},
	}
	if d := diffCells(got, want); d != "" {
		t.Fatalf("FILL(linear): %s\ngot  %v", d, got)
	}
}
