package query

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestMoreTextAndCalendar: concat_ws, translate, md5, last_day,
// make_date and make_timestamp give DuckDB 1.5's answers; NULL where
// DuckDB fails (a day that does not exist).
func TestMoreTextAndCalendar(t *testing.T) {
	src, _ := testSource(t, 50, 50)
	open := openOnly(src)
	ts := func(s string) int64 {
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return v.UnixNano()
	}
	got := mustRun(t, open, "SELECT concat_ws('-', 'a', NULL, 'b', 1.5, 2), concat_ws(NULL, 'a'), translate('abcabc', 'ab', 'x'), translate('héllo', 'é', 'e'), md5('abc'), md5(''), "+
		"last_day(TIMESTAMP '2024-02-10 10:00'), last_day(TIMESTAMP '2023-12-31 23:00'), make_date(2024, 2, 29), make_timestamp(2024, 1, 2, 3, 4, 5.5), concat_ws(',', 'x'), "+
		"make_date(2024, 2, 30), make_timestamp(2024, 1, 2, 3, 4, 60), make_date(3000, 1, 1), hour(make_timestamp(2024, 1, 2, 3, 4, 5)), "+
		"make_timestamp(1700000000000000), make_timestamp(-1), make_timestamp(9223372036854775807)")
	want := []any{"a-b-1.5-2", nil, "xcxc", "hello", "900150983cd24fb0d6963f7d28e17f72", "d41d8cd98f00b204e9800998ecf8427e",
		ts("2024-02-29T00:00:00Z"), ts("2023-12-31T00:00:00Z"), ts("2024-02-29T00:00:00Z"), ts("2024-01-02T03:04:05.5Z"), "x",
		nil, nil, nil, int64(3), ts("2023-11-14T22:13:20Z"), int64(-1000), nil}
	if !slices.Equal(got[0], want) {
		t.Errorf("%v\nwant %v", got[0], want)
	}
	// On the rows: concat_ws leaves NULL fields out, the month's last day
	// is a time at or after the row's day.
	for _, r := range mustRun(t, open, "SELECT concat_ws('|', s, n), s, n, last_day(time), time FROM m") {
		parts := []string{}
		if r[1] != nil {
			parts = append(parts, r[1].(string))
		}
		if r[2] != nil {
			parts = append(parts, itoa(r[2].(int64)))
		}
		if w := strings.Join(parts, "|"); r[0] != w {
			t.Fatalf("concat_ws of %v, %v: %q, want %q", r[1], r[2], r[0], w)
		}
		if d := time.Unix(0, r[3].(int64)).UTC(); d.AddDate(0, 0, 1).Day() != 1 || d.Month() != time.Unix(0, r[4].(int64)).UTC().Month() {
			t.Fatalf("last_day of %v: %v", time.Unix(0, r[4].(int64)).UTC(), d)
		}
	}
	wantErrors(t, open, []errCase{
		{"SELECT make_date(2024, 2) FROM m", "make_date() takes 3 arguments, not 2", "make_date"},
		{"SELECT last_day(s) FROM m", "type mismatch: last_day() wants", "s)"},
	})
}
