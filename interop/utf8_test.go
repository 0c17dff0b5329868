package interop_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/export"
)

// TestInteropInvalidUTF8: a store holding text that is not UTF-8
// (series, key and a string field; a Latin-1 CSV import, its header
// naming a column) exports Parquet, CSV, JSON lines and Arrow IPC that
// DuckDB and apache-arrow read, with each run of invalid bytes as U+FFFD;
// DuckDB refuses a whole Parquet file for one invalid string or column
// name, which tsq wrote before.
func TestInteropInvalidUTF8(t *testing.T) {
	node := requireNode(t)
	dir := t.TempDir()
	s, err := tsq.Open(filepath.Join(dir, "store"), &tsq.Options{Sync: tsq.SyncNever})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	series := []string{"caf\xe9", "na\xefve\xff", "ok", "gr\u00fc\u00dfe"}
	want := map[string]int64{"caf\uFFFD": 10, "na\uFFFDve\uFFFD": 10, "ok": 10, "gr\u00fc\u00dfe": 10} // rows of each, as read
	var recs []tsq.Record
	for i := range 40 {
		ser := series[i%len(series)]
		recs = append(recs, tsq.Record{Time: base + int64(i)*1e9, Series: ser, Key: fmt.Sprintf("k\xe9%d", i),
			Fields: []tsq.Field{{Name: "value", Value: tsq.Float(float64(i))}, {Name: "note", Value: tsq.Str("r\xe9sum\xe9 \x80")}}})
	}
	if _, err := s.Append(ctx, "latin1", recs...); err != nil {
		t.Fatal(err)
	}
	// A Latin-1 CSV: its header names a column "caf\xe9".
	o := &tsq.ImportOptions{}
	if err := o.Mapping.Set("time=ts"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Import(ctx, "latin1csv", strings.NewReader("ts,caf\xe9,v\n1000,cr\xe8me,1\n2000,x,2\n"), o); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "csv.parquet")
	rr := storeQuery(t, s, "SELECT * FROM latin1csv")
	if _, err := export.WriteFile(ctx, path, 0, rr, nil); err != nil {
		t.Fatal(err)
	}
	rr.Release()
	var got report
	runNode(t, node, &got, "read_parquet.mjs", path)
	if got.Rows != 2 || fieldTypes(got.Schema)["caf\uFFFD"] != "VARCHAR" {
		t.Fatalf("imported Latin-1 CSV: DuckDB read %d rows, schema %v", got.Rows, got.Schema)
	}

	for _, c := range []struct{ name, script, flag string }{
		{"l.parquet", "read_parquet.mjs", ""},
		{"l.csv", "read_parquet.mjs", "--csv"},
		{"l.jsonl", "read_parquet.mjs", "--jsonl"},
		{"l.arrow", "read_arrow.mjs", ""},
		{"l.arrows", "read_arrow.mjs", ""},
	} {
		path := filepath.Join(dir, c.name)
		rr := storeQuery(t, s, "SELECT * FROM latin1")
		_, err := export.WriteFile(ctx, path, 0, rr, nil)
		rr.Release()
		if err != nil {
			t.Fatal(err)
		}
		args := []string{c.script, path}
		if c.flag != "" {
			args = append(args, c.flag)
		}
		var got report
		runNode(t, node, &got, args...)
		if got.Rows != 40 || len(got.Series) != len(want) {
			t.Fatalf("%s: %d rows, series %v", c.name, got.Rows, got.Series)
		}
		for name, n := range want {
			if got.Series[name].Count != n {
				t.Errorf("%s: series %q: %+v, want %d rows", c.name, name, got.Series[name], n)
			}
		}
	}
}
