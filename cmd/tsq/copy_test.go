package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCopy: COPY (SELECT ...) TO 'file' and COPY stream TO 'file' write
// the result as .export does, in FORMAT's format or the extension's; a
// COPY that cannot be read says what it wanted.
func TestCopy(t *testing.T) {
	dir := demoStore(t)
	files := t.TempDir()
	a, b := filepath.Join(files, "a.out"), filepath.Join(files, "b.csv")
	script := "COPY (SELECT series, count(*) AS n FROM cpu WHERE value > 60 GROUP BY series) TO '" + a + "' (FORMAT csv);\n" +
		"copy osm to '" + b + "';\n"
	r := runTSQ(t, script, "--store", dir)
	if r.code != 0 || r.stderr != "" || !strings.Contains(r.stdout, "exported 1 row") || !strings.Contains(r.stdout, "exported 985 rows") {
		t.Fatalf("%+v", r)
	}
	if got, err := os.ReadFile(a); err != nil || string(got) != "series,n\nnab/realAWSCloudwatch/ec2_cpu_utilization_5f5533,2\n" {
		t.Fatalf("%s: %q %v", a, got, err)
	}
	if got, err := os.ReadFile(b); err != nil || strings.Count(string(got), "\n") != 986 {
		t.Fatalf("%s: %d lines, %v", b, strings.Count(string(got), "\n"), err)
	}
	for _, c := range []struct{ stmt, err string }{
		{"COPY (SELECT 1 TO 'x.csv'", "no closing parenthesis"},
		{"COPY (SELECT 1) 'x.csv'", "expected TO 'file'"},
		{"COPY (SELECT 1) TO x.csv", "TO wants the file in single quotes"},
		{"COPY (SELECT 1) TO 'x.csv", "quote is not closed"},
		{"COPY (SELECT 1) TO 'x.csv' (HEADER false)", `option "HEADER false" is not supported`},
		{"COPY (SELECT 1) TO 'x.txt'", "x.txt"},
		{"COPY (SELECT nope FROM cpu) TO 'x.csv'", `unknown column "nope"`},
	} {
		r := runTSQ(t, c.stmt+";\n", "--store", dir)
		if r.code == 0 || !strings.Contains(r.stderr, c.err) {
			t.Errorf("%s: exit %d, stderr %q, want %q", c.stmt, r.code, r.stderr, c.err)
		}
	}
}

// TestCopyFrom: COPY stream FROM 'file' imports the file as .import does
// (format guessed, or FORMAT's), and the shell reads the rows at once; a
// COPY FROM that cannot run says why.
func TestCopyFrom(t *testing.T) {
	files := t.TempDir()
	dir := filepath.Join(files, "store") // its own: the shared demo store stays as it is
	csv := filepath.Join(files, "hosts.data")
	if err := os.WriteFile(csv, []byte("time,host,v\n2024-01-01T00:00:00Z,a,1\n2024-01-01T00:01:00Z,b,2.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runTSQ(t, "COPY hosts FROM '"+csv+"' (FORMAT csv);\nSELECT host, v FROM hosts ORDER BY time;\ncopy more from '"+csv+"';\nSELECT count(*) FROM more;\n", "--store", dir, "--mode", "csv")
	if r.code != 0 || !strings.Contains(r.stdout, "imported 2 rows") || !strings.Contains(r.stdout, "host,v\na,1\nb,2.5\n") || !strings.Contains(r.stdout, "count(*)\n2\n") {
		t.Fatalf("%+v", r)
	}
	for _, c := range []struct{ stmt, err string }{
		{"COPY x FROM nofile.csv", "FROM wants the file in single quotes"},
		{"COPY x FROM '" + filepath.Join(files, "none.csv") + "'", "COPY: stat"},
		{"COPY x FROM '" + csv + "' (FORMAT xml)", `unknown format "xml"`},
		{"COPY x FROM '" + csv + "' (HEADER false)", `COPY ... FROM: option "HEADER false" is not supported`},
	} {
		r := runTSQ(t, c.stmt+";\n", "--store", dir)
		if r.code == 0 || !strings.Contains(r.stderr, c.err) {
			t.Errorf("%s: exit %d, stderr %q, want %q", c.stmt, r.code, r.stderr, c.err)
		}
	}
}
