package tsq

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

// TestQueryKeySpans: a query whose WHERE names keys (key = 'x',
// key IN (...), ORs of them) or bounds them (key >= 'a' AND key < 'b',
// key > 'x', key LIKE 'prefix%') skips the blocks whose key span cannot
// hold them, in the raw and the folded view, and returns exactly what the
// same condition written so that it cannot prune returns: random puts,
// updates, deletes, samples and drops over many sealed segments, before
// and after compaction.
func TestQueryKeySpans(t *testing.T) {
	seed := uint64(rand.Int64())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 11))
	s := openT(t, vfs.NewMem(), Options{SegmentMaxBytes: 4 << 10, CompactInterval: 0})
	defer closeT(t, s)
	tm := day0
	var recs []Record
	flush := func() {
		if _, err := s.Append(ctx, "ev", recs...); err != nil {
			t.Fatal(err)
		}
		recs = recs[:0]
	}
	next := 0 // keys grow with time, as ids do; some are updated or deleted later
	for i := range 3000 {
		tm += 1e9
		series := fmt.Sprintf("s%d", rng.IntN(3))
		r := Record{Time: tm, Series: series, Fields: []Field{{"v", Int(int64(i))}}}
		switch x := rng.IntN(100); {
		case x < 70:
			r.Key = fmt.Sprintf("k%05d", next)
			next++
		case x < 85 && next > 0:
			r.Key = fmt.Sprintf("k%05d", rng.IntN(next)) // an update
		case x < 92 && next > 0:
			r.Key, r.Op, r.Fields = fmt.Sprintf("k%05d", rng.IntN(next)), OpDelete, nil
		case x < 93:
			r.Op, r.Fields = OpDrop, nil
		}
		recs = append(recs, r)
		if rng.IntN(20) == 0 {
			flush()
		}
	}
	flush()
	check := func(when string) {
		pruned := 0
		for range 60 {
			var keys []string
			for range 1 + rng.IntN(3) {
				keys = append(keys, fmt.Sprintf("k%05d", rng.IntN(next+10)))
			}
			lits := "'" + strings.Join(keys, "', '") + "'"
			for _, view := range []string{"ev", "fold(ev)"} {
				a, b := keys[0], keys[len(keys)-1]
				if a > b {
					a, b = b, a
				}
				conds := [][2]string{
					{"key >= '" + a + "' AND key < '" + b + "'", "concat(key, '') >= '" + a + "' AND concat(key, '') < '" + b + "'"},
					{"key > '" + b + "'", "concat(key, '') > '" + b + "'"},
					{"key <= '" + a + "' AND v >= 0", "concat(key, '') <= '" + a + "' AND v >= 0"},
					{"key LIKE '" + a[:4] + "%'", "concat(key, '') LIKE '" + a[:4] + "%'"},
					{"key IN (" + lits + ")", "concat(key, '') IN (" + lits + ")"},
					{"key = '" + keys[0] + "'", "concat(key, '') = '" + keys[0] + "'"},
					{"(key = '" + keys[0] + "' OR key = '" + keys[len(keys)-1] + "') AND v >= 0",
						"(concat(key, '') = '" + keys[0] + "' OR concat(key, '') = '" + keys[len(keys)-1] + "') AND v >= 0"},
				}
				for _, c := range conds {
					q := "SELECT seq, series, key, op, v FROM " + view + " WHERE "
					_, got := queryT(t, s, q+c[0]+" ORDER BY seq")
					_, want := queryT(t, s, q+c[1]+" ORDER BY seq")
					if !slices.Equal(got, want) {
						t.Fatalf("seed %d %s: %s\ngot  %q\nwant %q", seed, when, q+c[0], got, want)
					}
					_, ex := queryT(t, s, "EXPLAIN "+q+c[0])
					for _, l := range ex {
						var total, scanned, n int
						if _, err := fmt.Sscanf(l, "blocks: %d total, %d scanned", &total, &scanned); err == nil {
							if i := strings.LastIndex(l, ", "); i >= 0 {
								fmt.Sscanf(l[i+2:], "%d pruned by key span", &n)
							}
							pruned += n
						}
					}
				}
			}
		}
		if pruned == 0 {
			t.Fatalf("seed %d %s: no block was pruned by key span", seed, when)
		}
	}
	check("before compaction")
	if _, err := s.Compact(ctx, "ev"); err != nil {
		t.Fatal(err)
	}
	check("after compaction")
	// key = '' names the rows without a key: nothing is pruned by it.
	_, got := queryT(t, s, "SELECT count(*) FROM ev WHERE key = ''")
	_, want := queryT(t, s, "SELECT count(*) FROM ev WHERE concat(key, '') = ''")
	if !slices.Equal(got, want) || got[0] == "0" {
		t.Fatalf("key = '': %v, want %v (rows without a key)", got, want)
	}
}
