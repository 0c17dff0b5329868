package query

import (
	"strings"
	"testing"
)

// TestOrderedFirst: first(x ORDER BY k) and last(x ORDER BY k [DESC]),
// DuckDB's: by time they are tsq's first and last (by time, then seq),
// by another key arg_min and arg_max; they keep their names, filter and
// go in HAVING; NULLS and a second key are refused.
func TestOrderedFirst(t *testing.T) {
	src, _ := testSource(t, 2000, 64)
	open := openOnly(src)
	sameRows(t, open, "SELECT series, last(v ORDER BY time), first(v ORDER BY time ASC), first(s ORDER BY time DESC), last(n ORDER BY time DESC) FROM m GROUP BY series",
		"SELECT series, last(v), first(v), last(s), first(n) FROM m GROUP BY series", 3)
	sameRows(t, open, "SELECT series, first(s ORDER BY v), last(s ORDER BY v), first(time ORDER BY n * 2 DESC), last(key ORDER BY v DESC) FROM m GROUP BY series",
		"SELECT series, arg_min(s, v), arg_max(s, v), arg_max(time, n * 2), arg_min(key, v) FROM m GROUP BY series", 3)
	sameRows(t, open, "SELECT series, first(v ORDER BY v DESC) FILTER (WHERE n > 3) AS top FROM m GROUP BY series HAVING last(v ORDER BY time) > -100",
		"SELECT series, max(v) FILTER (WHERE n > 3) AS top FROM m GROUP BY series HAVING last(v) > -100", 3)
	cols, err := columnNamesOf("SELECT last(v ORDER BY time), first(s ORDER BY v DESC) FILTER (WHERE b) FROM m", open)
	if err != nil || strings.Join(cols, "|") != "last(v ORDER BY time)|first(s ORDER BY v DESC) FILTER (WHERE b)" {
		t.Errorf("names %q %v", cols, err)
	}
	wantErrors(t, open, []errCase{
		{"SELECT first(v ORDER BY v NULLS FIRST) FROM m", "takes no NULLS", "FIRST"},
		{"SELECT last(v ORDER BY v, time) FROM m", "takes one key", ", time"},
	})
}
