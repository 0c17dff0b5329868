package query

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestWindowOver: OVER (PARTITION BY ... ORDER BY ...) of raw rows and
// of groups, with row_number, rank and dense_rank, against an oracle
// that sorts each partition by the keys, then (time, seq); nulls sort
// last ascending and first descending, as ORDER BY sorts them.
func TestWindowOver(t *testing.T) {
	src, rows := testSource(t, 3000, 50)
	bySeq := bySeqOf(rows)
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
	rs := rowsOf(got, bySeq)
	// window sorts rs into partitions (by part's value) in the order of
	// key (then time, seq) and calls f on each partition.
	window := func(part func(trow) any, key func(a, b trow) int, f func(p []trow)) {
		parts := map[any][]trow{}
		for _, r := range rs {
			parts[part(r)] = append(parts[part(r)], r)
		}
		for _, p := range parts {
			slices.SortFunc(p, func(a, b trow) int { return cmp.Or(key(a, b), byTimeSeq(a, b)) })
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

// TestWindowRanking: ntile, percent_rank and cume_dist against an
// oracle over each partition in its order: ntile's first (rows % n)
// buckets hold one row more; peers share percent_rank and cume_dist.
func TestWindowRanking(t *testing.T) {
	src, rows := testSource(t, 2000, 50)
	bySeq := bySeqOf(rows)
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
	bySeq := bySeqOf(rows)
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
	slices.SortFunc(all, byTimeSeq)
	want := map[uint64][5]any{}
	nulls := 0
	for _, p := range parts {
		slices.SortFunc(p, byN)
		last := slices.MaxFunc(p, byTimeSeq) // OVER (PARTITION BY s): by time
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

// TestWindowAggregates: sum, avg, min, max and count with OVER, against
// an oracle that aggregates, for each row, the rows of its partition
// (all of them without ORDER BY; with it, those up to the row and its
// peers, as SQL's default frame), nulls skipped; over raw rows and over
// groups (a share of the total).
func TestWindowAggregates(t *testing.T) {
	src, rows := testSource(t, 1500, 50)
	bySeq := bySeqOf(rows)
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
	rs := rowsOf(got, bySeq)
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
			if want := bruteWindowAgg(w.fn, vals); !sameCell(g[k+1], want) {
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
