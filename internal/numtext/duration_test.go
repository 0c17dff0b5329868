package numtext

import (
	"math"
	"testing"
	"time"
)

// TestAppendDuration: spans print as DuckDB prints an INTERVAL made by
// subtracting timestamps (the cases are DuckDB 1.5's answers; tsq keeps
// nanoseconds where DuckDB keeps microseconds).
func TestAppendDuration(t *testing.T) {
	day := 24 * time.Hour
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{day + 3*time.Hour + 4*time.Minute + 5500*time.Millisecond, "1 day 03:04:05.5"},
		{3 * time.Minute, "00:03:00"},
		{-(day + 12*time.Hour), "-1 day -12:00:00"},
		{425 * day, "425 days"},
		{0, "00:00:00"},
		{123 * time.Microsecond, "00:00:00.000123"},
		{2*day + time.Hour, "2 days 01:00:00"},
		{day, "1 day"},
		{-1250 * time.Millisecond, "-00:00:01.25"},
		{time.Nanosecond, "00:00:00.000000001"},
		{36 * time.Hour, "1 day 12:00:00"}, // DuckDB's INTERVAL 36 HOUR keeps 36:00:00
		{math.MinInt64, "-106751 days -23:47:16.854775808"},
		{math.MaxInt64, "106751 days 23:47:16.854775807"},
	} {
		if got := string(AppendDuration(nil, int64(c.d))); got != c.want {
			t.Errorf("%v: %q, want %q", c.d, got, c.want)
		}
	}
}
