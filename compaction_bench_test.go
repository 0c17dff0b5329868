package tsq

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tsqdb/tsq/internal/vfs"
)

// fillStream appends n keyed puts (distinct keys, a random float and 48
// random bytes each) to stream, then deletes of 10% of the keys: every
// tenth (scattered: every block loses rows), or runs of 10,000 keys every
// 100,000 (runs: as retention and drops of whole series produce; most
// blocks untouched or emptied).
func fillStream(b *testing.B, s *Store, stream string, n int, runs bool) {
	b.Helper()
	const batch = 4096
	recs := make([]Record, 0, batch)
	flush := func() {
		if _, err := s.Append(ctx, stream, recs...); err != nil {
			b.Fatal(err)
		}
		recs = recs[:0]
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range n {
		payload := make([]byte, 48) // an opaque body: CBOR, a hash, ...
		for k := range payload {
			payload[k] = byte(rng.Uint32())
		}
		recs = append(recs, Record{Time: day0 + int64(i)*1e6, Series: fmt.Sprintf("host%02d", i%50), Key: fmt.Sprintf("obj%08d", i),
			Fields: []Field{{"value", Float(rng.NormFloat64())}, {"status", Str([]string{"ok", "warn", "fail"}[i%3])}, {"body", Bytes(payload)}}})
		if len(recs) == batch {
			flush()
		}
	}
	for i := 0; i < n; i++ {
		if (!runs && i%10 != 0) || (runs && i%100_000 >= 10_000) {
			continue
		}
		recs = append(recs, Record{Time: day0 + int64(n+i)*1e6, Series: fmt.Sprintf("host%02d", i%50), Key: fmt.Sprintf("obj%08d", i), Op: OpDelete})
		if len(recs) == batch {
			flush()
		}
	}
	if len(recs) > 0 {
		flush()
	}
}

func segBytes(b *testing.B, dir string) (files []string, total int64) {
	b.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".seg") {
			fi, err := e.Info()
			if err != nil {
				b.Fatal(err)
			}
			files = append(files, filepath.Join(dir, e.Name()))
			total += fi.Size()
		}
	}
	return files, total
}

// copyFiles copies each file to a sibling with fsync, rename and
// directory fsync, the physical limit of a rewrite, and returns the time
// that took. The copies stay until
// every file is copied (their removal is not timed), as a rewrite's new
// files stand beside the old ones: a copy removed before the next one
// starts would hand its page cache to the next, which a rewrite cannot do
// (on machines whose free memory the host reclaims, first touches of
// memory cost more than the copy of its bytes).
//
// With direct, the copies are written past the page cache as a pass
// writes its segments (vfs.CreateNewDirect): the device's limit, where
// the plain copy is what cp and an fsync do.
func copyFiles(b *testing.B, files []string, direct bool) time.Duration {
	b.Helper()
	t0 := time.Now()
	for _, p := range files {
		in, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		create := vfs.Default.CreateNew
		if direct {
			create = func(name string) (vfs.File, error) { return vfs.CreateNewDirect(vfs.Default, name) }
		}
		out, err := create(p + ".copy")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(out, in); err != nil {
			b.Fatal(err)
		}
		if err := out.Sync(); err != nil {
			b.Fatal(err)
		}
		_ = out.Close()
		_ = in.Close()
		if err := os.Rename(p+".copy", p+".copied"); err != nil {
			b.Fatal(err)
		}
		d, err := os.Open(filepath.Dir(p))
		if err != nil {
			b.Fatal(err)
		}
		_ = d.Sync()
		_ = d.Close()
	}
	took := time.Since(t0)
	b.StopTimer()
	for _, p := range files {
		_ = os.Remove(p + ".copied")
	}
	b.StartTimer()
	return took
}

// BenchmarkCompactRewrite measures a pass over segments where 10% of
// the rows are droppable (scattered or in runs, see fillStream), in MB/s
// of segment bytes read plus written, against copying the same files
// with fsync in the same run. Run with -benchtime=1x (each iteration
// builds a fresh store on the OS file system); TSQ_COMPACT_BENCH_ROWS
// sets the rows, TSQ_COMPACT_BENCH_SEGMENT_MB the segment size (8 MB),
// TSQ_COMPACT_BENCH_PAGECACHE (any value) has the pass keep its writes in
// the page cache (Options.CompactPageCache), TSQ_COMPACT_BENCH_DIRECT
// write them past it (Options.CompactDirect),
// TSQ_COMPACT_CPUPROFILE (see startPassProfile) and
// TSQ_COMPACT_TRACE (an execution trace of the last pass to that file)
// look inside a pass.
//
// A third shape, osm, is real data: the OpenStreetMap Liechtenstein
// snapshot (../shared/data; skipped without it) imported four times
// with its ids renumbered per copy (292,000 elements keyed by type and
// id: tags, coordinates, users, node lists), then deletes of every
// tenth element, imported the same way.
func BenchmarkCompactRewrite(b *testing.B) {
	for _, shape := range []string{"scattered", "runs", "osm"} {
		b.Run(shape, func(b *testing.B) {
			rows := benchRows(b, 400_000)
			benchCompactRewrite(b, func(s *Store) int {
				if shape == "osm" {
					return fillOSM(b, s, "ev")
				}
				fillStream(b, s, "ev", rows, shape == "runs")
				return rows
			})
		})
	}
}

// fillOSM imports the OSM snapshot into stream as described at
// BenchmarkCompactRewrite and returns the elements put.
func fillOSM(b *testing.B, s *Store, stream string) int {
	b.Helper()
	data, err := os.ReadFile("../shared/data/json/osm_liechtenstein_2013-08-03.jsonl")
	if err != nil {
		b.Skipf("the osm shape needs the shared data: %v", err)
	}
	mapping := []string{"time=ts_ms", "series=type", "key=type,id", "op=action"}
	imp := func(in []byte) int64 {
		o := &ImportOptions{}
		for _, kv := range mapping {
			if err := o.Mapping.Set(kv); err != nil {
				b.Fatal(err)
			}
		}
		st, err := s.Import(ctx, stream, bytes.NewReader(in), o)
		if err != nil {
			b.Fatal(err)
		}
		return st.Rows
	}
	var puts int64
	var dels bytes.Buffer
	for c := range 4 {
		copyN := bytes.ReplaceAll(data, []byte(`"id":"`), []byte(fmt.Sprintf(`"id":"%d.`, c)))
		puts += imp(copyN)
		for i, line := range bytes.Split(copyN, []byte("\n")) {
			if i%10 != 0 || len(line) == 0 {
				continue
			}
			var e struct {
				Type string `json:"type"`
				ID   string `json:"id"`
				TsMs int64  `json:"ts_ms"`
			}
			if err := json.Unmarshal(line, &e); err != nil {
				b.Fatal(err)
			}
			fmt.Fprintf(&dels, `{"action":"delete","type":%q,"id":%q,"ts_ms":%d}`+"\n", e.Type, e.ID, e.TsMs)
		}
	}
	imp(dels.Bytes())
	return int(puts)
}

// benchCompactRewrite times a pass over the stream "ev" that fill
// writes (it returns the rows put) against copying its segments.
func benchCompactRewrite(b *testing.B, fill func(*Store) int) {
	var passMBs, copyMBs, dcopyMBs float64
	for range b.N {
		b.StopTimer()
		dir := b.TempDir()
		// Background compaction on, as a store opens by default: each
		// stream's W is floored when it is created (a file made once in
		// its life, not by the pass), the appends feed the live set and
		// the pass evicts it. Its first timed pass is hours away.
		o := &Options{Sync: SyncNever, SegmentMaxBytes: int64(benchEnvInt(b, "TSQ_COMPACT_BENCH_SEGMENT_MB", 8)) << 20, CompactInterval: CompactDefault,
			CompactPageCache: os.Getenv("TSQ_COMPACT_BENCH_PAGECACHE") != "", CompactDirect: os.Getenv("TSQ_COMPACT_BENCH_DIRECT") != ""}
		s, err := Open(dir, o)
		if err != nil {
			b.Fatal(err)
		}
		rows := fill(s)
		sdir := filepath.Join(dir, "streams", "ev")
		// As the pass's preparation would (not the pass's work), so that
		// both sides see the same files.
		sealForBench(b, s, "ev")
		files, size := segBytes(b, sdir)
		// Nor is collecting the fill's garbage: a pass in a long-lived
		// process finds the heap that its appends left long collected.
		runtime.GC()
		// Each timed side starts with no writeback of the one before
		// it pending (the fill leaves its segments dirty, each side
		// frees the blocks of the files it replaced or removed).
		quiet := func() {
			b.StopTimer()
			syscall.Sync()
			b.StartTimer()
		}
		quiet()
		copyDur := copyFiles(b, files, false)
		quiet()
		dcopyDur := copyFiles(b, files, true)
		quiet()
		t0 := time.Now()
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		user0, sys0 := cpuTimes()
		flt0 := minorFaults()
		stopProf := startPassProfile(b)
		perfCtl(b, "enable")
		var tf *os.File
		if p := os.Getenv("TSQ_COMPACT_TRACE"); p != "" {
			tf, _ = os.Create(p)
			_ = trace.Start(tf)
		}
		cs, err := s.Compact(ctx, "ev")
		passDur := time.Since(t0)
		user1, sys1 := cpuTimes()
		runtime.ReadMemStats(&ms1)
		perfCtl(b, "disable")
		passCPU, passSys, faults := user1+sys1-user0-sys0, sys1-sys0, minorFaults()-flt0
		stopProf()
		if tf != nil {
			trace.Stop()
			tf.Close()
		}
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		_, after := segBytes(b, sdir)
		copyMBs = float64(2*size) / 1e6 / copyDur.Seconds()
		dcopyMBs = float64(2*size) / 1e6 / dcopyDur.Seconds()
		passMBs = float64(size+after) / 1e6 / passDur.Seconds()
		b.Logf("%d puts, %d segments, %.1f MB -> %.1f MB, %d rows dropped; pass %v (fold %v, rewrite %v; %.0f MB/s; CPU %v (system %v), %.0f MB per CPU-second, %d page faults, %.1f MB allocated in %d objects, %d GCs, %.1f MB of blocks held), copy %v (%.0f MB/s), ratio %.2f; direct copy %v (%.0f MB/s), ratio %.2f",
			rows, len(files), float64(size)/1e6, float64(after)/1e6, cs.RowsRecord, passDur, cs.FoldTime, cs.RewriteTime, passMBs,
			passCPU, passSys, float64(size+after)/1e6/passCPU.Seconds(), faults, float64(ms1.TotalAlloc-ms0.TotalAlloc)/1e6, ms1.Mallocs-ms0.Mallocs, ms1.NumGC-ms0.NumGC, float64(cs.HeldBytes)/1e6, copyDur, copyMBs, passMBs/copyMBs, dcopyDur, dcopyMBs, passMBs/dcopyMBs)
		_ = s.Close()
	}
	b.ReportMetric(passMBs, "pass-MB/s")
	b.ReportMetric(copyMBs, "copy-MB/s")
	b.ReportMetric(passMBs/copyMBs, "ratio")
	b.ReportMetric(dcopyMBs, "dcopy-MB/s")
	b.ReportMetric(passMBs/dcopyMBs, "dratio")
}

// sealForBench writes the rows of stream still queued, seals its active
// segment, waits for the merge at seal and fsyncs what the fill left
// undurable (durable.go): after it, the stream's files are all sealed
// and stay as they are.
func sealForBench(b *testing.B, s *Store, stream string) {
	b.Helper()
	st, err := s.stream(stream, false)
	if err != nil {
		b.Fatal(err)
	}
	st.mu.Lock()
	err = st.writePending()
	if err == nil && st.w != nil && len(st.blocks) > 0 {
		err = st.roll()
	}
	st.mu.Unlock()
	if err != nil {
		b.Fatal(err)
	}
	settleBackground(b, s, stream)
}

// startPassProfile starts a CPU profile of the pass alone when
// TSQ_COMPACT_CPUPROFILE names a file prefix (the fill is not profiled):
// one file per iteration, <prefix>.<benchmark name>.<n>. It returns the
// function that stops it.
func startPassProfile(b *testing.B) func() {
	prefix := os.Getenv("TSQ_COMPACT_CPUPROFILE")
	if prefix == "" {
		return func() {}
	}
	passProfiles++
	name := fmt.Sprintf("%s.%s.%d", prefix, strings.ReplaceAll(b.Name(), "/", "_"), passProfiles)
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}

var passProfiles int

// perfCtl sends cmd (enable, disable) to the control FIFO of a perf
// started disabled, TSQ_COMPACT_PERF_CTL naming the FIFO
// (perf record -D -1 --control fifo:FIFO): perf then samples the passes
// alone, the kernel's part of them included.
func perfCtl(b *testing.B, cmd string) {
	p := os.Getenv("TSQ_COMPACT_PERF_CTL")
	if p == "" {
		return
	}
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(cmd + "\n"); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkCompactMemory measures the peak heap of a pass over many
// tombstones (distinct keys) with the default cap and with a small one:
// the snapshot, the pass's dominant memory, is bounded by the cap. The
// GC runs at 10% growth so that the heap in use is close to the live
// heap.
func BenchmarkCompactMemory(b *testing.B) {
	rows := benchRows(b, 1_000_000)
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	for _, capN := range []int{100_000, 32_000_000} {
		b.Run(fmt.Sprintf("cap=%d", capN), func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				dir := b.TempDir()
				o := &Options{Sync: SyncNever, SegmentMaxBytes: 8 << 20, CompactTombstoneCap: capN}
				s, err := Open(dir, o)
				if err != nil {
					b.Fatal(err)
				}
				fillTombstones(b, s, "ev", rows)
				runtime.GC()
				var base runtime.MemStats
				runtime.ReadMemStats(&base)
				var peak atomic.Uint64
				stop := make(chan struct{})
				var wg sync.WaitGroup
				wg.Add(1)
				go func() {
					defer wg.Done()
					var m runtime.MemStats
					for {
						runtime.ReadMemStats(&m)
						if m.HeapInuse > peak.Load() {
							peak.Store(m.HeapInuse)
						}
						select {
						case <-stop:
							return
						case <-time.After(5 * time.Millisecond):
						}
					}
				}()
				b.StartTimer()
				cs, err := s.Compact(ctx, "ev")
				b.StopTimer()
				close(stop)
				wg.Wait()
				if err != nil {
					b.Fatal(err)
				}
				extra := float64(peak.Load()-min(peak.Load(), base.HeapInuse)) / 1e6
				b.Logf("%d tombstones, cap %d: %d chunks, peak heap above the start %.0f MB (start %.0f MB); largest snapshot %d entries in %.1f MB (%.1f bytes an entry)",
					rows, capN, cs.Chunks, extra, float64(base.HeapInuse)/1e6, cs.SnapshotEntries, float64(cs.SnapshotBytes)/1e6, float64(cs.SnapshotBytes)/float64(max(cs.SnapshotEntries, 1)))
				b.ReportMetric(extra, "peak-MB")
				_ = s.Close()
			}
		})
	}
}

// fillTombstones appends n puts then n deletes of distinct keys.
func fillTombstones(b *testing.B, s *Store, stream string, n int) {
	b.Helper()
	recs := make([]Record, 0, 8192)
	for pass := range 2 {
		for i := range n {
			r := Record{Time: day0 + int64(pass*n+i)*1e6, Series: fmt.Sprintf("acct%05d", i%10000), Key: fmt.Sprintf("r%09d", i)}
			if pass == 1 {
				r.Op = OpDelete
			} else {
				r.Fields = []Field{{"v", Int(int64(i))}}
			}
			recs = append(recs, r)
			if len(recs) == cap(recs) {
				if _, err := s.Append(ctx, stream, recs...); err != nil {
					b.Fatal(err)
				}
				recs = recs[:0]
			}
		}
	}
	if len(recs) > 0 {
		if _, err := s.Append(ctx, stream, recs...); err != nil {
			b.Fatal(err)
		}
	}
}

func benchRows(b *testing.B, def int) int { return benchEnvInt(b, "TSQ_COMPACT_BENCH_ROWS", def) }

// benchEnvInt returns the positive integer in the environment variable
// name, else def.
func benchEnvInt(b *testing.B, name string, def int) int {
	if v := os.Getenv(name); v != "" {
		var n int
		if _, err := fmt.Sscan(v, &n); err == nil && n > 0 {
			return n
		}
	}
	return def
}

// BenchmarkCompactSteady measures the pass after a first one, in steady
// state: the archive (400,000 keyed puts, compacted) stays, and 40,000
// puts of new keys arrive in the same series. Segments at or below the
// watermark are ruled out only by their series bloom, so the pass reads
// the archive's record columns to look its keys up in the window's
// tombstones (nothing there drops): it reports the pass's time and bytes
// read against the new data's size.
func BenchmarkCompactSteady(b *testing.B) {
	// sequential: the new keys sort after every archived one (ids that
	// grow); interleaved: they fall between archived keys of every
	// segment (nothing drops, yet no segment's key span rules it out).
	for _, shape := range []string{"sequential", "interleaved"} {
		b.Run(shape, func(b *testing.B) { benchCompactSteady(b, shape == "interleaved") })
	}
}

func benchCompactSteady(b *testing.B, interleaved bool) {
	rows := benchRows(b, 400_000)
	for range b.N {
		b.StopTimer()
		dir := b.TempDir()
		s, err := Open(dir, &Options{Sync: SyncNever, SegmentMaxBytes: 8 << 20, CompactInterval: 0})
		if err != nil {
			b.Fatal(err)
		}
		fillStream(b, s, "ev", rows, true)
		if _, err := s.Compact(ctx, "ev"); err != nil {
			b.Fatal(err)
		}
		_, archive := segBytes(b, filepath.Join(dir, "streams", "ev"))
		recs := make([]Record, 0, 4096)
		for i := range rows / 10 {
			key := fmt.Sprintf("new%08d", i)
			if interleaved {
				key = fmt.Sprintf("obj%08d+", i*10%rows)
			}
			recs = append(recs, Record{Time: day0 + int64(2*rows+i)*1e6, Series: fmt.Sprintf("host%02d", i%50), Key: key,
				Fields: []Field{{"value", Float(float64(i))}, {"status", Str("ok")}, {"body", Bytes(make([]byte, 48))}}})
			if len(recs) == cap(recs) {
				if _, err := s.Append(ctx, "ev", recs...); err != nil {
					b.Fatal(err)
				}
				recs = recs[:0]
			}
		}
		if _, err := s.Append(ctx, "ev", recs...); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		cs, err := s.Compact(ctx, "ev")
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("archive %.1f MB; pass %v: %d segments examined, %d skipped, %d rewritten, %.1f MB read",
			float64(archive)/1e6, cs.Duration, cs.SegmentsExamined, cs.SegmentsSkipped, cs.SegmentsRewritten, float64(cs.BytesRead)/1e6)
		b.ReportMetric(float64(cs.BytesRead)/1e6, "MB-read")
		b.ReportMetric(float64(cs.SegmentsExamined), "segments-examined")
		_ = s.Close()
	}
}
