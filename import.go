package tsq

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	rtmetrics "runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsqdb/tsq/ingest"
	"github.com/tsqdb/tsq/seg"
)

// ImportOptions configure Store.Import. A nil *ImportOptions means the
// defaults.
type ImportOptions struct {
	// Format of the input; the zero value guesses it from Source's
	// extension, then from the first bytes.
	Format  ingest.Format
	Mapping ingest.Mapping
	// GuessTime, when Mapping names no time field, takes the time from a
	// field named like one (ingest.GuessTimeField: time, timestamp,
	// ts...) in the input's first record; ImportStats.TimeField says
	// which. Without it, or without such a field, rows get the import's
	// time.
	GuessTime bool
	// GuessSeries, when Mapping names none of series, key and op, takes
	// the series from a field named "series" and then, as tsq exports a
	// result, the key from "key" and the op from "op" if the input has
	// them (ingest.GuessRecord), and drops a "seq" field: an exported
	// stream imports back as it was. ImportStats.SeriesField, KeyField
	// and OpField say what was taken.
	GuessSeries bool
	// Create has the import make the stream: a stream that exists is
	// ErrStreamExists, and nothing is read.
	Create bool
	// SkipBad writes each bad row to Rejects and counts it instead of
	// aborting the import.
	SkipBad bool
	Rejects io.Writer
	// MemoryBudget bounds the import's working set in bytes (default
	// DefaultImportBudget, at least MinImportBudget): batches in flight,
	// encoded frames and the longest line all scale with it.
	MemoryBudget int64
	// Source names the input (a path, "-"); it is recorded in the
	// journal and its extension guides format guessing.
	Source string
	// Size is the input's size in bytes if known (for progress), else 0.
	Size int64
	// Progress, if set, is called every ProgressInterval (default 500ms)
	// from a goroutine of the import, and once at the end.
	Progress         func(ImportProgress)
	ProgressInterval time.Duration

	writeDelay time.Duration           // tests: slow the write stage per frame
	hook       func(step string) error // tests: called at each commit step
}

// Import budget bounds.
const (
	DefaultImportBudget = 64 << 20
	MinImportBudget     = 4 << 20
)

// ImportProgress is a snapshot of a running import.
type ImportProgress struct {
	Bytes       int64 // input bytes taken by the parsers (decompressed)
	ReadBytes   int64 // bytes of the input as given read so far (compressed, if it is)
	TotalBytes  int64 // ImportOptions.Size, 0 if unknown: the whole of ReadBytes
	Rows        int64 // rows staged
	Rejected    int64
	StagedBytes int64
	Elapsed     time.Duration
	RowsPerSec  float64
	BytesPerSec float64
	HeapInUse   uint64 // heap objects, bytes (whole process)
	Done        bool   // the last call
}

// ImportStats is the outcome of an import.
type ImportStats struct {
	ID          string
	Stream      string
	Format      ingest.Format
	Compression ingest.Compression // of the input (it was decompressed)
	UTF16       bool               // the input was UTF-16 text, read as UTF-8
	TimeField   string             // the field GuessTime took the time from ("" none)
	// The fields GuessSeries took the series, key and op from ("" none).
	SeriesField, KeyField, OpField string
	Rows                           int64
	Rejected                       int64
	Bytes                          int64 // input bytes read (decompressed)
	ReadBytes                      int64 // bytes of the input as given (compressed, if it is)
	StagedBytes                    int64 // bytes of the staged segment files
	Segments                       int
	FirstSeq                       uint64 // 0 when no row was imported
	LastSeq                        uint64
	MinTime                        int64 // the earliest and latest time of the rows imported (ns)
	MaxTime                        int64
	PeakHeap                       uint64 // largest sampled heap (objects, whole process)
	// Busy time of each stage, summed over its goroutines (the stages
	// overlap, so they can add up to more than Total), the commit and the
	// total.
	Parse, Encode, Write, Commit, Total time.Duration
}

// Import reads records from r and adds them to stream as one atomic
// commit: every row or none becomes visible. Rows are parsed, encoded
// and written to fsynced staging segments under <store>/staging/ in a
// pipeline whose memory is bounded by MemoryBudget, then published with
// one journal record; seqs are contiguous. While an import runs, appends
// to the stream wait, and other imports into it wait their turn; reads
// go on and see the stream as before the import until it commits. Import
// into a new stream creates it, hidden until the commit; a failed import
// removes it again (import_fresh.go). The context cancels the import,
// leaving no change. An input compressed with gzip, zstd or bzip2 is
// decompressed as it is read (a zstd frame's window counts against the
// budget: at most half of it, at least 8 MiB); UTF-16 text is read as
// UTF-8.
func (s *Store) Import(ctx context.Context, stream string, r io.Reader, o *ImportOptions) (ImportStats, error) {
	start := time.Now()
	var opts ImportOptions
	if o != nil {
		opts = *o
	}
	if opts.MemoryBudget == 0 {
		opts.MemoryBudget = DefaultImportBudget
	}
	if opts.MemoryBudget < MinImportBudget {
		return ImportStats{}, fmt.Errorf("%w: MemoryBudget %d is below %d", ErrInvalidOptions, opts.MemoryBudget, MinImportBudget)
	}
	if opts.ProgressInterval <= 0 {
		opts.ProgressInterval = 500 * time.Millisecond
	}
	if opts.Format == ingest.Guess {
		opts.Format = ingest.FormatFromPath(opts.Source)
	}
	if opts.Mapping.SeriesDefault == "" {
		opts.Mapping.SeriesDefault = stream
	}
	st, err := s.importStream(stream, opts.Create)
	if err != nil {
		return ImportStats{}, err
	}
	stats, err := s.importInto(ctx, st, r, &opts, start)
	if ferr := s.settleFresh(st, err == nil); ferr != nil {
		err = errors.Join(err, ferr)
	}
	return stats, err
}

func (s *Store) importInto(ctx context.Context, st *stream, r io.Reader, o *ImportOptions, start time.Time) (ImportStats, error) {
	opts := *o
	stream := st.name
	run := &importRun{s: s, st: st, o: &opts, start: start}
	run.stats.Stream = stream
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	run.cancel = cancel

	if err := st.acquireImport(ctx); err != nil {
		return run.stats, err
	}
	defer st.releaseImport()
	run.stats.ID = newImportID(stream)
	run.dir = filepath.Join(s.stagingDir(), run.stats.ID)
	liveImports.Store(run.dir, run)
	defer liveImports.Delete(run.dir)

	err := run.stage(ctx, r)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		if run.expiredByGC.Load() {
			err = errImportExpired
		}
		run.abandon()
		return run.finish(err)
	}
	return run.finish(run.commit())
}

// importRun is one running import.
type importRun struct {
	s      *Store
	st     *stream
	o      *ImportOptions
	dir    string // staging directory
	start  time.Time
	base   uint64 // the first seq
	cancel context.CancelFunc

	staged []stagedSeg
	stats  ImportStats

	// live counters for progress
	parsed    atomic.Int64
	rows      atomic.Int64
	rejected  atomic.Int64
	stagedB   atomic.Int64
	peak      atomic.Uint64
	inputDone atomic.Int64 // input bytes of the rows written to staging
	readIn    atomic.Int64 // bytes read of the input as given (compressed or not)

	expiredByGC atomic.Bool
}

// stagedSeg is one sealed segment file in the staging directory.
type stagedSeg struct {
	name   string
	rows   int64
	size   int64
	blocks []seg.BlockMeta
}

func (run *importRun) finish(err error) (ImportStats, error) {
	st := &run.stats
	st.Rows, st.Rejected, st.StagedBytes = run.rows.Load(), run.rejected.Load(), run.stagedB.Load()
	st.ReadBytes = run.readIn.Load()
	st.Segments = len(run.staged)
	st.Total = time.Since(run.start)
	run.sampleHeap()
	st.PeakHeap = run.peak.Load()
	if run.o.Progress != nil {
		p := run.progress()
		p.Done = true
		run.o.Progress(p)
	}
	if err != nil {
		return *st, fmt.Errorf("tsq: import into %q: %w", st.Stream, err)
	}
	return *st, nil
}

func (run *importRun) progress() ImportProgress {
	el := time.Since(run.start)
	p := ImportProgress{Bytes: run.parsed.Load(), ReadBytes: run.readIn.Load(), TotalBytes: run.o.Size, Rows: run.rows.Load(),
		Rejected: run.rejected.Load(), StagedBytes: run.stagedB.Load(), Elapsed: el, HeapInUse: heapInUse()}
	if sec := el.Seconds(); sec > 0 {
		p.RowsPerSec, p.BytesPerSec = float64(p.Rows)/sec, float64(p.Bytes)/sec
	}
	return p
}

var heapSample = []rtmetrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
var heapMu sync.Mutex

// heapInUse returns the bytes of heap objects, live or not yet swept.
func heapInUse() uint64 {
	heapMu.Lock()
	defer heapMu.Unlock()
	rtmetrics.Read(heapSample)
	if heapSample[0].Value.Kind() != rtmetrics.KindUint64 {
		return 0
	}
	return heapSample[0].Value.Uint64()
}

func (run *importRun) sampleHeap() {
	h := heapInUse()
	for {
		old := run.peak.Load()
		if h <= old || run.peak.CompareAndSwap(old, h) {
			return
		}
	}
}

// monitor samples the heap every 10ms and reports progress until done
// is closed.
func (run *importRun) monitor(done <-chan struct{}) {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
		run.sampleHeap()
		if run.o.Progress != nil && time.Since(last) >= run.o.ProgressInterval {
			last = time.Now()
			run.o.Progress(run.progress())
		}
	}
}

func newImportID(stream string) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s~%016x-%s", stream, time.Now().UnixNano(), hex.EncodeToString(b[:]))
}

// acquireImport waits for the stream's other imports, then takes the
// stream: its active segment is sealed (staged segments follow it) and
// commits wait until releaseImport. It sets run's base seq via the
// caller reading st.next under the lock afterwards.
func (st *stream) acquireImport(ctx context.Context) error {
	st.mu.Lock()
	if st.imp.sem == nil {
		st.imp.sem = make(chan struct{}, 1)
	}
	sem := st.imp.sem
	st.mu.Unlock()
	select {
	case sem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	err := st.prepareImport()
	if err != nil {
		<-sem
		return err
	}
	st.imp.active = true
	return nil
}

// prepareImport recovers a broken stream and seals its active segment.
// Caller holds mu.
func (st *stream) prepareImport() error {
	if st.closed {
		return streamErr(st.name, ErrClosed)
	}
	if st.broken != nil {
		if err := st.recover(); err != nil {
			return err
		}
	}
	st.applyMerges()
	if err := st.writePending(); err != nil {
		return err
	}
	if st.w != nil {
		if err := st.roll(); err != nil {
			return st.fail(err)
		}
		st.publish()
	}
	if err := st.syncUndurable(); err != nil { // staged segments follow durable ones (durable.go)
		return st.fail(err)
	}
	return nil
}

// releaseImport lets commits and the next import proceed.
func (st *stream) releaseImport() {
	st.mu.Lock()
	st.imp.active = false
	if st.imp.cond != nil {
		st.imp.cond.Broadcast()
	}
	st.mu.Unlock()
	<-st.imp.sem
}

// importGate serializes imports into a stream and holds its commits
// while one runs.
type importGate struct {
	sem    chan struct{} // capacity 1: the running import
	active bool          // an import holds the stream
	cond   *sync.Cond    // on the stream's mu; signalled at release
}

// waitImport waits while an import holds the stream. Caller holds mu.
func (st *stream) waitImport() {
	for st.imp.active {
		if st.imp.cond == nil {
			st.imp.cond = sync.NewCond(&st.mu)
		}
		st.imp.cond.Wait()
	}
}

// abandon removes the staging directory of a failed import.
func (run *importRun) abandon() {
	fsys := run.s.fs
	_ = fsys.RemoveAll(run.dir)
	_ = fsys.RemoveAll(run.dir + commitSuffix)
	_ = fsys.SyncDir(run.s.stagingDir())
}

var errImportExpired = errors.New("staging expired and was removed by GC")
