package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBackupCommand backs up the demo store: the backup answers every
// query as the store does and verifies clean; a backup to a directory
// that exists, or without one, fails with one line; --stream and the
// shell's .backup copy the streams named.
func TestBackupCommand(t *testing.T) {
	store := demoStore(t)
	dir := t.TempDir()
	bak := filepath.Join(dir, "bak")
	r := runTSQ(t, "", "--store", store, "backup", bak)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "backed up 2 streams (") || !strings.Contains(r.stdout, "to "+bak) {
		t.Fatalf("backup: %+v", r)
	}
	q := "SHOW STREAMS; SELECT series, count(*), min(value), max(value), last(value) FROM cpu GROUP BY series ORDER BY series; SELECT count(*) FROM fold(osm)"
	want := runTSQ(t, "", "--store", store, "query", "--mode", "csv", "-c", q)
	got := runTSQ(t, "", "--store", bak, "query", "--mode", "csv", "-c", q)
	if want.code != 0 || got.stdout != want.stdout || !strings.Contains(got.stdout, "cpu,16128") {
		t.Fatalf("the backup answers\n%s\nthe store\n%s", got.stdout, want.stdout)
	}
	if r := runTSQ(t, "", "--store", bak, "verify"); r.code != 0 || !strings.HasSuffix(r.stdout, "no problems\n") {
		t.Fatalf("verify the backup: %+v", r)
	}
	for _, args := range [][]string{{"backup", bak}, {"backup"}, {"backup", "--stream", "nope", filepath.Join(dir, "x")}} {
		r := runTSQ(t, "", append([]string{"--store", store}, args...)...)
		if r.code == 0 || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: %+v", args, r)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
		t.Fatal("a failed backup left its directory")
	}
	one := filepath.Join(dir, "one")
	if r := runTSQ(t, "", "--store", store, "backup", "--stream", "osm", one); r.code != 0 || !strings.HasPrefix(r.stdout, "backed up 1 stream (") {
		t.Fatalf("backup --stream osm: %+v", r)
	}
	if r := runTSQ(t, "", "--store", one, "query", "--mode", "csv", "-c", "SHOW STREAMS"); r.stdout != "stream,rows\nosm,985\n" {
		t.Fatalf("backup --stream osm holds %+v", r)
	}
	shell := filepath.Join(dir, "from shell")
	r = runTSQ(t, ".backup '"+shell+"' cpu\n", "--store", store)
	if r.code != 0 || !strings.Contains(r.stdout, "backed up 1 stream (") {
		t.Fatalf(".backup: %+v", r)
	}
	if r := runTSQ(t, "", "--store", shell, "query", "--mode", "csv", "-c", "SHOW STREAMS"); r.stdout != "stream,rows\ncpu,16128\n" {
		t.Fatalf(".backup holds %+v", r)
	}
}
