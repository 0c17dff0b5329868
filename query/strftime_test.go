package query

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// TestStrftime: every directive on instants from 1680 to 2260 (before
// the epoch too), in UTC and on a zone's clock, against the time
// package's own formatting of the same fields.
func TestStrftime(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	kolkata, _ := time.LoadLocation("Asia/Kolkata")
	rng := rand.New(rand.NewPCG(8, 1))
	lo := time.Date(1680, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	hi := time.Date(2260, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	for range 5000 {
		ns := lo + 2*rng.Int64N(hi/2-lo/2)
		for _, loc := range []*time.Location{time.UTC, tokyo, kolkata} {
			tm := time.Unix(0, ns).In(loc)
			isoY, isoW := tm.ISOWeek()
			name, _ := tm.Zone()
			want := tm.Format("2006|06|01|02|_2|15|03|04|05|.000000|PM|002|Mon|Monday|Jan|January|") +
				strconv.Itoa((int(tm.Weekday())+6)%7+1) + "|" + strconv.Itoa(int(tm.Weekday())) + "|" +
				twoDigits(isoW) + "|" + strconv.Itoa(isoY) + "|" + name + "|" + tm.Format("-0700|2006-01-02|15:04:05|") +
				strconv.FormatInt(int64(math.Floor(float64(ns)/1e9)), 10) + "|%|%q|\t"
			want = replaceOnce(want, "|.", "|") // %f has no dot
			got := strftime(tm, "%Y|%y|%m|%d|%e|%H|%I|%M|%S|%f|%p|%j|%a|%A|%b|%B|%u|%w|%V|%G|%Z|%z|%F|%T|%s|%%|%q|%t")
			if got != want {
				t.Fatalf("%v: %q, want %q", tm, got, want)
			}
			// DuckDB's: numbers without zeros, %h, weeks from the first
			// Sunday and Monday (counted: 00 before it), %c %x %X,
			// milliseconds and nanoseconds.
			sundays, mondays := 0, 0
			for d := time.Date(tm.Year(), 1, 1, 0, 0, 0, 0, loc); d.YearDay() <= tm.YearDay() && d.Year() == tm.Year(); d = d.AddDate(0, 0, 1) {
				switch d.Weekday() {
				case time.Sunday:
					sundays++
				case time.Monday:
					mondays++
				}
			}
			itoa := strconv.Itoa
			want = itoa(tm.Day()) + "|" + itoa(int(tm.Month())) + "|" + itoa((tm.Year()%100+100)%100) + "|" + itoa(tm.Hour()) + "|" +
				itoa((tm.Hour()+11)%12+1) + "|" + itoa(tm.Minute()) + "|" + itoa(tm.Second()) + "|" + itoa(tm.YearDay()) + "|" +
				tm.Format("Jan") + "|" + twoDigits(sundays) + "|" + twoDigits(mondays) + "|" + tm.Format("2006-01-02 15:04:05|2006-01-02|15:04:05|.000") +
				fmt.Sprintf("|%09d", tm.Nanosecond())
			want = replaceOnce(want, "|.", "|")
			if got := strftime(tm, "%-d|%-m|%-y|%-H|%-I|%-M|%-S|%-j|%h|%U|%W|%c|%x|%X|%g|%n"); got != want {
				t.Fatalf("%v: %q, want %q", tm, got, want)
			}
		}
	}
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func replaceOnce(s, old, new string) string {
	for i := 0; i+len(old) <= len(s); i++ {
		if s[i:i+len(old)] == old {
			return s[:i] + new + s[i+len(old):]
		}
	}
	return s
}

// TestEpochFunctions: epoch, epoch_ms and to_timestamp on a stream's rows
// and at the ends of int64, strftime and concat of instants in queries,
// and what they refuse.
func TestEpochFunctions(t *testing.T) {
	src, rows := testSource(t, 500, 50)
	open := openOnly(src)
	got := mustRun(t, open, "SELECT epoch(time), epoch_ms(time), to_timestamp(epoch_ms(time) / 1000), to_timestamp(n), strftime(time, '%H:%M', 'Asia/Kolkata'), date_trunc('minute', time) || '/' || n FROM m")
	kolkata, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	var want [][]any
	for _, r := range rows {
		var ts, cat any
		if n, ok := r.f["n"].(int64); ok {
			ts = n * 1e9
			cat = time.Unix(0, r.time-r.time%6e10).UTC().Format(time.RFC3339Nano) + "/" + strconv.FormatInt(n, 10)
		}
		want = append(want, []any{float64(r.time) / 1e9, r.time / 1e6, (r.time / 1e6) * 1e6, ts,
			time.Unix(0, r.time).In(kolkata).Format("15:04"), cat})
	}
	// epoch(t) is float64: compare it within its precision.
	for i := range got {
		if g, w := got[i][0].(float64), want[i][0].(float64); math.Abs(g-w) > 1e-6 {
			t.Fatalf("row %d: epoch %v, want %v", i, g, w)
		}
		got[i][0], want[i][0] = nil, nil
	}
	if d := diffCells(got, want); d != "" {
		t.Fatal(d)
	}
	for _, c := range []struct {
		x    value
		k    colKind
		fn   string
		want value
	}{
		{value{i: math.MaxInt64}, kInt, "epoch_ms", value{i: 9223372036854}},
		{value{i: -1}, kInt, "epoch_ms", value{i: -1}},
		{value{i: math.MinInt64}, kInt, "epoch_ms", value{i: -9223372036855}},
		{value{i: 9223372036}, kInt, "to_timestamp", value{i: 9223372036e9}},
		{value{i: 9223372037}, kInt, "to_timestamp", nullValue},
		{value{i: -9223372037}, kInt, "to_timestamp", nullValue},
		{fv(1.5), kFloat, "to_timestamp", value{i: 1.5e9}},
		{fv(-0.25), kFloat, "to_timestamp", value{i: -0.25e9}},
		{fv(9.3e9), kFloat, "to_timestamp", nullValue},
		{fv(math.NaN()), kFloat, "to_timestamp", nullValue},
		{fv(math.Inf(-1)), kFloat, "to_timestamp", nullValue},
		{value{i: -1}, kInt, "epoch", fv(-1e-9)},
	} {
		if got := applyEpoch(c.fn, c.k, c.x); got != c.want {
			t.Errorf("%s(%+v) = %+v, want %+v", c.fn, c.x, got, c.want)
		}
	}
	wantErrors(t, open, []errCase{
		{"SELECT epoch(v) FROM m", "epoch() wants a time", "epoch"},
		{"SELECT strftime(v, '%H') FROM m", "strftime() wants a time, v is a float64", "v,"},
		{"SELECT strftime(time, '%H', 'Mars/X') FROM m", "unknown time zone 'Mars/X'", "'Mars/X'"},
		{"SELECT strftime(time) FROM m", "strftime() takes 2 or 3 arguments, not 1", "strftime"},
		{"SELECT dayname(v) FROM m", "dayname() wants a time, v is a float64", "v)"},
		{"SELECT monthname(time, 'Mars/X') FROM m", "unknown time zone 'Mars/X'", "'Mars/X'"},
	})
}

// TestDayMonthName: dayname and monthname of a stream's times, in UTC and
// on a zone's clock, against the time package's names; of a time as
// text; NULL of NULL.
func TestDayMonthName(t *testing.T) {
	src, rows := testSource(t, 500, 50)
	open := openOnly(src)
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	got := mustRun(t, open, "SELECT dayname(time), monthname(time), dayname(time, 'Asia/Tokyo'), monthname(time, 'Asia/Tokyo') FROM m")
	var want [][]any
	for _, r := range rows {
		u, k := time.Unix(0, r.time).UTC(), time.Unix(0, r.time).In(tokyo)
		want = append(want, []any{u.Weekday().String(), u.Month().String(), k.Weekday().String(), k.Month().String()})
	}
	if d := diffCells(got, want); d != "" {
		t.Fatal(d)
	}
	got = mustRun(t, open, "SELECT dayname('2024-03-01'), monthname('2024-03-31T23:30:00Z', 'Asia/Tokyo'), dayname(NULL)")
	if d := diffCells(got, [][]any{{"Friday", "April", nil}}); d != "" {
		t.Fatal(d)
	}
}

// TestZoneNamed: strftime's zones by name are IANA names and UTC, never
// "" or Local (the machine's), and names that are no zone are refused
// without growing the cache past its bound.
func TestZoneNamed(t *testing.T) {
	if _, ok := zoneNamed("Asia/Tokyo"); !ok {
		t.Skip("no zone database")
	}
	for name, want := range map[string]bool{"UTC": true, "Europe/Berlin": true, "": false, "Local": false, "local": false, "Mars/X": false} {
		if _, ok := zoneNamed(name); ok != want {
			t.Errorf("zoneNamed(%q): %v, want %v", name, ok, want)
		}
	}
	for i := range maxZoneMisses + 100 {
		if _, ok := zoneNamed("No/Such/Zone" + strconv.Itoa(i)); ok {
			t.Fatal("a zone named No/Such/Zone")
		}
	}
	n := 0
	zones.Range(func(any, any) bool { n++; return true })
	if n > maxZoneMisses+10 {
		t.Errorf("%d names cached, bound %d", n, maxZoneMisses)
	}
	src, _ := testSource(t, 50, 50)
	wantErrors(t, openOnly(src), []errCase{
		{"SELECT strftime(time, '%H', 'Local') FROM m", "unknown time zone 'Local'", "'Local'"},
		{"SELECT strftime(time, '%H', '') FROM m", "unknown time zone ''", "''"},
	})
	// A zone column's rows: a bad name is NULL for its row.
	got := mustRun(t, openOnly(src), "SELECT strftime(time, '%H', concat('Mars/', s)) FROM m WHERE s IS NOT NULL LIMIT 1")
	if len(got) != 1 || got[0][0] != nil {
		t.Errorf("strftime with a zone that is none: %v, want NULL", got)
	}
}

// TestStrftimeDuckDB: DuckDB 1.5's answers for its directives beyond
// C's, and strptime reading them back.
func TestStrftimeDuckDB(t *testing.T) {
	src, _ := testSource(t, 10, 10)
	open := openOnly(src)
	got := mustRun(t, open, "SELECT strftime(TIMESTAMP '2014-02-04 04:05:06.123456', '%-d|%h|%-m|%-y|%-H|%-I|%-M|%-S|%-j|%U|%W|%c|%x|%X|%g|%n'), "+
		"strftime(TIMESTAMP '2014-01-01', '%U|%W|%j|%-j'), strftime(TIMESTAMP '2017-01-01', '%U|%W'), strftime(TIMESTAMP '2018-12-31', '%U|%W'), "+
		"strptime('4/2/2014 4:05', '%-d/%-m/%Y %-H:%M'), strptime('2014-02-04 04:05:06', '%c')")
	want := []any{"4|Feb|2|14|4|4|5|6|35|05|05|2014-02-04 04:05:06|2014-02-04|04:05:06|123|123456000", "00|00|001|1", "01|00", "52|53",
		time.Date(2014, 2, 4, 4, 5, 0, 0, time.UTC).UnixNano(), time.Date(2014, 2, 4, 4, 5, 6, 0, time.UTC).UnixNano()}
	if fmt.Sprint(got) != fmt.Sprint([][]any{want}) {
		t.Errorf("got  %v\nwant %v", got, [][]any{want})
	}
}
