package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExportCommand(t *testing.T) {
	store := demoStore(t)
	out := t.TempDir()
	for _, ext := range []string{"arrow", "arrows", "parquet", "csv", "jsonl"} {
		p := filepath.Join(out, "cpu."+ext)
		r := runTSQ(t, "", "--store", store, "export", "-c", "SELECT * FROM cpu WHERE time < '2014-02-15T00:00:00Z'", p)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "exported 457 rows") {
			t.Fatalf("%s: %+v", ext, r)
		}
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Fatalf("%s: %v", p, err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(out, "cpu.csv"))
	if lines := strings.Count(string(b), "\n"); lines != 458 || !strings.HasPrefix(string(b), "seq,time,series,key,op,value\n") {
		t.Fatalf("csv: %d lines, starts %q", lines, string(b[:60]))
	}

	r := runTSQ(t, "", "--store", store, "export", "-c", "SELECT * FROM cpu LIMIT 1", filepath.Join(out, "one.csv"))
	if r.code != 0 || !strings.HasPrefix(r.stdout, "exported 1 row (") {
		t.Fatalf("one row: %+v", r)
	}

	dir := filepath.Join(out, "ds")
	r = runTSQ(t, "", "--store", store, "export", "--partitioned", "-c", "SELECT * FROM cpu", dir)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "exported 16128 rows") {
		t.Fatalf("partitioned: %+v", r)
	}
	parts, _ := filepath.Glob(filepath.Join(dir, "stream=cpu", "date=2014-02-1*", "part-*.parquet"))
	if len(parts) < 5 {
		t.Fatalf("partitions: %v", parts)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "-c", "SELECT * FROM cpu", filepath.Join(out, "x.xlsx")}, "tsq: export: "},
		{[]string{"export", "-c", "SELECT * FROM nope", filepath.Join(out, "x.csv")}, "tsq: query: "},
		{[]string{"export", "-c", "SELECT * FROM cpu", filepath.Join(out, "no", "such", "dir", "x.csv")}, "tsq: "},
	} {
		r := runTSQ(t, "", append([]string{"--store", store}, c.args...)...)
		if r.code != 1 || !strings.HasPrefix(r.stderr, c.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: %+v", c.args, r)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "x.csv")); err == nil {
		t.Error("a failed export left a file")
	}
}
