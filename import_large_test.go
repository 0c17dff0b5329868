package tsq

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"testing"
	"time"
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
	// rows of one length: a larger input is more of the same rows
	var r io.Reader = &jsonGen{limit: size, width: 12}
	if os.Getenv("TSQ_LARGE_SRC") == "osm" {
		// the OSM snapshot again and again, read from the file each time:
		// wide, sparse rows
		const path = "../shared/data/json/osm_liechtenstein_2013-08-03.jsonl"
		fi, err := os.Stat(path)
		if err != nil {
			t.Skip(err)
		}
		n := (size + fi.Size() - 1) / fi.Size()
		var rs []io.Reader
		for range n {
			rs = append(rs, &lazyFile{path: path})
		}
		r = io.MultiReader(rs...)
		o.Mapping = mappingT(t, "time=ts_ms", "series=type", "key=type,id", "op=action")
	}
	if prof := os.Getenv("TSQ_HEAPPROF"); prof != "" {
		// once 90% of the input is in: the live heap after a collection,
		// as a profile, to find what grows with the input's size
		var once sync.Once
		o.ProgressInterval = 100 * time.Millisecond
		var hwm int64
		o.Progress = func(p ImportProgress) {
			if r := peakRSS(); r > hwm {
				// when the peak resident set rises, and with what heap
				t.Logf("peak RSS %d KiB at %d MiB of input (heap %d KiB)", r>>10, p.Bytes>>20, p.HeapInUse>>10)
				hwm = r
			}
			if p.Bytes < size/10*9 {
				return
			}
			once.Do(func() {
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				t.Logf("at %d MiB: live heap %d KiB, heap sys %d KiB, RSS peak %d MiB", p.Bytes>>20, ms.HeapAlloc>>10, ms.HeapSys>>10, peakRSS()>>20)
				f, err := os.Create(prof)
				if err == nil {
					pprof.WriteHeapProfile(f)
					f.Close()
				}
			})
		}
	}
	st, err := s.Import(ctx, "big", r, o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Bytes < size {
		t.Fatalf("imported %d of %d bytes", st.Bytes, size)
	}
	t.Logf("%d MiB, %d rows in %v (%.0f MB/s), staged %d MiB in %d segments; heap before %d MiB, peak %d MiB (budget %d MiB + allowance %d MiB); parse %v encode %v write %v commit %v",
		st.Bytes>>20, st.Rows, st.Total, float64(st.Bytes)/st.Total.Seconds()/1e6, st.StagedBytes>>20, st.Segments,
		base>>20, st.PeakHeap>>20, budget>>20, heapAllowance>>20, st.Parse, st.Encode, st.Write, st.Commit)
	t.Logf("peak RSS of the test process (VmHWM): %d MiB", peakRSS()>>20)
	if st.PeakHeap > uint64(budget)+heapAllowance {
		t.Fatalf("peak heap %d MiB over budget %d MiB + allowance %d MiB", st.PeakHeap>>20, budget>>20, heapAllowance>>20)
	}
	if n := countT(t, s, "big"); int64(n) != st.Rows {
		t.Fatalf("count %d, imported %d", n, st.Rows)
	}
}

// lazyFile opens path at its first read and closes it at EOF.
type lazyFile struct {
	path string
	f    *os.File
}

func (l *lazyFile) Read(p []byte) (int, error) {
	if l.f == nil {
		f, err := os.Open(l.path)
		if err != nil {
			return 0, err
		}
		l.f = f
	}
	n, err := l.f.Read(p)
	if err == io.EOF {
		l.f.Close()
	}
	return n, err
}

// peakRSS returns the process's peak resident set (Linux VmHWM), 0 if
// unknown.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(l, []byte("VmHWM:")); ok {
			kb, _ := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(v), []byte("kB")))), 10, 64)
			return kb << 10
		}
	}
	return 0
}
