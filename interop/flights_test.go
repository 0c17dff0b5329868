package interop_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/tsqdb/tsq/export"
)

// readTable reads an Arrow IPC file or stream with arrow-go.
func readTable(t *testing.T, path string, stream bool) arrow.Table {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []arrow.RecordBatch
	var schema *arrow.Schema
	if stream {
		r, err := ipc.NewReader(bufio.NewReader(f))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		defer r.Release()
		schema = r.Schema()
		for r.Next() {
			rec := r.RecordBatch()
			rec.Retain()
			recs = append(recs, rec)
		}
		if err := r.Err(); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	} else {
		r, err := ipc.NewFileReader(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		defer r.Close()
		schema = r.Schema()
		for i := 0; i < r.NumRecords(); i++ {
			rec, err := r.RecordBatch(i)
			if err != nil {
				t.Fatalf("%s batch %d: %v", path, i, err)
			}
			rec.Retain()
			recs = append(recs, rec)
		}
	}
	tbl := array.NewTableFromRecords(schema, recs)
	for _, r := range recs {
		r.Release()
	}
	return tbl
}

func sameColumns(t *testing.T, who string, got, want arrow.Table) {
	t.Helper()
	if got.NumRows() != want.NumRows() || got.NumCols() != want.NumCols() {
		t.Fatalf("%s: %dx%d, want %dx%d", who, got.NumRows(), got.NumCols(), want.NumRows(), want.NumCols())
	}
	for i := 0; i < int(want.NumCols()); i++ {
		g, w := got.Column(i), want.Column(i)
		if g.Name() != w.Name() || !arrow.TypeEqual(g.DataType(), w.DataType()) || g.Field().Nullable != w.Field().Nullable {
			t.Fatalf("%s: column %d is %v, want %v", who, i, g.Field(), w.Field())
		}
		if !array.ChunkedApproxEqual(g.Data(), w.Data(), array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
			t.Fatalf("%s: column %s differs", who, w.Name())
		}
	}
}

// TestFlightsReexport reads a third-party Arrow file, re-exports it in every
// format and checks arrow-go, pqarrow, apache-arrow and DuckDB read the same.
func TestFlightsReexport(t *testing.T) {
	if _, err := os.Stat(sharedFlights); err != nil {
		t.Skipf("shared flights file not present: %v", err)
	}
	orig := readTable(t, sharedFlights, false)
	defer orig.Release()
	dir := t.TempDir()
	paths := map[export.Format]string{}
	for _, f := range []export.Format{export.ArrowFile, export.ArrowStream, export.Parquet, export.CSV, export.JSONL} {
		tr := array.NewTableReader(orig, 16384)
		paths[f] = filepath.Join(dir, "flights."+f.String())
		st, err := export.WriteFile(context.Background(), paths[f], f, tr, nil)
		tr.Release()
		if err != nil {
			t.Fatal(err)
		}
		if st.Rows != orig.NumRows() {
			t.Fatalf("%v: wrote %d rows, want %d", f, st.Rows, orig.NumRows())
		}
	}
	for _, f := range []export.Format{export.ArrowFile, export.ArrowStream} {
		got := readTable(t, paths[f], f == export.ArrowStream)
		sameColumns(t, "arrow-go "+f.String(), got, orig)
		got.Release()
	}
	pf, err := file.OpenParquetFile(paths[export.Parquet], false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 10000}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	ptbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer ptbl.Release()
	sameColumns(t, "pqarrow", ptbl, orig)
	for _, f := range []export.Format{export.CSV, export.JSONL} {
		lines := countLines(t, paths[f])
		want := orig.NumRows()
		if f == export.CSV {
			want++ // header
		}
		if lines != want {
			t.Fatalf("%v: %d lines, want %d", f, lines, want)
		}
	}

	node := requireNode(t)
	var src, re, re2 report
	runNode(t, node, &src, "read_arrow.mjs", sharedFlights)
	runNode(t, node, &re, "read_arrow.mjs", paths[export.ArrowFile])
	runNode(t, node, &re2, "read_arrow.mjs", paths[export.ArrowStream])
	for _, r := range []report{re, re2} {
		if r.Rows != src.Rows || len(r.Schema) != len(src.Schema) {
			t.Fatalf("apache-arrow: re-export %+v, source %+v", r, src)
		}
		for i := range src.Schema {
			if r.Schema[i].Type != src.Schema[i].Type || r.Schema[i].Name != src.Schema[i].Name {
				t.Fatalf("apache-arrow: re-export field %+v, source %+v", r.Schema[i], src.Schema[i])
			}
		}
	}
	var duck report
	runNode(t, node, &duck, "read_parquet.mjs", paths[export.Parquet])
	if duck.Rows != orig.NumRows() {
		t.Fatalf("DuckDB read %d rows of the flights Parquet, want %d", duck.Rows, orig.NumRows())
	}
	checkDuckFlights(t, duck.Schema)
}

func checkDuckFlights(t *testing.T, schema []field) {
	t.Helper()
	want := map[string]string{"delay": "SMALLINT", "distance": "SMALLINT", "time": "FLOAT"}
	got := fieldTypes(schema)
	if len(got) != len(want) {
		t.Fatalf("DuckDB flights schema %+v", schema)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("DuckDB type of %s is %q, want %q", k, got[k], v)
		}
	}
}

func countLines(t *testing.T, path string) int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var n int64
	for sc.Scan() {
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}
