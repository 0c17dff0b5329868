package main

// Ingest mode: tsq's store against Prometheus' TSDB used as a library, on
// the same replicated CSV data: append rate, fsyncs, bytes on disk and
// scan rate. See ../README.md.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/storage"
	"github.com/prometheus/prometheus/tsdb"
	"github.com/prometheus/prometheus/tsdb/chunkenc"
	"github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/chunk"
)

const (
	// ingestStream is the one tsq stream every goroutine appends to, so
	// that SyncAlways appenders share group commits.
	ingestStream = "ingest"
	// promMetric is the metric name of every Prometheus series; the CSV
	// series name is the "series" label.
	promMetric = "ingest"
	// tsqSlice and promSlice are the data-time slices the appends are cut
	// into; see planSlices.
	tsqSlice  = 24 * time.Hour
	promSlice = 30 * time.Minute
)

// ingestGoroutines are the appender counts compared.
var ingestGoroutines = []int{1, 8}

// dedupe returns d with every sample whose timestamp repeats its
// predecessor's in the same series dropped (the first one stays, as in
// Prometheus, which drops or rejects the later ones), and how many went.
func dedupe(d *dataset) (*dataset, int) {
	out := &dataset{name: d.name}
	dropped := 0
	for _, s := range d.series {
		n := series{name: s.name}
		for i, t := range s.ms {
			if i > 0 && t == s.ms[i-1] {
				dropped++
				continue
			}
			n.ms = append(n.ms, t)
			n.vals = append(n.vals, s.vals[i])
		}
		out.series = append(out.series, n)
	}
	return out, dropped
}

// replicate returns d's series followed by copies named "<name>/copyN"
// (N = 1, 2, ...) with the same timestamps and values, until there are at
// least target samples. The copies share the original's storage.
func replicate(d *dataset, target int) []series {
	out := slices.Clone(d.series)
	n := d.samples()
	for c := 1; n < target; c++ {
		for _, s := range d.series {
			out = append(out, series{name: s.name + "/copy" + strconv.Itoa(c), ms: s.ms, vals: s.vals})
			n += len(s.ms)
		}
	}
	return out
}

// span is samples lo..hi-1 of series s.
type span struct{ s, lo, hi int }

// slice is one data-time slice: the spans of the series that have samples
// in it, in series order.
type slice []span

// planSlices cuts every series into spans of aligned, dur-long slices of
// data time (UTC-aligned for whole days) and returns the non-empty slices
// in time order. Appenders go through the slices in order, all of them
// finishing a slice before any starts the next, and within a slice each
// appends its own series (s % goroutines) span by span.
func planSlices(ss []series, dur time.Duration) []slice {
	d := dur.Milliseconds()
	type keyed struct {
		k  int64
		sp span
	}
	var all []keyed
	for i, s := range ss {
		lo := 0
		for lo < len(s.ms) {
			k := floorDiv(s.ms[lo], d)
			end := (k + 1) * d
			hi := lo + 1
			for hi < len(s.ms) && s.ms[hi] < end {
				hi++
			}
			all = append(all, keyed{k, span{i, lo, hi}})
			lo = hi
		}
	}
	slices.SortStableFunc(all, func(a, b keyed) int {
		if a.k != b.k {
			if a.k < b.k {
				return -1
			}
			return 1
		}
		return a.sp.s - b.sp.s
	})
	var out []slice
	for i := 0; i < len(all); {
		j := i
		var sl slice
		for j < len(all) && all[j].k == all[i].k {
			sl = append(sl, all[j].sp)
			j++
		}
		out = append(out, sl)
		i = j
	}
	return out
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// runSlices runs fn(g, span) for every span of every slice on goroutines
// goroutines: goroutine g takes the series s with s%goroutines == g. A
// barrier separates slices. endSlice(g) runs after g's last span of each
// slice (a commit). The first error stops everything.
func runSlices(plan []slice, goroutines int, fn func(g int, sp span) error, endSlice func(g int) error) error {
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		first   error
		barrier = newBarrier(goroutines)
	)
	failed := func() bool { mu.Lock(); defer mu.Unlock(); return first != nil }
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, sl := range plan {
				var err error
				if !failed() {
					for _, sp := range sl {
						if sp.s%goroutines != g {
							continue
						}
						if err = fn(g, sp); err != nil {
							break
						}
					}
					if err == nil && endSlice != nil {
						err = endSlice(g)
					}
				}
				if err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
				barrier.wait()
			}
		}()
	}
	wg.Wait()
	return first
}

// barrier is a reusable barrier for n goroutines.
type barrier struct {
	mu    sync.Mutex
	cond  *sync.Cond
	n     int
	count int
	gen   uint64
}

func newBarrier(n int) *barrier {
	b := &barrier{n: n}
	b.cond = sync.NewCond(&b.mu)
	return b
}

func (b *barrier) wait() {
	if b.n == 1 {
		return
	}
	b.mu.Lock()
	gen := b.gen
	b.count++
	if b.count == b.n {
		b.count = 0
		b.gen++
		b.cond.Broadcast()
	} else {
		for gen == b.gen {
			b.cond.Wait()
		}
	}
	b.mu.Unlock()
}

// ingestRow is one measurement: one row of the table before taking medians.
type ingestRow struct {
	mode       string // ingest, scan1, scan2
	system     string // tsq, prom
	goroutines int
	sync       string // interval, always; prom: wal
	samples    int
	perSec     float64
	fsyncs     int64 // data fsyncs (Metrics.Fsyncs); -1: not applicable
	fsyncsMnt  int64 // other fsyncs (Metrics.FsyncsMaintenance); -1: not applicable
	appends    int64 // AppendSamples calls (tsq) or commits (prom)
	bytes      int64 // -1: not measured
}

func (r *ingestRow) key() string {
	return r.mode + "\t" + r.system + "\t" + strconv.Itoa(r.goroutines) + "\t" + r.sync
}

// ingestData is the replicated data set with its ns timestamps.
type ingestData struct {
	ss      []series
	ns      [][]int64
	samples int
	tsqPlan []slice
	prmPlan []slice
}

func prepareIngest(d *dataset, target int) *ingestData {
	ss := replicate(d, target)
	ns := make([][]int64, len(d.series))
	for i, s := range d.series {
		ns[i] = make([]int64, len(s.ms))
		for j, t := range s.ms {
			ns[i][j] = t * 1e6
		}
	}
	id := &ingestData{ss: ss}
	for i := range ss {
		// Copies share the original's ns timestamps.
		id.ns = append(id.ns, ns[i%len(d.series)])
		id.samples += len(ss[i].ms)
	}
	id.tsqPlan = planSlices(ss, tsqSlice)
	id.prmPlan = planSlices(ss, promSlice)
	return id
}

func runIngest(cfg *config, stdout, stderr io.Writer) error {
	d, err := loadCSVFile(cfg.files[0])
	if err != nil {
		return err
	}
	d, dropped := dedupe(d)
	id := prepareIngest(d, cfg.ingestSamples)
	fmt.Fprintf(stderr, "ingest: %s: %d series (%d in the file, %d samples with a repeated timestamp dropped), %d samples; tsq: %d UTC-day slices, prom: %d 30-min slices\n",
		d.name, len(id.ss), len(d.series), dropped, id.samples, len(id.tsqPlan), len(id.prmPlan))

	if cfg.traceFile != "" {
		f, err := os.Create(cfg.traceFile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := trace.Start(f); err != nil {
			return err
		}
		defer trace.Stop()
	}
	if cfg.cpuProfile != "" {
		f, err := os.Create(cfg.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if cfg.memProfile != "" {
		runtime.MemProfileRate = 64 << 10
		defer writeMemProfile(cfg.memProfile, stderr)
	}
	want := func(kind []string, v string) bool {
		any := false
		for _, o := range cfg.ingestOnly {
			if slices.Contains(kind, o) {
				any = true
				if o == v {
					return true
				}
			}
		}
		return !any
	}
	var rows []ingestRow
	for rep := range cfg.reps {
		for _, g := range ingestGoroutines {
			if !want([]string{"1", "8"}, strconv.Itoa(g)) {
				continue
			}
			for _, m := range tsqModes {
				if !want([]string{"tsq", "prom"}, "tsq") || !want([]string{"interval", "always", alwaysAsync}, m.name()) {
					continue
				}
				rs, err := benchTSQ(id, g, m.pol, m.depth)
				if err != nil {
					return fmt.Errorf("tsq, %d goroutines, %s: %w", g, m.name(), err)
				}
				logRows(stderr, rep, rs)
				rows = append(rows, rs...)
			}
			if !want([]string{"tsq", "prom"}, "prom") {
				continue
			}
			rs, err := benchProm(id, g)
			if err != nil {
				return fmt.Errorf("prom, %d goroutines: %w", g, err)
			}
			logRows(stderr, rep, rs)
			rows = append(rows, rs...)
		}
	}
	med := medianRows(rows)

	out := bufio.NewWriter(stdout)
	fmt.Fprintln(out, "mode\tsystem\tgoroutines\tsync\tsamples\tsamples_per_s\tfsyncs\tfsyncs_maint\tappends\tsamples_per_fsync\tbytes_on_disk")
	for _, r := range med {
		fmt.Fprintf(out, "%s\t%d\t%.0f\t%s\t%s\t%s\t%s\t%s\n", r.key(), r.samples, r.perSec, optInt(r.fsyncs), optInt(r.fsyncsMnt),
			optInt(r.appends), perFsync(r), optInt(r.bytes))
	}
	if err := out.Flush(); err != nil {
		return err
	}
	ingestSummary(stderr, med)
	return nil
}

// perFsync is samples over data fsyncs, "-" if not applicable.
func perFsync(r ingestRow) string {
	if r.fsyncs <= 0 {
		return "-"
	}
	return strconv.FormatFloat(float64(r.samples)/float64(r.fsyncs), 'f', 1, 64)
}

func optInt(v int64) string {
	if v < 0 {
		return "-"
	}
	return strconv.FormatInt(v, 10)
}

func logRows(w io.Writer, rep int, rs []ingestRow) {
	for _, r := range rs {
		fmt.Fprintf(w, "rep %d: %s\t%d\t%.0f/s\tfsyncs %s\tfsyncs_maint %s\tappends %s\tbytes %s\n", rep+1, r.key(), r.samples, r.perSec,
			optInt(r.fsyncs), optInt(r.fsyncsMnt), optInt(r.appends), optInt(r.bytes))
	}
}

// medianRows takes per key the median of each numeric column over the
// repetitions, in first-seen order.
func medianRows(rows []ingestRow) []ingestRow {
	var keys []string
	by := map[string][]ingestRow{}
	for _, r := range rows {
		k := r.key()
		if by[k] == nil {
			keys = append(keys, k)
		}
		by[k] = append(by[k], r)
	}
	var out []ingestRow
	for _, k := range keys {
		rs := by[k]
		m := rs[0]
		col := func(f func(r *ingestRow) float64) float64 {
			xs := make([]float64, len(rs))
			for i := range rs {
				xs[i] = f(&rs[i])
			}
			return median(xs)
		}
		m.perSec = col(func(r *ingestRow) float64 { return r.perSec })
		m.fsyncs = int64(math.Round(col(func(r *ingestRow) float64 { return float64(r.fsyncs) })))
		m.fsyncsMnt = int64(math.Round(col(func(r *ingestRow) float64 { return float64(r.fsyncsMnt) })))
		m.appends = int64(math.Round(col(func(r *ingestRow) float64 { return float64(r.appends) })))
		m.bytes = int64(math.Round(col(func(r *ingestRow) float64 { return float64(r.bytes) })))
		out = append(out, m)
	}
	return out
}

func ingestSummary(w io.Writer, med []ingestRow) {
	find := func(mode, system string, g int, sync string) *ingestRow {
		for i := range med {
			r := &med[i]
			if r.mode == mode && r.system == system && r.goroutines == g && r.sync == sync {
				return r
			}
		}
		return nil
	}
	fmt.Fprintln(w, "\nsummary (medians over repetitions):")
	for _, g := range ingestGoroutines {
		t, p := find("ingest", "tsq", g, "interval"), find("ingest", "prom", g, "wal")
		if t != nil && p != nil && p.perSec > 0 {
			fmt.Fprintf(w, "ingest samples/s tsq(interval)/prom, %d goroutines: %.2f\n", g, t.perSec/p.perSec)
		}
	}
	for _, g := range ingestGoroutines {
		for _, pol := range []string{"always", alwaysAsync} {
			if t := find("ingest", "tsq", g, pol); t != nil && t.appends > 0 && t.fsyncs > 0 {
				fmt.Fprintf(w, "tsq %s, %d goroutines: %d data fsyncs for %d appends: %.2f calls per fsync, %.1f samples per fsync; %d other fsyncs (%.1f calls per fsync of any kind); %.0f samples/s\n",
					pol, g, t.fsyncs, t.appends, float64(t.appends)/float64(t.fsyncs), float64(t.samples)/float64(t.fsyncs),
					t.fsyncsMnt, float64(t.appends)/float64(t.fsyncs+t.fsyncsMnt), t.perSec)
			}
		}
	}
	for _, g := range ingestGoroutines {
		p := find("ingest", "prom", g, "wal")
		for _, pol := range []string{"interval", "always"} {
			if t := find("ingest", "tsq", g, pol); t != nil && p != nil && p.bytes > 0 {
				fmt.Fprintf(w, "bytes on disk tsq(%s)/prom block, %d goroutines: %.2f\n", pol, g, float64(t.bytes)/float64(p.bytes))
			}
		}
	}
	for _, g := range ingestGoroutines {
		p := find("scan1", "prom", g, "wal")
		for _, mode := range []string{"scan1", "scan2"} {
			if t := find(mode, "tsq", g, "interval"); t != nil && p != nil && p.perSec > 0 {
				fmt.Fprintf(w, "%s samples/s tsq(interval, %d goroutines)/prom: %.2f\n", mode, g, t.perSec/p.perSec)
			}
		}
	}
}

func writeMemProfile(path string, stderr io.Writer) {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("allocs").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "peers: memprofile:", err)
	}
}

// dirBytes sums the sizes of the regular files under dir, skipping the
// top-level entries named in skip.
func dirBytes(dir string, skip ...string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if rel, _ := filepath.Rel(dir, path); slices.Contains(skip, rel) {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if e.Type().IsRegular() {
			info, err := e.Info()
			if err != nil {
				return err
			}
			n += info.Size()
		}
		return nil
	})
	return n, err
}

// benchTSQ appends the data to a new store in a temp dir, closes it,
// measures the bytes, then scans the stream twice from a read-only store.
// quiesce starts a timed ingest from the same state for every system:
// the dirty pages that earlier runs left (their stores, their removal)
// written back, so that their writeback does not land in this run, and
// a collected heap.
func quiesce() {
	syscall.Sync()
	runtime.GC()
}

// tsqModes are the ways tsq appends: each policy with blocking
// AppendSamples calls, and SyncAlways with asyncDepth AppendSamplesAsync
// calls in flight per goroutine.
var tsqModes = []tsqMode{{tsq.SyncInterval, 1}, {tsq.SyncAlways, 1}, {tsq.SyncAlways, asyncDepth}}

type tsqMode struct {
	pol   tsq.SyncPolicy
	depth int
}

const (
	asyncDepth  = 8
	alwaysAsync = "always-async8"
)

func modeName(pol tsq.SyncPolicy, depth int) string {
	if depth > 1 {
		return alwaysAsync
	}
	return pol.String()
}

func (m tsqMode) name() string {
	return modeName(m.pol, m.depth)
}

func benchTSQ(id *ingestData, goroutines int, pol tsq.SyncPolicy, depth int) ([]ingestRow, error) {
	dir, err := os.MkdirTemp("", "tsq-ingest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	syncName := modeName(pol, depth)
	row := ingestRow{mode: "ingest", system: "tsq", goroutines: goroutines, sync: syncName, samples: id.samples}

	st, err := tsq.Open(dir, &tsq.Options{Sync: pol})
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	quiesce()
	start := time.Now()
	// Profile label: go tool pprof -tagfocus phase=tsq-append.
	pprof.Do(ctx, pprof.Labels("phase", "tsq-append"), func(ctx context.Context) {
		if depth <= 1 {
			err = runSlices(id.tsqPlan, goroutines, func(_ int, sp span) error {
				s := &id.ss[sp.s]
				_, err := st.AppendSamples(ctx, ingestStream, s.name, id.ns[sp.s][sp.lo:sp.hi], s.vals[sp.lo:sp.hi])
				return err
			}, nil)
			return
		}
		// Up to depth appends in flight per goroutine; all are waited
		// for at the end of each slice.
		inflight := make([][]*tsq.Pending, goroutines)
		waitAll := func(g int) error {
			var first error
			for _, p := range inflight[g] {
				if _, err := p.Wait(ctx); err != nil && first == nil {
					first = err
				}
			}
			inflight[g] = inflight[g][:0]
			return first
		}
		err = runSlices(id.tsqPlan, goroutines, func(g int, sp span) error {
			s := &id.ss[sp.s]
			p, err := st.AppendSamplesAsync(ctx, ingestStream, s.name, id.ns[sp.s][sp.lo:sp.hi], s.vals[sp.lo:sp.hi])
			if err != nil {
				return err
			}
			inflight[g] = append(inflight[g], p)
			if len(inflight[g]) < depth {
				return nil
			}
			_, err = inflight[g][0].Wait(ctx)
			inflight[g] = inflight[g][1:]
			return err
		}, waitAll)
	})
	elapsed := time.Since(start)
	m := st.Metrics()
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	row.perSec = float64(id.samples) / elapsed.Seconds()
	row.appends, row.fsyncs, row.fsyncsMnt = int64(m.Appends), int64(m.Fsyncs), int64(m.FsyncsMaintenance)
	if m.Records != uint64(id.samples) {
		return nil, fmt.Errorf("tsq stored %d records, want %d", m.Records, id.samples)
	}
	if row.bytes, err = dirBytes(dir); err != nil {
		return nil, err
	}
	rows := []ingestRow{row}

	// Scans: a new read-only store (no state from the writer), twice.
	rd, err := tsq.Open(dir, &tsq.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	// Presized as for Prometheus' scan below: both measure decoding into
	// slices, not their growth.
	times := make([]int64, 0, id.samples)
	vals := make([]float64, 0, id.samples)
	for _, mode := range []string{"scan1", "scan2"} {
		runtime.GC()
		start := time.Now()
		times, vals = times[:0], vals[:0]
		for blk, err := range rd.Scan(ctx, ingestStream, tsq.ScanOptions{}) {
			if err != nil {
				return nil, err
			}
			tc, vc := blockColumn(blk, "time"), blockColumn(blk, "value")
			if tc == nil || vc == nil || vc.Type != chunk.Float64 {
				return nil, errors.New("tsq scan: block without int64 time and float64 value columns")
			}
			times = append(times, tc.Ints...)
			vals = append(vals, vc.Floats...)
		}
		elapsed := time.Since(start)
		if len(times) != id.samples || len(vals) != id.samples {
			return nil, fmt.Errorf("tsq scan: %d times, %d values, want %d", len(times), len(vals), id.samples)
		}
		rows = append(rows, ingestRow{mode: mode, system: "tsq", goroutines: goroutines, sync: syncName,
			samples: id.samples, perSec: float64(id.samples) / elapsed.Seconds(), fsyncs: -1, fsyncsMnt: -1, appends: -1, bytes: -1})
	}
	return rows, nil
}

func blockColumn(b *chunk.Block, name string) *chunk.Column {
	for i := range b.Columns {
		if b.Columns[i].Name == name {
			return &b.Columns[i]
		}
	}
	return nil
}

// benchProm appends the data to a new Prometheus TSDB in a temp dir with
// compactions disabled, then compacts the head into one block, measures
// the block's bytes and scans every series through a querier.
func benchProm(id *ingestData, goroutines int) ([]ingestRow, error) {
	dir, err := os.MkdirTemp("", "prom-ingest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	row := ingestRow{mode: "ingest", system: "prom", goroutines: goroutines, sync: "wal", samples: id.samples, fsyncs: -1, fsyncsMnt: -1}

	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	db, err := tsdb.Open(dir, logger, nil, tsdb.DefaultOptions(), nil)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.DisableCompactions()

	lbls := make([]labels.Labels, len(id.ss))
	for i, s := range id.ss {
		lbls[i] = labels.FromStrings(labels.MetricName, promMetric, "series", s.name)
	}
	refs := make([]storage.SeriesRef, len(id.ss)) // 0 until the first append
	ctx := context.Background()
	commits := make([]int64, goroutines)
	appenders := make([]*promAppender, goroutines)
	for g := range appenders {
		appenders[g] = &promAppender{db: db, ctx: ctx}
	}
	quiesce()
	start := time.Now()
	err = runSlices(id.prmPlan, goroutines, func(g int, sp span) error {
		return appenders[g].append(&id.ss[sp.s], &refs[sp.s], lbls[sp.s], sp.lo, sp.hi)
	}, func(g int) error {
		if appenders[g].app == nil {
			return nil // nothing of g's in this slice
		}
		commits[g]++
		return appenders[g].commit()
	})
	elapsed := time.Since(start)
	if err != nil {
		return nil, err
	}
	row.perSec = float64(id.samples) / elapsed.Seconds()
	for _, c := range commits {
		row.appends += c
	}

	// Bytes: the head compacted into a persistent block.
	h := db.Head()
	if err := db.CompactHead(tsdb.NewRangeHead(h, h.MinTime(), h.MaxTime())); err != nil {
		return nil, err
	}
	blocks := db.Blocks()
	if len(blocks) == 0 {
		return nil, errors.New("prom: no block after CompactHead")
	}
	var nblk uint64
	for _, b := range blocks {
		n, err := dirBytes(b.Dir())
		if err != nil {
			return nil, err
		}
		row.bytes += n
		nblk += b.Meta().Stats.NumSamples
	}
	if nblk != uint64(id.samples) {
		return nil, fmt.Errorf("prom: blocks hold %d samples, want %d", nblk, id.samples)
	}
	rows := []ingestRow{row}

	// Scan: every series through a querier, samples into slices.
	runtime.GC()
	start = time.Now()
	q, err := db.Querier(math.MinInt64, math.MaxInt64)
	if err != nil {
		return nil, err
	}
	times := make([]int64, 0, id.samples)
	vals := make([]float64, 0, id.samples)
	set := q.Select(ctx, false, nil, labels.MustNewMatcher(labels.MatchEqual, labels.MetricName, promMetric))
	var it chunkenc.Iterator
	for set.Next() {
		it = set.At().Iterator(it)
		for it.Next() == chunkenc.ValFloat {
			t, v := it.At()
			times = append(times, t)
			vals = append(vals, v)
		}
		if err := it.Err(); err != nil {
			q.Close()
			return nil, err
		}
	}
	err = set.Err()
	if cerr := q.Close(); err == nil {
		err = cerr
	}
	elapsed = time.Since(start)
	if err != nil {
		return nil, err
	}
	if len(times) != id.samples {
		return nil, fmt.Errorf("prom scan: %d samples, want %d", len(times), id.samples)
	}
	rows = append(rows, ingestRow{mode: "scan1", system: "prom", goroutines: goroutines, sync: "wal",
		samples: id.samples, perSec: float64(id.samples) / elapsed.Seconds(), fsyncs: -1, fsyncsMnt: -1, appends: -1, bytes: -1})
	return rows, nil
}

// promAppender is one goroutine's head appender: one Appender per slice,
// committed at the slice's end.
type promAppender struct {
	db  *tsdb.DB
	ctx context.Context
	app storage.Appender
}

func (a *promAppender) append(s *series, ref *storage.SeriesRef, l labels.Labels, lo, hi int) error {
	if a.app == nil {
		a.app = a.db.Appender(a.ctx)
	}
	var err error
	for i := lo; i < hi; i++ {
		if *ref, err = a.app.Append(*ref, l, s.ms[i], s.vals[i]); err != nil {
			return fmt.Errorf("series %q at %d: %w", s.name, s.ms[i], err)
		}
	}
	return nil
}

func (a *promAppender) commit() error {
	if a.app == nil {
		return nil
	}
	err := a.app.Commit()
	a.app = nil
	return err
}
