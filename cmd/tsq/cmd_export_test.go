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

// TestExportStdout writes each format to standard output (for a pipe)
// with --format, and byte for byte as the file export writes it for the
// formats without a timestamp in them; --format also overrides a file's
// extension.
func TestExportStdout(t *testing.T) {
	store := demoStore(t)
	out := t.TempDir()
	const q = "SELECT * FROM cpu WHERE time < '2014-02-15T00:00:00Z'"
	for _, f := range []string{"arrow", "arrows", "parquet", "csv", "jsonl"} {
		r := runTSQ(t, "", "--store", store, "export", "-c", q, "--format", f, "-")
		if r.code != 0 || r.stderr != "" || len(r.stdout) == 0 {
			t.Fatalf("%s: code %d, stderr %q, %d bytes", f, r.code, r.stderr, len(r.stdout))
		}
		p := filepath.Join(out, "cpu.dat")
		if r := runTSQ(t, "", "--store", store, "export", "-c", q, "--format", f, p); r.code != 0 {
			t.Fatalf("%s to a file: %+v", f, r)
		}
		file, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if string(file) != r.stdout {
			t.Errorf("%s: standard output (%d bytes) differs from the file (%d bytes)", f, len(r.stdout), len(file))
		}
	}
	for _, c := range []struct{ args, err string }{
		{"-", "writing to standard output (-) needs --format"},
		{"--format xml -", `unknown format "xml"`},
		{"--partitioned -", "--partitioned writes Parquet files into a directory"},
		{"--partitioned --format csv " + out, "--partitioned writes Parquet files into a directory"},
	} {
		r := runTSQ(t, "", append([]string{"--store", store, "export", "-c", q}, strings.Fields(c.args)...)...)
		if r.code == 0 || r.stdout != "" || !strings.Contains(r.stderr, c.err) {
			t.Errorf("%s: %+v", c.args, r)
		}
	}
}
