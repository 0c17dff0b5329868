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
	bySeq := map[uint64]trow{}
	for _, r := range rows {
		bySeq[r.seq] = r
	}
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
			slices.SortFunc(pr, func(a, b trow) int { return cmp.Or(cmp.Compare(a.time, b.time), cmp.Compare(a.seq, b.seq)) })
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

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
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
		v := w.step(&st, value{f: x}, kFloat, int64(i))
		if i >= 3 && v.f != (x+x-1)/2 {
			t.Fatalf("moving average at %d = %v, want %v", i, v.f, (x+x-1)/2)
		}
	}
}

// TestWindowErrors: where window functions are refused, with the place.
func TestWindowErrors(t *testing.T) {
	src, _ := testSource(t, 100, 50)
	for _, c := range []struct{ q, msg string }{
		{"SELECT difference(difference(v)) FROM m", "may be in SELECT items and their arithmetic, not in WHERE, GROUP BY, HAVING, CASE conditions or another function's arguments"},
		{"SELECT v FROM m WHERE lag(v) > 1", "lag() is a window function"},
		{"SELECT CASE WHEN lag(v) > 1 THEN 1 END FROM m", "lag() is a window function"},
		{"SELECT avg(v) FROM m GROUP BY time(1h) HAVING lag(avg(v)) > 1", "lag() is a window function"},
		{"SELECT avg(v) - lag(avg(v)) AS d FROM m GROUP BY time(1h) HAVING d > 0", "window functions are computed after HAVING"},
		{"SELECT DISTINCT v - lag(v) FROM m", "DISTINCT with a window"},
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
		{"SELECT rank() OVER (ORDER BY v ROWS UNBOUNDED PRECEDING) FROM m", "window frames (ROWS ...) are not supported"},
		{"SELECT rank() OVER (PARTITION v) FROM m", "expected by, found \"v\""},
		{"SELECT rank() OVER (ORDER BY nope) FROM m", "unknown column \"nope\""},
		{"SELECT rank() OVER (ORDER BY n) FROM m GROUP BY series", "column \"n\" must be grouped"},
		{"SELECT rank() OVER (ORDER BY v LIMIT) FROM m", "expected PARTITION BY, ORDER BY or \")\" in OVER"},
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
	bySeq := map[uint64]trow{}
	for _, r := range rows {
		bySeq[r.seq] = r
	}
	items := []string{"lag(v)", "lead(n)", "lag(s, 3)", "lead(s, 0)", "lag(time)", "lead(v * 2, 2)"}
	offset := []int{-1, 1, -3, 0, -1, 2}
	cell := func(r trow, k int) any {
		switch k {
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
		parts := map[string][]trow{}
		for _, g := range got {
			r := bySeq[g[0].(uint64)]
			parts[r.series] = append(parts[r.series], r)
		}
		want := map[uint64][]any{}
		for _, pr := range parts {
			slices.SortFunc(pr, func(a, b trow) int { return cmp.Or(cmp.Compare(a.time, b.time), cmp.Compare(a.seq, b.seq)) })
			for i, r := range pr {
				w := make([]any, len(items))
				for k, off := range offset {
					if j := i + off; j >= 0 && j < len(pr) {
						w[k] = cell(pr[j], k)
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

// TestWindowOver: OVER (PARTITION BY ... ORDER BY ...) of raw rows and
// of groups, with row_number, rank and dense_rank, against an oracle
// that sorts each partition by the keys, then (time, seq); nulls sort
// last ascending and first descending, as ORDER BY sorts them.
func TestWindowOver(t *testing.T) {
	src, rows := testSource(t, 3000, 50)
	bySeq := map[uint64]trow{}
	for _, r := range rows {
		bySeq[r.seq] = r
	}
	q := "SELECT seq, row_number() OVER (PARTITION BY s ORDER BY n DESC), rank() OVER (PARTITION BY s ORDER BY n DESC), " +
		"dense_rank() OVER (PARTITION BY s ORDER BY n DESC), lag(v) OVER (ORDER BY time), row_number() OVER (), " +
		"cumulative_sum(n) OVER (PARTITION BY n % 3, label(series, 'host') ORDER BY x, seq DESC), rank() FROM m WHERE v > 0"
	got, err := runCells(q, openOnly(src), &Options{BatchRows: 7})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < 1000 {
		t.Fatalf("%d rows", len(got))
	}
	var rs []trow
	for _, g := range got {
		rs = append(rs, bySeq[g[0].(uint64)])
	}
	byTime := func(a, b trow) int { return cmp.Or(cmp.Compare(a.time, b.time), cmp.Compare(a.seq, b.seq)) }
	// window sorts rs into partitions (by part's value) in the order of
	// key (then time, seq) and calls f on each partition.
	window := func(part func(trow) any, key func(a, b trow) int, f func(p []trow)) {
		parts := map[any][]trow{}
		for _, r := range rs {
			parts[part(r)] = append(parts[part(r)], r)
		}
		for _, p := range parts {
			slices.SortFunc(p, func(a, b trow) int { return cmp.Or(key(a, b), byTime(a, b)) })
			f(p)
		}
	}
	want := map[uint64][]any{}
	for _, r := range rs {
		want[r.seq] = make([]any, 7)
	}
	nDesc := func(a, b trow) int {
		switch an, bn := a.f["n"], b.f["n"]; { // desc: nulls first
		case an == nil || bn == nil:
			return -compareAny(0, an, bn)
		default:
			return cmp.Compare(bn.(int64), an.(int64))
		}
	}
	window(func(r trow) any { return r.f["s"] }, nDesc, func(p []trow) {
		rank, dense := int64(0), int64(0)
		for i, r := range p {
			if i == 0 || nDesc(p[i-1], r) != 0 {
				rank, dense = int64(i+1), dense+1
			}
			want[r.seq][0], want[r.seq][1], want[r.seq][2] = int64(i+1), rank, dense
		}
	})
	window(func(trow) any { return nil }, func(a, b trow) int { return 0 }, func(p []trow) {
		for i, r := range p {
			if i > 0 {
				want[r.seq][3] = p[i-1].f["v"]
			}
		}
	})
	// OVER () numbers the rows in (time, seq) order too.
	window(func(trow) any { return nil }, func(a, b trow) int { return 0 }, func(p []trow) {
		for i, r := range p {
			want[r.seq][4] = int64(i + 1)
		}
	})
	window(func(r trow) any {
		n, _ := r.f["n"].(int64)
		_, ok := r.f["n"].(int64)
		return fmt.Sprint(ok, n%3, labelOf(r.series, "host"))
	}, func(a, b trow) int {
		return cmp.Or(compareAny(0, a.f["x"], b.f["x"]), cmp.Compare(b.seq, a.seq))
	}, func(p []trow) {
		var sum int64
		for _, r := range p {
			if n, ok := r.f["n"].(int64); ok {
				sum += n
				want[r.seq][5] = sum
			}
		}
	})
	// rank() without OVER: by time within the series, ties share.
	window(func(r trow) any { return r.series }, func(a, b trow) int { return 0 }, func(p []trow) {
		rank := int64(0)
		for i, r := range p {
			if i == 0 || p[i-1].time != r.time {
				rank = int64(i + 1)
			}
			want[r.seq][6] = rank
		}
	})
	for _, g := range got {
		w := want[g[0].(uint64)]
		for k := range w {
			if !sameCell(g[k+1], w[k]) {
				t.Fatalf("seq %d (%v): column %d = %v, want %v", g[0], bySeq[g[0].(uint64)], k+1, g[k+1], w[k])
			}
		}
	}

	// Over groups: the series ranked by their row counts, without a
	// time bucket; and within each series, its buckets ranked.
	got, err = runCells("SELECT series, count(*) AS c, rank() OVER (ORDER BY count(*) DESC) AS r, lead(series) OVER (ORDER BY count(*), series) FROM m GROUP BY series ORDER BY c DESC, series", openOnly(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < 3 {
		t.Fatalf("%d groups", len(got))
	}
	for i, g := range got {
		r := int64(i + 1)
		for j := i; j > 0 && got[j-1][1] == g[1]; j-- {
			r = int64(j)
		}
		if g[2] != r {
			t.Fatalf("%v: rank %v, want %d", g, g[2], r)
		}
	}
	asc := slices.Clone(got)
	slices.SortFunc(asc, func(a, b []any) int {
		return cmp.Or(cmp.Compare(a[1].(int64), b[1].(int64)), cmp.Compare(a[0].(string), b[0].(string)))
	})
	for i, a := range asc {
		var lead any
		if i+1 < len(asc) {
			lead = asc[i+1][0]
		}
		if a[3] != lead {
			t.Fatalf("%v: lead %v, want %v", a, a[3], lead)
		}
	}
	got, err = runCells("SELECT series, time, avg(v) AS a, row_number() OVER (PARTITION BY series ORDER BY avg(v) DESC) AS rn FROM m GROUP BY time(30m), series ORDER BY series, rn", openOnly(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < 20 {
		t.Fatalf("%d buckets", len(got))
	}
	for i, g := range got { // numbered from 1 per series, avg descending (nulls first)
		if i == 0 || got[i-1][0] != g[0] {
			if g[3] != int64(1) {
				t.Fatalf("row %d %v: the first of its series", i, g)
			}
			continue
		}
		if prev := got[i-1]; g[3] != prev[3].(int64)+1 || -compareAny(0, prev[2], g[2]) > 0 {
			t.Fatalf("row %d %v after %v", i, g, prev)
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
	got := mustRun(t, open, "SELECT seq, v - lag(v), time - lag(time) AS gap, concat(s, '/', row_number() OVER (PARTITION BY s ORDER BY seq)), -lead(n, 2), (lag(v)) FROM m")
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
		if p[5] != nil { // (concat of a null is null)
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

// TestWindowAggregates: sum, avg, min, max and count with OVER, against
// an oracle that aggregates, for each row, the rows of its partition
// (all of them without ORDER BY; with it, those up to the row and its
// peers, as SQL's default frame), nulls skipped; over raw rows and over
// groups (a share of the total).
func TestWindowAggregates(t *testing.T) {
	src, rows := testSource(t, 1500, 50)
	bySeq := map[uint64]trow{}
	for _, r := range rows {
		bySeq[r.seq] = r
	}
	type win struct {
		item  string
		part  func(trow) any
		key   func(trow) any // nil: no ORDER BY
		desc  bool
		fn    string
		value func(trow) any
	}
	byS := func(r trow) any { return r.f["s"] }
	all := func(trow) any { return nil }
	field := func(name string) func(trow) any { return func(r trow) any { return r.f[name] } }
	wins := []win{
		{"sum(n) OVER (PARTITION BY s)", byS, nil, false, "sum", field("n")},
		{"avg(v) OVER (PARTITION BY s ORDER BY n)", byS, field("n"), false, "avg", field("v")},
		{"min(s) OVER ()", all, nil, false, "min", field("s")},
		{"max(time) OVER (PARTITION BY series)", func(r trow) any { return r.series }, nil, false, "max", func(r trow) any { return r.time }},
		{"count(*) OVER (PARTITION BY s ORDER BY x DESC)", byS, field("x"), true, "count", func(trow) any { return true }},
		{"count(v) OVER (PARTITION BY n % 4)", func(r trow) any {
			if n, ok := r.f["n"].(int64); ok {
				return n % 4
			}
			return nil
		}, nil, false, "count", field("v")},
		{"sum(x * 2) OVER (ORDER BY time)", all, func(r trow) any { return r.time }, false, "sum", func(r trow) any {
			if x, ok := r.f["x"].(float64); ok {
				return x * 2
			}
			return nil
		}},
	}
	var items []string
	for _, w := range wins {
		items = append(items, w.item)
	}
	q := "SELECT seq, " + strings.Join(items, ", ") + " FROM m WHERE op = 'put'"
	got, err := runCells(q, openOnly(src), &Options{BatchRows: 7})
	if err != nil {
		t.Fatal(err)
	}
	var rs []trow
	for _, g := range got {
		rs = append(rs, bySeq[g[0].(uint64)])
	}
	if len(rs) < 1000 {
		t.Fatalf("%d rows", len(rs))
	}
	for i, g := range got {
		r := rs[i]
		for k, w := range wins {
			var vals []any
			for _, o := range rs {
				if compareAny(0, w.part(o), w.part(r)) != 0 {
					continue
				}
				if w.key != nil {
					c := compareAny(0, w.key(o), w.key(r))
					if w.desc {
						c = -c
					}
					if c > 0 {
						continue
					}
				}
				if v := w.value(o); v != nil {
					vals = append(vals, v)
				}
			}
			var want any
			switch {
			case w.fn == "count":
				want = int64(len(vals))
			case len(vals) == 0:
			case w.fn == "min" || w.fn == "max":
				want = vals[0]
				for _, v := range vals[1:] {
					if c := compareAny(0, v, want); w.fn == "min" && c < 0 || w.fn == "max" && c > 0 {
						want = v
					}
				}
			default:
				var si int64
				var sf float64
				for _, v := range vals {
					if n, ok := v.(int64); ok {
						si += n
						sf += float64(n)
					} else {
						sf += v.(float64)
					}
				}
				_, isInt := vals[0].(int64)
				switch {
				case w.fn == "avg":
					want = sf / float64(len(vals))
				case isInt:
					want = si
				default:
					want = sf
				}
			}
			if !sameCell(g[k+1], want) {
				t.Fatalf("seq %d: %s = %v, want %v", r.seq, w.item, g[k+1], want)
			}
		}
	}
	// Over groups: each series' share of all rows, and its running count.
	got = mustRun(t, openOnly(src), "SELECT series, count(*), 100.0 * count(*) / sum(count(*)) OVER () AS share, sum(count(*)) OVER (ORDER BY series) FROM m GROUP BY series ORDER BY series")
	var total, running int64
	for _, g := range got {
		total += g[1].(int64)
	}
	if total != int64(len(rows)) || len(got) < 3 {
		t.Fatalf("groups %v", got)
	}
	for _, g := range got {
		running += g[1].(int64)
		if !sameCell(g[2], 100*float64(g[1].(int64))/float64(total)) || g[3] != running {
			t.Fatalf("%v: want share %v, running %d", g, 100*float64(g[1].(int64))/float64(total), running)
		}
	}
}

// TestQualify: QUALIFY filters rows on the window functions' results
// (by alias, or an aggregate's text), after HAVING and before ORDER BY
// and LIMIT, as the same filter on a subquery does; a duration compares
// with a span in QUALIFY and HAVING.
func TestQualify(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	open := openOnly(src)
	for _, c := range []struct{ q, sub string }{
		{"SELECT series, seq, v, row_number() OVER (PARTITION BY series ORDER BY v DESC) AS rn FROM m QUALIFY rn <= 3 ORDER BY series, rn",
			"SELECT series, s, v, rn FROM (SELECT series, seq AS s, v, row_number() OVER (PARTITION BY series ORDER BY v DESC) AS rn FROM m) WHERE rn <= 3 ORDER BY series, rn"},
		{"SELECT seq, time - lag(time) AS gap FROM m WHERE n > 10 QUALIFY gap > 40s OR gap IS NULL ORDER BY seq LIMIT 50",
			"SELECT s, gap FROM (SELECT seq AS s, time - lag(time) AS gap FROM m WHERE n > 10) WHERE gap > 40000000000 OR gap IS NULL ORDER BY s LIMIT 50"},
		// Windows written in QUALIFY are computed, not returned.
		{"SELECT series, seq, v FROM m QUALIFY row_number() OVER (PARTITION BY series ORDER BY v DESC) <= 3 ORDER BY series, v DESC NULLS FIRST, seq",
			"SELECT series, s, v FROM (SELECT series, seq AS s, v, row_number() OVER (PARTITION BY series ORDER BY v DESC) AS rn FROM m) WHERE rn <= 3 ORDER BY series, v DESC NULLS FIRST, s"},
		{"SELECT seq, v, n FROM m QUALIFY v = max(v) OVER (PARTITION BY series) OR n > sum(n) OVER () / count(n) OVER () * 1.9 ORDER BY seq",
			"SELECT q, v, n FROM (SELECT seq AS q, v, n, max(v) OVER (PARTITION BY series) AS mv, sum(n) OVER () / count(n) OVER () AS mn FROM m) WHERE v = mv OR n > mn * 1.9 ORDER BY q"},
		{"SELECT series, count(*) AS c FROM m GROUP BY series QUALIFY rank() OVER (ORDER BY count(*) DESC) <= 5 ORDER BY c DESC, series",
			"SELECT series, c FROM (SELECT series, count(*) AS c, rank() OVER (ORDER BY count(*) DESC) AS r FROM m GROUP BY series) WHERE r <= 5 ORDER BY c DESC, series"},
		{"SELECT series, time, count(*), lag(count(*)) AS before FROM m GROUP BY time(10m), series HAVING count(*) > 1 QUALIFY count(*) > before ORDER BY series, time",
			"SELECT series, time, c, before FROM (SELECT series, time, count(*) AS c, lag(count(*)) AS before FROM m GROUP BY time(10m), series HAVING count(*) > 1) WHERE c > before ORDER BY series, time"},
	} {
		got, want := mustRun(t, open, c.q), mustRun(t, open, c.sub)
		if len(got) < 5 || len(got) != len(want) {
			t.Fatalf("%s: %d rows, the subquery %d", c.q, len(got), len(want))
		}
		for i := range got {
			if !slices.EqualFunc(got[i], want[i], func(a, b any) bool { return sameCell(a, b) || fmt.Sprint(a) == fmt.Sprint(b) }) { // (seq through a subquery is an int64)
				t.Fatalf("%s: row %d %v, want %v", c.q, i, got[i], want[i])
			}
		}
	}
	spans := mustRun(t, open, "SELECT series, max(time) - min(time) AS span FROM m GROUP BY series HAVING span > 1h")
	for _, r := range spans {
		if r[1].(int64) <= 3600e9 {
			t.Fatalf("HAVING span > 1h kept %v", r)
		}
	}
	if len(spans) == 0 {
		t.Fatal("HAVING span > 1h kept nothing")
	}
	if p := explainLines(t, src, "EXPLAIN SELECT seq, rank() OVER (ORDER BY v) AS r FROM m QUALIFY r < 5"); !strings.Contains(p, "qualify: tested on each row once the window functions are computed") {
		t.Errorf("EXPLAIN:\n%s", p)
	}
	wantErrors(t, open, []errCase{
		{"SELECT series, avg(v) AS a FROM m GROUP BY series QUALIFY a > 1", "QUALIFY filters on window functions' results, and this query has none", "QUALIFY"},
		{"SELECT seq, lag(v) AS l FROM m QUALIFY nope > 1", "QUALIFY nope: not a column of the result", "nope"},
		{"SELECT seq, lag(v) AS l FROM m QUALIFY series ~ cpu{host=\"a\"}", "QUALIFY does not take series selectors", ""},
		{"SELECT seq, lag(v) AS l FROM m QUALIFY l > 1 HAVING l > 2", "unexpected", "HAVING"},
		{"SELECT seq, lag(v) AS l FROM m QUALIFY lag(lag(v)) > 1", "lag() is a window function", "lag(v))"},
		{"SELECT seq FROM m QUALIFY quantile(0.5, v) OVER () > 1", "quantile() has no window form", "OVER"},
		{"SELECT seq, lag(v) AS l FROM m WHERE v > 1m", "a duration (1m) must be added to a time", "1m"},
	})
}

// TestNullsOrder: NULLS FIRST and NULLS LAST place nulls in ORDER BY
// (raw, sorted with and without LIMIT, and aggregate results) and in a
// window's OVER (ORDER BY ...), whatever the direction; without them
// nulls are last ascending and first descending.
func TestNullsOrder(t *testing.T) {
	src, _ := testSource(t, 2000, 50)
	open := openOnly(src)
	// check fails the test unless column c of rows holds its nulls where
	// nullsFirst says and its values in the direction's order, and has
	// both.
	check := func(q string, rows [][]any, c int, desc, nullsFirst bool) {
		t.Helper()
		seenValue, nulls := false, 0
		for i, r := range rows {
			if r[c] == nil {
				nulls++
				if nullsFirst && seenValue || !nullsFirst && i+1 < len(rows) && rows[i+1][c] != nil {
					t.Fatalf("%s: a null at row %d out of place", q, i)
				}
				continue
			}
			if seenValue && i > 0 && rows[i-1][c] != nil {
				d := compareAny(0, rows[i-1][c], r[c])
				if desc && d < 0 || !desc && d > 0 {
					t.Fatalf("%s: rows %d and %d out of order: %v, %v", q, i-1, i, rows[i-1][c], r[c])
				}
			}
			seenValue = true
		}
		if nulls == 0 || !seenValue {
			t.Fatalf("%s: %d nulls, values %v: the case shows nothing", q, nulls, seenValue)
		}
	}
	for _, c := range []struct {
		order            string
		desc, nullsFirst bool
	}{{"", false, false}, {" DESC", true, true}, {" NULLS FIRST", false, true}, {" DESC NULLS LAST", true, false}, {" ASC NULLS LAST", false, false}} {
		q := "SELECT seq, n FROM m ORDER BY n" + c.order
		check(q, mustRun(t, open, q), 1, c.desc, c.nullsFirst)
		q = "SELECT seq, n FROM m ORDER BY n" + c.order + ", seq LIMIT 1900"
		check(q, mustRun(t, open, q), 1, c.desc, c.nullsFirst)
		q = "SELECT key, s, max(n) FILTER (WHERE v > 150) AS top FROM m GROUP BY s, key ORDER BY top" + c.order
		check(q, mustRun(t, open, q), 2, c.desc, c.nullsFirst)
		// In OVER: row_number follows the same order.
		q = "SELECT n, row_number() OVER (ORDER BY n" + c.order + ", seq) AS rn FROM m ORDER BY rn"
		check(q, mustRun(t, open, q), 0, c.desc, c.nullsFirst)
	}
	if p := explainLines(t, src, "EXPLAIN SELECT seq, n FROM m ORDER BY n DESC NULLS LAST"); !strings.Contains(p, "order by: n desc nulls last") {
		t.Errorf("EXPLAIN:\n%s", p)
	}
	wantErrors(t, open, []errCase{{"SELECT n FROM m ORDER BY n NULLS LATE", "expected FIRST or LAST after NULLS", "LATE"}})
}

// TestWindowRanking: ntile, percent_rank and cume_dist against an
// oracle over each partition in its order: ntile's first (rows % n)
// buckets hold one row more; peers share percent_rank and cume_dist.
func TestWindowRanking(t *testing.T) {
	src, rows := testSource(t, 2000, 50)
	bySeq := map[uint64]trow{}
	for _, r := range rows {
		bySeq[r.seq] = r
	}
	for _, buckets := range []int64{1, 3, 7, 1000} {
		q := fmt.Sprintf("SELECT seq, ntile(%d) OVER (PARTITION BY s ORDER BY n), percent_rank() OVER (PARTITION BY s ORDER BY n), cume_dist() OVER (PARTITION BY s ORDER BY n) FROM m WHERE op = 'put'", buckets)
		got := mustRun(t, openOnly(src), q)
		parts := map[any][]trow{}
		for _, g := range got {
			r := bySeq[g[0].(uint64)]
			parts[r.f["s"]] = append(parts[r.f["s"]], r)
		}
		want := map[uint64][3]any{}
		for _, p := range parts {
			slices.SortFunc(p, func(a, b trow) int {
				return cmp.Or(compareAny(0, a.f["n"], b.f["n"]), cmp.Compare(a.time, b.time), cmp.Compare(a.seq, b.seq))
			})
			n := int64(len(p))
			for i, r := range p {
				// ntile: bucket sizes, the larger first.
				size, start, b := n/buckets, int64(0), int64(1)
				for ; ; b++ {
					s := size
					if b <= n%buckets {
						s++
					}
					if int64(i) < start+s {
						break
					}
					start += s
				}
				first, last := i, i // the run of peers
				for first > 0 && compareAny(0, p[first-1].f["n"], r.f["n"]) == 0 {
					first--
				}
				for last+1 < len(p) && compareAny(0, p[last+1].f["n"], r.f["n"]) == 0 {
					last++
				}
				pr := 0.0
				if n > 1 {
					pr = float64(first) / float64(n-1)
				}
				want[r.seq] = [3]any{b, pr, float64(last+1) / float64(n)}
			}
		}
		for _, g := range got {
			w := want[g[0].(uint64)]
			for k := range w {
				if !sameCell(g[k+1], w[k]) {
					t.Fatalf("%s\nseq %d: column %d = %v, want %v", q, g[0], k+1, g[k+1], w[k])
				}
			}
		}
	}
	wantErrors(t, openOnly(src), []errCase{
		{"SELECT ntile(0) OVER () FROM m", "ntile wants the number of buckets, 1 to", "0)"},
		{"SELECT ntile(v) FROM m", "ntile wants the number of buckets", "v)"},
		{"SELECT cume_dist(v) FROM m", "cume_dist() takes no argument", "v)"},
	})
}

// TestWindowValues: first_value, last_value and nth_value take a row of
// the frame, nulls included: with ORDER BY, the partition up to the
// row's last peer; without, the whole partition.
func TestWindowValues(t *testing.T) {
	src, rows := testSource(t, 2000, 50)
	bySeq := map[uint64]trow{}
	for _, r := range rows {
		bySeq[r.seq] = r
	}
	got := mustRun(t, openOnly(src), "SELECT seq, first_value(v) OVER (PARTITION BY s ORDER BY n), last_value(v) OVER (PARTITION BY s ORDER BY n), "+
		"nth_value(v, 3) OVER (PARTITION BY s ORDER BY n), last_value(seq) OVER (PARTITION BY s), nth_value(s, 40) OVER () FROM m WHERE op = 'put'")
	parts := map[any][]trow{}
	var all []trow
	for _, g := range got {
		r := bySeq[g[0].(uint64)]
		parts[r.f["s"]] = append(parts[r.f["s"]], r)
		all = append(all, r)
	}
	byN := func(a, b trow) int {
		return cmp.Or(compareAny(0, a.f["n"], b.f["n"]), cmp.Compare(a.time, b.time), cmp.Compare(a.seq, b.seq))
	}
	byTime := func(a, b trow) int { return cmp.Or(cmp.Compare(a.time, b.time), cmp.Compare(a.seq, b.seq)) }
	slices.SortFunc(all, byTime)
	want := map[uint64][5]any{}
	nulls := 0
	for _, p := range parts {
		slices.SortFunc(p, byN)
		last := slices.MaxFunc(p, byTime) // OVER (PARTITION BY s): by time
		for i, r := range p {
			end := i + 1 // the frame: up to the last peer
			for end < len(p) && compareAny(0, p[end].f["n"], r.f["n"]) == 0 {
				end++
			}
			var third any
			if end >= 3 {
				third = p[2].f["v"]
			}
			if third == nil {
				nulls++
			}
			want[r.seq] = [5]any{p[0].f["v"], p[end-1].f["v"], third, int64(last.seq), all[39].f["s"]} // (seq in arithmetic is an int64)
		}
	}
	for _, g := range got {
		w := want[g[0].(uint64)]
		for k := range w {
			if !sameCell(g[k+1], w[k]) {
				t.Fatalf("seq %d: column %d = %v, want %v", g[0], k+1, g[k+1], w[k])
			}
		}
	}
	if nulls == 0 || nulls == len(got) {
		t.Fatalf("%d of %d nth_value nulls: the case shows too little", nulls, len(got))
	}
	wantErrors(t, openOnly(src), []errCase{{"SELECT nth_value(v, 0) OVER () FROM m", "nth_value wants the row's place in the window, 1 to", "0)"}})
}
