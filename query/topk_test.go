package query

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

// TestTopK: ORDER BY time or seq with LIMIT (and OFFSET) returns the
// rows of the full sort, with ties in seq order, while reading the
// blocks best first and leaving out those whose every row sorts after
// the k-th: far fewer blocks are read than the stream has.
func TestTopK(t *testing.T) {
	src, _ := testSource(t, 3000, 40) // 10% of times out of order
	var reads atomic.Int64
	blocks := 0
	for _, sg := range src.segs {
		sg.(*memSeg).delay = func() { reads.Add(1) }
		blocks += len(sg.Blocks())
	}
	open := openOnly(src)
	for _, order := range []string{"time DESC", "time", "seq DESC", "time DESC, v", "seq", "time, seq DESC"} {
		for _, where := range []string{"", " WHERE v > 20", " WHERE s = 'beta' AND NOT b"} {
			full := mustRun(t, open, "SELECT seq, time, v FROM m"+where+" ORDER BY "+order)
			for _, l := range []struct{ n, off int }{{1, 0}, {7, 0}, {5, 3}, {0, 0}, {100, 10}, {5000, 0}} {
				q := fmt.Sprintf("SELECT seq, time, v FROM m%s ORDER BY %s LIMIT %d OFFSET %d", where, order, l.n, l.off)
				got := mustRun(t, open, q)
				want := full[min(l.off, len(full)):min(l.off+l.n, len(full))]
				if d := diffCells(got, want); d != "" {
					t.Fatalf("%s: %s", q, d)
				}
			}
		}
	}
	if out := explainLines(t, src, "EXPLAIN SELECT * FROM m ORDER BY time DESC LIMIT 3"); !strings.Contains(out, "top 3: blocks read best first by their time bounds") {
		t.Errorf("EXPLAIN: %s", out)
	}
	if out := explainLines(t, src, "EXPLAIN SELECT * FROM m ORDER BY v DESC LIMIT 3"); strings.Contains(out, "top 3") {
		t.Errorf("EXPLAIN of an order by a field: %s", out)
	}
	mustRun(t, open, "SELECT count(*) FROM m") // the schema cached
	reads.Store(0)
	mustRun(t, open, "SELECT time, v FROM m ORDER BY time DESC LIMIT 3")
	if n := reads.Load(); n == 0 || n > int64(blocks/4) {
		t.Errorf("ORDER BY time DESC LIMIT 3 read %d of %d blocks", n, blocks)
	}
	reads.Store(0)
	mustRun(t, open, "SELECT time, v FROM m ORDER BY seq DESC LIMIT 3")
	if n := reads.Load(); n == 0 || n > 3 {
		t.Errorf("ORDER BY seq DESC LIMIT 3 read %d of %d blocks", n, blocks)
	}
}
