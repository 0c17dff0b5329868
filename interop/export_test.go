package interop_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq/export"
	_ "github.com/tsqdb/tsq/export/parquet"
)

// nabSource returns the NAB samples and a function giving a fresh reader
// of them: the result of `SELECT * FROM nab` on a tsq store holding them.
// With TSQ_INTEROP_SOURCE=csv the reader is built from the CSV directly
// (no store, no query engine) to tell export bugs from query bugs.
func nabSource(t *testing.T) ([]sample, func() array.RecordReader) {
	if os.Getenv("TSQ_INTEROP_SOURCE") == "csv" {
		samples, _ := loadNAB(t)
		return samples, func() array.RecordReader { return csvReader(t, samples, 8192) }
	}
	samples, s := nabShared(t)
	return samples, func() array.RecordReader { return storeQuery(t, s, "SELECT * FROM nab") }
}

func fieldTypes(fs []field) map[string]string {
	m := map[string]string{}
	for _, f := range fs {
		m[f.Name] = f.Type
	}
	return m
}

func TestInteropArrowIPC(t *testing.T) {
	node := requireNode(t)
	samples, src := nabSource(t)
	want := goAggregates(samples)
	dir := t.TempDir()
	for _, c := range []struct {
		name, format string
		series       string // apache-arrow's name of the series type
	}{
		{"nab.arrow", "file", "Utf8"},
		{"nab.arrows", "stream", "Dictionary<Int32, Utf8>"},
	} {
		path := filepath.Join(dir, c.name)
		rr := src()
		st, err := export.WriteFile(context.Background(), path, 0, rr, nil)
		rr.Release()
		if err != nil {
			t.Fatal(err)
		}
		var got report
		runNode(t, node, &got, "read_arrow.mjs", path)
		if got.Format != c.format || got.Rows != int64(len(samples)) || st.Rows != got.Rows {
			t.Fatalf("%s: apache-arrow read a %s of %d rows; want a %s of %d", c.name, got.Format, got.Rows, c.format, len(samples))
		}
		types := fieldTypes(got.Schema)
		wantTypes := map[string]string{
			"seq": "Uint64", "time": "Timestamp<NANOSECOND, UTC>", "series": c.series,
			"key": "Utf8", "op": strings.Replace(c.series, "Int32", "Int8", 1), "value": "Float64",
		}
		for k, v := range wantTypes {
			if types[k] != v {
				t.Errorf("%s: apache-arrow type of %s is %q, want %q", c.name, k, types[k], v)
			}
		}
		if len(got.Schema) != len(wantTypes) || got.Schema[2].Name != "series" {
			t.Errorf("%s: schema %+v", c.name, got.Schema)
		}
		compareAggregates(t, "apache-arrow "+c.name, got.Series, want)
	}
}

func TestInteropParquet(t *testing.T) {
	node := requireNode(t)
	samples, src := nabSource(t)
	path := filepath.Join(t.TempDir(), "nab.parquet")
	rr := src()
	defer rr.Release()
	if _, err := export.WriteFile(context.Background(), path, 0, rr, &export.Options{RowGroupRows: 50000}); err != nil {
		t.Fatal(err)
	}
	var got report
	runNode(t, node, &got, "read_parquet.mjs", path)
	if got.Rows != int64(len(samples)) {
		t.Fatalf("DuckDB read %d rows, want %d", got.Rows, len(samples))
	}
	checkDuckTypes(t, got.Schema, nil)
	compareAggregates(t, "duckdb", got.Series, goAggregates(samples))
}

// checkDuckTypes checks DuckDB's column types for the export schema plus extra.
func checkDuckTypes(t *testing.T, schema []field, extra map[string]string) {
	t.Helper()
	want := map[string]string{
		"seq": "UBIGINT", "time": "TIMESTAMP WITH TIME ZONE", "series": "VARCHAR",
		"key": "VARCHAR", "op": "VARCHAR", "value": "DOUBLE",
	}
	for k, v := range extra {
		want[k] = v
	}
	types := fieldTypes(schema)
	if len(types) != len(want) {
		t.Errorf("DuckDB schema %+v, want %v", schema, want)
	}
	for k, v := range want {
		if types[k] != v {
			t.Errorf("DuckDB type of %s is %q, want %q", k, types[k], v)
		}
	}
}

func TestInteropPartitioned(t *testing.T) {
	node := requireNode(t)
	samples, src := nabSource(t)
	if os.Getenv("TSQ_INTEROP_SOURCE") != "csv" {
		// In time order each date gets one file (the CSV is series-major,
		// which gives one file per series and date: slower, same check).
		_, s := nabShared(t)
		src = func() array.RecordReader { return storeQuery(t, s, "SELECT * FROM nab ORDER BY time") }
	}
	dir := t.TempDir()
	rr := src()
	defer rr.Release()
	start := time.Now()
	st, err := export.WritePartitioned(context.Background(), dir, "nab", rr, &export.Options{MaxOpenFiles: 4})
	t.Logf("partitioned export: %v", time.Since(start))
	if err != nil {
		t.Fatal(err)
	}
	var got report
	runNode(t, node, &got, "read_parquet.mjs", dir, "--partitioned")
	if got.Rows != int64(len(samples)) || st.Rows != got.Rows {
		t.Fatalf("DuckDB read %d rows, exported %d, want %d", got.Rows, st.Rows, len(samples))
	}
	checkDuckTypes(t, got.Schema, map[string]string{"stream": "VARCHAR", "date": "DATE"})
	compareAggregates(t, "duckdb partitioned", got.Series, goAggregates(samples))
	byDate := map[string]int64{}
	for _, s := range samples {
		byDate["nab/"+time.UnixMilli(s.ms).UTC().Format(time.DateOnly)]++
	}
	if len(got.Partitions) != len(byDate) {
		t.Fatalf("DuckDB saw %d partitions, want %d", len(got.Partitions), len(byDate))
	}
	for k, n := range byDate {
		p := got.Partitions[k]
		if p.Rows != n || !p.DatesMatch {
			t.Errorf("partition %s: DuckDB %+v, want %d rows all of that date", k, p, n)
		}
	}
	t.Logf("%d rows in %d files, %d dates", st.Rows, st.Files, len(byDate))
}

func TestMain(m *testing.M) {
	// Node scripts are run from this directory.
	if _, err := os.Stat("read_arrow.mjs"); err != nil {
		panic("interop tests must run in the interop directory")
	}
	code := m.Run()
	closeShared()
	os.Exit(code)
}
