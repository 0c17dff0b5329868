package query

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// winOracle computes a window function the plain way over one
// partition's values in time order (nil: null): each row looks back for
// the previous non-null value, or sums its window afresh.
func winOracle(fn string, vals []any, times []int64, n int, unit float64) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		if v == nil {
			continue
		}
		prev := -1
		for j := i - 1; j >= 0; j-- {
			if vals[j] != nil {
				prev = j
				break
			}
		}
		switch fn {
		case "difference", "non_negative_difference":
			if prev < 0 {
				continue
			}
			var d any
			if a, ok := v.(int64); ok {
				d = a - vals[prev].(int64)
			} else {
				d = v.(float64) - vals[prev].(float64)
			}
			if fn == "non_negative_difference" && anyFloat(d) < 0 {
				continue
			}
			out[i] = d
		case "derivative", "non_negative_derivative":
			if prev < 0 || times[i] == times[prev] {
				continue
			}
			d := (anyFloat(v) - anyFloat(vals[prev])) / (float64(times[i]-times[prev]) / unit)
			if fn == "non_negative_derivative" && d < 0 {
				continue
			}
			out[i] = d
		case "cumulative_sum":
			var si int64
			var sf float64
			for j := 0; j <= i; j++ {
				switch x := vals[j].(type) {
				case int64:
					si += x
				case float64:
					sf += x
				}
			}
			if _, ok := v.(int64); ok {
				out[i] = si
			} else {
				out[i] = sf
			}
		case "moving_average":
			var s float64
			k := 0
			for j := i; j >= 0 && k < n; j-- {
				if vals[j] != nil {
					s += anyFloat(vals[j])
					k++
				}
			}
			if k == n {
				out[i] = s / float64(n)
			}
		}
	}
	return out
}

// TestWindowRaw: window functions of a raw query, with nulls, ties of
// time and rows out of time order, against winOracle over each series
// sorted by (time, seq); WHERE narrows the rows they see, and ORDER BY
// and LIMIT apply to their results.
func TestWindowRaw(t *testing.T) {
	src, rows := testSource(t, 3000, 50)
	bySeq := bySeqOf(rows)
	type fn struct {
		name, arg string
		n         int
		unit      float64
	}
	fns := []fn{{"difference", "v", 0, 0}, {"non_negative_difference", "n", 0, 0}, {"derivative", "v", 0, 60e9},
		{"non_negative_derivative", "x", 0, 1e9}, {"cumulative_sum", "n", 0, 0}, {"cumulative_sum", "x", 0, 0}, {"moving_average", "v", 4, 0}}
	items := []string{"seq"}
	for _, f := range fns {
		switch {
		case f.n > 0:
			items = append(items, f.name+"("+f.arg+", 4)")
		case f.unit == 60e9:
			items = append(items, f.name+"("+f.arg+", 1m)")
		default:
			items = append(items, f.name+"("+f.arg+")")
		}
	}
	for _, where := range []string{"", " WHERE x > 10 OR n < 30", " WHERE series = 'cpu{host=\"a\"}'"} {
		q := "SELECT " + strings.Join(items, ", ") + " FROM m" + where
		got, err := runCells(q, openOnly(src), &Options{BatchRows: 7})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if len(got) < 100 {
			t.Fatalf("%s: %d rows", q, len(got))
		}
		// The oracle over the rows the query returned (seq order).
		want := map[uint64][]any{}
		parts := map[string][]trow{}
		for _, g := range got {
			r := bySeq[g[0].(uint64)]
			parts[r.series] = append(parts[r.series], r)
			want[r.seq] = make([]any, len(fns))
		}
		for _, pr := range parts {
			slices.SortFunc(pr, byTimeSeq)
			times := make([]int64, len(pr))
			for i, r := range pr {
				times[i] = r.time
			}
			for k, f := range fns {
				vals := make([]any, len(pr))
				for i, r := range pr {
					vals[i] = r.f[f.arg]
				}
				for i, v := range winOracle(f.name, vals, times, f.n, f.unit) {
					want[pr[i].seq][k] = v
				}
			}
		}
		nonNull := 0
		for _, g := range got {
			w := want[g[0].(uint64)]
			for k := range fns {
				if !sameCell(g[k+1], w[k]) {
					t.Fatalf("%s\nseq %d: %s = %v, want %v", q, g[0], items[k+1], g[k+1], w[k])
				}
				if w[k] != nil {
					nonNull++
				}
			}
		}
		if nonNull < len(got) {
			t.Fatalf("%s: only %d values not null", q, nonNull)
		}
		// Ordered by a window's result, limited: the top of the whole.
		q = "SELECT seq, difference(v) AS d FROM m" + where + " ORDER BY d DESC LIMIT 5 OFFSET 2"
		top, err := runCells(q, openOnly(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		all := slices.Clone(got)
		slices.SortStableFunc(all, func(a, b []any) int { // nulls first in DESC, then by value, ties by seq
			switch {
			case a[1] == nil || b[1] == nil:
				return cmp.Compare(boolInt(b[1] == nil), boolInt(a[1] == nil))
			}
			return cmp.Compare(b[1].(float64), a[1].(float64))
		})
		for i, g := range top {
			if w := all[i+2]; g[0] != w[0] || !sameCell(g[1], w[1]) {
				t.Fatalf("%s: row %d %v, want %v", q, i, g, w[:2])
			}
		}
	}
}

// TestWindowAggregate: window functions of an aggregate query run over
// the buckets of each other group in time order, after HAVING, on the
// aggregates' values.
func TestWindowAggregate(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	q := "SELECT series, time, avg(v), count(*), difference(avg(v)), cumulative_sum(count(*)), moving_average(avg(v) * 2, 3), derivative(sum(n), 1m) " +
		"FROM m GROUP BY time(5m), series HAVING count(*) > 2 ORDER BY series DESC, time"
	got, err := runCells(q, openOnly(src), &Options{BatchRows: 5})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := runCells("SELECT series, time, avg(v), count(*), sum(n) FROM m GROUP BY time(5m), series HAVING count(*) > 2 ORDER BY series DESC, time", openOnly(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(plain) || len(got) < 20 {
		t.Fatalf("%d rows, the aggregate alone %d", len(got), len(plain))
	}
	for lo := 0; lo < len(plain); {
		hi := lo
		for hi < len(plain) && plain[hi][0] == plain[lo][0] {
			hi++
		}
		var avgs, counts, doubled, sums []any
		var times []int64
		for _, r := range plain[lo:hi] {
			times = append(times, r[1].(int64))
			avgs, counts, sums = append(avgs, r[2]), append(counts, r[3]), append(sums, r[4])
			if r[2] == nil {
				doubled = append(doubled, nil)
			} else {
				doubled = append(doubled, r[2].(float64)*2)
			}
		}
		want := [][]any{winOracle("difference", avgs, times, 0, 0), winOracle("cumulative_sum", counts, times, 0, 0),
			winOracle("moving_average", doubled, times, 3, 0), winOracle("derivative", sums, times, 0, 60e9)}
		for i := lo; i < hi; i++ {
			for k, w := range want {
				if !sameCell(got[i][4+k], w[i-lo]) {
					t.Fatalf("row %d %v: column %d = %v, want %v", i, got[i][:4], 4+k, got[i][4+k], w[i-lo])
				}
			}
		}
		lo = hi
	}
}

// TestWindowStep: the edges of the step function: int64 overflow gives
// null, a running sum recomputed each window stays exact after an Inf.
func TestWindowStep(t *testing.T) {
	w := &winPlan{fn: "difference"}
	var st winState
	w.step(&st, value{i: math.MinInt64}, kInt, 0)
	if v := w.step(&st, value{i: math.MaxInt64}, kInt, 1); !v.null {
		t.Fatalf("MaxInt64 - MinInt64 = %v, want null", v)
	}
	w = &winPlan{fn: "cumulative_sum"}
	st = winState{}
	w.step(&st, value{i: math.MaxInt64}, kInt, 0)
	if v := w.step(&st, value{i: 1}, kInt, 1); !v.null {
		t.Fatalf("overflowed sum %v, want null", v)
	}
	if v := w.step(&st, value{i: -5}, kInt, 2); !v.null {
		t.Fatalf("a sum after an overflow %v, want null", v)
	}
	w = &winPlan{fn: "moving_average", n: 2}
	st = winState{}
	for i, x := range []float64{math.Inf(1), 1, 2, 3, 4} {
		v := w.step(&st, fv(x), kFloat, int64(i))
		if i >= 3 && v.fl() != (x+x-1)/2 {
			t.Fatalf("moving average at %d = %v, want %v", i, v.fl(), (x+x-1)/2)
		}
	}
}

// TestWindowErrors: where window functions are refused, with the place.
func TestWindowErrors(t *testing.T) {
	src, _ := testSource(t, 100, 50)
	for _, c := range []struct{ q, msg string }{
		{"SELECT difference(difference(v)) FROM m", "may be in SELECT items and their arithmetic, not in WHERE, GROUP BY, HAVING, CASE conditions or another function's arguments"},
		{"SELECT v FROM m WHERE lag(v) > 1", "lag() is a window function"},
		{"SELECT lag(s, 1, 5) FROM m", "type mismatch: lag's default 5 is not text, as s is"},
		{"SELECT lead(n, 1, 2.5) OVER (ORDER BY time) FROM m", "type mismatch: lead's default 2.5 is not a number, as n is"},
		{"SELECT CASE WHEN lag(v) > 1 THEN 1 END FROM m", "lag() is a window function"},
		{"SELECT avg(v) FROM m GROUP BY time(1h) HAVING lag(avg(v)) > 1", "lag() is a window function"},
		{"SELECT avg(v) - lag(avg(v)) AS d FROM m GROUP BY time(1h) HAVING d > 0", "window functions are computed after HAVING"},
		{"SELECT DISTINCT v - lag(v) FROM m", "DISTINCT with a window"},
		{"SELECT avg(z) OVER () + count(*) AS z FROM m", "avg() in the argument of a window function"}, // its own name: found by FuzzQuery
		{"SELECT lag(v) + s FROM m", "arithmetic on column \"s\""},
		{"SELECT v FROM m WHERE v > avg(v) OVER ()", "avg() OVER (...) is a window function"},
		{"SELECT quantile(0.5, v) OVER () FROM m", "quantile() has no window form"},
		{"SELECT count(DISTINCT v) OVER () FROM m", "takes neither DISTINCT nor FILTER"},
		{"SELECT sum(s) OVER () FROM m", "want a number"},
		{"SELECT moving_average(v) FROM m", "moving_average wants the number of values"},
		{"SELECT moving_average(v, 0) FROM m", "1 to 1048576"},
		{"SELECT derivative(v, 3) FROM m", "time unit"},
		{"SELECT DISTINCT difference(v) FROM m", "DISTINCT with a window"},
		{"SELECT difference(avg(v)) FROM m GROUP BY series", "needs GROUP BY time"},
		{"SELECT difference(avg(v)) AS d FROM m GROUP BY time(1h) HAVING d > 0", "window functions are computed after HAVING"},
		{"SELECT difference(s) FROM m", "want a number"},
		{"SELECT difference(v) FROM m GROUP BY time(1h)", "must be grouped"},
		{"SELECT lag(v, -1) FROM m", "lag wants the number of rows to look back, 0 to 4194304"},
		{"SELECT lead(v, 1.5) FROM m", "lead wants the number of rows to look ahead"},
		{"SELECT lag(avg(v)) FROM m GROUP BY series", "needs GROUP BY time(<bucket>), or OVER (ORDER BY ...)"},
		{"SELECT derivative(avg(v)) OVER (ORDER BY avg(v)) FROM m GROUP BY series", "divides by the time between buckets"},
		{"SELECT row_number(v) FROM m", "row_number() takes no argument"},
		{"SELECT rank() OVER (PARTITION v) FROM m", "expected by, found \"v\""},
		{"SELECT rank() OVER (ORDER BY nope) FROM m", "unknown column \"nope\""},
		{"SELECT rank() OVER (ORDER BY n) FROM m GROUP BY series", "column \"n\" must be grouped"},
		{"SELECT rank() OVER (ORDER BY v LIMIT) FROM m", "expected PARTITION BY, ORDER BY, a frame (ROWS, RANGE or GROUPS) or \")\" in OVER"},
	} {
		_, err := runCells(c.q, openOnly(src), nil)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want an *Error saying %q", c.q, err, c.msg)
		}
	}
}

// TestWindowLagLead: lag and lead of numbers, text and instants, raw and over buckets,
// against the row n before or after in each partition's (time, seq)
// order: nulls are not skipped, and the edges of a partition give null.
func TestWindowLagLead(t *testing.T) {
	src, rows := testSource(t, 3000, 50)
	bySeq := bySeqOf(rows)
	items := []string{"lag(v)", "lead(n)", "lag(s, 3)", "lead(s, 0)", "lag(time)", "lead(v * 2, 2)", "lag(v, 2, -5.5)", "lead(s, 1, 'end')"}
	offset := []int{-1, 1, -3, 0, -1, 2, -2, 1}
	dflt := []any{nil, nil, nil, nil, nil, nil, -5.5, "end"} // past the partition's edge
	cell := func(r trow, k int) any {
		switch k {
		case 6:
			return r.f["v"]
		case 7:
			return r.f["s"]
		case 0:
			return r.f["v"]
		case 1:
			return r.f["n"]
		case 2, 3:
			return r.f["s"]
		case 4:
			return r.time
		}
		if v, ok := r.f["v"].(float64); ok {
			return v * 2
		}
		return nil
	}
	for _, where := range []string{"", " WHERE x > 10 OR n < 30"} {
		q := "SELECT seq, " + strings.Join(items, ", ") + " FROM m" + where
		got, err := runCells(q, openOnly(src), &Options{BatchRows: 7})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		want := map[uint64][]any{}
		for _, pr := range seriesParts(rowsOf(got, bySeq)) {
			for i, r := range pr {
				w := make([]any, len(items))
				for k, off := range offset {
					if j := i + off; j >= 0 && j < len(pr) {
						w[k] = cell(pr[j], k)
					} else {
						w[k] = dflt[k]
					}
				}
				want[r.seq] = w
			}
		}
		nulls, values := 0, 0
		for _, g := range got {
			w := want[g[0].(uint64)]
			for k := range items {
				if !sameCell(g[k+1], w[k]) {
					t.Fatalf("%s\nseq %d: %s = %v, want %v", q, g[0], items[k], g[k+1], w[k])
				}
				if w[k] == nil {
					nulls++
				} else {
					values++
				}
			}
		}
		if values < 4*len(got) || nulls == 0 {
			t.Fatalf("%s: %d values and %d nulls over %d rows", q, values, nulls, len(got))
		}
	}

	// Over buckets: the bucket before or after within each series, after
	// HAVING.
	q := "SELECT series, time, avg(v), count(*), lag(avg(v)), lead(time, 2), lag(series) FROM m GROUP BY time(5m), series HAVING count(*) > 2 ORDER BY series DESC, time"
	got, err := runCells(q, openOnly(src), &Options{BatchRows: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < 20 {
		t.Fatalf("%d rows", len(got))
	}
	for i, g := range got {
		var prevAvg, next2, prevSeries any
		if i > 0 && got[i-1][0] == g[0] {
			prevAvg, prevSeries = got[i-1][2], g[0]
		}
		if i+2 < len(got) && got[i+2][0] == g[0] {
			next2 = got[i+2][1]
		}
		if !sameCell(g[4], prevAvg) || !sameCell(g[5], next2) || !sameCell(g[6], prevSeries) {
			t.Fatalf("row %d %v: lag/lead %v, want %v %v %v", i, g[:4], g[4:], prevAvg, next2, prevSeries)
		}
	}
}

// TestWindowArithmetic: window functions as operands of a SELECT item's
// arithmetic and text functions, computed after the windows from the
// row's other columns, equal to the same arithmetic on the windows'
// own columns; ORDER BY and LIMIT take their results.
func TestWindowArithmetic(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	open := openOnly(src)
	parts := mustRun(t, open, "SELECT seq, v, lag(v), time, lag(time), s, row_number() OVER (PARTITION BY s ORDER BY seq), lead(n, 2) FROM m")
	got := mustRun(t, open, "SELECT seq, v - lag(v), time - lag(time) AS gap, s || '/' || row_number() OVER (PARTITION BY s ORDER BY seq), -lead(n, 2), (lag(v)) FROM m")
	if len(got) != len(parts) || len(got) < 1000 {
		t.Fatalf("%d rows, the windows alone %d", len(got), len(parts))
	}
	sub := func(a, b any) any {
		if a == nil || b == nil {
			return nil
		}
		return a.(int64) - b.(int64)
	}
	values := 0
	for i, g := range got {
		p := parts[i]
		var d, neg, tag any
		if p[1] != nil && p[2] != nil {
			d = p[1].(float64) - p[2].(float64)
			values++
		}
		if p[7] != nil {
			neg = -p[7].(int64)
		}
		if p[5] != nil { // (a null || anything is null)
			tag = fmt.Sprintf("%s/%d", p[5], p[6])
		}
		want := []any{p[0], d, sub(p[3], p[4]), tag, neg, p[2]}
		for k := range want {
			if !sameCell(g[k], want[k]) {
				t.Fatalf("row %d (seq %v): column %d = %v, want %v", i, g[0], k, g[k], want[k])
			}
		}
	}
	if values < 1000 {
		t.Fatalf("only %d differences", values)
	}
	// The largest gaps between a series' rows, found by ORDER BY.
	top := mustRun(t, open, "SELECT series, time - lag(time) AS gap FROM m ORDER BY gap DESC LIMIT 3 OFFSET 10")
	all := mustRun(t, open, "SELECT series, time, lag(time) FROM m")
	var gaps []int64
	for _, r := range all {
		if r[2] != nil {
			gaps = append(gaps, r[1].(int64)-r[2].(int64))
		}
	}
	slices.SortFunc(gaps, func(a, b int64) int { return cmp.Compare(b, a) })
	// Nulls first in DESC: as many as there are series.
	nulls := len(all) - len(gaps)
	for i, r := range top {
		if k := 10 + i - nulls; k < 0 || r[1] != gaps[k] {
			t.Fatalf("gap %d: %v, want %v (%d nulls first)", i, r, gaps[max(k, 0)], nulls)
		}
	}
	// Over buckets: the change of a bucket's mean, and a rank plus a count.
	agg := mustRun(t, open, "SELECT series, time, avg(v), lag(avg(v)), rank() OVER (ORDER BY avg(v)), count(*) FROM m GROUP BY time(30m), series")
	got = mustRun(t, open, "SELECT series, time, avg(v) - lag(avg(v)), rank() OVER (ORDER BY avg(v)) + count(*) FROM m GROUP BY time(30m), series")
	if len(agg) != len(got) || len(got) < 20 {
		t.Fatalf("%d rows, want %d", len(got), len(agg))
	}
	for i, g := range got {
		a := agg[i]
		var d any
		if a[2] != nil && a[3] != nil {
			d = a[2].(float64) - a[3].(float64)
		}
		if !sameCell(g[2], d) || g[3] != a[4].(int64)+a[5].(int64) {
			t.Fatalf("row %d %v, want %v and %v + %v", i, g, d, a[4], a[5])
		}
	}
}

// TestIgnoreNulls: lag and lead IGNORE NULLS (written inside the call or
// after it) take the n-th row before or after whose argument is not
// null, within the partition in time order; last_value(x IGNORE NULLS)
// carries the last value forward. (The value functions over frames:
// TestWindowFrames.) Other functions refuse it.
func TestIgnoreNulls(t *testing.T) {
	src, rows := testSource(t, 1500, 50)
	open := openOnly(src)
	bySeq := bySeqOf(rows)
	got := mustRun(t, open, "SELECT seq, lag(x IGNORE NULLS) OVER (PARTITION BY series ORDER BY time), lead(x, 2) IGNORE NULLS OVER (PARTITION BY series ORDER BY time), "+
		"lag(x, 3 IGNORE NULLS), last_value(x IGNORE NULLS) OVER (PARTITION BY series ORDER BY time ROWS UNBOUNDED PRECEDING), lag(x, 0 IGNORE NULLS) FROM m")
	want := map[uint64][]any{}
	for _, p := range seriesParts(rowsOf(got, bySeq)) {
		var seen []any // the non-null x so far
		for i, r := range p {
			w := make([]any, 5)
			if len(seen) >= 1 {
				w[0] = seen[len(seen)-1]
			}
			if len(seen) >= 3 {
				w[2] = seen[len(seen)-3]
			}
			var ahead []any
			for _, q := range p[i+1:] {
				if x := q.f["x"]; x != nil {
					ahead = append(ahead, x)
				}
			}
			if len(ahead) >= 2 {
				w[1] = ahead[1]
			}
			if x := r.f["x"]; x != nil {
				seen = append(seen, x)
			}
			if len(seen) > 0 {
				w[3] = seen[len(seen)-1]
			}
			w[4] = r.f["x"]
			want[r.seq] = w
		}
	}
	if len(got) < 1000 {
		t.Fatalf("%d rows", len(got))
	}
	for _, g := range got {
		for k, w := range want[g[0].(uint64)] {
			if !sameCell(g[k+1], w) {
				t.Fatalf("seq %d column %d = %v, want %v", g[0], k+1, g[k+1], w)
			}
		}
	}
	sameRows(t, open, "SELECT seq, lag(x RESPECT NULLS), first_value(x) RESPECT NULLS OVER (ORDER BY time) FROM m", "SELECT seq, lag(x), first_value(x) OVER (ORDER BY time) FROM m", 1000)
	wantErrors(t, open, []errCase{
		{"SELECT sum(x IGNORE NULLS) OVER () FROM m", `expected ")"`, "IGNORE"},
		{"SELECT difference(x IGNORE NULLS) FROM m", "IGNORE NULLS is for lag, lead, first_value, last_value and nth_value", "IGNORE"},
		{"SELECT row_number() IGNORE NULLS OVER () FROM m", "IGNORE NULLS is for lag, lead", "IGNORE"},
	})
}
