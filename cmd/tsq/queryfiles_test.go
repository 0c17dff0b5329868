package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQueryFiles: the shell reads a file named in FROM as tsq import
// reads it (CSV, and Parquet that COPY wrote), joins it to a stream,
// INSERT ... SELECT takes its rows, and the temporary stores are gone
// after each statement; a missing file is an error at its name.
func TestQueryFiles(t *testing.T) {
	dir := demoStore(t)
	files := t.TempDir()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	csv := filepath.Join(files, "hosts.csv")
	if err := os.WriteFile(csv, []byte("time,host,v\n2024-01-01T00:00:00Z,a,1\n2024-01-01T00:01:00Z,b,2.5\n2024-01-01T00:02:00Z,a,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pq := filepath.Join(files, "cpu.parquet")
	script := "SELECT host, count(*), avg(v) FROM '" + csv + "' GROUP BY host ORDER BY host;\n" +
		"COPY (SELECT time, series, value FROM cpu) TO '" + pq + "';\n" +
		"SELECT count(*), round(sum(value), 3) FROM read_parquet('" + pq + "');\n" +
		"SELECT count(*), round(sum(value), 3) FROM cpu;\n" +
		"SELECT count(*) FROM cpu AS c JOIN '" + pq + "' AS p USING (series, time) WHERE c.value = p.value;\n"
	r := runTSQ(t, script, "--store", dir, "--mode", "csv")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	parts := strings.Split(r.stdout, "count(*),\"round(sum(value), 3)\"\n")
	if !strings.Contains(r.stdout, "host,count(*),avg(v)\na,2,2.5\nb,1,2.5\n") || len(parts) != 3 || strings.Split(parts[1], "\n")[0] != strings.Split(parts[2], "\n")[0] ||
		!strings.Contains(r.stdout, "count(*)\n16128\n") {
		t.Fatalf("output:\n%s", r.stdout)
	}
	// INSERT ... SELECT from a file, into a store of its own.
	own := filepath.Join(files, "store")
	r = runTSQ(t, "INSERT INTO h SELECT time, host AS series, v FROM '"+csv+"';\nSELECT series, v FROM h ORDER BY time;\n", "--store", own, "--mode", "csv")
	if r.code != 0 || !strings.Contains(r.stdout, "series,v\na,1\nb,2.5\na,4\n") {
		t.Fatalf("INSERT ... SELECT: %+v", r)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "tsq-file-*")); len(left) != 0 {
		t.Fatalf("temporary stores left: %v", left)
	}
	r = runTSQ(t, "SELECT * FROM '"+filepath.Join(files, "none.csv")+"';\n", "--store", dir)
	if r.code == 0 || !strings.Contains(r.stderr, "no such file or directory") || !strings.Contains(r.stderr, "^") {
		t.Fatalf("missing file: %+v", r)
	}
}
