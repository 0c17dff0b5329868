package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestRetentionCommand(t *testing.T) {
	store := filepath.Join(t.TempDir(), "s")
	src := writeEvents(t, 100, false)
	if r := runTSQ(t, "", "--store", store, "import", "--time", "ts", "--series", "acct", "--key", "id", "--op", "op", src); r.code != 0 {
		t.Fatalf("import: %+v", r)
	}
	r := runTSQ(t, "", "--store", store, "retention", "orders")
	if r.code != 0 || r.stdout != "orders: max age none, max count none, protected none\n" {
		t.Fatalf("show: %+v", r)
	}
	r = runTSQ(t, "", "--store", store, "retention", "orders", "--max-count", "30", "--protect", "status=open", "--apply")
	if r.code != 0 || !strings.Contains(r.stdout, "orders: max age none, max count 30, protected status=open\n") ||
		!strings.Contains(r.stdout, "soft-deleted 0 rows by age and ") {
		t.Fatalf("set and apply: %+v", r)
	}
	// The rule is persisted.
	if r := runTSQ(t, "", "--store", store, "retention", "orders"); !strings.Contains(r.stdout, "max count 30, protected status=open") {
		t.Fatalf("not persisted: %+v", r)
	}
	// Rows are gone from Count (stats).
	r = runTSQ(t, "", "--store", store, "stats")
	if strings.Contains(r.stdout, "orders  100 ") {
		t.Fatalf("retention removed nothing:\n%s", r.stdout)
	}
	for _, bad := range [][]string{{"retention", "orders", "--protect", "status"}, {"retention", "orders", "extra"}} {
		if r := runTSQ(t, "", append([]string{"--store", store}, bad...)...); r.code != 1 {
			t.Errorf("%v: %+v", bad, r)
		}
	}
}
