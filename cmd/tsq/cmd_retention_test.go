package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	// Ages in days and weeks, as queries write them.
	if r := runTSQ(t, "", "--store", store, "retention", "orders", "--max-age", "1w2d"); r.code != 0 || !strings.Contains(r.stdout, "max age 9d, max count 30") {
		t.Fatalf("--max-age 1w2d: %+v", r)
	}
	for _, bad := range [][]string{{"retention", "orders", "--protect", "status"}, {"retention", "orders", "extra"},
		{"retention", "orders", "--max-age", "1y"}, {"retention", "orders", "--max-count", "-5"}} {
		if r := runTSQ(t, "", append([]string{"--store", store}, bad...)...); r.code != 1 {
			t.Errorf("%v: %+v", bad, r)
		}
	}
}

func TestParseAge(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"0": 0, "90d": 90 * 24 * time.Hour, "2w": 14 * 24 * time.Hour, "1w2d12h": 9*24*time.Hour + 12*time.Hour,
		"36h": 36 * time.Hour, "1.5d": 36 * time.Hour, "90m30s": 90*time.Minute + 30*time.Second, "250ms": 250 * time.Millisecond,
	} {
		if got, err := parseAge(in); err != nil || got != want {
			t.Errorf("%q: %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "d", "1y", "-1d", "1d-", "1.2.3h", "99999999w", "h1"} {
		if got, err := parseAge(bad); err == nil {
			t.Errorf("%q: %v, want an error", bad, got)
		}
	}
}
