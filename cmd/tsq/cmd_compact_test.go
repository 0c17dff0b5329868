package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCompactCommand compacts the demo store: the OpenStreetMap deletes
// physically remove the puts of the deleted elements.
func TestCompactCommand(t *testing.T) {
	store := filepath.Join(t.TempDir(), "s")
	if r := runTSQ(t, "", "--store", store, "demo", "--no-shell"); r.code != 0 {
		t.Fatalf("demo: %+v", r)
	}
	r := runTSQ(t, "", "--store", store, "compact", "osm")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "osm: watermark 0 -> 985; 1 segment examined, 1 rewritten,") || !strings.Contains(r.stdout, "rows dropped: 250 deleted") {
		t.Fatalf("compact: %+v", r)
	}
	r = runTSQ(t, "", "--store", store, "query", "--mode", "csv", "-c", "SELECT count(*) FROM osm; SELECT count(*) FROM fold(osm)")
	if r.stdout != "count(*)\n735\ncount(*)\n485\n" {
		t.Fatalf("after compaction: %+v", r)
	}
	if r := runTSQ(t, "", "--store", store, "verify"); r.code != 0 {
		t.Fatalf("verify after compaction: %+v", r)
	}
	if r := runTSQ(t, "", "--store", store, "compact", "nope"); r.code != 1 || strings.Count(r.stderr, "\n") != 1 {
		t.Fatalf("unknown stream: %+v", r)
	}
}
