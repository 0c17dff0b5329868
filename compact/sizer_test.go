package compact

import (
	"fmt"
	"testing"
)

// fillSized feeds rows blocks of 8192 rows to a table through a sizer;
// keyed(i) says whether row i adds an entry. It returns the table, the
// resizes the sizer made and the slots the shards grew to by
// themselves.
func fillSized(t *testing.T, rows, cap int, keyed func(int) bool) (tab *hashTable, resizes int) {
	t.Helper()
	tab = newHashTable()
	var z tableSizer
	z.start(tab, uint64(rows), cap)
	var buf []byte
	for lo := 0; lo < rows; lo += 8192 {
		n := min(8192, rows-lo)
		if z.before(tab, n) {
			resizes++
		}
		for i := lo; i < lo+n; i++ {
			if keyed(i) {
				buf = fmt.Appendf(buf[:0], "k%d", i)
				tab.set(tab.hash(buf), uint64(i), func(uint64) bool { return true })
			}
		}
	}
	return tab, resizes
}

// TestTableSizer: a table filled through the sizer is resized about once
// whatever its final size, holds every entry, stays within the load the
// shards grow at, and a window of samples keeps the presized table.
func TestTableSizer(t *testing.T) {
	for _, c := range []struct {
		name       string
		rows, cap  int
		keyed      func(int) bool
		maxResizes int
	}{
		{"all keyed", 2_000_000, DefaultTombstoneCap, func(int) bool { return true }, 2},
		{"one in ten keyed", 3_000_000, DefaultTombstoneCap, func(i int) bool { return i%10 == 0 }, 1},
		{"samples then keyed", 2_000_000, DefaultTombstoneCap, func(i int) bool { return i >= 1_000_000 }, 4},
		{"past the cap", 2_000_000, 700_000, func(int) bool { return true }, 12},
	} {
		t.Run(c.name, func(t *testing.T) {
			tab, resizes := fillSized(t, c.rows, c.cap, c.keyed)
			want := 0
			for i := range c.rows {
				if c.keyed(i) {
					want++
				}
			}
			if tab.len() != want {
				t.Fatalf("table holds %d entries, want %d", tab.len(), want)
			}
			if resizes > c.maxResizes {
				t.Fatalf("%d resizes, want at most %d", resizes, c.maxResizes)
			}
			slots := tab.bytes() / 24
			if load := float64(want) / float64(slots); load < 0.3 || load > 0.75 {
				t.Fatalf("load %.2f (%d entries in %d slots)", load, want, slots)
			}
			t.Logf("%d entries, %d slots (load %.2f), %d resizes", want, slots, float64(want)/float64(slots), resizes)
		})
	}
	t.Run("samples", func(t *testing.T) {
		tab, resizes := fillSized(t, 2_000_000, DefaultTombstoneCap, func(int) bool { return false })
		if resizes != 0 || tab.bytes() != int64(numShards*shardSlotsFor(projectAfter)*24) {
			t.Fatalf("a window of samples: %d resizes, %d bytes", resizes, tab.bytes())
		}
	})
}
