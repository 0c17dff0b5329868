package tsq

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/tsqdb/tsq/internal/vfs"
)

// Background rolls (roll.go): under SyncInterval and SyncNever a roll
// seals the old segment in the background while frames of the new one
// wait in memory.

// TestBackgroundRollReadsSeeQueued: frames queued behind a seal still in
// flight are not in a file yet, but a read waits for the seal and sees
// them; the old segment is then sealed. (Writes held at a gate keep the
// seal, which has no fsync, in flight until the read has started.)
func TestBackgroundRollReadsSeeQueued(t *testing.T) {
	mem := vfs.NewMem()
	fsys, gate := gatedWriteFS(mem)
	s := openT(t, fsys, Options{BlockRows: 4, Sync: SyncNever})
	defer closeT(t, s)
	for i := range 8 {
		if _, err := s.Append(ctx, "ev", rec(day0+int64(i), "a", int64(i))); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.Count("ev"); err != nil || n != 8 { // writes the frames being encoded
		t.Fatalf("Count = %d, %v; want 8", n, err)
	}
	var recs []Record
	for i := range 4 {
		recs = append(recs, rec(day0+dayNS+int64(i), "b", int64(8+i)))
	}
	// A full frame of day 2: being encoded, or encoded, placed (rolls) and
	// queued behind the seal, whose writes wait at the gate.
	gate.hold()
	release := sync.OnceFunc(gate.open)
	defer release() // before closeT, which a held write would block
	if _, err := s.Append(ctx, "ev", recs...); err != nil {
		t.Fatal(err)
	}
	if m := s.Metrics(); m.Frames != 2 || m.SegmentsRolled != 0 {
		t.Fatalf("while the seal runs: %d frames written, %d rolls settled; want 2, 0", m.Frames, m.SegmentsRolled)
	}
	time.AfterFunc(100*time.Millisecond, release) // once the read waits
	if n, err := s.Count("ev"); err != nil || n != 12 {
		t.Fatalf("Count = %d, %v; want 12", n, err)
	}
	if m := s.Metrics(); m.Frames != 3 || m.SegmentsRolled != 1 {
		t.Fatalf("after the read: %d frames, %d rolls", m.Frames, m.SegmentsRolled)
	}
	v, _ := s.readViewT("ev")
	if len(v.segs) != 2 || !v.segs[0].sealed || v.segs[1].sealed || len(v.segs[1].blocks) != 1 {
		t.Fatalf("view: %d segments", len(v.segs))
	}
	for q := uint64(1); q <= 12; q++ {
		r, err := s.Get("ev", q)
		if n, _ := r.Field("n"); err != nil || n.Int() != int64(q-1) {
			t.Fatalf("Get(%d) = %+v, %v", q, r, err)
		}
	}
}

// TestBackgroundRollCrash: crash clones taken at many moments of a
// replay that rolls every day, with seals in flight (sealed and created
// without fsyncs, durable.go), plain, torn and disordered (unsynced
// entries kept, pages lost out of order): each opens for writing,
// holds exactly seqs 1..k for some k (a prefix: segments after a damaged
// one are removed), every record intact, and at least every row
// acknowledged before the last interval tick. After Close all are
// there.
func TestBackgroundRollCrash(t *testing.T) {
	cuts := 0 // clones that removed or cut segments after a damaged one
	for seed := range uint64(6) {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) { cuts += testBackgroundRollCrash(t, seed) })
	}
	if cuts == 0 {
		t.Fatal("no clone had segments after a damaged one to remove")
	}
}

func testBackgroundRollCrash(t *testing.T, seed uint64) (cuts int) {
	mem := vfs.NewMem()
	rng := rand.New(rand.NewPCG(3, seed))
	s := openT(t, slowSyncFS(mem, 300*time.Microsecond), Options{BlockRows: 4, Sync: SyncInterval, SyncInterval: time.Hour})
	n := int64(0)
	check := func(clone *vfs.MemFS, durableRows int64, what string) {
		t.Helper()
		c, err := Open("db", &Options{FS: clone})
		if err != nil {
			t.Fatalf("%s: open the clone: %v", what, err)
		}
		defer closeT(t, c)
		if rec, err := c.Recovered("ev"); err == nil && len(rec.RemovedLater)+len(rec.CutDamaged) > 0 {
			cuts++
		}
		got := allSeqs(t, c, "ev")
		for i, q := range got {
			if q != uint64(i+1) {
				t.Fatalf("%s: seqs are not a prefix: position %d holds %d", what, i, q)
			}
		}
		if int64(len(got)) < durableRows {
			rec, _ := c.Recovered("ev")
			t.Fatalf("%s: %d rows, but %d were acknowledged before the last tick; recovery %+v", what, len(got), durableRows, rec)
		}
		for _, q := range got {
			if q%7 != 0 {
				continue
			}
			r, err := c.Get("ev", q)
			if v, _ := r.Field("n"); err != nil || v.Int() != int64(q-1) {
				t.Fatalf("%s: Get(%d) = %+v, %v", what, q, r, err)
			}
		}
	}
	var ticked int64 // rows acknowledged before the last tick
	for day := range int64(40) {
		rows := 1 + rng.IntN(9)
		for range rows {
			if _, err := s.Append(ctx, "ev", rec(day0+day*dayNS+n, "a", n)); err != nil {
				t.Fatal(err)
			}
			n++
		}
		if day%4 == 1 {
			s.st("ev").backgroundSync() // the interval tick
			ticked = n
		}
		switch day % 3 {
		case 0:
			check(mem.CrashClone(), ticked, "plain")
		case 1:
			check(mem.CrashCloneTorn(rng), ticked, "torn")
		default:
			check(mem.CrashCloneDisordered(rng), ticked, "disordered")
		}
	}
	if m := s.Metrics(); m.SegmentsRolled < 10 {
		t.Fatalf("only %d background rolls settled", m.SegmentsRolled)
	}
	closeT(t, s)
	check(mem.CrashClone(), n, "after Close")
	return cuts
}

// TestBackgroundRollSyncError: the tick's fsync of the segments a
// background roll sealed and created without one fails (durable.go):
// the tick counts a sync error, the next append recovers (cutting the
// segment whose fsync failed back to its header, removing later ones)
// and continues the seqs, Close reports the acknowledged rows lost, and
// the store reopens with a prefix of the seqs.
func TestBackgroundRollSyncError(t *testing.T) {
	mem := vfs.NewMem()
	efs := vfs.NewErrorFS(mem)
	s := openT(t, efs, Options{BlockRows: 4, Sync: SyncInterval, SyncInterval: time.Hour})
	for i := range 8 {
		if _, err := s.Append(ctx, "ev", rec(day0+int64(i), "a", int64(i))); err != nil {
			t.Fatal(err)
		}
	}
	var recs []Record
	for i := range 4 {
		recs = append(recs, rec(day0+dayNS+int64(i), "a", int64(8+i)))
	}
	if _, err := s.Append(ctx, "ev", recs...); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Count("ev"); err != nil { // settles the roll
		t.Fatal(err)
	}
	if st := s.st("ev"); len(st.dur.pending) == 0 {
		t.Fatal("the background roll left nothing to fsync")
	}
	efs.FailAfter(vfs.OpSync, 0, nil)
	s.st("ev").backgroundSync() // the interval tick
	if m := s.Metrics(); m.SyncErrors == 0 || efs.Injected(vfs.OpSync) == 0 {
		t.Fatalf("tick with a failing fsync: metrics %+v", m)
	}
	efs.Disarm()
	seqs, err := s.Append(ctx, "ev", rec(day0+dayNS+10, "a", 12)) // recovers first
	if err != nil || seqs[0] != 13 {
		t.Fatalf("append after the failure: %v, %v", seqs, err)
	}
	if err := s.Close(); err == nil {
		t.Fatal("Close reported no loss")
	}
	c := openT(t, mem.CrashClone(), Options{})
	defer closeT(t, c)
	got := allSeqs(t, c, "ev")
	for i, q := range got[:len(got)-1] {
		if q != uint64(i+1) {
			t.Fatalf("seqs %v: not a prefix before the last append", got)
		}
	}
	if got[len(got)-1] != 13 {
		t.Fatalf("seqs %v: the append after recovery is missing", got)
	}
}

// TestTickDuringReplay: a 1ms interval tick runs while 4 goroutines
// replay days of samples (background encodings and roll chains in
// flight, slow fsyncs): every sample comes back, seqs 1..n, and the
// segments are one per day. Run with -race.
func TestTickDuringReplay(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, slowSyncFS(mem, 100*time.Microsecond), Options{BlockRows: 16, Sync: SyncInterval, SyncInterval: time.Millisecond})
	const days, perDay, goroutines = 30, 40, 4
	for d := range int64(days) {
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				times, values := make([]int64, perDay/goroutines), make([]float64, perDay/goroutines)
				for i := range times {
					times[i] = day0 + d*dayNS + int64(g*1000+i)
					values[i] = float64(i)
				}
				if _, err := s.AppendSamples(ctx, "m", fmt.Sprintf("s%d", g), times, values); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	got := allSeqs(t, s, "m")
	if len(got) != days*perDay {
		t.Fatalf("%d samples, want %d", len(got), days*perDay)
	}
	for i, q := range got {
		if q != uint64(i+1) {
			t.Fatalf("seq %d at position %d", q, i)
		}
	}
	v, _ := s.readViewT("m")
	if len(v.segs) != days {
		t.Fatalf("%d segments, want %d", len(v.segs), days)
	}
	closeT(t, s)
}
