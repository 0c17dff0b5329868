package tsq

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsqdb/tsq/internal/vfs"
)

// rollFaultOpts: every append of two records is one frame (BlockRows 2,
// no merge at seal) and a segment takes a few frames, so rolls come
// often and at the same appends in every run.
func rollFaultOpts(sync SyncPolicy) Options {
	// no interval tick: the background seal is settled by the next
	// append or read only
	return Options{BlockRows: 2, SegmentMaxBytes: 1024, Sync: sync, SyncInterval: time.Hour, CacheBytes: NoCache}
}

// rollPair is append i's two records; field n says which.
func rollPair(i int) []Record {
	return []Record{rec(day0+int64(i), "a", int64(2*i)), rec(day0+int64(i), "b", int64(2*i+1))}
}

// firstRollingAppend runs appends on a counting ErrorFS and returns the
// index of the first one that rolls (a segment file appears) and the
// operations of each kind it made.
func firstRollingAppend(t *testing.T, sync SyncPolicy) (int, [vfsKinds]int) {
	t.Helper()
	mem := vfs.NewMem()
	efs := vfs.NewErrorFS(mem)
	s := openT(t, efs, rollFaultOpts(sync))
	defer closeT(t, s)
	segs := func() int {
		names, _ := mem.ReadDir("db/streams/ev")
		n := 0
		for _, nm := range names {
			if strings.HasSuffix(nm, ".seg") {
				n++
			}
		}
		return n
	}
	for i := range 200 {
		before := segs()
		var ops [vfsKinds]int
		for _, k := range vfs.OpKinds() {
			ops[k] = efs.Ops(k)
		}
		if _, err := s.Append(ctx, "ev", rollPair(i)...); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Count("ev"); err != nil { // settles a background seal
			t.Fatal(err)
		}
		if i > 0 && segs() > before {
			for _, k := range vfs.OpKinds() {
				ops[k] = efs.Ops(k) - ops[k]
			}
			return i, ops
		}
	}
	t.Fatal("no roll in 200 appends")
	return 0, [vfsKinds]int{}
}

const vfsKinds = 11 // len(vfs.OpKinds())

// TestRollFaults injects a failure (EIO, ENOSPC with a half write) at
// each file system operation of an append that rolls the active segment
// (seal: index, bloom, footer, fsync; then the new segment: create,
// header write, fsync, directory fsync) under SyncAlways: the append
// either succeeds or returns an error naming the stream and the cause;
// reads in the same Store see every acknowledged record and nothing
// torn; the next append works; the store reopens, from its files and
// from a crash image, with every acknowledged record and appends go on.
func TestRollFaults(t *testing.T) {
	if len(vfs.OpKinds()) != vfsKinds {
		t.Fatalf("%d op kinds", len(vfs.OpKinds()))
	}
	testRollFaults(t, SyncAlways)
}

// TestRollFaultsBuffered is TestRollFaults under SyncInterval, where a
// roll seals the old segment in the background and the new segment's
// header and directory entry are synced by that job: the failure
// surfaces at the append that rolls or at the next one that settles the
// job. Rows acknowledged but not yet fsynced may be lost then, and
// Close says so; if it does not, every acknowledged row is in the
// files.
func TestRollFaultsBuffered(t *testing.T) {
	testRollFaults(t, SyncInterval)
}

func testRollFaults(t *testing.T, sync SyncPolicy) {
	r, ops := firstRollingAppend(t, sync)
	t.Logf("append %d rolls; its ops: %v", r, ops)
	injected := 0
	for _, kind := range vfs.OpKinds() {
		for n := range ops[kind] {
			for _, fail := range []struct {
				err error
				opt vfs.FailOption
			}{{syscall.EIO, 0}, {syscall.ENOSPC, vfs.PartialWrite}, {syscall.EIO, vfs.Sticky}} {
				if fail.opt == vfs.PartialWrite && kind != vfs.OpWrite {
					continue
				}

				name := fmt.Sprintf("%v/%d/%v/opt=%d", kind, n, fail.err, fail.opt)
				t.Run(name, func(t *testing.T) {
					injected++
					rollFault(t, sync, r, kind, n, fail.err, fail.opt, false)
				})
				if fail.opt == 0 && kind != vfs.OpRemove {
					// and the cleanup of a half-made segment fails too
					t.Run(name+"/no-remove", func(t *testing.T) {
						rollFault(t, sync, r, kind, n, fail.err, fail.opt, true)
					})
				}
			}
		}
	}
	if injected < 8 {
		t.Fatalf("only %d injections", injected)
	}
}

func rollFault(t *testing.T, sync SyncPolicy, r int, kind vfs.OpKind, n int, ferr error, opt vfs.FailOption, noRemove bool) {
	mem := vfs.NewMem()
	efs := vfs.NewErrorFS(mem)
	s := openT(t, efs, rollFaultOpts(sync))
	acked := map[uint64]int64{}  // seq -> field n
	unknown := map[int64]bool{}  // field n of records whose append failed
	appended := map[int64]bool{} // field n of acknowledged records
	appendPair := func(i int) error {
		recs := rollPair(i)
		seqs, err := s.Append(ctx, "ev", recs...)
		if err != nil {
			for _, rc := range recs {
				unknown[rc.Fields[0].Value.Int()] = true
			}
			return err
		}
		for j, q := range seqs {
			acked[q] = recs[j].Fields[0].Value.Int()
			appended[acked[q]] = true
		}
		return nil
	}
	for i := range r {
		if err := appendPair(i); err != nil {
			t.Fatal(err)
		}
	}
	efs.FailAfter(kind, n, ferr, opt)
	if noRemove {
		efs.FailAfter(vfs.OpRemove, 0, syscall.EIO, vfs.Sticky)
	}
	err := appendPair(r)
	if _, cerr := s.Count("ev"); err == nil {
		err = cerr // a background seal failed
	}
	fired := efs.Injected(kind) > 0
	if opt&vfs.Sticky != 0 && err != nil {
		// a dead disk: appends keep failing (or succeed if they need no
		// such op), each with a clear error, until it is back
		for i := r + 1; i < r+3; i++ {
			if err := appendPair(i); err != nil && (!errors.Is(err, ferr) || !strings.Contains(err.Error(), `"ev"`)) {
				t.Fatalf("append on a dead disk: %v", err)
			}
		}
		r += 2
	}
	efs.Disarm()
	if err != nil {
		if !errors.Is(err, vfs.ErrInjected) || !errors.Is(err, ferr) || !strings.Contains(err.Error(), `"ev"`) {
			t.Fatalf("append error %v does not name the stream and wrap %v", err, ferr)
		}
		t.Logf("append error: %v", err)
	} else if fired {
		t.Logf("the failure did not fail the append")
	}
	// every acknowledged record, nothing torn, all or none of an append
	wantAcked := sync == SyncAlways
	check := func(s *Store, when string) {
		t.Helper()
		seen := map[uint64]int64{}
		for b, err := range s.Scan(ctx, "ev", ScanOptions{}) {
			if err != nil {
				t.Fatalf("%s: scan: %v", when, err)
			}
			for i := range b.Rows {
				rc := RecordAt(b, i)
				if len(rc.Fields) == 0 {
					t.Fatalf("%s: seq %d: no fields", when, rc.Seq)
				}
				seen[rc.Seq] = rc.Fields[0].Value.Int()
			}
		}
		for q, v := range acked {
			if !wantAcked {
				break
			}
			if got, ok := seen[q]; !ok || got != v {
				t.Fatalf("%s: acknowledged seq %d (n=%d) lost or changed: %d %v", when, q, v, got, ok)
			}
		}
		half := 0
		for q, v := range seen {
			if a, ok := acked[q]; ok && a == v {
				continue
			}
			if appended[v] && !unknown[v] {
				if _, ok := acked[q]; ok || wantAcked && sync == SyncAlways {
					t.Fatalf("%s: seq %d holds n=%d, acknowledged under another seq", when, q, v)
				}
				continue
			}
			if !unknown[v] && !appended[v] {
				t.Fatalf("%s: seq %d holds n=%d, never appended", when, q, v)
			}
			half++
		}
		if half%2 != 0 {
			t.Fatalf("%s: part of a failed append is visible (%d of its records)", when, half)
		}
	}
	check(s, "same store")
	if sync != SyncAlways {
		// the buffered rows lost with a failed seal are reported at Close;
		// until then only the rows appended after the failure count
		acked = map[uint64]int64{}
		wantAcked = true
	}
	for i := r + 1; i < r+4; i++ {
		if err := appendPair(i); err != nil {
			t.Fatalf("append after the failure: %v", err)
		}
	}
	check(s, "after more appends")
	if err := s.Close(); err != nil {
		if sync == SyncAlways || !strings.Contains(err.Error(), "lost") {
			t.Fatalf("Close: %v", err)
		}
		t.Logf("Close: %v", err)
	}
	rng := rand.New(rand.NewPCG(uint64(n), uint64(kind)))
	for i, c := range []*vfs.MemFS{mem.CrashClone(), mem.CrashCloneTorn(rng), mem} {
		s = openT(t, c, Options{})
		wantAcked = sync == SyncAlways || i == 2 // buffered: a crash may lose unsynced rows
		check(s, "reopened")
		if _, err := s.Append(ctx, "ev", rec(day0+1000, "c", 9999)); err != nil {
			t.Fatalf("append after reopen: %v", err)
		}
		closeT(t, s)
	}
}
