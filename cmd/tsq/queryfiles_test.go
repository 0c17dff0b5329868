package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsqdb/tsq/query"
)

// TestQueryFiles: the shell reads a file named in FROM as tsq import
// reads it (CSV, and Parquet that COPY wrote), joins it to a stream,
// INSERT ... SELECT takes its rows, and the temporary stores are gone
// when the session ends; a missing file is an error at its name.
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
	// A reader's named arguments map the file as tsq import's flags do:
	// its time, series, key and op; fold gives its current state.
	ev := filepath.Join(files, "ev.jsonl")
	if err := os.WriteFile(ev, []byte(`{"ts_ms":1700000000000,"type":"node","id":1,"action":"create","v":1}
{"ts_ms":1700000001000,"type":"node","id":1,"action":"modify","v":2}
{"ts_ms":1700000002000,"type":"way","id":7,"action":"create","v":5}
{"ts_ms":1700000003000,"type":"way","id":7,"action":"delete"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	args := "'" + ev + "', time = 'ts_ms', series = 'type', key = 'type,id', op = 'action'"
	r = runTSQ(t, "SELECT time, series, key, op, v FROM read_json("+args+") ORDER BY time;\nSELECT series, key, v FROM fold(read_json("+args+"));\n"+
		"SELECT count(*) AS n FROM read_json('"+ev+"', time_unit = 'xx');\n", "--store", dir, "--mode", "csv", "--continue")
	if !strings.Contains(r.stdout, "time,series,key,op,v\n2023-11-14T22:13:20Z,node,node/1,put,1\n2023-11-14T22:13:21Z,node,node/1,put,2\n2023-11-14T22:13:22Z,way,way/7,put,5\n2023-11-14T22:13:23Z,way,way/7,delete,\n") ||
		!strings.Contains(r.stdout, "series,key,v\nnode,node/1,2\n") || !strings.Contains(r.stderr, `time unit "xx": use s, ms, us or ns`) {
		t.Fatalf("named arguments: %+v", r)
	}
	r = runTSQ(t, "SELECT * FROM '"+filepath.Join(files, "none.csv")+"';\n", "--store", dir)
	if r.code == 0 || !strings.Contains(r.stderr, "no such file or directory") || !strings.Contains(r.stderr, "^") {
		t.Fatalf("missing file: %+v", r)
	}
}

// TestQueryFilesKept: a session reads a file once and queries it again
// from its temporary store, reads it again once it changes (COPY TO
// rewrites it here), keeps at most maxCachedFiles, and removes them all
// when it ends.
func TestQueryFilesKept(t *testing.T) {
	files := t.TempDir()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	csv := filepath.Join(files, "f.csv")
	if err := os.WriteFile(csv, []byte("time,v\n2024-01-01T00:00:00Z,1\n2024-01-01T00:01:00Z,2\n2024-01-01T00:02:00Z,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := "SELECT count(*) AS n FROM '" + csv + "';\n" +
		"SELECT sum(v) AS s FROM '" + csv + "';\n" +
		"COPY (SELECT * FROM (VALUES (1), (2), (3), (4), (5)) AS t(v)) TO '" + csv + "' (FORMAT csv);\n" +
		"SELECT count(*) AS n FROM '" + csv + "';\n"
	r := runTSQ(t, script, "--store", filepath.Join(files, "store"), "--mode", "csv")
	if r.code != 0 || !strings.Contains(r.stdout, "n\n3\n") || !strings.Contains(r.stdout, "s\n7\n") || !strings.Contains(r.stdout, "n\n5\n") {
		t.Fatalf("%+v", r)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "tsq-file-*")); len(left) != 0 {
		t.Fatalf("temporary stores left: %v", left)
	}

	// The cache itself: the same file is the same store until it changes.
	e := &env{getenv: func(string) string { return "" }}
	ctx := context.Background()
	a, err := e.files().take(ctx, e, query.File{Path: csv})
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.files().take(ctx, e, query.File{Path: csv})
	if err != nil || b != a {
		t.Fatalf("taken again: %p %p %v", a, b, err)
	}
	if err := os.WriteFile(csv, []byte("time,v\n2024-01-01T00:00:00Z,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := e.files().take(ctx, e, query.File{Path: csv})
	if err != nil || c == a {
		t.Fatalf("a changed file read again: %p %p %v", a, c, err)
	}
	if _, err := os.Stat(a.dir); err != nil {
		t.Fatalf("the store a statement still reads went: %v", err)
	}
	for _, x := range []*cachedFile{a, b} {
		if err := e.files().give(x); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(a.dir); !os.IsNotExist(err) {
		t.Fatalf("the stale store stays once given back: %v", err)
	}
	if err := e.files().give(c); err != nil {
		t.Fatal(err)
	}
	// More files than kept: the least recently used go.
	for i := range maxCachedFiles + 3 {
		p := filepath.Join(files, fmt.Sprintf("g%d.csv", i))
		if err := os.WriteFile(p, []byte("time,v\n2024-01-01T00:00:00Z,1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		x, err := e.files().take(ctx, e, query.File{Path: p})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.files().give(x); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(e.files().entries); n != maxCachedFiles {
		t.Fatalf("%d files kept, want %d", n, maxCachedFiles)
	}
	if _, ok := e.files().entries[query.FileStream(query.File{Path: csv})]; ok {
		t.Fatal("the least recently used file stays")
	}
	if err := e.fileCache.close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "tsq-file-*")); len(left) != 0 {
		t.Fatalf("temporary stores left after close: %v", left)
	}
}
