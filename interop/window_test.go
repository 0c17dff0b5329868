package interop_test

import (
	"strings"
	"testing"
)

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

// TestInteropWindowOver holds OVER (PARTITION BY ... ORDER BY ...) with
// row_number, rank and dense_rank against DuckDB's: raw rows ranked
// within each series, the top three of each kept by a subquery, and
// series ranked by an aggregate. tsq breaks ties of the keys by (time,
// seq), which DuckDB's row_number is told.
func TestInteropWindowOver(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	for _, c := range []struct{ name, tsq, duck string }{
		{"row_number, rank and dense_rank of rounded values within each series",
			"SELECT series, epoch_ms(time) AS t, value, row_number() OVER (PARTITION BY series ORDER BY round(value) DESC) AS rn, " +
				"rank() OVER (PARTITION BY series ORDER BY round(value) DESC) AS r, dense_rank() OVER (PARTITION BY series ORDER BY round(value) DESC) AS d, " +
				"lag(value) OVER (ORDER BY value, time) AS l FROM nab WHERE series LIKE 'nab/realTraffic/%' ORDER BY series, t",
			"SELECT series, epoch_ms(time) AS t, value, row_number() OVER (PARTITION BY series ORDER BY round(value) DESC, time, seq) AS rn, " +
				"rank() OVER (PARTITION BY series ORDER BY round(value) DESC) AS r, dense_rank() OVER (PARTITION BY series ORDER BY round(value) DESC) AS d, " +
				"lag(value) OVER (ORDER BY value, time, seq) AS l FROM nab WHERE series LIKE 'nab/realTraffic/%' ORDER BY series, t"},
		{"the three largest values of each series",
			"SELECT series, t, value FROM (SELECT series, epoch_ms(time) AS t, value, row_number() OVER (PARTITION BY series ORDER BY value DESC) AS rn FROM nab) WHERE rn <= 3 ORDER BY series, t",
			"SELECT series, t, value FROM (SELECT series, epoch_ms(time) AS t, value, row_number() OVER (PARTITION BY series ORDER BY value DESC, time, seq) AS rn FROM nab) WHERE rn <= 3 ORDER BY series, t"},
		{"sum, avg, max and count over windows, and arithmetic on windows",
			"SELECT series, epoch_ms(time) AS t, value / sum(value) OVER (PARTITION BY series) AS share, avg(value) OVER (PARTITION BY series ORDER BY round(value)) AS ravg, " +
				"max(value) OVER () AS top, count(*) OVER (PARTITION BY series ORDER BY time) AS n, value - lag(value) AS step, (time - lag(time)) / 1000000 AS gap_ms " +
				"FROM nab WHERE series LIKE 'nab/realTraffic/%' ORDER BY series, t",
			"SELECT series, epoch_ms(time) AS t, value / sum(value) OVER (PARTITION BY series) AS share, avg(value) OVER (PARTITION BY series ORDER BY round(value)) AS ravg, " +
				"max(value) OVER () AS top, count(*) OVER (PARTITION BY series ORDER BY time) AS n, value - lag(value) OVER (PARTITION BY series ORDER BY time, seq) AS step, " +
				"epoch_ms(time) - lag(epoch_ms(time)) OVER (PARTITION BY series ORDER BY time, seq) AS gap_ms FROM nab WHERE series LIKE 'nab/realTraffic/%' ORDER BY series, t"},
		{"each series' share of all samples, and a running count",
			"SELECT series, count(*) AS n, 100.0 * count(*) / sum(count(*)) OVER () AS share, sum(count(*)) OVER (ORDER BY series) AS running FROM nab GROUP BY series ORDER BY series",
			"SELECT series, count(*) AS n, 100.0 * count(*) / sum(count(*)) OVER () AS share, sum(count(*)) OVER (ORDER BY series) AS running FROM nab GROUP BY series ORDER BY series"},
		{"QUALIFY: the two largest hourly means of each series",
			"SELECT series, time, avg(value) AS a, row_number() OVER (PARTITION BY series ORDER BY avg(value) DESC) AS rn FROM nab GROUP BY time(1h), series QUALIFY rn <= 2 ORDER BY series, rn",
			"SELECT series, epoch_ms(time_bucket(INTERVAL 1 hour, time)) AS t, avg(value) AS a, row_number() OVER (PARTITION BY series ORDER BY avg(value) DESC, t) AS rn FROM nab GROUP BY series, t QUALIFY rn <= 2 ORDER BY series, rn"},
		{"NULLS LAST and NULLS FIRST, in ORDER BY and in OVER",
			"SELECT series, epoch_ms(time) AS t, lag(value) AS l, row_number() OVER (PARTITION BY series ORDER BY nullif(round(value), 10) DESC NULLS FIRST) AS rn FROM nab " +
				"WHERE series LIKE 'nab/realTraffic/%' ORDER BY l DESC NULLS LAST, series, t LIMIT 30 OFFSET 15630",
			"SELECT series, epoch_ms(time) AS t, lag(value) OVER (PARTITION BY series ORDER BY time, seq) AS l, row_number() OVER (PARTITION BY series ORDER BY nullif(round(value), 10) DESC NULLS FIRST, time, seq) AS rn FROM nab " +
				"WHERE series LIKE 'nab/realTraffic/%' ORDER BY l DESC NULLS LAST, series, t LIMIT 30 OFFSET 15630"},
		{"ntile, percent_rank and cume_dist of rounded values within each series",
			"SELECT series, epoch_ms(time) AS t, ntile(10) OVER (PARTITION BY series ORDER BY round(value)) AS decile, percent_rank() OVER (PARTITION BY series ORDER BY round(value)) AS pr, " +
				"cume_dist() OVER (PARTITION BY series ORDER BY round(value) DESC) AS cd, ntile(7) OVER () AS n7 FROM nab WHERE series LIKE 'nab/realTraffic/%' ORDER BY series, t",
			"SELECT series, epoch_ms(time) AS t, ntile(10) OVER (PARTITION BY series ORDER BY round(value), time, seq) AS decile, percent_rank() OVER (PARTITION BY series ORDER BY round(value)) AS pr, " +
				"cume_dist() OVER (PARTITION BY series ORDER BY round(value) DESC) AS cd, ntile(7) OVER (ORDER BY time, seq) AS n7 FROM nab WHERE series LIKE 'nab/realTraffic/%' ORDER BY series, t"},
		{"first_value, last_value and nth_value: the frame up to the row (its peers: the oracle of TestWindowValues), or the whole partition",
			"SELECT series, epoch_ms(time) AS t, value - first_value(value) OVER (PARTITION BY series ORDER BY time) AS since, last_value(epoch_ms(time)) OVER (PARTITION BY series ORDER BY value, time) AS lv, " +
				"nth_value(epoch_ms(time), 3) OVER (PARTITION BY series ORDER BY value DESC, time) AS third, last_value(epoch_ms(time)) OVER (PARTITION BY series) AS last_t FROM nab WHERE series LIKE 'nab/realTraffic/%' ORDER BY series, t",
			"SELECT series, epoch_ms(time) AS t, value - first_value(value) OVER (PARTITION BY series ORDER BY time, seq) AS since, last_value(epoch_ms(time)) OVER (PARTITION BY series ORDER BY value, time, seq) AS lv, " +
				"nth_value(epoch_ms(time), 3) OVER (PARTITION BY series ORDER BY value DESC, time, seq) AS third, last_value(epoch_ms(time)) OVER (PARTITION BY series ORDER BY time, seq ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last_t FROM nab WHERE series LIKE 'nab/realTraffic/%' ORDER BY series, t"},
		{"QUALIFY with its own windows: each series' samples at its maximum, and at more than twice the stream's mean",
			"SELECT series, epoch_ms(time) AS t, value FROM nab QUALIFY value = max(value) OVER (PARTITION BY series) OR value > 2 * avg(value) OVER () AND series LIKE '%Cloudwatch%' ORDER BY series, t",
			"SELECT series, epoch_ms(time) AS t, value FROM nab QUALIFY value = max(value) OVER (PARTITION BY series) OR value > 2 * avg(value) OVER () AND series LIKE '%Cloudwatch%' ORDER BY series, t"},
		{"series ranked by their mean, within their NAB directory",
			"SELECT series, avg(value) AS a, rank() OVER (PARTITION BY split_part(series, '/', 2) ORDER BY avg(value) DESC) AS r, rank() OVER (ORDER BY count(*)) AS n " +
				"FROM nab GROUP BY series ORDER BY series",
			"SELECT series, avg(value) AS a, rank() OVER (PARTITION BY split_part(series, '/', 2) ORDER BY avg(value) DESC) AS r, rank() OVER (ORDER BY count(*)) AS n " +
				"FROM nab GROUP BY series ORDER BY series"},
	} {
		agreeWithDuckDB(t, node, s, path, c.name, c.tsq, c.duck)
	}
}

// TestInteropWindowFrames holds window frames against DuckDB's: moving
// means over the last rows and the last half hour, extremes and counts
// over centred windows, value functions over frames ahead and behind,
// RANGE frames over numbers with nulls placed first and last, GROUPS
// frames, named windows (WINDOW), and frames over an aggregate query's
// hourly buckets. A ROWS frame without OVER's ORDER BY takes rows in
// (time, seq) order, which DuckDB is told.
func TestInteropWindowFrames(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	const where = " FROM nab WHERE series LIKE 'nab/realTraffic/%' ORDER BY series, t"
	for _, c := range []struct{ name, tsq, duck string }{
		{"moving means, centred extremes, counts within an hour, value functions ahead and behind",
			"SELECT series, epoch_ms(time) AS t, avg(value) OVER (PARTITION BY series ROWS 4 PRECEDING) AS ma5, " +
				"avg(value) OVER (PARTITION BY series ORDER BY time RANGE 30m PRECEDING) AS ma30, " +
				"max(value) OVER (PARTITION BY series ORDER BY time ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING) AS mx, " +
				"min(value) OVER (PARTITION BY series ORDER BY time RANGE BETWEEN INTERVAL '2 hours' PRECEDING AND 10m PRECEDING) AS mn, " +
				"count(*) OVER (PARTITION BY series ORDER BY time RANGE BETWEEN 1h PRECEDING AND 1h FOLLOWING) AS n, " +
				"sum(value) OVER (PARTITION BY series ORDER BY time ROWS BETWEEN 2 FOLLOWING AND 5 FOLLOWING) AS ahead, " +
				"first_value(value) OVER (PARTITION BY series ORDER BY time ROWS BETWEEN 2 FOLLOWING AND 5 FOLLOWING) AS fv, " +
				"last_value(value) OVER (PARTITION BY series ORDER BY time ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev, " +
				"nth_value(value, 2) OVER (PARTITION BY series ORDER BY time ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS second" + where,
			"SELECT series, epoch_ms(time) AS t, avg(value) OVER (PARTITION BY series ORDER BY time, seq ROWS 4 PRECEDING) AS ma5, " +
				"avg(value) OVER (PARTITION BY series ORDER BY time RANGE INTERVAL 30 MINUTE PRECEDING) AS ma30, " +
				"max(value) OVER (PARTITION BY series ORDER BY time, seq ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING) AS mx, " +
				"min(value) OVER (PARTITION BY series ORDER BY time RANGE BETWEEN INTERVAL 2 HOUR PRECEDING AND INTERVAL 10 MINUTE PRECEDING) AS mn, " +
				"count(*) OVER (PARTITION BY series ORDER BY time RANGE BETWEEN INTERVAL 1 HOUR PRECEDING AND INTERVAL 1 HOUR FOLLOWING) AS n, " +
				"sum(value) OVER (PARTITION BY series ORDER BY time, seq ROWS BETWEEN 2 FOLLOWING AND 5 FOLLOWING) AS ahead, " +
				"first_value(value) OVER (PARTITION BY series ORDER BY time, seq ROWS BETWEEN 2 FOLLOWING AND 5 FOLLOWING) AS fv, " +
				"last_value(value) OVER (PARTITION BY series ORDER BY time, seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev, " +
				"nth_value(value, 2) OVER (PARTITION BY series ORDER BY time, seq ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS second" + where},
		{"RANGE over rounded values with nulls first and last, and GROUPS of tied values",
			"SELECT series, epoch_ms(time) AS t, sum(value) OVER (PARTITION BY series ORDER BY nullif(round(value), 10) RANGE BETWEEN 2 PRECEDING AND 1.5 FOLLOWING) AS near, " +
				"count(value) OVER (PARTITION BY series ORDER BY nullif(round(value), 10) DESC NULLS LAST RANGE BETWEEN 3 FOLLOWING AND UNBOUNDED FOLLOWING) AS below, " +
				"max(epoch_ms(time)) OVER (PARTITION BY series ORDER BY nullif(round(value), 10) NULLS FIRST RANGE BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS under, " +
				"count(*) OVER (PARTITION BY series ORDER BY round(value) GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS g3, " +
				"min(value) OVER (PARTITION BY series ORDER BY round(value) DESC GROUPS BETWEEN CURRENT ROW AND 2 FOLLOWING) AS g2" + where,
			"SELECT series, epoch_ms(time) AS t, sum(value) OVER (PARTITION BY series ORDER BY nullif(round(value), 10) RANGE BETWEEN 2 PRECEDING AND 1.5 FOLLOWING) AS near, " +
				"count(value) OVER (PARTITION BY series ORDER BY nullif(round(value), 10) DESC NULLS LAST RANGE BETWEEN 3 FOLLOWING AND UNBOUNDED FOLLOWING) AS below, " +
				"max(epoch_ms(time)) OVER (PARTITION BY series ORDER BY nullif(round(value), 10) NULLS FIRST RANGE BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS under, " +
				"count(*) OVER (PARTITION BY series ORDER BY round(value) GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS g3, " +
				"min(value) OVER (PARTITION BY series ORDER BY round(value) DESC GROUPS BETWEEN CURRENT ROW AND 2 FOLLOWING) AS g2" + where},
		{"EXCLUDE: each sample against its neighbours' mean, without itself; extremes and counts without the row's ties",
			"SELECT series, epoch_ms(time) AS t, value - avg(value) OVER (PARTITION BY series ORDER BY time ROWS BETWEEN 5 PRECEDING AND 5 FOLLOWING EXCLUDE CURRENT ROW) AS d, " +
				"max(value) OVER (PARTITION BY series ORDER BY round(value / 10) GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP) AS mg, " +
				"count(*) OVER (PARTITION BY series ORDER BY round(value / 10) RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE TIES) AS ct, " +
				"sum(value) OVER (PARTITION BY series ORDER BY round(value / 10) GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE NO OTHERS) AS sn, " +
				"last_value(value) OVER (PARTITION BY series ORDER BY time ROWS BETWEEN 2 PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW) AS prev" + where,
			"SELECT series, epoch_ms(time) AS t, value - avg(value) OVER (PARTITION BY series ORDER BY time, seq ROWS BETWEEN 5 PRECEDING AND 5 FOLLOWING EXCLUDE CURRENT ROW) AS d, " +
				"max(value) OVER (PARTITION BY series ORDER BY round(value / 10) GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP) AS mg, " +
				"count(*) OVER (PARTITION BY series ORDER BY round(value / 10) RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE TIES) AS ct, " +
				"sum(value) OVER (PARTITION BY series ORDER BY round(value / 10) GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE NO OTHERS) AS sn, " +
				"last_value(value) OVER (PARTITION BY series ORDER BY time, seq ROWS BETWEEN 2 PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW) AS prev" + where},
		{"named windows, whole and built on",
			"SELECT series, epoch_ms(time) AS t, avg(value) OVER w AS a, max(value) OVER (s ORDER BY time ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS m, rank() OVER r AS k" + strings.TrimSuffix(where, " ORDER BY series, t") +
				" WINDOW s AS (PARTITION BY series), w AS (s ORDER BY time RANGE 15m PRECEDING), r AS (s ORDER BY round(value) DESC) ORDER BY series, t",
			"SELECT series, epoch_ms(time) AS t, avg(value) OVER w AS a, max(value) OVER (s ORDER BY time, seq ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS m, rank() OVER r AS k" + strings.TrimSuffix(where, " ORDER BY series, t") +
				" WINDOW s AS (PARTITION BY series), w AS (s ORDER BY time RANGE INTERVAL 15 MINUTE PRECEDING), r AS (s ORDER BY round(value) DESC) ORDER BY series, t"},
		{"IGNORE NULLS: values carried forward over the gaps, the previous and the next non-null, within frames",
			"SELECT series, epoch_ms(time) AS t, last_value(nullif(round(value), 10) IGNORE NULLS) OVER (PARTITION BY series ORDER BY time ROWS UNBOUNDED PRECEDING) AS locf, " +
				"lag(nullif(round(value), 10), 2 IGNORE NULLS) OVER (PARTITION BY series ORDER BY time) AS p2, lead(nullif(round(value), 10)) IGNORE NULLS OVER (PARTITION BY series ORDER BY time) AS nx, " +
				"first_value(nullif(round(value), 10) IGNORE NULLS) OVER (PARTITION BY series ORDER BY time ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS f5, " +
				"nth_value(nullif(round(value), 10), 2 IGNORE NULLS) OVER (PARTITION BY series ORDER BY time ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS n2" + where,
			"SELECT series, epoch_ms(time) AS t, last_value(nullif(round(value), 10) IGNORE NULLS) OVER (PARTITION BY series ORDER BY time, seq ROWS UNBOUNDED PRECEDING) AS locf, " +
				"lag(nullif(round(value), 10), 2 IGNORE NULLS) OVER (PARTITION BY series ORDER BY time, seq) AS p2, lead(nullif(round(value), 10) IGNORE NULLS) OVER (PARTITION BY series ORDER BY time, seq) AS nx, " +
				"first_value(nullif(round(value), 10) IGNORE NULLS) OVER (PARTITION BY series ORDER BY time, seq ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS f5, " +
				"nth_value(nullif(round(value), 10), 2 IGNORE NULLS) OVER (PARTITION BY series ORDER BY time, seq ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS n2" + where},
		{"frames over hourly buckets: the mean of the last three hours, and the busiest of five buckets",
			"SELECT series, time, avg(avg(value)) OVER (PARTITION BY series ORDER BY time RANGE 2h PRECEDING) AS a3, " +
				"max(count(*)) OVER (PARTITION BY series ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS busiest FROM nab GROUP BY time(1h), series ORDER BY series, time",
			"SELECT series, epoch_ms(time_bucket(INTERVAL 1 hour, time)) AS b, avg(avg(value)) OVER (PARTITION BY series ORDER BY time_bucket(INTERVAL 1 hour, time) RANGE INTERVAL 2 HOUR PRECEDING) AS a3, " +
				"max(count(*)) OVER (PARTITION BY series ORDER BY time_bucket(INTERVAL 1 hour, time) ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS busiest FROM nab GROUP BY series, time_bucket(INTERVAL 1 hour, time) ORDER BY series, b"},
	} {
		agreeWithDuckDB(t, node, s, path, c.name, c.tsq, c.duck)
	}
}

// TestInteropDistinctOn holds DISTINCT ON against DuckDB's: each series'
// latest sample and its largest, and each series' busiest hour.
func TestInteropDistinctOn(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	for _, q := range []string{
		"SELECT DISTINCT ON (series) series, epoch_ms(time) AS t, value FROM nab ORDER BY series, time DESC, seq DESC",
		"SELECT DISTINCT ON (series) series, epoch_ms(time) AS t, value FROM nab ORDER BY series, value DESC, time, seq",
	} {
		agreeWithDuckDB(t, node, s, path, q, q, q)
	}
	agreeWithDuckDB(t, node, s, path, "each series' busiest hour",
		"SELECT DISTINCT ON (series) series, time, count(*) AS n FROM nab GROUP BY time(1h), series ORDER BY series, n DESC, time",
		"SELECT DISTINCT ON (series) series, epoch_ms(time_bucket(INTERVAL 1 hour, time)) AS h, count(*) AS n FROM nab GROUP BY series, h ORDER BY series, n DESC, h")
}

// TestInteropRangeMonths holds RANGE frames of calendar months against
// DuckDB's interval frames: a month back (days clamped at month ends)
// and a year ahead, over the hourly samples of one series.
func TestInteropRangeMonths(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	q := "SELECT epoch_ms(time) AS t, round(avg(value) OVER (ORDER BY time RANGE BETWEEN INTERVAL 1 MONTH PRECEDING AND CURRENT ROW), 6) AS back, " +
		"count(*) OVER (ORDER BY time RANGE BETWEEN CURRENT ROW AND INTERVAL 1 YEAR FOLLOWING) AS ahead " +
		"FROM nab WHERE series = 'nab/realKnownCause/ambient_temperature_system_failure' ORDER BY t"
	agreeWithDuckDB(t, node, s, path, "RANGE frames of months", q, q)
}
