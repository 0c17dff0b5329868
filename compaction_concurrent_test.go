package tsq

import (
	"bytes"
	"log/slog"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tsqdb/tsq/compact"
	"github.com/tsqdb/tsq/internal/vfs"
)

// rowLog is the rows appenders were told were stored.
type rowLog struct {
	mu   sync.Mutex
	rows []rowInfo
}

func (l *rowLog) add(rs []rowInfo) {
	l.mu.Lock()
	l.rows = append(l.rows, rs...)
	l.mu.Unlock()
}

func (l *rowLog) snapshot() []rowInfo {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := slices.Clone(l.rows)
	slices.SortFunc(out, func(a, b rowInfo) int {
		if a.seq < b.seq {
			return -1
		}
		return 1
	})
	return out
}

// checkNoneCompacted fails if raw holds a row at or below w that a
// logged row at or below w supersedes. The log may lack rows whose
// append has not returned yet: that only weakens the check.
func checkNoneCompacted(t testing.TB, logged, raw []rowInfo, w uint64) bool {
	t.Helper()
	gone := supersededUpTo(logged, w)
	for _, r := range raw {
		if r.seq <= w && gone[r.seq] {
			t.Errorf("reader saw seq %d (%+v), compacted away below W=%d", r.seq, r, w)
			return false
		}
	}
	return true
}

// TestCompactConcurrent runs passes while appenders write and readers
// scan and get (run it with -race): a read that starts after W was
// committed never sees a row the pass removed below W, neither from a
// file nor from a cached block.
func TestCompactConcurrent(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, smallSegs)
	defer closeT(t, s)
	st, err := s.stream("ev", true)
	if err != nil {
		t.Fatal(err)
	}
	var log rowLog
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 5))
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				log.add(workload(t, s, "ev", rng, 10, day0+int64(i*10)))
			}
		}()
	}
	var reads atomic.Int64
	var vanished sync.Map
	var deleted sync.Map // seqs whose Delete returned
	wg.Add(1)
	go func() { // soft-deletes samples it sees
		defer wg.Done()
		rng := rand.New(rand.NewPCG(9, 1))
		for {
			select {
			case <-stop:
				return
			default:
			}
			raw := rawRows(t, s, "ev")
			var seqs []uint64
			for _, r := range raw {
				if r.op == OpPut && r.key == "" && rng.IntN(10) == 0 {
					seqs = append(seqs, r.seq)
				}
			}
			if len(seqs) == 0 {
				continue
			}
			// A sample may be compacted away (dropped) meanwhile: then
			// nothing is deleted.
			if err := s.Delete(ctx, "ev", seqs...); err != nil {
				if !errorsIs(err, ErrNotFound) {
					t.Errorf("Delete: %v", err)
					return
				}
				continue
			}
			for _, q := range seqs {
				deleted.Store(q, true)
			}
			time.Sleep(time.Millisecond)
		}
	}()
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				w := st.cmp.w.Load()
				var gone []uint64
				deleted.Range(func(k, _ any) bool { gone = append(gone, k.(uint64)); return true })
				raw := rawRows(t, s, "ev")
				seen := map[uint64]bool{}
				for _, r := range raw {
					seen[r.seq] = true
				}
				for _, q := range gone {
					if seen[q] {
						t.Errorf("reader saw soft-deleted seq %d", q)
						return
					}
				}
				if !checkNoneCompacted(t, log.snapshot(), raw, w) {
					return
				}
				for _, r := range raw[:min(len(raw), 20)] {
					// A row may vanish between the scan and the Get only if
					// a pass removed it: checked against the whole log at
					// the end.
					if _, err := s.Get("ev", r.seq); err != nil {
						if !errorsIs(err, ErrNotFound) {
							t.Errorf("Get %d: %v", r.seq, err)
							return
						}
						vanished.Store(r.seq, true)
					}
				}
				reads.Add(1)
			}
		}()
	}
	passes := 0
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline) && !t.Failed(); {
		cs, err := s.Compact(ctx, "ev")
		if err != nil {
			t.Error(err)
			break
		}
		passes++
		// Right after the pass, every read sees the compacted files.
		if !checkNoneCompacted(t, log.snapshot(), rawRows(t, s, "ev"), cs.Watermark) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if passes < 3 || reads.Load() == 0 {
		t.Fatalf("%d passes, %d reads", passes, reads.Load())
	}
	all := log.snapshot()
	ndel := 0
	deleted.Range(func(k, _ any) bool { ndel++; return true })
	// Soft-deleted samples supersede nothing: leave them out of the log.
	kept := all[:0:0]
	for _, r := range all {
		if _, ok := deleted.Load(r.seq); !ok {
			kept = append(kept, r)
		}
	}
	gone := supersededUpTo(all, math.MaxUint64)
	vanished.Range(func(k, _ any) bool {
		if !gone[k.(uint64)] {
			t.Errorf("seq %d vanished between a scan and a Get but is not superseded", k)
		}
		return true
	})
	before := fold(rawRows(t, s, "ev"))
	cs, err := s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	raw := rawRows(t, s, "ev")
	checkView(t, "final", fold(raw), before)
	checkCompacted(t, kept, raw, cs.Watermark)
	if ndel == 0 {
		t.Fatal("no soft delete succeeded")
	}
	t.Logf("%d passes, %d reads, %d soft deletes, %d rows kept of %d", passes, reads.Load(), ndel, len(raw), len(all))
}

// TestCompactBackground runs the steady compactor: early passes when the
// live set reaches the cap, interval passes, a failed pass logged and
// retried while appends go on.
func TestCompactBackground(t *testing.T) {
	var logBuf syncBuffer
	o := smallSegs
	o.CompactInterval = 50 * time.Millisecond
	o.CompactTombstoneCap = 30
	o.CompactMinSpacing = 20 * time.Millisecond
	o.Logger = slog.New(slog.NewTextHandler(&logBuf, nil))
	s := openT(t, vfs.NewMem(), o)
	defer closeT(t, s)
	rng := rand.New(rand.NewPCG(2, 2))
	all := workload(t, s, "ev", rng, 100, day0)
	var failed atomic.Bool
	setCrash(t, s, "ev", func(p compact.Point) error {
		if p == compact.CrashRewriteBeforeWatermark && failed.CompareAndSwap(false, true) {
			return errCrash
		}
		return nil
	})
	for i := range 60 {
		all = append(all, workload(t, s, "ev", rng, 40, day0+int64(1000+i*40))...)
		time.Sleep(5 * time.Millisecond)
	}
	deadline := time.Now().Add(5 * time.Second)
	var m CompactionMetrics
	for time.Now().Before(deadline) {
		m = s.CompactionMetrics()
		if m.EarlyPasses > 0 && m.Passes > m.FailedPasses+1 && m.Watermark["ev"] > 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if m.EarlyPasses == 0 || m.FailedPasses == 0 || m.Passes <= m.FailedPasses {
		t.Fatalf("metrics %+v", m)
	}
	if !bytes.Contains(logBuf.Bytes(), []byte("compaction pass failed")) {
		t.Fatalf("failed pass not logged: %q", logBuf.String())
	}
	var hist uint64
	for _, n := range m.PassDuration {
		hist += n
	}
	if hist != m.Passes {
		t.Fatalf("histogram counts %d passes, %d ran", hist, m.Passes)
	}
	before := fold(rawRows(t, s, "ev"))
	cs, err := s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	raw := rawRows(t, s, "ev")
	checkView(t, "background", fold(raw), before)
	checkCompacted(t, all, raw, cs.Watermark)
	if m := s.CompactionMetrics(); m.LiveSetLen["ev"] != 0 || m.LagSeconds["ev"] != 0 {
		t.Fatalf("after a full pass: live set %d, lag %v", m.LiveSetLen["ev"], m.LagSeconds["ev"])
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.b.Bytes())
}

func (b *syncBuffer) String() string { return string(b.Bytes()) }

// TestCompactEarlySpacing: early passes come at most once per
// CompactMinSpacing however often the live set reaches the cap.
func TestCompactEarlySpacing(t *testing.T) {
	o := smallSegs
	o.CompactInterval = time.Hour
	o.CompactTombstoneCap = 5
	o.CompactMinSpacing = time.Hour
	s := openT(t, vfs.NewMem(), o)
	defer closeT(t, s)
	rng := rand.New(rand.NewPCG(4, 4))
	deadline := time.Now().Add(5 * time.Second)
	for s.CompactionMetrics().EarlyPasses == 0 && time.Now().Before(deadline) {
		workload(t, s, "ev", rng, 50, day0)
		time.Sleep(5 * time.Millisecond)
	}
	for range 20 { // the cap is reached again and again
		workload(t, s, "ev", rng, 50, day0)
		time.Sleep(5 * time.Millisecond)
	}
	m := s.CompactionMetrics()
	if m.EarlyPasses != 1 || m.Passes != 1 {
		t.Fatalf("early passes %d, passes %d; want exactly one within the spacing", m.EarlyPasses, m.Passes)
	}
	if m.LiveSetLen["ev"] < 5 {
		t.Fatalf("live set %d: the cap was not reached again", m.LiveSetLen["ev"])
	}
}
