package tsq

import (
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tsqdb/tsq/compact"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

var errCrash = errors.New("simulated crash")

// setCrash makes the stream's next passes stop at point p.
func setCrash(t testing.TB, s *Store, stream string, fn func(compact.Point) error) {
	t.Helper()
	st, err := s.stream(stream, false)
	if err != nil {
		t.Fatal(err)
	}
	st.cmp.pass.Lock()
	st.cmp.crash = fn
	st.cmp.pass.Unlock()
}

// tmpFiles lists the temp files in a stream directory.
func tmpFiles(t testing.TB, fsys vfs.FS, dir string) []string {
	t.Helper()
	names, err := fsys.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range names {
		if strings.HasSuffix(n, ".tmp") {
			out = append(out, n)
		}
	}
	return out
}

// TestCompactCrashPoints crashes a pass at each named point (the rewrite's
// tmp written / synced / renamed / dir synced, after the rewrite before
// the watermark, after the watermark before eviction), at the first and
// at a later occurrence: the durable state then reopens, has no temp
// file, the same folded view, and the next pass leaves nothing below W
// that should be gone. Passes of several chunks and of one (the
// single-chunk fold) are crashed so.
func TestCompactCrashPoints(t *testing.T) {
	for _, p := range compact.Points() {
		for _, nth := range []int{1, 4, 0, -1} {
			name := string(p) + "/" + string(rune('0'+nth))
			live := nth < 0
			switch nth {
			case 0:
				name, nth = string(p)+"/single", 1
			case -1: // background compaction on: a live set, rebuilt at open
				name, nth = string(p)+"/live", 1
			}
			t.Run(name, func(t *testing.T) {
				mem := vfs.NewMem()
				o := smallSegs
				o.CompactTombstoneCap = 40 // several chunks: later points hit later chunks
				if strings.HasSuffix(name, "/single") || live {
					o.CompactTombstoneCap = 0 // the default: one chunk (and no early pass)
				}
				if live {
					o.CompactInterval = time.Hour // no pass runs by itself
				}
				s := openT(t, mem, o)
				all := workload(t, s, "ev", rand.New(rand.NewPCG(7, uint64(nth))), 1500, day0)
				before := fold(rawRows(t, s, "ev"))
				var (
					mu      sync.Mutex // a chunk's rewrites run in parallel
					crashed *vfs.MemFS
					seen    int
				)
				setCrash(t, s, "ev", func(q compact.Point) error {
					mu.Lock()
					defer mu.Unlock()
					if q == p {
						if seen++; seen == nth {
							crashed = mem.CrashClone()
							return errCrash
						}
					}
					return nil
				})
				_, err := s.Compact(ctx, "ev")
				if crashed == nil {
					t.Fatalf("point %s reached %d times, not %d (err %v)", p, seen, nth, err)
				}
				if !errors.Is(err, errCrash) {
					t.Fatalf("pass error %v, want the crash", err)
				}
				_ = s.Close()

				s = openT(t, crashed, o)
				defer closeT(t, s)
				if _, err := s.Recovered("ev"); err != nil {
					t.Fatal(err)
				}
				if tmp := tmpFiles(t, crashed, "db/streams/ev"); len(tmp) > 0 {
					t.Fatalf("temp files after reopen: %v", tmp)
				}
				checkView(t, "after crash", fold(rawRows(t, s, "ev")), before)
				if live {
					// The live set holds the tombstones above W, folded
					// from disk at open: every (series, key) of a keyed
					// put or delete, every series of a drop.
					m := s.CompactionMetrics()
					w := m.Watermark["ev"]
					want := map[string]bool{}
					for _, r := range rawRows(t, s, "ev") {
						switch {
						case r.seq <= w:
						case r.op == OpDrop:
							want["d\x00"+r.series] = true
						case r.key != "":
							want["r\x00"+r.series+"\x00"+r.key] = true
						}
					}
					if got := m.LiveSetLen["ev"]; got != len(want) || (got == 0 && w < all[len(all)-1].seq) {
						t.Fatalf("live set of %d entries after reopening at W %d, want %d", got, w, len(want))
					}
				}
				st, err := s.Compact(ctx, "ev")
				if err != nil {
					t.Fatal(err)
				}
				raw := rawRows(t, s, "ev")
				checkView(t, "after next pass", fold(raw), before)
				checkCompacted(t, all, raw, st.Watermark)
				if st.Watermark != all[len(all)-1].seq {
					t.Fatalf("W %d, want %d", st.Watermark, all[len(all)-1].seq)
				}
				if m := s.CompactionMetrics(); live && (m.LiveSetLen["ev"] != 0 || m.LiveSetBytes["ev"] != 0) {
					t.Fatalf("live set of %d entries, %d bytes after a pass to the tip, want none", m.LiveSetLen["ev"], m.LiveSetBytes["ev"])
				}
			})
		}
	}
}

// TestCompactRefreshFailReconciles stops a pass after a rewrite is
// durable but before the store reloaded the segment: reads keep the old
// file's rows, and the next pass finds the mismatch by checksum and
// reloads it.
func TestCompactRefreshFailReconciles(t *testing.T) {
	s := openT(t, vfs.NewMem(), smallSegs)
	defer closeT(t, s)
	all := workload(t, s, "ev", rand.New(rand.NewPCG(9, 9)), 1500, day0)
	before := fold(rawRows(t, s, "ev"))
	setCrash(t, s, "ev", func(q compact.Point) error {
		if q == compact.Point(seg.CrashDirSynced) {
			return errCrash
		}
		return nil
	})
	if _, err := s.Compact(ctx, "ev"); !errors.Is(err, errCrash) {
		t.Fatalf("err %v", err)
	}
	checkView(t, "stale metadata", fold(rawRows(t, s, "ev")), before)
	setCrash(t, s, "ev", nil)
	st, err := s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	if st.Reconciled == 0 {
		t.Fatalf("no segment reconciled: %+v", st)
	}
	if m := s.CompactionMetrics(); m.Reconciles == 0 || m.FailedPasses != 1 || m.Passes != 2 {
		t.Fatalf("metrics %+v", m)
	}
	raw := rawRows(t, s, "ev")
	checkView(t, "after reconcile", fold(raw), before)
	checkCompacted(t, all, raw, st.Watermark)
}

// TestCompactENOSPC fails a write of a rewrite's temp file with ENOSPC:
// the pass fails, the temp file is gone and no extra space stays used,
// the store reopens, and the next pass succeeds.
func TestCompactENOSPC(t *testing.T) {
	mem := vfs.NewMem()
	efs := vfs.NewErrorFS(mem)
	s := openT(t, efs, smallSegs)
	all := workload(t, s, "ev", rand.New(rand.NewPCG(11, 1)), 1500, day0)
	before := fold(rawRows(t, s, "ev"))
	closeT(t, s)
	s = openT(t, efs, smallSegs)
	size := dirBytes(t, mem, "db/streams/ev")
	// Let the seal of the active segment and the first frames of the
	// first rewrite through, then the disk is full.
	efs.FailAfter(vfs.OpWrite, 6, syscall.ENOSPC, vfs.PartialWrite, vfs.Sticky)
	_, err := s.Compact(ctx, "ev")
	t.Logf("pass error: %v", err)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("pass error %v, want ENOSPC", err)
	}
	efs.Disarm()
	if tmp := tmpFiles(t, mem, "db/streams/ev"); len(tmp) > 0 {
		t.Fatalf("temp files left: %v", tmp)
	}
	if got := dirBytes(t, mem, "db/streams/ev"); got > size+1024 {
		t.Fatalf("stream dir holds %d bytes after the failed pass, %d before", got, size)
	}
	checkView(t, "after ENOSPC", fold(rawRows(t, s, "ev")), before)
	_ = s.Close()
	s = openT(t, efs, smallSegs)
	defer closeT(t, s)
	checkView(t, "reopened", fold(rawRows(t, s, "ev")), before)
	st, err := s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	raw := rawRows(t, s, "ev")
	checkView(t, "next pass", fold(raw), before)
	checkCompacted(t, all, raw, st.Watermark)
}

func dirBytes(t testing.TB, fsys vfs.FS, dir string) int64 {
	t.Helper()
	names, err := fsys.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, name := range names {
		fi, err := fsys.Stat(dir + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		n += fi.Size()
	}
	return n
}
