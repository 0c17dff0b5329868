package tsq

import (
	"os"
	"runtime"
	"strconv"
	"testing"
)

// largeImportBytes is the input size of TestImportLargeBoundedHeap:
// 64 MiB by default so that `go test` stays fast; TSQ_LARGE=<GiB> (e.g.
// 1, or 4 for the longer run) imports that many GiB.
func largeImportBytes() int64 {
	if g, err := strconv.ParseFloat(os.Getenv("TSQ_LARGE"), 64); err == nil && g > 0 {
		return int64(g * (1 << 30))
	}
	return 64 << 20
}

// heapAllowance is what the heap may hold beyond the import's budget:
// the runtime, the test binary, the store's block cache and the garbage
// the collector has not reclaimed yet.
const heapAllowance = 48 << 20

// TestImportLargeBoundedHeap streams JSON lines from a generator (no
// file) into a store on disk and checks that the heap, sampled every
// 10ms during the run, stays under the budget plus a fixed allowance.
func TestImportLargeBoundedHeap(t *testing.T) {
	size := largeImportBytes()
	s, err := Open(t.TempDir(), &Options{CacheBytes: NoCache})
	if err != nil {
		t.Fatal(err)
	}
	defer closeT(t, s)
	runtime.GC()
	base := heapInUse()
	o := importOpts(t)
	budget := int64(DefaultImportBudget)
	o.MemoryBudget = budget
	st, err := s.Import(ctx, "big", &jsonGen{limit: size}, o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Bytes < size {
		t.Fatalf("imported %d of %d bytes", st.Bytes, size)
	}
	t.Logf("%d MiB, %d rows in %v (%.0f MB/s), staged %d MiB in %d segments; heap before %d MiB, peak %d MiB (budget %d MiB + allowance %d MiB); parse %v encode %v write %v commit %v",
		st.Bytes>>20, st.Rows, st.Total, float64(st.Bytes)/st.Total.Seconds()/1e6, st.StagedBytes>>20, st.Segments,
		base>>20, st.PeakHeap>>20, budget>>20, heapAllowance>>20, st.Parse, st.Encode, st.Write, st.Commit)
	if st.PeakHeap > uint64(budget)+heapAllowance {
		t.Fatalf("peak heap %d MiB over budget %d MiB + allowance %d MiB", st.PeakHeap>>20, budget>>20, heapAllowance>>20)
	}
	if n := countT(t, s, "big"); int64(n) != st.Rows {
		t.Fatalf("count %d, imported %d", n, st.Rows)
	}
}
