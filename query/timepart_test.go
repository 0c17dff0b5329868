package query

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTimeParts: every time part of instants from 1678 to 2262 (before
// the epoch too, on the second and off it), in UTC (computed without a
// time.Time for the clock parts) and on zone clocks, against the time
// package's calendar.
func TestTimeParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	chatham, _ := time.LoadLocation("Pacific/Chatham")
	instants := []int64{0, -1, 1, math.MinInt64, math.MaxInt64, -86400e9, -86400e9 + 1, 951782400e9 /* 2000-02-29 */}
	for range 20000 {
		instants = append(instants, rng.Int64()-rng.Int64()/2)
	}
	for _, ns := range instants {
		for _, loc := range []*time.Location{nil, berlin, chatham} {
			tl := loc
			if tl == nil {
				tl = time.UTC
			}
			tm := time.Unix(0, ns).In(tl)
			isoYear, week := tm.ISOWeek()
			inMinute := int64(tm.Second())*1e9 + int64(tm.Nanosecond())
			want := map[string]int64{
				"millisecond": inMinute / 1e6, "microsecond": inMinute / 1e3, "nanosecond": inMinute,
				"isoyear": int64(isoYear), "yearweek": int64(isoYear)*100 + int64(week), "decade": int64(tm.Year()) / 10,
				"century": (int64(tm.Year())-1)/100 + 1, "millennium": (int64(tm.Year())-1)/1000 + 1, "era": 1, // the years of instants are all AD
				"dayofmonth": int64(tm.Day()), "weekday": int64(tm.Weekday()), "weekofyear": int64(week), "year": int64(tm.Year()), "quarter": int64(tm.Month()+2) / 3, "month": int64(tm.Month()), "day": int64(tm.Day()),
				"hour": int64(tm.Hour()), "minute": int64(tm.Minute()), "second": int64(tm.Second()),
				"dayofweek": int64(tm.Weekday()), "isodow": map[time.Weekday]int64{time.Monday: 1, time.Tuesday: 2,
					time.Wednesday: 3, time.Thursday: 4, time.Friday: 5, time.Saturday: 6, time.Sunday: 7}[tm.Weekday()],
				"dayofyear": int64(tm.YearDay()), "week": int64(week)}
			for fn := range timeFuncs {
				if got := timePart(fn, ns, loc); got != want[fn] {
					t.Fatalf("%s(%d) on %v: %d, want %d (%v)", fn, ns, tl, got, want[fn], tm)
				}
			}
		}
	}
}

// TestGroupByExpr: GROUP BY a computed value (a time part, arithmetic
// on a field, an alias of a SELECT item) against the rows; its SELECT
// item, ORDER BY and HAVING name it by its text; errors say what.
func TestGroupByExpr(t *testing.T) {
	src, rows := testSource(t, 3000, 50)
	open := openOnly(src)
	run := func(q string) [][]any { return mustRun(t, open, q) }
	// minute(time) of the rows: counts per minute, in minute order.
	perMinute := map[int64]int64{}
	for _, r := range rows {
		perMinute[int64(time.Unix(0, r.time).UTC().Minute())]++
	}
	var want [][]any
	for m := range int64(60) {
		if n := perMinute[m]; n > 0 {
			want = append(want, []any{m, n})
		}
	}
	for _, q := range []string{
		"SELECT minute(time), count(*) FROM m GROUP BY minute(time)",
		"SELECT count(*) FROM m GROUP BY minute(time)",
		"SELECT minute(time) AS mi, count(*) FROM m GROUP BY mi",
		"SELECT minute(time) AS mi, count(*) FROM m GROUP BY minute(time) ORDER BY mi",
		"SELECT minute(time), count(*) FROM m GROUP BY minute(time) ORDER BY minute(time)",
	} {
		if d := diffCells(run(q), want); d != "" {
			t.Errorf("%s: %s", q, d)
		}
	}
	var minutes [][]any
	for _, r := range want {
		minutes = append(minutes, r[:1])
	}
	if d := diffCells(run("SELECT DISTINCT minute(time) FROM m"), minutes); d != "" {
		t.Errorf("SELECT DISTINCT minute(time): %s", d)
	}
	got := run("SELECT minute(time), count(*) FROM m GROUP BY minute(time) HAVING minute(time) >= 30 ORDER BY minute(time) DESC")
	var late [][]any
	for i := len(want) - 1; i >= 0; i-- {
		if want[i][0].(int64) >= 30 {
			late = append(late, want[i])
		}
	}
	if d := diffCells(got, late); d != "" {
		t.Errorf("HAVING and ORDER BY on minute(time): %s", d)
	}

	// A float group: -0 and 0 one group, a missing v the null group (last).
	perBand := map[float64]int64{}
	var nulls int64
	for _, r := range rows {
		if v, ok := r.f["v"].(float64); ok {
			perBand[math.Floor(v/50)*math.Copysign(0, -1)]++ // v in [0, 50) gives -0
		} else {
			nulls++
		}
	}
	var bands []float64
	for b := range perBand {
		bands = append(bands, b)
	}
	slices.Sort(bands)
	want = nil
	for _, b := range bands {
		want = append(want, []any{b, perBand[b]})
	}
	want = append(want, []any{nil, nulls})
	got = run("SELECT floor(v / 50) * -0.0 AS band, count(*) FROM m GROUP BY band")
	if d := diffCells(got, want); d != "" {
		t.Errorf("GROUP BY a float expression: %s", d)
	}
	wantErrors(t, open, []errCase{
		{"SELECT count(*) FROM m GROUP BY avg(v) * 2", "GROUP BY takes values of the rows, not aggregates", ""},
		{"SELECT count(*) FROM m GROUP BY hour(v)", "hour() wants a time", ""},
		{"SELECT hour(time), count(*) FROM m GROUP BY minute(time)", `column "time" must be grouped`, ""},
		{"SELECT count(*) FROM m GROUP BY s * 2", `arithmetic on column "s"`, ""},
		{"SELECT hour(time, 'Mars/Olympus') FROM m", "Mars/Olympus", ""},
	})
}

// TestDatePart: date_part('unit', t[, 'zone']) and extract(unit FROM t)
// are the time parts (and epoch) by their SQL names, named as written,
// in SELECT, WHERE and GROUP BY.
func TestDatePart(t *testing.T) {
	src, _ := testSource(t, 800, 50)
	open := openOnly(src)
	for unit, fn := range partUnits {
		same := fn + "(time)"
		if fn == "epoch" {
			same = "epoch(time)"
		}
		got := mustRun(t, open, "SELECT date_part('"+unit+"', time), extract("+strings.ToUpper(unit)+" FROM time), "+same+" FROM m")
		for i, r := range got {
			if r[0] != r[2] || r[1] != r[2] {
				t.Fatalf("%s, row %d: date_part %v, extract %v, %s %v", unit, i, r[0], r[1], same, r[2])
			}
		}
	}
	a := mustRun(t, open, "SELECT date_part('hour', time, 'Asia/Kolkata') AS h, count(*) FROM m WHERE extract(minute FROM time) < 30 GROUP BY h ORDER BY h")
	b := mustRun(t, open, "SELECT hour(time, 'Asia/Kolkata') AS h, count(*) FROM m WHERE minute(time) < 30 GROUP BY h ORDER BY h")
	if d := diffCells(a, b); d != "" || len(a) == 0 {
		t.Error(d)
	}
	for _, expr := range []string{"date_part('dow', time)", "extract(doy FROM time)", "date_part('Hour', time, 'Europe/Berlin')", "extract(epoch FROM time)"} {
		st, err := Parse("SELECT " + expr + " FROM m")
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Items[0].Name(); got != expr {
			t.Errorf("%s is named %q", expr, got)
		}
	}
	wantErrors(t, open, []errCase{
		{"SELECT date_part(hour, time) FROM m", "date_part wants a unit first, such as 'hour' in quotes", "hour"},
		{"SELECT extract('hour' FROM time) FROM m", "extract wants a unit first", "'hour'"},
		{"SELECT date_part('fortnight', time) FROM m", `unknown unit "fortnight"`, "'fortnight'"},
		{"SELECT extract(hour time) FROM m", "expected from", "time"},
		{"SELECT extract(hour FROM v) FROM m", "hour() wants a time", "extract"},
	})
}

// TestDuckDBTimeParts: DuckDB's further time parts and epoch units, of
// a VALUES list of typed time literals (a TIMESTAMP column), give what
// DuckDB 1.5 gives for the same statement.
func TestDuckDBTimeParts(t *testing.T) {
	src, _ := testSource(t, 10, 50)
	got := mustRun(t, openOnly(src), "SELECT millisecond(t), microsecond(t), isoyear(t), century(t), decade(t), millennium(t), dayofmonth(t), weekday(t), yearweek(t), weekofyear(t), epoch_us(t), epoch_ns(t), nanosecond(t), "+
		"date_part('millisecond', t), extract(isoyear FROM t) FROM (VALUES (TIMESTAMP '2021-01-01 12:34:56.789123'), (TIMESTAMP '1999-12-31 23:59:59'), (DATE '2000-01-01'), ('1969-12-31 23:59:59.5'::TIMESTAMP)) v(t)")
	want := [][]int64{
		{56789, 56789123, 2020, 21, 202, 3, 1, 5, 202053, 53, 1609504496789123, 1609504496789123000, 56789123000, 56789, 2020},
		{59000, 59000000, 1999, 20, 199, 2, 31, 5, 199952, 52, 946684799000000, 946684799000000000, 59000000000, 59000, 1999},
		{0, 0, 1999, 20, 200, 2, 1, 6, 199952, 52, 946684800000000, 946684800000000000, 0, 0, 1999},
		{59500, 59500000, 1970, 20, 196, 2, 31, 3, 197001, 1, -500000, -500000000, 59500000000, 59500, 1970},
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows", len(got))
	}
	for i := range want {
		for j, w := range want[i] {
			if got[i][j] != w {
				t.Errorf("row %d column %d: %v, want %d", i, j, got[i][j], w)
			}
		}
	}
}
