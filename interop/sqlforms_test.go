package interop_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestInteropCorrelated holds correlated subqueries against DuckDB's:
// each series' samples above its own mean, its samples equal to its
// latest one (ORDER BY ... LIMIT 1), per sample the count of hot samples
// of its series and day (0 where there are none), and the samples of
// days with (EXISTS) and without (NOT EXISTS) a hot sample; the same
// text runs in both.
func TestInteropCorrelated(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	agreeEach(t, node, s, path, []sameText{
		{"above the series' mean", "SELECT series, count(*) AS above FROM nab AS o WHERE value > (SELECT avg(value) FROM nab WHERE series = o.series) GROUP BY series ORDER BY series"},
		{"equal to the latest", "SELECT series, count(*) AS n, max(value) AS v FROM nab AS o WHERE value = (SELECT value FROM nab WHERE series = o.series ORDER BY time DESC LIMIT 1) GROUP BY series ORDER BY series"},
		{"hot samples of the series' day", "SELECT series, sum((SELECT count(*) FROM nab WHERE series = o.series AND date_trunc('day', time) = date_trunc('day', o.time) AND value > 90)) AS hot, " +
			"count(*) FILTER (WHERE (SELECT count(*) FROM nab WHERE series = o.series AND date_trunc('day', time) = date_trunc('day', o.time) AND value > 90) = 0) AS calm " +
			"FROM nab AS o WHERE series LIKE 'nab/realKnownCause/%' GROUP BY series ORDER BY series"},
		{"EXISTS", "SELECT series, count(*) AS n FROM nab AS o WHERE EXISTS (SELECT 1 FROM nab WHERE o.series = series AND date_trunc('day', time) = date_trunc('day', o.time) AND value > 95) GROUP BY series ORDER BY series"},
		{"NOT EXISTS", "SELECT o.series, count(*) AS n FROM nab AS o WHERE NOT EXISTS (SELECT 1 FROM nab AS i WHERE i.series = o.series AND date_trunc('day', i.time) = date_trunc('day', o.time) AND i.value > 95) GROUP BY o.series ORDER BY o.series"},
		{"IN", "SELECT series, count(*) AS n FROM nab AS o WHERE value IN (SELECT value FROM nab WHERE series = o.series AND date_trunc('day', time) = date_trunc('day', o.time) AND value > 90) GROUP BY series ORDER BY series"},
		{"NOT IN of the day's maxima", "SELECT series, count(*) AS n, count(*) FILTER (WHERE value NOT IN (SELECT max(value) FROM nab WHERE series = o.series GROUP BY date_trunc('day', time))) AS not_max " +
			"FROM nab AS o WHERE series LIKE 'nab/realKnownCause/%' GROUP BY series ORDER BY series"},
		{"IN of one aggregate", "SELECT series, count(*) FILTER (WHERE value IN (SELECT max(value) FROM nab WHERE series = o.series AND hour(time) = hour(o.time))) AS top FROM nab AS o GROUP BY series ORDER BY series"},
	})
}

// TestInteropGroupingSets holds ROLLUP, CUBE, GROUPING SETS and
// grouping() against DuckDB's: the same text runs in both.
func TestInteropGroupingSets(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	const month = "date_trunc('month', time)"
	agreeEach(t, node, s, path, []sameText{
		{"ROLLUP", "SELECT series, epoch_ms(" + month + ") AS m, count(*) AS n, round(avg(value), 6) AS mean, grouping(series, m) AS g " +
			"FROM nab WHERE series LIKE 'nab/realKnownCause/%' GROUP BY ROLLUP (series, m) ORDER BY series, m"},
		{"CUBE", "SELECT series, hour(time) AS h, count(*) AS n, max(value) AS top, grouping(series) AS gs, grouping(hour(time)) AS gh " +
			"FROM nab WHERE series LIKE 'nab/realTraffic/%' GROUP BY CUBE (series, hour(time)) ORDER BY series, h"},
		{"GROUPING SETS", "SELECT series, hour(time) AS h, count(*) AS n FROM nab WHERE series LIKE 'nab/realAWSCloudwatch/ec2%' " +
			"GROUP BY GROUPING SETS ((series), (hour(time)), ()) HAVING count(*) > 100 ORDER BY series, h"},
	})
}

// TestInteropJoinThree holds a join of three sources (then a LEFT join
// of a fourth) against DuckDB's: the same text runs in both.
func TestInteropJoinThree(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	q := "SELECT epoch_ms(a.time) AS t, a.value AS x, b.value AS y, c.value AS z, d.value AS w FROM nab AS a JOIN nab AS b ON a.time = b.time " +
		"JOIN nab AS c ON b.time = c.time LEFT JOIN (SELECT time, value FROM nab WHERE series = 'nab/realAWSCloudwatch/rds_cpu_utilization_cc0c53' AND value > 6.2) AS d ON c.time = d.time " +
		"WHERE a.series = 'nab/realAWSCloudwatch/ec2_cpu_utilization_24ae8d' AND b.series = 'nab/realAWSCloudwatch/ec2_cpu_utilization_53ea38' " +
		"AND c.series = 'nab/realAWSCloudwatch/rds_cpu_utilization_cc0c53' AND minute(a.time) = 0 ORDER BY t"
	agreeWithDuckDB(t, node, s, path, "three sources and a fourth LEFT", q, q)
}

// TestInteropSetOps holds UNION, INTERSECT and EXCEPT, DISTINCT and
// ALL, and their precedence against DuckDB's: the same text runs in
// both.
func TestInteropSetOps(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	agreeEach(t, node, s, path, []sameText{
		{"INTERSECT", "SELECT series, hour(time) AS h FROM nab WHERE value > 90 INTERSECT SELECT series, hour(time) FROM nab WHERE value < 5 ORDER BY series, h"},
		{"EXCEPT ALL", "SELECT series, count(*) AS n FROM (SELECT series FROM nab WHERE value > 50 EXCEPT ALL SELECT series FROM nab WHERE value > 80) GROUP BY series ORDER BY series"},
		{"INTERSECT ALL", "SELECT series, count(*) AS n FROM (SELECT series, round(value) AS v FROM nab WHERE value > 50 INTERSECT ALL SELECT series, round(value) FROM nab WHERE value < 60) GROUP BY series ORDER BY series"},
		{"UNION", "SELECT series FROM nab WHERE value > 99 UNION SELECT series FROM nab WHERE value < 0.01 ORDER BY series"},
		{"precedence", "SELECT series FROM nab WHERE value > 99 UNION SELECT series FROM nab WHERE value < 0.01 INTERSECT SELECT series FROM nab WHERE value > 98 " +
			"EXCEPT SELECT series FROM nab WHERE series LIKE '%cpu%' ORDER BY series"},
	})
}

// TestInteropJoinFullRight holds RIGHT, FULL and CROSS joins, ON and
// USING, against DuckDB's: the same text runs in both.
func TestInteropJoinFullRight(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	const hot = "(SELECT time, series, value FROM nab WHERE series LIKE 'nab/realAWSCloudwatch/%' AND value > 60)"
	const cold = "(SELECT time, series, value FROM nab WHERE series LIKE 'nab/realAWSCloudwatch/%' AND value < 0.5)"
	agreeEach(t, node, s, path, []sameText{
		{"FULL ON", "SELECT a.series AS sa, b.series AS sb, count(*) AS n, count(a.value) AS na, count(b.value) AS nb FROM " + hot + " AS a FULL JOIN " + cold +
			" AS b ON date_trunc('day', a.time) = date_trunc('day', b.time) AND a.series = b.series GROUP BY a.series, b.series ORDER BY sa, sb"},
		{"RIGHT USING", "SELECT series, count(*) AS n, count(a.value) AS na FROM " + hot + " AS a RIGHT JOIN " + cold + " AS b USING (series) GROUP BY series ORDER BY series"},
		{"comma", "SELECT a.series AS s, count(*) AS n FROM nab AS a, nab AS b WHERE a.time = b.time AND a.series < b.series AND a.series LIKE 'nab/realAWSCloudwatch/%' GROUP BY a.series ORDER BY s"},
		{"CROSS", "SELECT series, count(*) FILTER (WHERE value > 3 * m) AS spikes, round(max(value) / max(m), 6) AS r FROM nab CROSS JOIN (SELECT avg(value) AS m FROM nab) AS t GROUP BY series ORDER BY series"},
		{"FULL USING, WHERE on a side", "SELECT series, count(*) AS n FROM " + hot + " AS a FULL OUTER JOIN " + cold + " AS b USING (series) WHERE a.value IS NULL OR b.value IS NULL GROUP BY series ORDER BY series"},
	})
}

// TestInteropCondValues holds this stop's SQL forms against DuckDB's:
// conditions as bool values, ||, [NOT] BETWEEN over arithmetic,
// DECIMAL(p, s), ::date, dayname and monthname, position, and SELECT *
// over a grouped subquery.
func TestInteropCondValues(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	agreeEach(t, node, s, path, []sameText{
		{"bool group", "SELECT value > 50 AS hot, count(*) AS n, bool_and(value >= 0) AS nonneg, bool_or(value > 99) AS top FROM nab GROUP BY hot ORDER BY hot"},
		{"bool cast", "SELECT series, sum((value > 50)::int) AS hot, avg(CAST(value > 90 AS DOUBLE)) AS share FROM nab GROUP BY series ORDER BY series"},
		{"bool where", "SELECT series, count(*) AS n FROM nab WHERE coalesce(value > 50, false) AND NOT (value BETWEEN 60 AND 70) GROUP BY series ORDER BY series"},
		{"pipes", "SELECT series || '#' || hour(time) AS k, count(*) AS n FROM nab WHERE value * 2 NOT BETWEEN 1 AND 199 GROUP BY k ORDER BY n DESC, k LIMIT 20"},
		{"decimal", "SELECT series, avg(value)::DECIMAL(10, 2) AS a, CAST(max(value) AS NUMERIC(12, 3)) AS m FROM nab GROUP BY series ORDER BY series"},
		{"date", "SELECT strftime(time::date, '%Y-%m-%d') AS d, dayname(time) AS dn, monthname(time) AS mn, count(*) AS n FROM nab WHERE position('cpu' IN series) > 0 GROUP BY d, dn, mn ORDER BY d LIMIT 30"},
		{"star over grouped", "SELECT * FROM (SELECT series, max(value) AS top FROM nab GROUP BY series) WHERE top > 90 ORDER BY series"},
		{"pivot IN", "PIVOT nab ON hour(time) IN (0, 6, 12, 18) USING avg(value) GROUP BY series"},
		{"pivot condition", "PIVOT (SELECT * FROM nab WHERE series LIKE '%cpu%') ON value > 50 USING count(*), max(value) AS top GROUP BY series"},
		{"unpivot", "SELECT name, count(*) AS n, round(avg(value), 6) AS a FROM (UNPIVOT (SELECT series, time, value, value * 2 AS twice FROM nab) ON value, twice) GROUP BY name ORDER BY name"},
		{"values join", "SELECT l.kind, count(*) AS n, round(avg(value), 6) AS a FROM nab JOIN (VALUES ('nab/realAWSCloudwatch/ec2_cpu_utilization_24ae8d', 'web'), ('nab/realAWSCloudwatch/rds_cpu_utilization_cc0c53', 'db')) AS l(s, kind) ON nab.series = l.s GROUP BY l.kind ORDER BY l.kind"},
		{"pivot implicit group", "PIVOT (SELECT series, hour(time) AS h, value FROM nab) ON h IN (0, 12) USING max(value) ORDER BY ALL"},
		{"pivot values", "PIVOT (VALUES ('a', 1, 2.5), ('a', 2, 3.0), ('b', 1, 5.0)) AS t(k, y, v) ON y USING sum(v)"},
		{"values statement", "VALUES (1, 'a'), (2, 'b') ORDER BY 1 DESC"},
		{"pivot two terms", "PIVOT (SELECT * FROM nab WHERE series LIKE '%Cloudwatch%') ON value > 10, dayofweek(time) USING sum(value) GROUP BY series"},
	})
}

// TestInteropGenSeries holds generate_series and range against DuckDB's:
// an hourly grid LEFT JOINed to a series' hourly counts (0 for hours
// without a row), a calendar-month series, and a long integer series
// summed; the same text runs in both.
func TestInteropGenSeries(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	agreeEach(t, node, s, path, []sameText{
		{"an hourly grid", "SELECT g.h, coalesce(c.n, 0) AS n, c.top FROM (SELECT epoch_ms(generate_series) AS h FROM generate_series(TIMESTAMP '2014-02-14 10:00', TIMESTAMP '2014-02-16 10:00', INTERVAL 1 HOUR)) AS g " +
			"LEFT JOIN (SELECT epoch_ms(date_trunc('hour', time)) AS h, count(*) AS n, max(value) AS top FROM nab WHERE series = 'nab/realAWSCloudwatch/ec2_cpu_utilization_24ae8d' AND value > 0.2 GROUP BY h) AS c " +
			"ON g.h = c.h ORDER BY g.h"},
		{"calendar months", "SELECT epoch_ms(generate_series) AS t FROM generate_series(TIMESTAMP '2024-01-31 06:00', TIMESTAMP '2025-03-01', INTERVAL 1 MONTH) ORDER BY t"},
		{"range down by days", "SELECT epoch_ms(range) AS t FROM range(TIMESTAMP '2024-03-05', TIMESTAMP '2024-02-20', - INTERVAL 1 DAY) ORDER BY t DESC"},
		{"a long range", "SELECT range < 500000 AS low, count(*) AS n, sum(range) AS s, min(range) AS lo, max(range) AS hi FROM range(-50, 1000003, 7) GROUP BY low ORDER BY low"},
	})
}

// TestInteropFormat holds printf and format of NAB's columns against
// DuckDB's: text, floats by several directives, integers in hex and with
// thousands; the same text runs in both.
func TestInteropFormat(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	q := "SELECT printf('%-48s|%10.3f|%.2e|%5d|%g', series, value, value, CAST(value AS BIGINT), value) AS p, " +
		"format('{:<10}|{:,.1f}|{:g}|{:#x}|{:>+9.2f}|{}', left(series, 8), value * 1000, value, CAST(value * 100 AS BIGINT), value, value) AS f " +
		"FROM nab WHERE series LIKE 'nab/realKnownCause/%' ORDER BY series, time LIMIT 5000"
	agreeWithDuckDB(t, node, s, path, "printf and format", q, q)
}

// TestInteropTimeBucket holds time_bucket against DuckDB's where its
// buckets do not divide a day: weeks, 7 hours, 5 days, 7 months, an
// offset, an origin and a calendar offset; the same text runs in both.
func TestInteropTimeBucket(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	for _, b := range []string{"INTERVAL '1 week', time", "INTERVAL '7 hours', time", "INTERVAL '5 days', time", "INTERVAL '7 months', time",
		"INTERVAL '90 minutes', time, INTERVAL '20 minutes'", "INTERVAL '13 hours', time, TIMESTAMP '2014-03-01 05:00:00'", "INTERVAL '2 months', time, INTERVAL '1 month'"} {
		q := "SELECT epoch_ms(time_bucket(" + b + ")) AS b, count(*) AS n, max(value) AS top FROM nab " +
			"WHERE series LIKE 'nab/realKnownCause/%' GROUP BY b ORDER BY b"
		agreeWithDuckDB(t, node, s, path, "time_bucket("+b+")", q, q)
	}
}

// TestInteropSimilarTo holds SIMILAR TO and ILIKE against DuckDB's; the
// same text runs in both.
func TestInteropSimilarTo(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	q := "SELECT series, count(*) FILTER (WHERE series SIMILAR TO '.*(cpu|CPU)_[a-z]+.*') AS cpu, " +
		"count(*) FILTER (WHERE series NOT SIMILAR TO 'nab/real[A-Z][a-z]+/.*') AS other, count(*) FILTER (WHERE series ILIKE '%TAXI%') AS taxi " +
		"FROM nab GROUP BY series ORDER BY series"
	agreeWithDuckDB(t, node, s, path, "SIMILAR TO and ILIKE", q, q)
}

// TestInteropOrderedFirst holds first(x ORDER BY k) and last(x ORDER BY
// k) against DuckDB's: by time, and by the value (whose extremes are the
// same whichever of tied rows is taken); the same text runs in both.
func TestInteropOrderedFirst(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	q := "SELECT series, first(value ORDER BY time) AS a, last(value ORDER BY time) AS b, first(value ORDER BY time DESC) AS c, " +
		"first(value ORDER BY value DESC) AS d, last(value ORDER BY value DESC) AS e FROM nab GROUP BY series ORDER BY series"
	agreeWithDuckDB(t, node, s, path, "first and last ORDER BY", q, q)
}

// TestInteropSampleRows holds USING SAMPLE n ROWS against DuckDB's
// reservoir sample where the two must agree whatever rows are drawn:
// exactly n rows per source (all when there are fewer), each a row of
// the source; the same text runs in both.
func TestInteropSampleRows(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	q := "SELECT 'a' AS c, count(*) AS n, count(DISTINCT series) <= 50 AS ok FROM (SELECT * FROM nab USING SAMPLE 50 ROWS) " +
		"UNION ALL SELECT 'b', count(*), min(series) = max(series) FROM (SELECT * FROM (SELECT * FROM nab WHERE series LIKE '%ec2_cpu_utilization_24ae8d') USING SAMPLE 1000000 ROWS) " +
		"UNION ALL SELECT 'c', count(*), min(value) >= 0.5 FROM (SELECT * FROM (SELECT * FROM nab WHERE value >= 0.5) USING SAMPLE 300) " +
		"UNION ALL SELECT 'd', count(*), true FROM (SELECT * FROM nab USING SAMPLE reservoir(7 ROWS) REPEATABLE (3)) ORDER BY c"
	agreeWithDuckDB(t, node, s, path, "USING SAMPLE n ROWS", q, q)
}

// TestInteropColumnsExpr holds COLUMNS(...) as an operand against
// DuckDB's: aggregates of the columns a pattern selects beside a grouped
// column, arithmetic on them, and one AS name for all; the same text
// runs in both.
func TestInteropColumnsExpr(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	agreeEach(t, node, s, path, []sameText{
		{"aggregates by series", "SELECT series, max(COLUMNS('^val')), count(*) AS n, avg(COLUMNS('lue$')) FROM nab GROUP BY series ORDER BY series"},
		{"arithmetic", "SELECT series, round(COLUMNS('^value$') * 100, 3) FROM nab WHERE series LIKE '%24ae8d' ORDER BY time LIMIT 200"},
		{"one name for all", "SELECT series, epoch_ms(min(COLUMNS('^time$'))) AS lo, min(COLUMNS('^value$')) AS lo FROM nab WHERE value > 0.5 GROUP BY series ORDER BY series"},
	})
}

// TestInteropRowValueIn holds row values against DuckDB's: (x, y) IN a
// subquery (each series' latest sample), NOT IN one (all but each
// series' peaks), NOT IN written rows, IN as a value, and NOT IN in a
// FILTER written without WHERE; the same text runs in both. Rows with
// NULL parts are left out: DuckDB compares rows as structs, a NULL part
// equal to a NULL and unequal to a value, where tsq keeps SQL's rule
// (query.TestRowValueIn).
func TestInteropRowValueIn(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	agreeEach(t, node, s, path, []sameText{
		{"each series' latest", "SELECT series, epoch_ms(time) AS t, value FROM nab WHERE (series, time) IN (SELECT series, max(time) FROM nab GROUP BY series) ORDER BY series"},
		{"all but the peaks", "SELECT series, count(*) AS n FROM nab WHERE (series, value) NOT IN (SELECT series, max(value) FROM nab GROUP BY series) GROUP BY series ORDER BY series"},
		{"written rows", "SELECT series, count(*) AS n FROM nab WHERE (hour(time), round(value)) NOT IN ((14, 0), (3, 0), (3, 1)) GROUP BY series ORDER BY series"},
		{"as a value", "SELECT (hour(time), minute(time)) IN ((14, 25), (3, 0)) AS hit, count(*) AS n FROM nab GROUP BY hit ORDER BY hit NULLS LAST"},
		{"in a FILTER without WHERE", "SELECT series, count(*) FILTER ((hour(time), minute(time)) NOT IN ((14, 25), (3, 0))) AS n FROM nab GROUP BY series ORDER BY series"},
	})
}

// TestInteropQuantified holds x op ANY|SOME|ALL (SELECT ...) against
// DuckDB's: every comparison over a set of values, one with a NULL, an
// empty one, as a value and in HAVING; the same text runs in both.
func TestInteropQuantified(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	one := "(SELECT value FROM nab WHERE series LIKE '%24ae8d' AND hour(time) = 3)"
	withNull := "(SELECT CASE WHEN value > 0.2 THEN NULL ELSE value END FROM nab WHERE series LIKE '%24ae8d')"
	none := "(SELECT value FROM nab WHERE value < -1)"
	var items []string
	for i, set := range []string{one, withNull, none} {
		for j, c := range []string{"> ALL", ">= ALL", "< ALL", "<= ANY", "> SOME", "= ALL", "!= ANY", "= ANY", "!= ALL"} {
			items = append(items, fmt.Sprintf("count(*) FILTER (WHERE value %s %s) AS c%d_%d", c, set, i, j))
		}
	}
	agreeEach(t, node, s, path, []sameText{
		{"counts per series", "SELECT series, " + strings.Join(items, ", ") + " FROM nab GROUP BY series ORDER BY series"},
		{"as a value", "SELECT value >= ALL " + withNull + " AS v, value > ANY " + withNull + " AS w, count(*) AS n FROM nab WHERE series LIKE '%24ae8d' GROUP BY v, w ORDER BY v NULLS LAST, w NULLS LAST"},
		{"in HAVING", "SELECT series, avg(value) AS m FROM nab GROUP BY series HAVING avg(value) > ANY (SELECT avg(value) FROM nab GROUP BY series) ORDER BY series"},
	})
}

// TestInteropFromFirst holds FROM-first statements against DuckDB's: a
// source alone, with SELECT after it, and in a subquery; the same text
// runs in both.
func TestInteropFromFirst(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	// DuckDB's SELECT * gives times as text: its side names them.
	agreeWithDuckDB(t, node, s, path, "a source alone", "FROM nab WHERE value > 90 ORDER BY series, time LIMIT 50",
		"SELECT seq, epoch_ms(time), series, key, op, value FROM nab WHERE value > 90 ORDER BY series, time LIMIT 50")
	agreeEach(t, node, s, path, []sameText{
		{"SELECT after", "FROM nab SELECT series, count(*) AS n, max(value) AS hi WHERE value > 1 GROUP BY series ORDER BY series"},
		{"in a subquery", "SELECT h, count(*) AS n, round(avg(value), 6) AS m FROM (FROM nab SELECT hour(time) AS h, value WHERE value > 50) GROUP BY h ORDER BY h"},
	})
}

// TestInteropLimitPercent holds LIMIT p% (and p PERCENT, with OFFSET,
// over ORDER BY, GROUP BY, a union and in a subquery) against DuckDB's:
// the same text runs in both.
func TestInteropLimitPercent(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	agreeEach(t, node, s, path, []sameText{
		{"top 0.01% by value", "SELECT series, epoch_ms(time) AS t, value FROM nab ORDER BY value DESC, series, t LIMIT 0.01%"},
		{"PERCENT, OFFSET", "SELECT series, epoch_ms(time) AS t, value FROM nab WHERE value > 90 ORDER BY value, series, t LIMIT 2.5 PERCENT OFFSET 3"},
		{"groups", "SELECT series, count(*) AS n FROM nab GROUP BY series ORDER BY n DESC, series LIMIT 33%"},
		{"a union", "SELECT series FROM nab WHERE value > 99 UNION SELECT series FROM nab WHERE value < 0.01 ORDER BY series LIMIT 60%"},
		{"in a subquery", "SELECT series, count(*) AS n, max(value) AS hi FROM (SELECT series, time, value FROM nab ORDER BY value, series, time LIMIT 50%) GROUP BY series ORDER BY series"},
		{"0% and 100%", "SELECT 'none' AS k, count(*) AS n FROM (SELECT * FROM nab LIMIT 0%) UNION ALL SELECT 'every', count(*) FROM (SELECT * FROM nab LIMIT 100%) ORDER BY k"},
	})
}
