package query

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// truncOracle is date_trunc by the time package's calendar: the wall
// clock of t on loc cut to unit, as an instant.
func truncOracle(unit string, t int64, loc *time.Location) int64 {
	tm := time.Unix(0, t).In(loc)
	y, m, d := tm.Date()
	h, mi, s := tm.Clock()
	ns := tm.Nanosecond()
	var out time.Time
	switch unit {
	case "microsecond":
		out = time.Date(y, m, d, h, mi, s, ns/1e3*1e3, loc)
	case "millisecond":
		out = time.Date(y, m, d, h, mi, s, ns/1e6*1e6, loc)
	case "second":
		out = time.Date(y, m, d, h, mi, s, 0, loc)
	case "minute":
		out = time.Date(y, m, d, h, mi, 0, 0, loc)
	case "hour":
		out = time.Date(y, m, d, h, 0, 0, 0, loc)
	case "day":
		out = time.Date(y, m, d, 0, 0, 0, 0, loc)
	case "week": // back to Monday
		out = time.Date(y, m, d-(int(tm.Weekday())+6)%7, 0, 0, 0, 0, loc)
	case "month":
		out = time.Date(y, m, 1, 0, 0, 0, 0, loc)
	case "quarter":
		out = time.Date(y, (m-1)/3*3+1, 1, 0, 0, 0, 0, loc)
	case "year":
		out = time.Date(y, 1, 1, 0, 0, 0, 0, loc)
	}
	return out.UnixNano()
}

// TestDateTrunc: every unit of date_trunc on 20,000 instants from 1680
// to 2260 (before the epoch too, off the second), in UTC and on zone
// clocks (half-hour offsets, daylight saving), against the time
// package's calendar. On a zone clock an instant with a change between
// it and a day before its bucket's start is left to TestBucketZone and
// TestTruncBucketInvariant: time.Date names a skipped or repeated wall
// time by either side of the change, a bucket by its first instant.
func TestDateTrunc(t *testing.T) {
	var locs []*time.Location
	for _, name := range []string{"UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Skip("no zone database:", err)
		}
		locs = append(locs, loc)
	}
	lo := time.Date(1680, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	hi := time.Date(2260, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	rng := rand.New(rand.NewPCG(3, 7))
	instants := []int64{0, -1, 1, -86400e9, 951782400e9 /* 2000-02-29 */, 1711846800e9 /* 2024-03-31 01:00 UTC, a Berlin change */}
	for range 20000 {
		instants = append(instants, lo+2*rng.Int64N(hi/2-lo/2)+rng.Int64N(2)) // hi-lo overflows
	}
	checked := 0
	for unit := range truncUnits {
		tr := truncOf(t, "date_trunc('"+unit+"', time)")
		for i, loc := range locs {
			var bk *bucketer
			if i == 0 {
				bk = tr.bucketer(nil) // UTC without a zone
			} else {
				bk = tr.bucketer(loc)
			}
			for _, ns := range instants {
				want := truncOracle(unit, ns, loc)
				if start, _ := time.Unix(0, ns).In(loc).ZoneBounds(); i > 0 && !start.IsZero() && start.UnixNano() > want-26*int64(time.Hour) {
					continue // a change since a day before the bucket's start
				}
				checked++
				if got := bk.key(ns); got != want {
					t.Fatalf("date_trunc('%s', %v) on %v: %v, want %v", unit, time.Unix(0, ns).In(loc), loc,
						time.Unix(0, got).In(loc), time.Unix(0, want).In(loc))
				}
			}
		}
	}
	if checked < len(truncUnits)*len(locs)*len(instants)*9/10 {
		t.Fatalf("only %d instants checked", checked)
	}
}

// truncOf parses the SELECT item expr, a date_trunc or time_bucket call,
// and returns its bucket.
func truncOf(t *testing.T, expr string) *Trunc {
	t.Helper()
	st, err := Parse("SELECT " + expr + " FROM m")
	if err != nil {
		t.Fatal(err)
	}
	a := st.Items[0].Expr
	if a == nil || a.Trunc == nil {
		t.Fatalf("%s: no truncation parsed: %+v", expr, st.Items[0])
	}
	return a.Trunc
}

// TestTimeArith: instants computed by expressions on a stream's rows:
// time ± durations, date_trunc and time_bucket as timestamps in raw and
// aggregate queries, GROUP BY date_trunc as GROUP BY time(), comparisons
// with times in quotes in WHERE and HAVING, and the statement's now().
func TestTimeArith(t *testing.T) {
	src, rows := testSource(t, 3000, 50)
	open := openOnly(src)
	o := &Options{Now: modelNow}
	run := func(q string) [][]any {
		t.Helper()
		got, err := runCells(q, open, o)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return got
	}
	const hour, day = int64(time.Hour), 24 * int64(time.Hour)
	floor := func(t, d int64) int64 { return t - ((t%d)+d)%d }
	// Raw rows, in seq order.
	var want [][]any
	for _, r := range rows {
		want = append(want, []any{r.time + hour, r.time - 90*int64(time.Minute), floor(r.time, 15*int64(time.Minute)),
			truncOracle("day", r.time, time.UTC), r.time - modelNow.UnixNano(), modelNow.UnixNano() - day})
	}
	got := run("SELECT time + 1h, time - 1h30m, time_bucket(15m, time), date_trunc('day', time), time - now(), now() - 1d FROM m")
	if d := diffCells(got, want); d != "" {
		t.Fatal(d)
	}
	// Their types: timestamps, but for a span between two instants (a
	// duration, durations.go).
	for q, want := range map[string]string{
		"SELECT time + 1h, 1d + time, time - now(), time + time, date_trunc('hour', time) - 1m, -(time - 1h), time * 1 FROM m":        "ts ts duration[ns] int64 ts int64 int64",
		"SELECT min(date_trunc('hour', time)), max(time) + 1h, count(DISTINCT date_trunc('day', time)), max(time) - min(time) FROM m": "ts ts int64 duration[ns]",
		"SELECT date_trunc('day', time) AS d, first(time_bucket(1m, time)), sum(hour(time)) FROM m GROUP BY d":                        "ts ts int64",
	} {
		rr, err := Run(t.Context(), q, open, o)
		if err != nil {
			t.Fatal(err)
		}
		var types []string
		for _, f := range rr.Schema().Fields() {
			types = append(types, strings.ReplaceAll(f.Type.String(), "timestamp[ns, tz=UTC]", "ts"))
		}
		rr.Release()
		if strings.Join(types, " ") != want {
			t.Errorf("%s: types %v, want %s", q, types, want)
		}
	}

	// GROUP BY date_trunc('hour') is GROUP BY time(1h); of week, time(1w)
	// from Monday.
	for _, c := range []struct{ expr, bucket string }{
		{"date_trunc('hour', time)", "time(1h)"},
		{"date_trunc('week', time)", "time(1w, 4d)"},
		{"time_bucket(20m, time, 5m)", "time(20m, 5m)"},
		{"date_trunc('month', time, 'Asia/Kolkata')", "time(1mo, 'Asia/Kolkata')"},
	} {
		a := run("SELECT " + c.expr + " AS bk, count(*), max(n) FROM m GROUP BY bk ORDER BY bk")
		b := run("SELECT time, count(*), max(n) FROM m GROUP BY " + c.bucket + " FILL(none)")
		if d := diffCells(a, b); d != "" || len(a) == 0 {
			t.Errorf("GROUP BY %s against %s (%d groups): %s", c.expr, c.bucket, len(a), d)
		}
	}

	// Comparisons with a time in quotes, in WHERE and HAVING, and IN.
	mid := rows[1500].time
	midDay := truncOracle("day", mid, time.UTC)
	dayText := time.Unix(0, midDay).UTC().Format("2006-01-02")
	var inDay, after int64
	for _, r := range rows {
		if truncOracle("day", r.time, time.UTC) == midDay {
			inDay++
		}
		if r.time+hour > mid {
			after++
		}
	}
	midText := time.Unix(0, mid).UTC().Format(time.RFC3339Nano)
	for q, n := range map[string]int64{
		"SELECT count(*) FROM m WHERE date_trunc('day', time) = '" + dayText + "'":                    inDay,
		"SELECT count(*) FROM m WHERE '" + dayText + "' = date_trunc('day', time)":                    inDay,
		"SELECT count(*) FROM m WHERE date_trunc('day', time) IN ('" + dayText + "', '1999-01-01')":   inDay,
		"SELECT count(*) FROM m WHERE time + 1h > '" + midText + "'":                                  after,
		"SELECT count(*) FROM m WHERE time > '" + midText + "' - 1h":                                  after,
		"SELECT count(*) FROM m WHERE time - '" + midText + "' > -1h":                                 after,
		"SELECT count(*) FROM m WHERE now() - time < now() - '" + midText + "' + 1h":                  after,
		"SELECT count(*) FROM m WHERE date_trunc('day', time) = date_trunc('day', '" + midText + "')": inDay,
	} {
		if got := run(q); len(got) != 1 || got[0][0] != n {
			t.Errorf("%s: %v, want %d", q, got, n)
		}
	}
	midHour := truncOracle("hour", mid, time.UTC)
	hourText := time.Unix(0, midHour).UTC().Format(time.RFC3339)
	groups := run("SELECT date_trunc('hour', time) AS h, count(*) FROM m GROUP BY h HAVING h >= '" + hourText + "' ORDER BY h")
	all := run("SELECT date_trunc('hour', time) AS h, count(*) FROM m GROUP BY h ORDER BY h")
	var wantGroups [][]any
	for _, g := range all {
		if g[0].(int64) >= midHour {
			wantGroups = append(wantGroups, g)
		}
	}
	if d := diffCells(groups, wantGroups); d != "" || len(groups) == 0 || len(groups) == len(all) {
		t.Errorf("HAVING h >= '%s' (%d of %d groups): %s", hourText, len(groups), len(all), d)
	}

	// Aggregates of instants are instants; min(time) + 1h too.
	var first, last int64 = rows[0].time, rows[0].time
	days := map[int64]bool{}
	for _, r := range rows {
		first, last = min(first, r.time), max(last, r.time)
		days[truncOracle("day", r.time, time.UTC)] = true
	}
	got = run("SELECT min(date_trunc('hour', time)), max(time) + 1h, count(DISTINCT date_trunc('day', time)), max(time) - min(time) FROM m")
	if d := diffCells(got, [][]any{{floor(first, hour), last + hour, int64(len(days)), last - first}}); d != "" {
		t.Error(d)
	}
}

// TestTimeArithErrors: what time arithmetic refuses, and where.
func TestTimeArithErrors(t *testing.T) {
	src, _ := testSource(t, 200, 50)
	wantErrors(t, openOnly(src), []errCase{
		{"SELECT date_trunc('day', v) FROM m", "date_trunc() wants a time", "date_trunc"},
		{"SELECT time_bucket(1h, s) FROM m", "type mismatch: arithmetic on column \"s\"", "s)"},
		{"SELECT time + 'soon' FROM m", "arithmetic on", "'soon'"},
		{"SELECT time * 1mo FROM m", "1mo is a calendar span: it can only be added to or subtracted from a time", "1mo"},
		{"SELECT count(*) FROM m WHERE date_trunc('day', time) = 'yesterday'", "compares a number with text", "="},
		{"SELECT count(*) FROM m WHERE time > 1h", "a duration (1h) must be added to a time", "1h"},
	})
}

// TestTimeArithNames: the text of the expressions, the name of their
// columns without AS, is the statement's own.
func TestTimeArithNames(t *testing.T) {
	for _, expr := range []string{
		"time + 1h30m", "date_trunc('day', time)", "date_trunc('Week', time, 'Europe/Berlin')",
		"time_bucket(15m, time)", "time_bucket(1d, time, -6h, 'America/New_York')", "time_bucket(3mo, time)",
		"now() - max(time)", "max(time) - 1d",
	} {
		st, err := Parse("SELECT " + expr + " FROM m")
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		if got := st.Items[0].Name(); got != expr {
			t.Errorf("%s is named %q", expr, got)
		}
	}
	fns := Functions()
	for _, f := range []string{"date_trunc", "time_bucket"} {
		if !slices.Contains(fns, f) {
			t.Errorf("Functions() lacks %s", f)
		}
	}
}

// TestTruncBucketInvariant: what the ranges of timerange.go rest on,
// key(t) <= t < key(t) + maxSpan, and on the UTC clock t <
// next(key(t)); and next(key) > key, which FILL walks by. For every unit
// and for widths with offsets, on clocks whose changes skip or repeat midnight (Havana,
// Beirut), move by half an hour (Lord Howe) or sit at 2:45 (Chatham).
func TestTruncBucketInvariant(t *testing.T) {
	locs := []*time.Location{nil}
	for _, name := range []string{"America/Havana", "Asia/Beirut", "Australia/Lord_Howe", "Pacific/Chatham", "Europe/Berlin"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Skip("no zone database:", err)
		}
		locs = append(locs, loc)
	}
	var truncs []*Trunc
	for unit := range truncUnits {
		truncs = append(truncs, truncOf(t, "date_trunc('"+unit+"', time)"))
	}
	for _, e := range []string{"time_bucket(90m, time)", "time_bucket(1d, time, -6h)", "time_bucket(7m, time, 3m)", "time_bucket(2mo, time)", "time_bucket(1y, time)",
		"time_bucket(7h, time)", "time_bucket(1w, time)", "time_bucket(7mo, time)", "time_bucket(2mo, time, 1mo)", "time_bucket(5d, time, TIMESTAMP '1999-05-04 03:02:01')", "time_bucket(5mo, time, TIMESTAMP '1999-05-04')"} {
		truncs = append(truncs, truncOf(t, e))
	}
	rng := rand.New(rand.NewPCG(11, 13))
	lo := time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	hi := time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	for range 4000 {
		// Around changes: instants within a day of a random one, hours apart.
		base := lo + rng.Int64N(hi-lo)
		for k := range int64(60) {
			ts := base + k*int64(37*time.Minute) + rng.Int64N(int64(time.Minute))
			for _, tr := range truncs {
				for _, loc := range locs {
					bk := tr.bucketer(loc)
					key := bk.key(ts)
					next := bk.next(key)
					if key > ts || loc == nil && ts >= next || ts-key >= bk.maxSpan() || next <= key {
						t.Fatalf("%+v on %v: t %v has key %v and next %v", tr, loc, time.Unix(0, ts), time.Unix(0, key), time.Unix(0, next))
					}
				}
			}
		}
	}
}

// TestTimeArithRanges: comparisons of computed instants with constant
// ones narrow the scan's time range (EXPLAIN prunes blocks by time), and
// the rows counted are the rows that meet them, for every operator,
// either side, bucket starts and instants between them.
func TestTimeArithRanges(t *testing.T) {
	src, rows := testSource(t, 3000, 20)
	open := openOnly(src)
	o := &Options{Now: modelNow}
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	const m = int64(time.Minute)
	floor := func(t, d, off int64) int64 { t -= off; return t - ((t%d)+d)%d + off }
	forms := map[string]func(int64) int64{
		"date_trunc('hour', time)":                    func(t int64) int64 { return truncOracle("hour", t, time.UTC) },
		"date_trunc('day', time, 'America/New_York')": func(t int64) int64 { return truncOracle("day", t, ny) },
		"time_bucket(20m, time, 5m)":                  func(t int64) int64 { return floor(t, 20*m, 5*m) },
		"time + 1h":                                   func(t int64) int64 { return t + 60*m },
		"time - 90m":                                  func(t int64) int64 { return t - 90*m },
		"1h + time":                                   func(t int64) int64 { return t + 60*m },
		"time":                                        func(t int64) int64 { return t },
	}
	rng := rand.New(rand.NewPCG(2, 4))
	ops := map[string]func(a, b int64) bool{
		"=": func(a, b int64) bool { return a == b }, "!=": func(a, b int64) bool { return a != b },
		"<": func(a, b int64) bool { return a < b }, "<=": func(a, b int64) bool { return a <= b },
		">": func(a, b int64) bool { return a > b }, ">=": func(a, b int64) bool { return a >= b },
	}
	checks := 0
	for expr, f := range forms {
		for op, holds := range ops {
			for range 6 {
				r := rows[rng.IntN(len(rows))].time
				v := r + rng.Int64N(3*60*m) - 90*m
				if rng.IntN(2) == 0 {
					v = f(r) // a value the expression takes
				}
				lit := "'" + time.Unix(0, v).UTC().Format(time.RFC3339Nano) + "'"
				var want int64
				for _, row := range rows {
					if holds(f(row.time), v) {
						want++
					}
				}
				for _, q := range []string{
					"SELECT count(*) FROM m WHERE " + expr + " " + op + " " + lit,
					"SELECT count(*) FROM m WHERE (" + lit + ") " + flipped[op] + " " + expr,
				} {
					got, err := runCells(q, open, o)
					if err != nil {
						t.Fatalf("%s: %v", q, err)
					}
					if got[0][0] != want {
						t.Errorf("%s: %v, want %d", q, got[0][0], want)
					}
					checks++
				}
			}
		}
	}
	if checks != len(forms)*len(ops)*6*2 {
		t.Fatalf("%d checks", checks)
	}
	mid := rows[1500].time
	day := time.Unix(0, truncOracle("hour", mid, time.UTC)).UTC().Format(time.RFC3339)
	for _, q := range []string{
		"EXPLAIN SELECT count(*) FROM m WHERE date_trunc('hour', time) = '" + day + "'",
		"EXPLAIN SELECT count(*) FROM m WHERE time + 1h <= now() - 4h",
		"EXPLAIN SELECT count(*) FROM m WHERE time_bucket(1h, time) >= date_trunc('hour', now() - 1h) AND n > 3",
	} {
		plan := explainLines(t, src, q)
		if !regexp.MustCompile(`blocks: \d+ total, \d+ scanned, \d+ pruned by seq, [1-9]\d* pruned by time`).MatchString(plan) {
			t.Errorf("%s: no time range pruned:\n%s", q, plan)
		}
	}
}

// TestSubqueryInstants: a subquery's timestamps (not its time) stay
// instants outside it: output as timestamps, compared and listed with
// times in quotes, grouped, aggregated and moved as instants.
func TestSubqueryInstants(t *testing.T) {
	src, rows := testSource(t, 3000, 50)
	open := openOnly(src)
	o := &Options{Now: modelNow}
	perHour := map[int64]int64{}
	for _, r := range rows {
		perHour[truncOracle("hour", r.time, time.UTC)]++
	}
	var hours []int64
	for h := range perHour {
		hours = append(hours, h)
	}
	slices.Sort(hours)
	if len(hours) < 4 {
		t.Fatalf("%d hours", len(hours))
	}
	inner := "(SELECT date_trunc('hour', time) AS h, count(*) AS c FROM m GROUP BY h)"
	text := func(ns int64) string { return "'" + time.Unix(0, ns).UTC().Format(time.RFC3339) + "'" }
	cases := []struct {
		q     string
		want  [][]any
		types string
	}{
		{"SELECT h, c FROM " + inner, nil, "ts int64"},
		{"SELECT h, c FROM " + inner + " WHERE h >= " + text(hours[2]), nil, "ts int64"},
		{"SELECT h, c FROM " + inner + " WHERE h IN (" + text(hours[1]) + ", " + text(hours[3]) + ", '1999-01-01')", nil, "ts int64"},
		{"SELECT min(h), max(h) + 1h, sum(c) FROM " + inner, nil, "ts ts int64"},
		{"SELECT h, sum(c) FROM " + inner + " GROUP BY h ORDER BY h DESC LIMIT 1", nil, "ts int64"},
		{"SELECT date_trunc('day', h) AS d, sum(c) FROM " + inner + " WHERE h - 1h < " + text(hours[1]) + " GROUP BY d", nil, "ts int64"},
	}
	for _, h := range hours {
		cases[0].want = append(cases[0].want, []any{h, perHour[h]})
		if h >= hours[2] {
			cases[1].want = append(cases[1].want, []any{h, perHour[h]})
		}
		if h == hours[1] || h == hours[3] {
			cases[2].want = append(cases[2].want, []any{h, perHour[h]})
		}
	}
	cases[3].want = [][]any{{hours[0], hours[len(hours)-1] + int64(time.Hour), int64(len(rows))}}
	cases[4].want = [][]any{{hours[len(hours)-1], perHour[hours[len(hours)-1]]}}
	cases[5].want = [][]any{{truncOracle("day", hours[0], time.UTC), perHour[hours[0]] + perHour[hours[1]]}}
	for _, c := range cases {
		rr, err := Run(t.Context(), c.q, open, o)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		var types []string
		for _, f := range rr.Schema().Fields() {
			types = append(types, strings.ReplaceAll(f.Type.String(), "timestamp[ns, tz=UTC]", "ts"))
		}
		rr.Release()
		got, err := runCells(c.q, open, o)
		if err != nil {
			t.Fatal(err)
		}
		if d := diffCells(got, c.want); d != "" || strings.Join(types, " ") != c.types {
			t.Errorf("%s: types %v (want %s): %s", c.q, types, c.types, d)
		}
	}
	if truncOracle("day", hours[0], time.UTC) != truncOracle("day", hours[1], time.UTC) {
		t.Fatalf("the first two hours are on two days: case 5 wants one")
	}
}

// TestInLargeInts: x IN (...) on int64 values past 2^53 matches exactly,
// not every value that rounds to the same float64.
func TestInLargeInts(t *testing.T) {
	src, rows := testSource(t, 600, 50)
	open := openOnly(src)
	const base = 1 << 60
	q := "SELECT big FROM (SELECT seq + " + strconv.Itoa(base) + " AS big FROM m) WHERE big IN (" + strconv.Itoa(base+300) + ", " + strconv.Itoa(base+301) + ", 2.5)"
	got := mustRun(t, open, q)
	if d := diffCells(got, [][]any{{int64(base + 300)}, {int64(base + 301)}}); d != "" || len(rows) < 400 {
		t.Errorf("%s: %s", q, d)
	}
}

// TestTruncAcrossChanges: date_trunc and time_bucket on zone clocks over
// rows across daylight-saving changes (some out of time order), computed
// a block at a time by bucket spans, equal the bucketer's key of each
// row.
func TestTruncAcrossChanges(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	howe, _ := time.LoadLocation("Australia/Lord_Howe")
	rng := rand.New(rand.NewPCG(4, 4))
	var rows []trow
	for _, start := range []time.Time{
		time.Date(2024, 3, 30, 0, 0, 0, 0, time.UTC), time.Date(2024, 10, 26, 0, 0, 0, 0, time.UTC), // Berlin
		time.Date(2024, 4, 6, 0, 0, 0, 0, time.UTC), time.Date(2024, 10, 5, 0, 0, 0, 0, time.UTC), // Lord Howe
	} {
		for k := range 3 * 24 * 60 / 7 {
			ts := start.UnixNano() + int64(k)*int64(7*time.Minute) + rng.Int64N(int64(time.Minute))
			if rng.IntN(10) == 0 {
				ts -= rng.Int64N(int64(3 * time.Hour))
			}
			rows = append(rows, trow{seq: uint64(len(rows) + 1), time: ts, series: "cpu", op: 1, f: map[string]any{}})
		}
	}
	src, err := buildSource(rng, rows, 200)
	if err != nil {
		t.Fatal(err)
	}
	exprs := []string{"date_trunc('hour', time, 'Europe/Berlin')", "date_trunc('day', time, 'Europe/Berlin')",
		"time_bucket(90m, time, 'Australia/Lord_Howe')", "date_trunc('minute', time, 'Australia/Lord_Howe')", "time_bucket(1mo, time, 'Europe/Berlin')"}
	got := mustRun(t, openOnly(src), "SELECT time, "+strings.Join(exprs, ", ")+" FROM m")
	if len(got) != len(rows) {
		t.Fatalf("%d rows, want %d", len(got), len(rows))
	}
	for _, r := range got {
		ts := r[0].(int64)
		for i, e := range exprs {
			loc := berlin
			if strings.Contains(e, "Howe") {
				loc = howe
			}
			if want := truncOf(t, e).bucketer(loc).key(ts); r[i+1] != want {
				t.Fatalf("%s of %v: %v, want %v", e, time.Unix(0, ts).In(loc), time.Unix(0, r[i+1].(int64)).In(loc), time.Unix(0, want).In(loc))
			}
		}
	}
}

// TestTimeBucketOrigin: time_bucket's buckets start where DuckDB 1.5's
// do (answers taken from it): whole widths from 2000-01-03 (a Monday),
// whole months from January 2000, moved by an offset (a duration, or
// months for calendar buckets) or started at an origin, on the UTC
// clock or a zone's; and, for random widths, offsets and instants, at
// origin + floor((t - origin) / width) * width.
func TestTimeBucketOrigin(t *testing.T) {
	src, _ := testSource(t, 10, 10)
	open := openOnly(src)
	for _, c := range []struct{ expr, want string }{
		{"time_bucket(1w, TIMESTAMP '2024-01-10 10:17')", "2024-01-08T00:00:00Z"},
		{"time_bucket(INTERVAL '1 week', TIMESTAMP '2024-01-10 10:17', TIMESTAMP '2024-01-01')", "2024-01-08T00:00:00Z"},
		{"time_bucket(5d, TIMESTAMP '2024-01-10 10:17')", "2024-01-07T00:00:00Z"},
		{"time_bucket(7h, TIMESTAMP '2024-01-10 10:17')", "2024-01-10T08:00:00Z"},
		{"time_bucket(7h, TIMESTAMP '1960-01-10 10:17')", "1960-01-10T10:00:00Z"},
		{"time_bucket(INTERVAL '15 minutes', TIMESTAMP '2024-01-01 10:17', TIMESTAMP '2000-01-01 00:05')", "2024-01-01T10:05:00Z"},
		{"time_bucket(INTERVAL '15 minutes', TIMESTAMP '1999-12-31 23:59', TIMESTAMP '2000-01-01 00:05')", "1999-12-31T23:50:00Z"},
		{"time_bucket(INTERVAL '90 minutes', TIMESTAMP '2024-01-10 10:17', TIMESTAMP '2024-01-10 10:00')", "2024-01-10T10:00:00Z"},
		{"time_bucket(INTERVAL '15 minutes', TIMESTAMP '2024-01-01 10:17', INTERVAL '5 minutes')", "2024-01-01T10:05:00Z"},
		{"time_bucket(INTERVAL '1 day', TIMESTAMP '2024-01-01 10:17', INTERVAL '6 hours')", "2024-01-01T06:00:00Z"},
		{"time_bucket(1d, TIMESTAMP '2024-01-10 10:17', - INTERVAL 2 HOURS)", "2024-01-09T22:00:00Z"},
		{"time_bucket(INTERVAL '7 months', TIMESTAMP '2024-01-20')", "2023-12-01T00:00:00Z"},
		{"time_bucket(INTERVAL '5 months', TIMESTAMP '2024-01-20')", "2023-10-01T00:00:00Z"},
		{"time_bucket(INTERVAL '3 months', TIMESTAMP '2024-05-20')", "2024-04-01T00:00:00Z"},
		{"time_bucket(INTERVAL '5 years', TIMESTAMP '2024-05-20')", "2020-01-01T00:00:00Z"},
		{"time_bucket(INTERVAL '2 months', TIMESTAMP '2024-01-20', TIMESTAMP '2000-02-15')", "2023-12-01T00:00:00Z"},
		{"time_bucket(INTERVAL '1 month', TIMESTAMP '2024-01-20', TIMESTAMP '2000-01-15 06:00')", "2024-01-01T00:00:00Z"},
		{"time_bucket(INTERVAL '1 month', TIMESTAMP '2024-01-20', TIMESTAMP '1999-12-31 23:00')", "2024-01-01T00:00:00Z"},
		{"time_bucket(INTERVAL '2 months', TIMESTAMP '2024-01-10', INTERVAL '1 month')", "2023-12-01T00:00:00Z"},
		{"time_bucket(INTERVAL '1 week', TIMESTAMP '2024-01-10 10:17', 'Europe/Berlin')", "2024-01-07T23:00:00Z"},
		{"time_bucket(INTERVAL '7 hours', TIMESTAMP '2024-01-10 10:17', 'America/New_York')", "2024-01-10T06:00:00Z"},
		{"time_bucket(INTERVAL '1 day', TIMESTAMP '2024-03-31 10:17', 'Europe/Berlin')", "2024-03-30T23:00:00Z"},
		{"time_bucket(INTERVAL '5 months', TIMESTAMP '2024-01-20 10:17', 'Asia/Tokyo')", "2023-09-30T15:00:00Z"},
	} {
		got, err := runCells("SELECT "+c.expr+" AS b", open, nil)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if s := time.Unix(0, got[0][0].(int64)).UTC().Format(time.RFC3339Nano); s != c.want {
			t.Errorf("%s: %s, want %s", c.expr, s, c.want)
		}
	}
	// Its name keeps the origin; GROUP BY time() stays on the epoch.
	if got := mustRun(t, open, "DESCRIBE SELECT time_bucket(15m, time, TIMESTAMP '2000-01-01 00:05') FROM m"); got[0][0] != "time_bucket(15m, time, TIMESTAMP '2000-01-01 00:05')" {
		t.Errorf("name %v", got[0][0])
	}
	rng := rand.New(rand.NewPCG(5, 8))
	lo := time.Date(1700, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	for range 3000 {
		w := 1 + rng.Int64N(int64(40*24*time.Hour))
		const span = int64(270 * 365 * 24 * time.Hour) // twice: 1700 to 2240
		ts := lo + rng.Int64N(span) + rng.Int64N(span)
		origin := time.Unix(0, lo+rng.Int64N(span)+rng.Int64N(span)).UTC().Format("2006-01-02 15:04:05.999999999")
		off := rng.Int64N(2*w) - w
		for _, form := range []struct {
			expr string
			from int64
		}{
			{fmt.Sprintf("time_bucket(%dns, time)", w), bucketOrigin},
			{fmt.Sprintf("time_bucket(%dns, time, %dns)", w, off), bucketOrigin + off},
			{fmt.Sprintf("time_bucket(%dns, time, TIMESTAMP '%s')", w, origin), 0},
		} {
			from := form.from
			if from == 0 {
				from, _ = parseTime(origin)
			}
			want := new(big.Int).Sub(big.NewInt(ts), big.NewInt(from))
			q, _ := new(big.Int).DivMod(want, big.NewInt(w), new(big.Int)) // Euclidean: floor for w > 0
			want.Mul(q, big.NewInt(w)).Add(want, big.NewInt(from))
			if got := truncOf(t, form.expr).bucketer(nil).key(ts); got != want.Int64() {
				t.Fatalf("%s at %d: %d, want %v", form.expr, ts, got, want)
			}
		}
	}
}

// TestTimeBucketErrors: offsets of the wrong kind for the width, and an
// origin that is no time, are refused where they are written.
func TestTimeBucketErrors(t *testing.T) {
	src, _ := testSource(t, 10, 10)
	wantErrors(t, openOnly(src), []errCase{
		{"SELECT time_bucket(1h, time, INTERVAL 1 MONTH) FROM m", "a calendar offset (1mo) moves calendar buckets only, not buckets of 1h", "INTERVAL 1 MONTH"},
		{"SELECT time_bucket(1mo, time, 14d) FROM m", "an offset is not supported with calendar buckets (1mo)", "14d"},
		{"SELECT time_bucket(1h, time, TIMESTAMP 'noon') FROM m", "'noon' is not a time", ""},
		{"SELECT time_bucket(1h, time, 'Mars/Olympus') FROM m", "unknown time zone", "'Mars"},
	})
}
