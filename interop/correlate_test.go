package interop_test

import "testing"

// TestInteropCorrelated holds correlated subqueries against DuckDB's:
// each series' samples above its own mean, its samples equal to its
// latest one (ORDER BY ... LIMIT 1), per sample the count of hot samples
// of its series and day (0 where there are none), and the samples of
// days with (EXISTS) and without (NOT EXISTS) a hot sample; the same
// text runs in both.
func TestInteropCorrelated(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	for _, c := range []struct{ name, q string }{
		{"above the series' mean", "SELECT series, count(*) AS above FROM nab AS o WHERE value > (SELECT avg(value) FROM nab WHERE series = o.series) GROUP BY series ORDER BY series"},
		{"equal to the latest", "SELECT series, count(*) AS n, max(value) AS v FROM nab AS o WHERE value = (SELECT value FROM nab WHERE series = o.series ORDER BY time DESC LIMIT 1) GROUP BY series ORDER BY series"},
		{"hot samples of the series' day", "SELECT series, sum((SELECT count(*) FROM nab WHERE series = o.series AND date_trunc('day', time) = date_trunc('day', o.time) AND value > 90)) AS hot, " +
			"count(*) FILTER (WHERE (SELECT count(*) FROM nab WHERE series = o.series AND date_trunc('day', time) = date_trunc('day', o.time) AND value > 90) = 0) AS calm " +
			"FROM nab AS o WHERE series LIKE 'nab/realKnownCause/%' GROUP BY series ORDER BY series"},
		{"EXISTS", "SELECT series, count(*) AS n FROM nab AS o WHERE EXISTS (SELECT 1 FROM nab WHERE o.series = series AND date_trunc('day', time) = date_trunc('day', o.time) AND value > 95) GROUP BY series ORDER BY series"},
		{"NOT EXISTS", "SELECT o.series, count(*) AS n FROM nab AS o WHERE NOT EXISTS (SELECT 1 FROM nab AS i WHERE i.series = o.series AND date_trunc('day', i.time) = date_trunc('day', o.time) AND i.value > 95) GROUP BY o.series ORDER BY o.series"},
	} {
		agreeWithDuckDB(t, node, s, path, c.name, c.q, c.q)
	}
}
