package query

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestStrptime: strptime reads back what strftime writes, for instants
// from 1680 to 2260 and formats of every directive it takes, to the
// formats' precision; fixed cases of 12-hour clocks, zones, day of the
// year, names and spaces; and NULL (not ok) for what does not fit.
func TestStrptime(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 12))
	lo := time.Date(1680, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	hi := time.Date(2260, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	for _, c := range []struct {
		format string
		unit   time.Duration // what the format keeps
	}{
		{"%Y-%m-%d %H:%M:%S.%f", time.Microsecond}, // strftime writes microseconds
		{"%F %T", time.Second},
		{"%d/%m/%Y %I:%M %p", time.Minute},
		{"%a %d %B %Y, %H.%M.%S", time.Second},
		{"%Y%j %H", time.Hour},
		{"%b %e %Y", 24 * time.Hour},
		{"%Y-%m-%dT%H:%M:%S%z", time.Second},
		{"%s", time.Second},
	} {
		for range 2000 {
			ns := lo + 2*rng.Int64N(hi/2-lo/2)
			tm := time.Unix(0, ns).UTC()
			text := strftime(tm, c.format)
			got, ok := strptime(text, c.format)
			want := tm.Truncate(c.unit).UnixNano()
			if c.unit == 24*time.Hour {
				want = time.Date(tm.Year(), tm.Month(), tm.Day(), 0, 0, 0, 0, time.UTC).UnixNano()
			}
			if c.format == "%s" {
				want = tm.Unix() * 1e9 // floored, before the epoch too
			}
			if !ok || got != want {
				t.Fatalf("strptime(%q, %q) = %v %v, want %v", text, c.format, time.Unix(0, got).UTC(), ok, time.Unix(0, want).UTC())
			}
		}
	}
	utc := func(y int, mo time.Month, d, h, mi, s, n int) int64 {
		return time.Date(y, mo, d, h, mi, s, n, time.UTC).UnixNano()
	}
	for _, c := range []struct {
		s, format string
		want      int64
		ok        bool
	}{
		{"12:05 AM 1/2/2024", "%I:%M %p %m/%d/%Y", utc(2024, 1, 2, 0, 5, 0, 0), true},
		{"12:05 pm 1/2/2024", "%I:%M %p %m/%d/%Y", utc(2024, 1, 2, 12, 5, 0, 0), true},
		{"2024-03-01 10:00 +0530", "%Y-%m-%d %H:%M %z", utc(2024, 3, 1, 4, 30, 0, 0), true},
		{"2024-03-01 10:00 -02", "%Y-%m-%d %H:%M %z", utc(2024, 3, 1, 12, 0, 0, 0), true},
		{"2024-03-01 10:00 UTC", "%Y-%m-%d %H:%M %Z", utc(2024, 3, 1, 10, 0, 0, 0), true},
		{"2024-060", "%Y-%j", utc(2024, 2, 29, 0, 0, 0, 0), true},
		{"99-1-2", "%y-%m-%d", utc(1999, 1, 2, 0, 0, 0, 0), true},
		{"04-1-2", "%y-%m-%d", utc(2004, 1, 2, 0, 0, 0, 0), true},
		{"2024-01-02     03", "%Y-%m-%d %H", utc(2024, 1, 2, 3, 0, 0, 0), true},
		{"100% 2024", "100%% %Y", utc(2024, 1, 1, 0, 0, 0, 0), true},
		{"2024-01-02 10:00:00.5", "%F %T.%f", utc(2024, 1, 2, 10, 0, 0, 5e8), true},
		{"2023-02-29", "%F", 0, false},
		{"2023-13-01", "%F", 0, false},
		{"2023-1-1x", "%Y-%m-%d", 0, false},
		{"2023-01", "%Y-%m-%d", 0, false},
		{"13:00 PM", "%I:%M %p", 0, false},
		{"2023-366", "%Y-%j", 0, false},
		{"3000-01-01", "%F", 0, false},
		{"99999999999999", "%s", 0, false},
		{"2024-01-01 10:00 +2500", "%F %H:%M %z", 0, false},
		{"", "%Y", 0, false},
	} {
		got, ok := strptime(c.s, c.format)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("strptime(%q, %q) = %v %v, want %v %v", c.s, c.format, time.Unix(0, got).UTC(), ok, time.Unix(0, c.want).UTC(), c.ok)
		}
	}
	// In a query: a time, NULL where the text does not fit.
	src, _ := testSource(t, 10, 5)
	got := mustRun(t, openOnly(src), "SELECT strptime('04/12/2026 23:40', '%d/%m/%Y %H:%M'), strptime(s, '%Y') FROM m LIMIT 1")
	if d := diffCells(got, [][]any{{utc(2026, 12, 4, 23, 40, 0, 0), nil}}); d != "" {
		t.Fatal(d)
	}
}

// FuzzStrptime: strptime never panics, and what it reads is an instant
// int64 nanoseconds hold.
func FuzzStrptime(f *testing.F) {
	for _, s := range [][2]string{{"2024-01-02 03:04:05.123 +01:00", "%Y-%m-%d %H:%M:%S.%f %z"}, {"Dec 4 2026 11 PM", "%b %e %Y %I %p"}, {"1700000000", "%s"}, {"2024-060", "%Y-%j"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, s, format string) {
		ns, ok := strptime(s, format)
		if ok && (ns < -9223372036854775807 || time.Unix(0, ns).UTC().Year() < 1677) {
			t.Fatalf("%q %q: %d", s, format, ns)
		}
	})
}
