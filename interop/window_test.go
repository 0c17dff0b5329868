package interop_test

import "testing"

// TestInteropWindow runs lag and lead in tsq and, as SQL's window
// functions over each series ordered by (time, seq), in DuckDB on tsq's
// Parquet export of the same rows, raw and over daily buckets.
func TestInteropWindow(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	for _, c := range []struct{ name, tsq, duck string }{
		{"lag and lead of raw rows, of any type, at offsets 0 to 3",
			"SELECT series, epoch_ms(time) AS t, value, lag(value) AS a, lead(value, 3) AS b, lag(epoch_ms(time), 2) AS c, lead(series, 0) AS d " +
				"FROM nab WHERE series LIKE 'nab/realTraffic/%' AND value > 20 ORDER BY series, t",
			"SELECT series, epoch_ms(time) AS t, value, lag(value) OVER w AS a, lead(value, 3) OVER w AS b, lag(epoch_ms(time), 2) OVER w AS c, lead(series, 0) OVER w AS d " +
				"FROM nab WHERE series LIKE 'nab/realTraffic/%' AND value > 20 WINDOW w AS (PARTITION BY series ORDER BY time, seq) ORDER BY series, t"},
		{"lag and lead of daily aggregates, after HAVING",
			"SELECT series, time, avg(value) AS a, count(*) AS n, lag(avg(value)) AS p, lead(count(*), 2) AS q " +
				"FROM nab GROUP BY time(1d), series HAVING count(*) > 100 ORDER BY series, time",
			"SELECT series, epoch_ms(time), a, n, lag(a) OVER w AS p, lead(n, 2) OVER w AS q FROM (SELECT series, time_bucket(INTERVAL 1 day, time) AS time, " +
				"avg(value) AS a, count(*) AS n FROM nab GROUP BY 1, 2 HAVING count(*) > 100) WINDOW w AS (PARTITION BY series ORDER BY time) ORDER BY series, time"},
	} {
		agreeWithDuckDB(t, node, s, path, c.name, c.tsq, c.duck)
	}
}
