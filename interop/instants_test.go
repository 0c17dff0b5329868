package interop_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// TestInteropInstants holds tsq's computed instants against DuckDB's own
// functions on tsq's Parquet export of the NAB samples: date_trunc by
// week, month and quarter, time_bucket, strftime, extract and epoch_ms,
// each grouped with its row count, so that every one of the 162,575
// rows counts.
func TestInteropInstants(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	for _, c := range []struct{ tsq, duck string }{
		{"SELECT epoch_ms(date_trunc('week', time)) AS k, count(*) FROM nab GROUP BY k",
			"SELECT epoch_ms(date_trunc('week', time)) AS k, count(*) FROM nab GROUP BY k"},
		{"SELECT epoch_ms(date_trunc('month', time)) AS k, epoch_ms(date_trunc('quarter', time)) AS q, count(*) FROM nab GROUP BY k, q",
			"SELECT epoch_ms(date_trunc('month', time)) AS k, epoch_ms(date_trunc('quarter', time)) AS q, count(*) FROM nab GROUP BY k, q"},
		{"SELECT epoch_ms(time_bucket(90m, time)) AS k, count(*) FROM nab GROUP BY k",
			"SELECT epoch_ms(time_bucket(INTERVAL 90 MINUTE, time::TIMESTAMP, TIMESTAMP '1970-01-01')) AS k, count(*) FROM nab GROUP BY k"},
		{"SELECT strftime(time, '%Y-%m-%d %H:%M:%S %a %A %b %B %j %u %w %V %G %p %I %y') AS k, count(*) FROM nab GROUP BY k",
			"SELECT strftime(time::TIMESTAMP, '%Y-%m-%d %H:%M:%S %a %A %b %B %j %u %w %V %G %p %I %y') AS k, count(*) FROM nab GROUP BY k"},
		{"SELECT extract(quarter FROM time) AS a, extract(isodow FROM time) AS b, extract(doy FROM time) AS c, extract(week FROM time) AS d, date_part('dow', time) AS e, count(*) FROM nab GROUP BY a, b, c, d, e",
			"SELECT extract(quarter FROM time) AS a, extract(isodow FROM time) AS b, extract(doy FROM time) AS c, extract(week FROM time) AS d, date_part('dow', time) AS e, count(*) FROM nab GROUP BY ALL"},
		{"SELECT series, epoch_ms(max(time) - 1d) AS k, count(*) FROM nab WHERE time >= '2014-01-01' + INTERVAL '12 hours' GROUP BY series",
			"SELECT series, epoch_ms(max(time) - INTERVAL 1 DAY) AS k, count(*) FROM nab WHERE time >= TIMESTAMPTZ '2014-01-01 12:00:00+00' GROUP BY series"},
	} {
		got := tsqRows(t, storeQuery(t, s, c.tsq))
		var want [][]string
		runNode(t, node, &want, "query_parquet.mjs", path, c.duck)
		var duck []string
		for _, r := range want {
			duck = append(duck, strings.Join(r, "|"))
		}
		slices.Sort(duck)
		if len(got) < 2 || !slices.Equal(got, duck) {
			t.Errorf("%s\n tsq %d rows %.300v\n DuckDB %d rows %.300v", c.tsq, len(got), got, len(duck), duck)
		}
	}
}

// tsqRows returns the rows of rr as sorted lines of |-joined cells, each
// cell as joinRows writes it.
func tsqRows(t *testing.T, rr array.RecordReader) []string {
	t.Helper()
	rows, _ := joinRows(t, rr)
	var out []string
	for _, r := range rows {
		out = append(out, strings.Join(r, "|"))
	}
	slices.Sort(out)
	return out
}

// TestInteropDateDiff holds date_diff against DuckDB's for every unit:
// between each series' first and last sample, and between consecutive
// samples around a month's end.
func TestInteropDateDiff(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	var items []string
	for _, u := range []string{"microsecond", "millisecond", "second", "minute", "hour", "day", "week", "month", "quarter", "year"} {
		items = append(items, "date_diff('"+u+"', min(time), max(time)) AS "+u+"s")
	}
	q := "SELECT series, " + strings.Join(items, ", ") + " FROM nab GROUP BY series ORDER BY series"
	agreeWithDuckDB(t, node, s, path, "date_diff of each series' span in every unit", q, q)
	agreeWithDuckDB(t, node, s, path, "date_diff between consecutive samples across month ends",
		"SELECT series, epoch_ms(time) AS t, date_diff('month', lag(time), time) AS m, date_diff('hour', lag(time), time) AS h, date_diff('week', '2014-01-01', time) AS w "+
			"FROM nab WHERE series LIKE 'nab/realKnownCause/%' AND day(time) IN (1, 28, 29, 30, 31) ORDER BY series, t",
		"SELECT series, epoch_ms(time) AS t, date_diff('month', lag(time) OVER w, time) AS m, date_diff('hour', lag(time) OVER w, time) AS h, date_diff('week', TIMESTAMPTZ '2014-01-01 00:00:00+00', time) AS w "+
			"FROM nab WHERE series LIKE 'nab/realKnownCause/%' AND day(time) IN (1, 28, 29, 30, 31) WINDOW w AS (PARTITION BY series ORDER BY time, seq) ORDER BY series, t")
}
