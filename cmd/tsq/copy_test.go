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
