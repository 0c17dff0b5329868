package interop_test

import "testing"

// TestInteropUnion holds tsq's UNION ALL against DuckDB's on tsq's
// Parquet export of the NAB samples: an integer column widened to a
// float by the other SELECT, a union ordered and cut as a whole, and a
// union aggregated as a subquery; and CASTs between floats, integers
// and text. Rows compare as in TestInteropJoin.
func TestInteropUnion(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	for _, c := range []struct{ name, tsq, duck string }{
		{"count(*) next to max(value): a float column",
			"SELECT series, count(*) AS n FROM nab WHERE value > 50 GROUP BY series UNION ALL SELECT series, max(value) FROM nab GROUP BY series",
			"SELECT series, count(*) AS n FROM nab WHERE value > 50 GROUP BY series UNION ALL SELECT series, max(value) FROM nab GROUP BY series"},
		{"two series ordered and cut as a whole",
			"SELECT epoch_ms(time) AS t, series, value FROM nab WHERE series = 'nab/realKnownCause/nyc_taxi' " +
				"UNION ALL SELECT epoch_ms(time), series, value FROM nab WHERE series = 'nab/realTraffic/speed_6005' ORDER BY value DESC, t LIMIT 25 OFFSET 5",
			"SELECT epoch_ms(time) AS t, series, value FROM nab WHERE series = 'nab/realKnownCause/nyc_taxi' " +
				"UNION ALL SELECT epoch_ms(time), series, value FROM nab WHERE series = 'nab/realTraffic/speed_6005' ORDER BY value DESC, t LIMIT 25 OFFSET 5"},
		{"a union aggregated as a subquery",
			"SELECT series, count(*) AS n, sum(value) AS s FROM (SELECT series, value FROM nab WHERE value < 1 UNION ALL SELECT series, value FROM nab WHERE value > 90) GROUP BY series",
			"SELECT series, count(*) AS n, sum(value) AS s FROM (SELECT series, value FROM nab WHERE value < 1 UNION ALL SELECT series, value FROM nab WHERE value > 90) GROUP BY series"},
		{"CAST: floats to integers (ties to even), integers to floats, numbers to text and back",
			"SELECT series, sum(CAST(value AS BIGINT)) AS i, sum(CAST(CAST(value * 1000 AS BIGINT) AS DOUBLE)) AS f, " +
				"count(*) FILTER (WHERE CAST(CAST(value AS VARCHAR) AS DOUBLE) = value) AS same FROM nab GROUP BY series",
			"SELECT series, sum(CAST(value AS BIGINT)) AS i, sum(CAST(CAST(value * 1000 AS BIGINT) AS DOUBLE)) AS f, " +
				"count(*) FILTER (WHERE CAST(CAST(value AS VARCHAR) AS DOUBLE) = value) AS same FROM nab GROUP BY series"},
	} {
		agreeWithDuckDB(t, node, s, path, c.name, c.tsq, c.duck)
	}
}
