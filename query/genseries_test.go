package query

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestGenSeries: generate_series and range give DuckDB 1.5's rows
// (answers taken from it): integers and times, one to three arguments,
// stop included or not, counting down, NULL arguments, the ends of
// int64, calendar steps added in turn, and the column and source names.
func TestGenSeries(t *testing.T) {
	src, _ := testSource(t, 10, 10)
	open := openOnly(src)
	ts := func(s string) int64 {
		v, err := time.Parse(time.DateTime, s)
		if err != nil {
			t.Fatal(err)
		}
		return v.UnixNano()
	}
	for _, c := range []struct {
		q    string
		want []any
	}{
		{"SELECT * FROM generate_series(1, 3)", []any{int64(1), int64(2), int64(3)}},
		{"SELECT * FROM range(3)", []any{int64(0), int64(1), int64(2)}},
		{"SELECT * FROM generate_series(3)", []any{int64(0), int64(1), int64(2), int64(3)}},
		{"SELECT * FROM range(1, 10, 4)", []any{int64(1), int64(5), int64(9)}},
		{"SELECT * FROM generate_series(5, 1, -2)", []any{int64(5), int64(3), int64(1)}},
		{"SELECT * FROM range(5, 1, -2)", []any{int64(5), int64(3)}},
		{"SELECT * FROM range(3, 3)", nil},
		{"SELECT * FROM generate_series(3, 3)", []any{int64(3)}},
		{"SELECT * FROM generate_series(1, 0)", nil},
		{"SELECT * FROM generate_series(NULL, 3)", nil},
		{"SELECT * FROM generate_series(1, 3, NULL)", nil},
		{"SELECT * FROM range(9223372036854775806, 9223372036854775807, 5)", []any{int64(math.MaxInt64 - 1)}},
		{"SELECT * FROM generate_series(9223372036854775806, 9223372036854775807, 1)", []any{int64(math.MaxInt64 - 1), int64(math.MaxInt64)}},
		{"SELECT * FROM generate_series(-9223372036854775808, -9223372036854775807, 1)", []any{int64(math.MinInt64), int64(math.MinInt64 + 1)}},
		{"SELECT * FROM range(0, 10, 3) ORDER BY 1 DESC", []any{int64(9), int64(6), int64(3), int64(0)}},
		{"SELECT x FROM generate_series(1, 3) t(x) WHERE x > 1", []any{int64(2), int64(3)}},
		{"SELECT * FROM generate_series(TIMESTAMP '2024-01-31', TIMESTAMP '2024-05-01', INTERVAL 1 MONTH)",
			[]any{ts("2024-01-31 00:00:00"), ts("2024-02-29 00:00:00"), ts("2024-03-29 00:00:00"), ts("2024-04-29 00:00:00")}},
		{"SELECT * FROM range(TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-01 03:00', INTERVAL 1 HOUR)",
			[]any{ts("2024-01-01 00:00:00"), ts("2024-01-01 01:00:00"), ts("2024-01-01 02:00:00")}},
		{"SELECT * FROM generate_series('2024-01-01 02:00', '2024-01-01', - INTERVAL 1 HOUR)",
			[]any{ts("2024-01-01 02:00:00"), ts("2024-01-01 01:00:00"), ts("2024-01-01 00:00:00")}},
		{"SELECT * FROM generate_series(TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-01 02:00', - INTERVAL 1 HOUR)", nil},
		{"SELECT count(*) FROM range(TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-02', INTERVAL 90 MINUTE)", []any{int64(16)}},
		{"SELECT generate_series.generate_series FROM generate_series(1, 2)", []any{int64(1), int64(2)}},
		// Steps that would leave the times a timestamp holds end the
		// series: calendar months before 1678, nanoseconds past
		// 2262-04-11T23:47:16.854775807Z.
		{"SELECT * FROM generate_series(TIMESTAMP '1678-03-01', TIMESTAMP '1678-01-01', - INTERVAL 1 MONTH)",
			[]any{ts("1678-03-01 00:00:00"), ts("1678-02-01 00:00:00"), ts("1678-01-01 00:00:00")}},
		{"SELECT * FROM generate_series(TIMESTAMP '2262-04-11 23:00', TIMESTAMP '2262-04-11 23:47:16.854775807', INTERVAL 30 MINUTE)",
			[]any{ts("2262-04-11 23:00:00"), ts("2262-04-11 23:30:00")}},
		{"SELECT range FROM generate_series(1, 4) JOIN range(2, 9, 2) ON generate_series = range", []any{int64(2), int64(4)}},
	} {
		got, err := runCells(c.q, open, nil)
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		var col []any
		for _, r := range got {
			if len(r) != 1 {
				t.Fatalf("%s: row %v, want one column", c.q, r)
			}
			col = append(col, r[0])
		}
		if fmt.Sprint(col) != fmt.Sprint(c.want) {
			t.Errorf("%s: %v, want %v", c.q, col, c.want)
		}
	}
	for q, want := range map[string]string{
		"SELECT * FROM generate_series(1, 3)":                           "generate_series int64",
		"SELECT * FROM range(3) AS r":                                   "range int64",
		"SELECT * FROM range(3) AS r(n)":                                "n int64",
		"SELECT * FROM range(now() - 3h, now(), 1h) AS t(time)":         "time timestamp",
		"SELECT * FROM range(now() - 3h, now(), INTERVAL 1 MONTH) AS t": "range timestamp",
	} {
		got := mustRun(t, open, "DESCRIBE "+q)
		if s := fmt.Sprint(got[0][0], " ", got[0][1]); len(got) != 1 || s != want {
			t.Errorf("DESCRIBE %s: %v, want %s", q, got, want)
		}
	}
	if p := planText(t, open, "EXPLAIN SELECT * FROM range(now() - 1d, now(), 1h)"); !strings.Contains(p, "range: times from now() - 24h0m0s to now() (excluded) by 1h") {
		t.Errorf("EXPLAIN:\n%s", p)
	}
}

// TestGenSeriesRandom compares integer series of random ends and steps,
// near the ends of int64 too, with their rows counted exactly (big
// integers); a series of many batches is summed.
func TestGenSeriesRandom(t *testing.T) {
	src, _ := testSource(t, 10, 10)
	open := openOnly(src)
	rng := rand.New(rand.NewPCG(7, 9))
	pick := func() int64 {
		switch rng.IntN(4) {
		case 0:
			return math.MaxInt64 - rng.Int64N(40)
		case 1:
			return math.MinInt64 + rng.Int64N(40)
		}
		return rng.Int64N(81) - 40
	}
	for range 400 {
		start, stop, step := pick(), pick(), rng.Int64N(13)-6
		if step == 0 {
			step = 1
		}
		if rng.IntN(3) == 0 { // a far step
			step = pick()
			if step == 0 {
				step = -1
			}
		}
		fn := []string{"range", "generate_series"}[rng.IntN(2)]
		var want []any
		v, end, st := big.NewInt(start), big.NewInt(stop), big.NewInt(step)
		for len(want) < 200 {
			c := v.Cmp(end)
			if (step > 0 && (c > 0 || c == 0 && fn == "range")) || (step < 0 && (c < 0 || c == 0 && fn == "range")) || !v.IsInt64() {
				break
			}
			want = append(want, v.Int64())
			v.Add(v, st)
		}
		if len(want) == 200 {
			continue // long series are summed below
		}
		q := fmt.Sprintf("SELECT * FROM %s(%d, %d, %d)", fn, start, stop, step)
		got, err := runCells(q, open, nil)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var col []any
		for _, r := range got {
			col = append(col, r[0])
		}
		if fmt.Sprint(col) != fmt.Sprint(want) {
			t.Fatalf("%s: %v, want %v", q, col, want)
		}
	}
	// 1M rows, 62 batches: counted and summed as they stream.
	got := mustRun(t, open, "SELECT count(*), sum(range), min(range), max(range) FROM range(0, 3000000, 3)")
	if fmt.Sprint(got) != "[[1000000 1499998500000 0 2999997]]" {
		t.Errorf("a long series: %v", got)
	}
}

// TestGenSeriesGrid: a grid of hours LEFT JOINed to a stream's hourly
// counts gives every hour, 0 where the stream has no row, as counting
// the rows by hour does.
func TestGenSeriesGrid(t *testing.T) {
	src, rows := testSource(t, 2000, 64)
	open := openOnly(src)
	lo, hi := rows[0].time, rows[0].time
	for _, r := range rows {
		lo, hi = min(lo, r.time), max(hi, r.time)
	}
	hour := int64(time.Hour)
	first := lo/hour*hour - 2*hour // two empty hours before the first row
	last := hi/hour*hour + 2*hour  // and after the last
	want := map[int64]int64{}
	for h := first; h <= last; h += hour {
		want[h] = 0
	}
	for _, r := range rows {
		want[r.time/hour*hour]++
	}
	q := fmt.Sprintf(`SELECT g.time, coalesce(c.n, 0) AS n FROM generate_series('%s', '%s', INTERVAL 1 HOUR) AS g(time)
		LEFT JOIN (SELECT time_bucket(INTERVAL 1 HOUR, time) AS hour, count(*) AS n FROM m GROUP BY hour) AS c ON c.hour = g.time ORDER BY g.time`,
		time.Unix(0, first).UTC().Format(time.RFC3339), time.Unix(0, last).UTC().Format(time.RFC3339))
	got := mustRun(t, open, q)
	if len(got) != len(want) || len(want) < 6 {
		t.Fatalf("%d hours, want %d", len(got), len(want))
	}
	zeros := 0
	for _, r := range got {
		h := r[0].(int64)
		if n, ok := want[h]; !ok || r[1] != n {
			t.Errorf("hour %v: %v, want %d", time.Unix(0, h).UTC(), r[1], n)
		}
		if r[1] == int64(0) {
			zeros++
		}
	}
	if zeros < 4 {
		t.Errorf("%d empty hours, want at least the 4 around the rows", zeros)
	}
}

// TestGenSeriesErrors: arguments of the wrong kind or number, a zero
// step, times without a step, and names that cannot be are refused
// where they are written.
func TestGenSeriesErrors(t *testing.T) {
	src, _ := testSource(t, 10, 10)
	wantErrors(t, openOnly(src), []errCase{
		{"SELECT * FROM generate_series(1, 3, 0)", "generate_series cannot step by 0", "0)"},
		{"SELECT * FROM range(now(), now() + 1h, 0h)", "range cannot step by 0", "0h"},
		{"SELECT * FROM generate_series(TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-02')", "generate_series of times wants a step", "generate_series("},
		{"SELECT * FROM generate_series(1.5, 3)", "generate_series counts integers or times, found a number 1.5", "1.5"},
		{"SELECT * FROM range(1, 'a')", "range counts integers or times, found a string 'a'", "'a'"},
		{"SELECT * FROM range(1, 2, 3, 4)", "range takes 1 to 3 arguments", "4)"},
		{"SELECT * FROM range(1, 2, 1h)", "range of integers steps by an integer, found a duration", "1h"},
		{"SELECT * FROM range(now(), 2, 1h)", "range of times wants times for start and stop, found an integer", "2,"},
		{"SELECT * FROM range(now(), now() + 1d, 5)", "range of times steps by an interval", "5)"},
		{"SELECT * FROM range(1, 3) AS t(time)", "a column named time holds times", "range("},
		{"SELECT * FROM range(1, 3) AS t(a, b)", "range has one column", ", b)"},
		{"SELECT * FROM generate_series(1, 3) JOIN generate_series(2) ON true", "two sources of the JOIN are named generate_series", "generate_series(2)"},
		{"SELECT * FROM range(100000000)", "its result passes", "range("},
		{"SELECT * FROM series(1, 3)", `"series" is no view of a stream`, "series("},
	})
}
