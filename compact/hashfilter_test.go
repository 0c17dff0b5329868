package compact

import (
	"fmt"
	"sync"
	"testing"
)

// TestHashFilter: every entry's bit is set, for the entries the table
// held when the filter was built and for those two goroutines insert
// after it, one per half of the hashes (as decideHalf's halves do, run
// with -race); a lookup of a name not in the table passes the filter
// rarely (about 1 in 16 at most).
func TestHashFilter(t *testing.T) {
	for _, n := range []int{10, 5000, 200_000} {
		tab := newHashTable()
		key := func(i int) hashKey { return tab.pairOf([]byte("s"), fmt.Appendf(nil, "k%d", i)) }
		for i := range n {
			tab.upsertNewer(key(i), uint64(i)<<1)
		}
		tab.n = n
		tab.buildFilter()
		var wg sync.WaitGroup
		for h := range uint64(2) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := n; i < 2*n; i++ {
					if k := key(i); k.hi>>63 == h {
						tab.upsertNewer(k, uint64(i)<<1)
					}
				}
			}()
		}
		wg.Wait()
		for i := range 2 * n {
			if _, ok := tab.get(key(i)); !ok {
				t.Fatalf("%d entries: entry %d missed", n, i)
			}
		}
		pass := 0
		const probes = 100_000
		for i := range probes {
			if tab.mayHold(key(4*n + i)) {
				pass++
			}
		}
		// 2n entries in at least 16n bits (built for n, then n more).
		if limit := probes * 2 / 16 * 5 / 4; pass > limit {
			t.Fatalf("%d entries: %d of %d absent names pass the filter (limit %d)", n, pass, probes, limit)
		}
	}
}
