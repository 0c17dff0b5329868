package interop_test

import "testing"

// TestInteropDurations holds tsq's spans of time (time - time, duration
// literals, their sums and multiples, min and max of them) against
// DuckDB's INTERVALs of the same questions, written as DuckDB writes an
// INTERVAL (tsq's durations print so; DuckDB's are cast to VARCHAR). A
// DuckDB INTERVAL multiplied keeps its days and its time apart (26 days
// 47:50:00), and one less an hour its signs (14 days -00:55:00), where a
// span is one number (27 days 23:50:00, 13 days 23:05:00): those are
// asked of DuckDB as differences of timestamps, which it normalises.
func TestInteropDurations(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	for _, c := range []struct{ name, tsq, duck string }{
		{"spans of series",
			"SELECT series, max(time) - min(time) AS span FROM nab GROUP BY series ORDER BY series",
			"SELECT series, (max(time) - min(time))::VARCHAR AS span FROM nab GROUP BY series ORDER BY series"},
		{"gaps",
			"SELECT series, min(gap) AS lo, max(gap) AS hi FROM (SELECT series, time - lag(time) OVER (PARTITION BY series ORDER BY time) AS gap FROM nab) GROUP BY series ORDER BY series",
			"SELECT series, min(gap)::VARCHAR AS lo, max(gap)::VARCHAR AS hi FROM (SELECT series, time - lag(time) OVER (PARTITION BY series ORDER BY time) AS gap FROM nab) GROUP BY series ORDER BY series"},
		{"means and medians (DuckDB's avg of INTERVALs is off by 6e-6 here: held against its mean of the seconds)",
			"SELECT series, epoch(avg(gap)) AS mean, median(gap) AS med, quantile_disc(gap, 0.9) AS p90 FROM (SELECT series, time - lag(time) OVER (PARTITION BY series ORDER BY time) AS gap FROM nab) GROUP BY series ORDER BY series",
			"SELECT series, avg(epoch(gap)) AS mean, median(gap)::VARCHAR AS med, quantile_disc(gap, 0.9)::VARCHAR AS p90 FROM (SELECT series, time - lag(time) OVER (PARTITION BY series ORDER BY time) AS gap FROM nab) GROUP BY series ORDER BY series"},
		{"grouped by a span",
			"SELECT gap, count(*) AS n FROM (SELECT time - lag(time) OVER (PARTITION BY series ORDER BY time) AS gap FROM nab) WHERE gap IS NOT NULL GROUP BY gap ORDER BY n DESC, gap LIMIT 12",
			"SELECT gap::VARCHAR AS gap, count(*) AS n FROM (SELECT time - lag(time) OVER (PARTITION BY series ORDER BY time) AS gap FROM nab) WHERE gap IS NOT NULL GROUP BY gap ORDER BY n DESC, gap LIMIT 12"},
		{"arithmetic on spans",
			"SELECT series, (max(time) - min(time)) * 2 AS twice, max(time) - min(time) - 1h AS less, -(max(time) - min(time)) AS neg, max(time) - TIMESTAMP '2014-01-01' AS since FROM nab GROUP BY series ORDER BY series LIMIT 8",
			"SELECT series, ((max(time) + (max(time) - min(time))) - min(time))::VARCHAR AS twice, (max(time) - INTERVAL 1 HOUR - min(time))::VARCHAR AS less, (-(max(time) - min(time)))::VARCHAR AS neg, (max(time) - TIMESTAMP '2014-01-01')::VARCHAR AS since FROM nab GROUP BY series ORDER BY series LIMIT 8"},
		{"parts of spans",
			"SELECT series, day(max(time) - min(time)) AS d, hour(max(time) - min(time)) AS h, minute(max(time) - min(time)) AS m, date_part('second', min(time) - max(time)) AS s, date_part('millisecond', max(time) - min(time)) AS ms, extract(hour FROM min(time) - max(time)) AS nh FROM nab GROUP BY series ORDER BY series",
			"SELECT series, day(max(time) - min(time)) AS d, hour(max(time) - min(time)) AS h, minute(max(time) - min(time)) AS m, date_part('second', min(time) - max(time)) AS s, date_part('millisecond', max(time) - min(time)) AS ms, extract(hour FROM min(time) - max(time)) AS nh FROM nab GROUP BY series ORDER BY series"},
		{"spans of numbers (under a day: DuckDB keeps hours past 24 as hours)",
			"SELECT series, to_seconds(count(*) % 86400) AS s, to_milliseconds(count(*) * 7) AS ms, to_minutes(count(*) % 1000) AS m, to_hours(count(*) % 20) AS h, epoch(max(time) - min(time)) AS secs, epoch_ms(max(time) - min(time)) AS msecs FROM nab GROUP BY series ORDER BY series",
			"SELECT series, to_seconds(count(*) % 86400)::VARCHAR AS s, to_milliseconds(count(*) * 7)::VARCHAR AS ms, to_minutes(count(*) % 1000)::VARCHAR AS m, to_hours(count(*) % 20)::VARCHAR AS h, epoch(max(time) - min(time)) AS secs, epoch_ms(max(time) - min(time)) AS msecs FROM nab GROUP BY series ORDER BY series"},
		{"whole milliseconds and microseconds of negative spans (toward zero)",
			"SELECT series, epoch_ms(min(time) - max(time) - to_microseconds(1500)) AS ms, epoch_us(min(time) - max(time) - to_microseconds(1)) AS us, epoch_ms(to_microseconds(-1500)) AS small FROM nab GROUP BY series ORDER BY series",
			"SELECT series, epoch_ms(min(time) - max(time) - INTERVAL 1500 MICROSECONDS) AS ms, epoch_us(min(time) - max(time) - INTERVAL 1 MICROSECOND) AS us, epoch_ms(INTERVAL '-1500 microseconds') AS small FROM nab GROUP BY series ORDER BY series"},
	} {
		agreeWithDuckDB(t, node, s, path, c.name, c.tsq, c.duck)
	}
}
