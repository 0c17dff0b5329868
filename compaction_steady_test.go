package tsq

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tsqdb/tsq/compact"
	"github.com/tsqdb/tsq/internal/vfs"
)

// TestCompactDefaults: the options' compaction defaults are the
// contract's: a 4h interval (for nil Options and CompactDefault), a
// tombstone cap of 32,000,000, early passes at most once per 30 s; a
// zero CompactInterval stays 0 (off). compact's own defaults (bloom
// cutoff, workers) are checked by its TestConfigDefaults.
func TestCompactDefaults(t *testing.T) {
	for _, o := range []*Options{nil, {CompactInterval: CompactDefault}} {
		c, err := o.withDefaults()
		if err != nil {
			t.Fatal(err)
		}
		if c.CompactInterval != 4*time.Hour || c.CompactTombstoneCap != 32_000_000 || c.CompactMinSpacing != 30*time.Second {
			t.Fatalf("defaults of %+v: interval %v, cap %d, spacing %v", o, c.CompactInterval, c.CompactTombstoneCap, c.CompactMinSpacing)
		}
	}
	c, err := (&Options{}).withDefaults()
	if err != nil || c.CompactInterval != 0 {
		t.Fatalf("zero Options: interval %v (%v), want 0: off", c.CompactInterval, err)
	}
	for _, bad := range []Options{{CompactInterval: -2}, {CompactTombstoneCap: -1}, {CompactMinSpacing: -1}} {
		if _, err := bad.withDefaults(); !errors.Is(err, ErrInvalidOptions) {
			t.Fatalf("%+v: %v, want ErrInvalidOptions", bad, err)
		}
	}
}

// TestCompactIntervalZero: CompactInterval 0 disables all background
// compaction: no watermark is floored at open, no live set is fed (so
// no early pass however many tombstones arrive), no pass runs by
// itself; Store.Compact still runs one, which floors W first. With an
// interval, a stream's W is floored when it opens (a new stream: 0,
// one below its first seq), before any pass.
func TestCompactIntervalZero(t *testing.T) {
	mem := vfs.NewMem()
	o := smallSegs
	o.CompactTombstoneCap = 5 // would trigger early passes with a live set
	o.CompactMinSpacing = time.Millisecond
	s := openT(t, mem, o)
	for i := range 50 {
		if _, err := s.Append(ctx, "ev", Record{Time: day0 + int64(i), Series: "a", Key: fmt.Sprint(i % 7), Op: OpDelete}); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(100 * time.Millisecond) // room for a pass, were one to run
	dir := filepath.Join("db", "streams", "ev")
	if _, ok, err := compact.LoadWatermark(mem, dir); ok || err != nil {
		t.Fatalf("a watermark before any pass with compaction off (%v)", err)
	}
	m := s.CompactionMetrics()
	if m.Passes != 0 || m.EarlyPasses != 0 || len(m.LiveSetLen) != 0 {
		t.Fatalf("compaction off: %d passes, %d early, live sets %v", m.Passes, m.EarlyPasses, m.LiveSetLen)
	}
	if _, err := s.Compact(ctx, "ev"); err != nil {
		t.Fatal(err)
	}
	if w, ok, err := compact.LoadWatermark(mem, dir); !ok || err != nil || w != 50 {
		t.Fatalf("after Store.Compact: W %d %v %v, want 50", w, ok, err)
	}
	closeT(t, s)

	o.CompactInterval = time.Hour
	s = openT(t, mem, o)
	defer closeT(t, s)
	if _, err := s.Append(ctx, "new", Record{Time: day0, Series: "a", Key: "k"}); err != nil {
		t.Fatal(err)
	}
	if w, ok, err := compact.LoadWatermark(mem, filepath.Join("db", "streams", "new")); !ok || err != nil || w != 0 {
		t.Fatalf("a new stream with compaction on: W %d %v %v, want 0 floored at open", w, ok, err)
	}
	if m := s.CompactionMetrics(); m.Passes != 0 || m.LiveSetLen["new"] != 1 {
		t.Fatalf("compaction on, before a pass: %d passes, live set %v", m.Passes, m.LiveSetLen)
	}
}

// TestCompactEarlyResetsTimer: an early pass restarts the interval. With
// a 2 s interval and an early pass at ~1.2 s, no interval pass runs at
// 2 s (the check at ~2.6 s leaves 0.6 s on either side of the two
// candidate ticks); the next one runs ~2 s after the early pass.
func TestCompactEarlyResetsTimer(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 4 s of wall time")
	}
	o := smallSegs
	o.CompactInterval = 2 * time.Second
	o.CompactTombstoneCap = 10
	o.CompactMinSpacing = time.Millisecond
	s := openT(t, vfs.NewMem(), o)
	defer closeT(t, s)
	start := time.Now()
	if _, err := s.Append(ctx, "ev", Record{Time: day0, Series: "a", Key: "k0"}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1200*time.Millisecond - time.Since(start))
	var recs []Record
	for i := range 10 { // reaches the cap: an early pass
		recs = append(recs, Record{Time: day0 + int64(i), Series: "a", Key: fmt.Sprint("k", i), Op: OpDelete})
	}
	if _, err := s.Append(ctx, "ev", recs...); err != nil {
		t.Fatal(err)
	}
	early := waitMetrics(t, s, 5*time.Second, func(m CompactionMetrics) bool { return m.EarlyPasses == 1 })
	if early.Watermark["ev"] != 11 {
		// Every row was in the active segment: the background pass
		// rotated it first.
		t.Fatalf("W %d after the early pass, want 11 (the active segment rotated)", early.Watermark["ev"])
	}
	if since := time.Since(start); since > 1900*time.Millisecond {
		t.Skipf("the early pass ran %v after the start, too late to tell the ticks apart (a loaded machine)", since)
	}
	time.Sleep(2600*time.Millisecond - time.Since(start))
	if m := s.CompactionMetrics(); m.Passes != early.Passes {
		t.Fatalf("%d passes at %v, want %d: the interval was not restarted by the early pass", m.Passes, time.Since(start), early.Passes)
	}
	waitMetrics(t, s, 5*time.Second, func(m CompactionMetrics) bool { return m.Passes > early.Passes })
	if since := time.Since(start); since < 3*time.Second {
		t.Fatalf("interval pass at %v, want about 3.2 s (2 s after the early pass)", since)
	}
}

// waitMetrics polls the compaction metrics until ok or the timeout.
func waitMetrics(t *testing.T, s *Store, timeout time.Duration, ok func(CompactionMetrics) bool) CompactionMetrics {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		m := s.CompactionMetrics()
		if ok(m) {
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("metrics %+v after %v", m, timeout)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestCompactionMetricsValues: the gauges and counters a pass reports,
// against a workload whose answers are known: 200 keyed puts of series
// a (one a second), 5 samples of series b, deletes of 10 of a's keys and
// a drop of b.
func TestCompactionMetricsValues(t *testing.T) {
	o := smallSegs
	o.CompactInterval = time.Hour // a live set; no pass runs by itself
	s := openT(t, vfs.NewMem(), o)
	defer closeT(t, s)
	rng := rand.New(rand.NewPCG(3, 3))
	var recs []Record
	for i := range 200 {
		pad := fmt.Sprintf("%016x%016x%016x%016x", rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64()) // several segments
		recs = append(recs, Record{Time: day0 + int64(i)*1e9, Series: "a", Key: fmt.Sprintf("k%03d", i), Fields: []Field{{"v", Int(int64(i))}, {"pad", Str(pad)}}})
	}
	for i := range 5 {
		recs = append(recs, Record{Time: day0 + int64(200+i)*1e9, Series: "b", Fields: []Field{{"v", Int(int64(i))}}})
	}
	for i := range 10 {
		recs = append(recs, Record{Time: day0 + int64(205+i)*1e9, Series: "a", Key: fmt.Sprintf("k%03d", i), Op: OpDelete})
	}
	recs = append(recs, Record{Time: day0 + 215e9, Series: "b", Op: OpDrop, Fields: []Field{{"reason", Str("test")}}})
	if _, err := s.Append(ctx, "ev", recs...); err != nil {
		t.Fatal(err)
	}
	m := s.CompactionMetrics()
	if m.LiveSetLen["ev"] != 201 || m.LiveSetBytes["ev"] <= 0 { // 200 pairs of a, b's drop
		t.Fatalf("live set before a pass: %d entries, %d bytes, want 201 and some", m.LiveSetLen["ev"], m.LiveSetBytes["ev"])
	}
	// A pass that stops at once seals every row: the lag is then the
	// event-time span of all of them.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Compact(cancelled, "ev"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled pass: %v", err)
	}
	if m = s.CompactionMetrics(); m.LagSeconds["ev"] != 215 || m.Watermark["ev"] != 0 {
		t.Fatalf("after a pass that did nothing: lag %v s, W %d, want 215 s and 0", m.LagSeconds["ev"], m.Watermark["ev"])
	}
	cs, err := s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	m = s.CompactionMetrics()
	switch {
	case m.Watermark["ev"] != 216 || m.LagSeconds["ev"] != 0:
		t.Fatalf("after a pass: W %d, lag %v, want 216 and 0", m.Watermark["ev"], m.LagSeconds["ev"])
	case m.LiveSetLen["ev"] != 0 || m.LiveSetBytes["ev"] != 0:
		t.Fatalf("after a pass: live set %d entries, %d bytes, want none", m.LiveSetLen["ev"], m.LiveSetBytes["ev"])
	case m.RowsRecord != 10 || m.RowsSeries != 5 || m.RowsUpdate != 0 || m.RowsSoftDeleted != 0:
		t.Fatalf("rows dropped: record %d, series %d, update %d, soft %d; want 10, 5, 0, 0", m.RowsRecord, m.RowsSeries, m.RowsUpdate, m.RowsSoftDeleted)
	case m.TombstonesRecord != 10 || m.TombstonesSeries != 1:
		t.Fatalf("tombstones: record %d, series %d; want 10 and 1", m.TombstonesRecord, m.TombstonesSeries)
	case m.SegmentsExamined != uint64(cs.SegmentsExamined) || m.SegmentsRewritten != uint64(cs.SegmentsRewritten) || m.SegmentsClean != uint64(cs.SegmentsClean):
		t.Fatalf("segments: metrics %d/%d/%d, pass %d/%d/%d", m.SegmentsExamined, m.SegmentsRewritten, m.SegmentsClean, cs.SegmentsExamined, cs.SegmentsRewritten, cs.SegmentsClean)
	case cs.SegmentsRewritten == 0 || cs.SegmentsClean == 0 || cs.SegmentsExamined < cs.SegmentsRewritten+cs.SegmentsClean:
		t.Fatalf("segments examined %d, rewritten %d, clean %d: want some of each (%+v)", cs.SegmentsExamined, cs.SegmentsRewritten, cs.SegmentsClean, cs)
	case m.Passes != 2 || m.FailedPasses != 1:
		t.Fatalf("%d passes, %d failed; want 2 and 1", m.Passes, m.FailedPasses)
	}
	var counted uint64
	for _, n := range m.PassDuration {
		counted += n
	}
	b := 0
	for cs.Duration > PassBucketBound(b) {
		b++
	}
	if counted != 2 || m.PassDuration[b] == 0 || PassBucketBound(0) != 10*time.Millisecond || PassBucketBound(3) != 80*time.Millisecond {
		t.Fatalf("histogram %v counts %d passes (the pass of %v in bucket %d), bounds %v %v", m.PassDuration, counted, cs.Duration, b, PassBucketBound(0), PassBucketBound(3))
	}
}

// TestCompactCancelledMidPass: a Store.Compact whose context is
// cancelled while a chunk's rewrites finish (at the third chunk's
// rewrite-before-watermark point) stops with the context's error and
// commits no W past the chunks done before: W on disk is what the
// metrics say, below the target; the folded view is unchanged and the
// next pass completes.
func TestCompactCancelledMidPass(t *testing.T) {
	mem := vfs.NewMem()
	o := smallSegs
	o.CompactTombstoneCap = 40 // several chunks
	s := openT(t, mem, o)
	defer closeT(t, s)
	all := workload(t, s, "ev", rand.New(rand.NewPCG(11, 11)), 1500, day0)
	before := fold(rawRows(t, s, "ev"))
	pass, cancel := context.WithCancel(ctx)
	defer cancel()
	seen := 0
	setCrash(t, s, "ev", func(p compact.Point) error {
		if p == compact.CrashRewriteBeforeWatermark {
			if seen++; seen == 3 {
				cancel()
			}
		}
		return nil
	})
	cs, err := s.Compact(pass, "ev")
	if !errors.Is(err, context.Canceled) || seen < 3 {
		t.Fatalf("pass: %v after %d chunks, want context.Canceled at the third", err, seen)
	}
	w, ok, lerr := compact.LoadWatermark(mem, filepath.Join("db", "streams", "ev"))
	if !ok || lerr != nil || w != cs.Watermark || w != s.CompactionMetrics().Watermark["ev"] || w >= cs.Target || w == 0 {
		t.Fatalf("W on disk %d (%v %v), pass says %d of target %d: want two chunks' end, committed and told", w, ok, lerr, cs.Watermark, cs.Target)
	}
	checkView(t, "after the cancelled pass", fold(rawRows(t, s, "ev")), before)
	// A failed pass stops no append.
	extra := Record{Time: day0 + 1e12, Series: "late", Fields: []Field{{"v", Int(1)}}}
	seqs, err := s.Append(ctx, "ev", extra)
	if err != nil {
		t.Fatalf("append after the cancelled pass: %v", err)
	}
	if r, err := s.Get("ev", seqs[0]); err != nil || r.Series != "late" {
		t.Fatalf("the append after the cancelled pass: %+v, %v", r, err)
	}
	before[fmt.Sprintf("late\x00s%d", seqs[0])] = seqs[0]
	setCrash(t, s, "ev", nil)
	cs, err = s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	raw := rawRows(t, s, "ev")
	checkView(t, "after the next pass", fold(raw), before)
	checkCompacted(t, all, raw, cs.Watermark)
}

// TestCompactTargetSealedOnly: a pass targets the largest seq of the
// sealed segments; rows appended while it runs go to the new active
// segment, above the target, and nothing of them is acted on: a delete
// appended meanwhile leaves its put for the next pass, though the live
// set holds it (a pass folds its tombstones from the sealed rows on
// disk, never from the live set).
func TestCompactTargetSealedOnly(t *testing.T) {
	o := smallSegs
	o.CompactInterval = time.Hour // a live set; no pass runs by itself
	s := openT(t, vfs.NewMem(), o)
	defer closeT(t, s)
	var recs []Record
	for i := range 100 {
		recs = append(recs, Record{Time: day0 + int64(i), Series: "a", Key: fmt.Sprint("k", i), Fields: []Field{{"v", Int(int64(i))}}})
	}
	if _, err := s.Append(ctx, "ev", recs...); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	var during []uint64
	setCrash(t, s, "ev", func(p compact.Point) error {
		once.Do(func() { // the first crash point: the pass is under way
			seqs, err := s.Append(ctx, "ev", Record{Time: day0 + 200, Series: "a", Key: "k0", Op: OpDelete})
			if err != nil {
				t.Error(err)
			}
			during = seqs
		})
		return nil
	})
	cs, err := s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	if m := s.CompactionMetrics(); m.LiveSetLen["ev"] != 1 {
		t.Fatalf("live set after the pass: %d entries, want 1 (the delete above W)", m.LiveSetLen["ev"])
	}
	if len(during) != 1 || cs.Target != 100 || cs.Watermark != 100 || cs.RowsRecord != 0 {
		t.Fatalf("pass: target %d, W %d, %d rows dropped, delete appended during it at %v; want 100, 100, 0, [101]", cs.Target, cs.Watermark, cs.RowsRecord, during)
	}
	if _, err := s.Get("ev", 1); err != nil {
		t.Fatalf("k0's put after the pass: %v, want it kept for the next pass", err)
	}
	setCrash(t, s, "ev", nil)
	if cs, err = s.Compact(ctx, "ev"); err != nil || cs.RowsRecord != 1 || cs.Target != 101 {
		t.Fatalf("next pass: %+v, %v; want k0's put dropped, target 101", cs, err)
	}
}

// TestCompactShrinksDeletedBitmap: soft-deleted rows leave the deleted
// bitmap, on disk too, once a pass removed them.
func TestCompactShrinksDeletedBitmap(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, smallSegs)
	defer closeT(t, s)
	var recs []Record
	for i := range 2000 {
		recs = append(recs, Record{Time: day0 + int64(i), Series: "a", Fields: []Field{{"v", Int(int64(i))}}})
	}
	if _, err := s.Append(ctx, "ev", recs...); err != nil {
		t.Fatal(err)
	}
	var seqs []uint64
	for q := uint64(1); q <= 2000; q += 3 {
		seqs = append(seqs, q)
	}
	if err := s.Delete(ctx, "ev", seqs...); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("db", "streams", "ev", "deleted.bitmap")
	size := func() int64 {
		fi, err := mem.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	if m, n := s.Metrics(), size(); m.DeletedRows != uint64(len(seqs)) || n < 500 {
		t.Fatalf("before the pass: %d deleted rows, file of %d bytes", m.DeletedRows, n)
	}
	cs, err := s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	if m, n := s.Metrics(), size(); cs.RowsSoftDeleted != int64(len(seqs)) || m.DeletedRows != 0 || n > 40 {
		t.Fatalf("after the pass: %d rows removed, %d deleted rows left, file of %d bytes", cs.RowsSoftDeleted, m.DeletedRows, n)
	}
}

// TestCompactSnapshotBoundedByCap: a pass's tombstone snapshot, its
// dominant memory, stays within the cap (plus one block's rows: a chunk
// ends at the block where the snapshot reaches it) whatever the
// archive's size; a larger archive takes more chunks, not more memory.
// (BenchmarkCompactMemory measures the heap.)
func TestCompactSnapshotBoundedByCap(t *testing.T) {
	const capN = 60
	var chunks []int
	for _, n := range []int{1000, 4000} {
		o := smallSegs
		o.CompactTombstoneCap = capN
		s := openT(t, vfs.NewMem(), o)
		var recs []Record // n distinct keys put, every third deleted
		for i := range n {
			recs = append(recs, Record{Time: day0 + int64(i), Series: fmt.Sprint("s", i%5), Key: fmt.Sprint("k", i), Fields: []Field{{"v", Int(int64(i))}}})
			if i%3 == 0 {
				recs = append(recs, Record{Time: day0 + int64(i), Series: fmt.Sprint("s", i%5), Key: fmt.Sprint("k", i), Op: OpDelete})
			}
		}
		if _, err := s.Append(ctx, "ev", recs...); err != nil {
			t.Fatal(err)
		}
		cs, err := s.Compact(ctx, "ev")
		if err != nil {
			t.Fatal(err)
		}
		if cs.SnapshotEntries > capN+o.BlockRows || cs.SnapshotEntries < capN {
			t.Fatalf("%d rows: largest snapshot %d entries, cap %d", n, cs.SnapshotEntries, capN)
		}
		if want := int64((n + 2) / 3); cs.RowsRecord != want {
			t.Fatalf("%d rows: %d dropped, want %d", n, cs.RowsRecord, want)
		}
		chunks = append(chunks, cs.Chunks)
		closeT(t, s)
	}
	if chunks[1] < 3*chunks[0] {
		t.Fatalf("chunks %v: four times the archive should take about four times the chunks", chunks)
	}
}
