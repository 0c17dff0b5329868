package interop_test

import "testing"

// TestInteropPairFuncs holds greatest, least and nullif against
// DuckDB's: nulls skipped by greatest and least, an integer widened
// next to a float, text by bytes, and nullif's null where its
// arguments are equal.
func TestInteropPairFuncs(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	agreeWithDuckDB(t, node, s, path, "greatest, least and nullif, per series",
		"SELECT series, sum(greatest(value, 50, round(value * 2) / 3)) AS g, sum(least(value, 10)) AS l, count(nullif(round(value), 0)) AS n, "+
			"max(greatest(series, 'nab/realKnown')) AS gs, min(least(split_part(series, '/', 3), 'm')) AS ls, "+
			"sum(greatest(nullif(round(value), 1), 0)) AS gn, min(least(epoch_ms(time), 1400000000000)) AS lt FROM nab GROUP BY series ORDER BY series",
		"SELECT series, sum(greatest(value, 50, round(value * 2) / 3)) AS g, sum(least(value, 10)) AS l, count(nullif(round(value), 0)) AS n, "+
			"max(greatest(series, 'nab/realKnown')) AS gs, min(least(split_part(series, '/', 3), 'm')) AS ls, "+
			"sum(greatest(nullif(round(value), 1), 0)) AS gn, min(least(epoch_ms(time), 1400000000000)) AS lt FROM nab GROUP BY series ORDER BY series")
}

// TestInteropRegexp holds regexp_extract and regexp_replace (groups,
// \1 backreferences, the g and i flags) against DuckDB's.
func TestInteropRegexp(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	q := `SELECT series, regexp_extract(series, '/real([A-Za-z]+)/', 1) AS kind, regexp_extract(series, '[0-9]+', 0) AS digits, ` +
		`regexp_replace(series, '([a-z]+)_([0-9a-f]+)$', '\2-\1') AS swapped, regexp_replace(series, '[aeiou]', '', 'g') AS vowels, ` +
		`regexp_replace(series, 'NAB/REAL', 'x', 'i') AS ci, count(*) AS n FROM nab GROUP BY series ORDER BY series`
	agreeWithDuckDB(t, node, s, path, "regexp_extract and regexp_replace of each series", q, q)
}

// TestInteropMoreNumericFuncs holds trunc, sign, log2, cbrt, power,
// pow, ceiling and log (log10, as DuckDB has it) against DuckDB's.
func TestInteropMoreNumericFuncs(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	const items = "trunc(value / 3) AS a, sign(value - 20) AS b, log2(value + 1) AS c, cbrt(value - 50) AS d, power(value, 1.5) AS e, pow(value, 2) AS f, ceiling(value / 7) AS g, log(value + 1) AS h"
	agreeWithDuckDB(t, node, s, path, "more numeric functions",
		"SELECT series, epoch_ms(time) AS t, "+items+" FROM nab WHERE series LIKE 'nab/realTraffic/%' AND value >= 0 ORDER BY series, t",
		"SELECT series, epoch_ms(time) AS t, "+items+" FROM nab WHERE series LIKE 'nab/realTraffic/%' AND value >= 0 ORDER BY series, t")
}

// TestInteropNullLiteral holds NULL in arithmetic against DuckDB: CASE
// branches of numbers, text and times, coalesce, an operand, and
// aggregates of CASE ... THEN NULL.
func TestInteropNullLiteral(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	agreeWithDuckDB(t, node, s, path, "NULL in CASE, coalesce, arithmetic and aggregates",
		"SELECT series, count(CASE WHEN value > 50 THEN NULL ELSE 1 END) AS calm, avg(CASE WHEN value < 1 THEN NULL ELSE value END) AS a, "+
			"max(CASE WHEN value > 90 THEN NULL ELSE epoch_ms(time) END) AS t, min(coalesce(NULL, split_part(series, '/', 3))) AS n, sum(value + NULL) AS z FROM nab GROUP BY series ORDER BY series",
		"SELECT series, count(CASE WHEN value > 50 THEN NULL ELSE 1 END) AS calm, avg(CASE WHEN value < 1 THEN NULL ELSE value END) AS a, "+
			"max(CASE WHEN value > 90 THEN NULL ELSE epoch_ms(time) END) AS t, min(coalesce(NULL, split_part(series, '/', 3))) AS n, sum(value + NULL) AS z FROM nab GROUP BY series ORDER BY series")
}
