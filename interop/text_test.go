package interop_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tsqdb/tsq/export"
)

// TestInteropText has DuckDB read the CSV and JSON lines exports with its
// type auto-detection: RFC 3339 times come back as timestamps, values as
// doubles, and every per-series aggregate and time range matches.
func TestInteropText(t *testing.T) {
	node := requireNode(t)
	samples, src := nabSource(t)
	want := goAggregates(samples)
	dir := t.TempDir()
	for _, c := range []struct {
		name, flag, time string
	}{
		{"nab.csv", "--csv", "TIMESTAMP WITH TIME ZONE"},
		{"nab.jsonl", "--jsonl", "TIMESTAMP"}, // DuckDB reads "...Z" in JSON as a naive UTC timestamp
	} {
		path := filepath.Join(dir, c.name)
		rr := src()
		_, err := export.WriteFile(context.Background(), path, 0, rr, nil)
		rr.Release()
		if err != nil {
			t.Fatal(err)
		}
		var got report
		runNode(t, node, &got, "read_parquet.mjs", path, c.flag)
		if got.Rows != int64(len(samples)) {
			t.Fatalf("%s: DuckDB read %d rows, want %d", c.name, got.Rows, len(samples))
		}
		types := fieldTypes(got.Schema)
		if types["time"] != c.time || types["value"] != "DOUBLE" || types["series"] != "VARCHAR" || types["seq"] != "BIGINT" {
			t.Errorf("%s: DuckDB types %v", c.name, types)
		}
		compareAggregates(t, "duckdb "+c.name, got.Series, want)
	}
}

// TestInteropPadFuncs holds left, right, lpad, rpad, repeat, reverse,
// ltrim and rtrim against DuckDB's on the series names.
func TestInteropPadFuncs(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	const items = "left(series, 7) AS a, right(series, 5) AS b, left(series, -30) AS c, lpad(split_part(series, '/', 2), 16, '.') AS d, rpad(split_part(series, '/', 3), 8, 'xy') AS e, " +
		"repeat(split_part(series, '/', 2), 2) AS f, reverse(series) AS g, ltrim(concat('  ', series)) AS h, rtrim(concat(series, ' ')) AS i"
	agreeWithDuckDB(t, node, s, path, "padding and cutting text", "SELECT DISTINCT series, "+items+" FROM nab ORDER BY series", "SELECT DISTINCT series, "+items+" FROM nab ORDER BY series")
}
