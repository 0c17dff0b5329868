package tsq

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestCompactMemoryAtCap runs a pass over TSQ_COMPACT_MEM_TOMBSTONES
// deletes of distinct keys (32,000,000 = the default cap is the issue's
// case) and reports the pass's peak heap above the start (sampled every
// 5 ms) and the process's peak RSS (VmHWM). Off by default: it needs
// minutes and a few GB of disk.
func TestCompactMemoryAtCap(t *testing.T) {
	v := os.Getenv("TSQ_COMPACT_MEM_TOMBSTONES")
	if v == "" {
		t.Skip("set TSQ_COMPACT_MEM_TOMBSTONES=32000000 to run")
	}
	var n int
	if _, err := fmt.Sscan(v, &n); err != nil || n <= 0 {
		t.Fatalf("TSQ_COMPACT_MEM_TOMBSTONES=%q", v)
	}
	dir := t.TempDir()
	s, err := Open(dir, &Options{Sync: SyncNever, CompactInterval: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t0 := time.Now()
	recs := make([]Record, 0, 8192)
	for i := range n {
		// Keys in a scrambled order (a bijection of i), so that no block
		// is fresh (compact/single.go): the record table holds every
		// tombstone, the worst case.
		recs = append(recs, Record{Time: day0 + int64(i)*1e6, Series: fmt.Sprintf("acct%05d", i%10000), Key: fmt.Sprintf("r%016x", scramble(uint64(i))), Op: OpDelete})
		if len(recs) == cap(recs) || i == n-1 {
			if _, err := s.Append(ctx, "ev", recs...); err != nil {
				t.Fatal(err)
			}
			recs = recs[:0]
		}
	}
	t.Logf("appended %d deletes in %v; VmHWM so far %s", n, time.Since(t0), vmHWM())
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var mu sync.Mutex
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			mu.Lock()
			peak = max(peak, m.HeapInuse)
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	t0 = time.Now()
	cs, err := s.Compact(ctx, "ev")
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if cs.SnapshotEntries < n && cs.Chunks == 1 {
		t.Fatalf("snapshot of %d entries for %d tombstones", cs.SnapshotEntries, n)
	}
	t.Logf("pass over %d tombstones: %v, %d chunks, snapshot %d entries in %.0f MB (%.1f bytes an entry); heap in use at start %.0f MB, peak %.0f MB (+%.0f MB, %.1f bytes a tombstone); VmHWM %s",
		n, time.Since(t0), cs.Chunks, cs.SnapshotEntries, float64(cs.SnapshotBytes)/1e6, float64(cs.SnapshotBytes)/float64(max(cs.SnapshotEntries, 1)),
		float64(base.HeapInuse)/1e6, float64(peak)/1e6, float64(peak-min(peak, base.HeapInuse))/1e6, float64(peak-min(peak, base.HeapInuse))/float64(n), vmHWM())
}

// scramble is the SplitMix64 finalizer, a bijection of uint64.
func scramble(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// vmHWM returns the process's peak resident set size, from /proc.
func vmHWM() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:"))
		}
	}
	return "unknown"
}
