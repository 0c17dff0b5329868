package query

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestDateDiff: date_diff counts unit boundaries, as DuckDB does, against
// the time package over random instants on both sides of 1970; and its
// errors.
func TestDateDiff(t *testing.T) {
	src, _ := testSource(t, 100, 50)
	got := mustRun(t, openOnly(src), "SELECT date_diff('hour', '2024-01-01T10:59:00Z', '2024-01-01T11:01:00Z'), date_diff('weeks', '2024-01-06', '2024-01-08'), "+
		"date_diff('Month', '2024-01-31', '2024-02-01'), date_diff('day', '2024-01-02T01:00:00Z', '2024-01-01T23:00:00Z'), date_diff('quarter', '2024-03-31', '2024-04-01'), "+
		"date_diff('year', '1969-12-31T23:59:59Z', '1970-01-01')")
	for i, w := range []int64{1, 0, 1, -1, 1, 1} {
		if got[0][i] != w {
			t.Errorf("item %d = %v, want %d", i+1, got[0][i], w)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	start := func(t time.Time, unit string) time.Time { // the unit's boundary at or before t
		switch unit {
		case "year":
			return time.Date(t.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
		case "quarter":
			return time.Date(t.Year(), (t.Month()-1)/3*3+1, 1, 0, 0, 0, 0, time.UTC)
		case "month":
			return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
		}
		return t.Truncate(truncUnits[unit].width) // Truncate works from the zero time, a boundary of each
	}
	for range 20000 {
		a := time.Unix(0, rng.Int64N(4e18)-2e18).UTC()
		b := a.Add(time.Duration(rng.Int64N(2e17) - 1e17))
		for unit := range truncUnits {
			var want int64
			switch unit {
			case "week":
				want = dateDiff("day", a.UnixNano(), b.UnixNano()) / 7
			case "year", "quarter", "month":
				months := map[string]int{"year": 12, "quarter": 3, "month": 1}[unit]
				for m := start(a, unit); m.Before(start(b, unit)); m = m.AddDate(0, months, 0) {
					want++
				}
				for m := start(b, unit); m.Before(start(a, unit)); m = m.AddDate(0, months, 0) {
					want--
				}
			default:
				want = int64(start(b, unit).Sub(start(a, unit)) / truncUnits[unit].width)
			}
			if got := dateDiff(unit, a.UnixNano(), b.UnixNano()); got != want {
				t.Fatalf("date_diff(%q, %s, %s) = %d, want %d", unit, a, b, got, want)
			}
		}
	}
	wantErrors(t, openOnly(src), []errCase{
		{"SELECT date_diff('fortnight', time, time) FROM m", "date_diff: unknown unit 'fortnight'", "'fortnight'"},
		{"SELECT date_diff(s, time, time) FROM m", "date_diff() wants its unit as a string literal", "s,"},
		{"SELECT date_diff('day', s, time) FROM m", "date_diff() wants an integer, s is a string", "s,"},
	})
}

// TestDateSub: date_sub counts whole units as DuckDB does (its answers,
// from DuckDB 1.5): months from a day that a shorter month lacks end on
// its last day, a reversed range is negative, fixed units truncate
// toward zero; date_add(t, INTERVAL ...) is t + INTERVAL ....
func TestDateSub(t *testing.T) {
	src, _ := testSource(t, 10, 10)
	open := openOnly(src)
	got := mustRun(t, open, "SELECT date_sub('month', TIMESTAMP '1992-09-15', TIMESTAMP '1992-11-14'), date_sub('month', TIMESTAMP '1992-09-15', TIMESTAMP '1992-11-15'), "+
		"date_sub('month', TIMESTAMP '1992-01-31', TIMESTAMP '1992-02-29'), date_sub('month', TIMESTAMP '1992-01-31 10:00', TIMESTAMP '1992-02-29 09:00'), "+
		"date_sub('year', TIMESTAMP '1992-02-29', TIMESTAMP '1993-02-28'), date_sub('day', TIMESTAMP '1992-09-15 10:00', TIMESTAMP '1992-09-17 09:00'), "+
		"date_sub('hour', TIMESTAMP '1992-09-15 10:30', TIMESTAMP '1992-09-15 08:00'), date_sub('month', TIMESTAMP '1992-11-14', TIMESTAMP '1992-09-15'), "+
		"date_sub('quarter', TIMESTAMP '1992-01-15', TIMESTAMP '1992-07-14'), date_sub('weeks', TIMESTAMP '1992-01-01', TIMESTAMP '1992-01-15 00:00:00'), "+
		"date_sub('week', TIMESTAMP '1992-01-01', TIMESTAMP '1992-01-14 23:59:59'), "+
		"date_add(TIMESTAMP '1992-01-31', INTERVAL 1 MONTH) = TIMESTAMP '1992-02-29', date_add(time, INTERVAL 36 HOURS) - time FROM m LIMIT 1")
	want := []any{int64(1), int64(2), int64(1), int64(0), int64(1), int64(1), int64(-2), int64(-1), int64(1), int64(2), int64(1), true, int64(36 * time.Hour)}
	for i := range want {
		if got[0][i] != want[i] {
			t.Errorf("column %d: %v, want %v", i, got[0][i], want[i])
		}
	}
	wantErrors(t, open, []errCase{
		{"SELECT date_sub('fortnight', time, time) FROM m", "date_sub: unknown unit 'fortnight'", "'fortnight'"},
		{"SELECT date_add(time) FROM m", "date_add() takes 2 arguments", "date_add"},
	})
}
