package query

import (
	"fmt"
	"regexp"
	"slices"
	"testing"
)

// TestRandom: random() is a new float in [0, 1) at every row, also
// inside text, grouped, filtered and ordered queries (never computed
// once for a batch or a dictionary); uuid() and gen_random_uuid() are
// distinct version-4 UUIDs. Bounds are many standard deviations wide.
func TestRandom(t *testing.T) {
	src, rows := testSource(t, 2000, 64)
	open := openOnly(src)
	n := len(rows)
	got := mustRun(t, open, "SELECT count(*), count(DISTINCT r), avg(r), min(r), max(r) FROM (SELECT random() AS r FROM m)")
	if r := got[0]; r[0] != int64(n) || r[1] != int64(n) || r[2].(float64) < 0.45 || r[2].(float64) > 0.55 || r[3].(float64) < 0 || r[4].(float64) >= 1 {
		t.Errorf("random() over %d rows: count, distinct, mean, min, max %v", n, r)
	}
	kept := mustRun(t, open, "SELECT count(*) FROM m WHERE random() < 0.25")[0][0].(int64)
	if kept < int64(n)*15/100 || kept > int64(n)*35/100 {
		t.Errorf("WHERE random() < 0.25 kept %d of %d", kept, n)
	}
	for _, q := range []string{
		"SELECT count(DISTINCT x) FROM (SELECT series || random() AS x FROM m)", // not once per series
		"SELECT count(DISTINCT x) FROM (SELECT random() * 0 + random() AS x FROM m)",
		"SELECT count(DISTINCT u) FROM (SELECT uuid() AS u FROM m)",
	} {
		if got := mustRun(t, open, q); got[0][0] != int64(n) {
			t.Errorf("%s: %v, want %d", q, got, n)
		}
	}
	groups := mustRun(t, open, "SELECT series, random() AS r FROM m GROUP BY series")
	seen := map[any]bool{}
	for _, g := range groups {
		seen[g[1]] = true
	}
	if len(groups) < 3 || len(seen) != len(groups) {
		t.Errorf("random() of %d groups: %d values", len(groups), len(seen))
	}
	// ORDER BY random(): every row, in an order that differs run to run.
	a := mustRun(t, open, "SELECT seq FROM m ORDER BY random()")
	b := mustRun(t, open, "SELECT seq FROM m ORDER BY random()")
	if fmt.Sprint(a) == fmt.Sprint(b) {
		t.Error("ORDER BY random() gave one order twice")
	}
	seqOf := func(rs [][]any) []uint64 {
		var out []uint64
		for _, r := range rs {
			out = append(out, r[0].(uint64))
		}
		slices.Sort(out)
		return out
	}
	if !slices.Equal(seqOf(a), seqOf(mustRun(t, open, "SELECT seq FROM m"))) {
		t.Error("ORDER BY random() lost or repeated rows")
	}
	v4 := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	for _, r := range mustRun(t, open, "SELECT uuid(), gen_random_uuid() FROM m LIMIT 50") {
		for _, u := range r {
			if !v4.MatchString(u.(string)) {
				t.Fatalf("%q is no version-4 UUID", u)
			}
		}
	}
	if cols, err := columnNamesOf("SELECT random(), uuid() FROM m", open); err != nil || fmt.Sprint(cols) != "[random() uuid()]" {
		t.Errorf("names %v %v", cols, err)
	}
	wantErrors(t, open, []errCase{{"SELECT random(1) FROM m", "random() takes no arguments", "1)"}})
}
