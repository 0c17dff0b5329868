package tsq

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
)

// TestSyncInterval: appends are acknowledged before fsync; the background
// syncer makes them durable within about one interval.
func TestSyncInterval(t *testing.T) {
	fsys := vfs.NewMem()
	s := openT(t, fsys, Options{Sync: SyncInterval, SyncInterval: 5 * time.Millisecond})
	defer closeT(t, s)
	if _, err := s.Append(ctx, "ev", rec(day0, "a", 1), rec(day0+1, "a", 2)); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Count("ev"); n != 2 {
		t.Fatalf("Count = %d before sync", n)
	}
	deadline := time.Now().Add(2 * time.Second)
	for s.Metrics().Fsyncs == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	c := openT(t, fsys.CrashClone(), Options{ReadOnly: true})
	defer closeT(t, c)
	if n, err := c.Count("ev"); err != nil || n != 2 {
		t.Fatalf("after interval sync, crash state holds %d, %v", n, err)
	}
}

// TestClosed: a closed store refuses work; Close twice is fine.
func TestClosed(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{})
	if _, err := s.Append(ctx, "ev", rec(day0, "a", 1)); err != nil {
		t.Fatal(err)
	}
	closeT(t, s)
	closeT(t, s)
	if _, err := s.Append(ctx, "ev", rec(day0, "a", 1)); !errors.Is(err, ErrClosed) {
		t.Fatalf("Append after Close: %v", err)
	}
	if _, err := s.Get("ev", 1); !errors.Is(err, ErrClosed) {
		t.Fatalf("Get after Close: %v", err)
	}
}

// TestCancelledContext: a cancelled context stops an append before it
// is written.
func TestCancelledContext(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{})
	defer closeT(t, s)
	c, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Append(c, "ev", rec(day0, "a", 1)); !errors.Is(err, context.Canceled) {
		t.Fatalf("Append = %v", err)
	}
	if _, err := s.AppendSamples(c, "ev", "a", []int64{1}, []float64{1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("AppendSamples = %v", err)
	}
}

// TestDaysOutOfOrder: records whose days go back stay in the segment of
// the latest day (a segment rolls when the data's day advances past its
// own: were it to roll at every change of day, out-of-order data would
// make a segment of each record), one of a later day rolls; reads still
// find every seq.
func TestDaysOutOfOrder(t *testing.T) {
	fsys := vfs.NewMem()
	s := openT(t, fsys, Options{})
	day := int64(24 * time.Hour)
	for i, d := range []int64{2, 0, 1, 0} {
		if _, err := s.Append(ctx, "ev", rec(day0+d*day, "a", int64(i))); err != nil {
			t.Fatal(err)
		}
	}
	closeT(t, s)
	want := []string{"2026-12-03-0000000000000001.seg"}
	if got := segFiles(t, fsys, "ev"); !slices.Equal(got, want) {
		t.Fatalf("segments %v", got)
	}
	s = openT(t, fsys, Options{})
	for q := uint64(1); q <= 4; q++ {
		r, err := s.Get("ev", q)
		if v, _ := r.Field("n"); err != nil || v.Int() != int64(q-1) {
			t.Fatalf("Get(%d) = %+v, %v", q, r, err)
		}
	}
	if ids, _ := s.IDsOlderThan("ev", day0+day); !slices.Equal(ids, []uint64{2, 4}) {
		t.Fatalf("IDsOlderThan = %v", ids)
	}
	if seqs, err := s.Append(ctx, "ev", rec(day0, "a", 9)); err != nil || seqs[0] != 5 {
		t.Fatalf("append = %v, %v", seqs, err)
	}
	if seqs, err := s.Append(ctx, "ev", rec(day0+3*day, "a", 10)); err != nil || seqs[0] != 6 {
		t.Fatalf("append = %v, %v", seqs, err)
	}
	closeT(t, s)
	want = []string{"2026-12-03-0000000000000001.seg", "2026-12-04-0000000000000006.seg"}
	if got := segFiles(t, fsys, "ev"); !slices.Equal(got, want) {
		t.Fatalf("after a later day: segments %v", got)
	}
	s = openT(t, fsys, Options{})
	defer closeT(t, s)
	for q := uint64(1); q <= 6; q++ {
		if _, err := s.Get("ev", q); err != nil {
			t.Fatalf("Get(%d): %v", q, err)
		}
	}
}

// TestTornCreate: a last segment file shorter than a header (a crash
// inside segment creation) is removed at open and reported.
func TestTornCreate(t *testing.T) {
	fsys := vfs.NewMem()
	s := openT(t, fsys, Options{})
	if _, err := s.Append(ctx, "ev", rec(day0, "a", 1)); err != nil {
		t.Fatal(err)
	}
	closeT(t, s)
	path := filepath.Join("db", "streams", "ev", segName(dayOf(day0), 2))
	f, err := fsys.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("TSQS\x01\x02e"))
	f.Close()
	s = openT(t, fsys, Options{})
	defer closeT(t, s)
	rec, err := s.Recovered("ev")
	if err != nil || len(rec.RemovedTorn) != 1 || !rec.Truncated() {
		t.Fatalf("Recovered = %+v, %v", rec, err)
	}
	if m := s.Metrics(); m.RecoveryRemovedFiles != 1 {
		t.Fatalf("metrics %+v", m)
	}
	if seqs, err := s.Append(ctx, "ev", rec2()); err != nil || seqs[0] != 2 {
		t.Fatalf("append = %v, %v", seqs, err)
	}
}

func rec2() Record { return rec(day0+1, "b", 2) }

// TestCorruptBlock: a flipped byte in a stored block of a sealed
// segment is reported as corruption naming the file, never returned as
// data.
func TestCorruptBlock(t *testing.T) {
	fsys := vfs.NewMem()
	s := openT(t, fsys, Options{})
	day := int64(24 * time.Hour)
	if _, err := s.Append(ctx, "ev", rec(day0, "a", 1), rec(day0+day, "a", 2)); err != nil {
		t.Fatal(err)
	}
	v, _ := s.readViewT("ev")
	sf := v.segs[0]
	if !sf.sealed {
		t.Fatal("first segment not sealed")
	}
	off := sf.blocks[0].Offset + int64(sf.blocks[0].Length) - 10 // inside the block
	closeT(t, s)
	f, _ := fsys.Open(sf.path)
	fi, _ := f.Stat()
	data := make([]byte, fi.Size())
	f.ReadAt(data, 0)
	f.Close()
	data[off] ^= 0x40
	w, _ := fsys.Create(sf.path)
	w.Write(data)
	w.Sync()
	w.Close()
	r := openT(t, fsys, Options{ReadOnly: true})
	_, err := r.Get("ev", 1)
	if !errors.Is(err, chunk.ErrCorrupt) || !strings.Contains(err.Error(), sf.path) {
		t.Fatalf("Get of a corrupt block: %v", err)
	}
	if _, err := r.Get("ev", 2); err != nil {
		t.Fatalf("Get of the other segment: %v", err)
	}
	closeT(t, r)
	// A writable store's compaction and merges read blocks past the
	// cache and leave the checksum to the decoder: its error is the one
	// reported.
	rw := openT(t, fsys, Options{})
	defer closeT(t, rw)
	st, v, err := rw.readView("ev")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.decodeBlockMode(v.segs[0], 0, cacheLookup); !errors.Is(err, chunk.ErrCorrupt) || !strings.Contains(err.Error(), "block checksum") || !strings.Contains(err.Error(), sf.path) {
		t.Fatalf("a decode past the cache of a corrupt block: %v", err)
	}
}

// TestSyncIntervalError: a failed background fsync is counted, the next
// append recovers, and Close reports the failure.
func TestSyncIntervalError(t *testing.T) {
	efs := vfs.NewErrorFS(vfs.NewMem())
	s := openT(t, efs, Options{Sync: SyncInterval, SyncInterval: 2 * time.Millisecond})
	if _, err := s.Append(ctx, "ev", rec(day0, "a", 1)); err != nil {
		t.Fatal(err)
	}
	efs.FailAfter(vfs.OpSync, 0, syscall.EIO)
	if _, err := s.Append(ctx, "ev", rec(day0, "a", 2)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for s.Metrics().SyncErrors == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if s.Metrics().SyncErrors != 1 {
		t.Fatalf("SyncErrors = %d", s.Metrics().SyncErrors)
	}
	if _, err := s.Append(ctx, "ev", rec(day0, "a", 3)); err != nil {
		t.Fatalf("append after recovery: %v", err)
	}
	if err := s.Close(); !errors.Is(err, syscall.EIO) {
		t.Fatalf("Close = %v, want the background fsync error", err)
	}
}

// TestScanStops: breaking out of a Scan stops it; a cancelled context
// ends it with the context's error.
func TestScanStops(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 2, Sync: SyncNever})
	defer closeT(t, s)
	for i := range 10 {
		if _, err := s.Append(ctx, "ev", rec(day0+int64(i), "a", int64(i))); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for _, err := range s.Scan(ctx, "ev", ScanOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 2 {
			break
		}
	}
	c, cancel := context.WithCancel(ctx)
	cancel()
	var got error
	for _, err := range s.Scan(c, "ev", ScanOptions{}) {
		got = err
	}
	if !errors.Is(got, context.Canceled) {
		t.Fatalf("cancelled scan: %v", got)
	}
	var rows int
	for b, err := range s.Scan(ctx, "ev", ScanOptions{MinSeq: 4, MaxSeq: 4}) {
		if err != nil {
			t.Fatal(err)
		}
		rows += b.Rows
	}
	if rows != 1 {
		t.Fatalf("single-seq scan: %d rows", rows)
	}
}

// TestOutOfOrderSegments: records whose days jump back and forth (late
// events, a corpus in key order) make a segment only where the day
// reaches a new latest one, under each sync policy and whether they come
// in one append or many; every record reads back.
func TestOutOfOrderSegments(t *testing.T) {
	const n = 2000
	day := int64(24 * time.Hour)
	days := make([]int64, n)
	maxima, latest := 0, int64(-1)
	for i := range days {
		days[i] = int64((i * 7919) % 1000)
		if days[i] > latest {
			maxima, latest = maxima+1, days[i]
		}
	}
	for _, pol := range []SyncPolicy{SyncAlways, SyncNever} {
		for _, calls := range []int{1, 40} {
			fsys := vfs.NewMem()
			s := openT(t, fsys, Options{Sync: pol})
			var recs []Record
			for i, d := range days {
				recs = append(recs, rec(day0+d*day+int64(i), "a", int64(i)))
			}
			for c := range calls {
				if _, err := s.Append(ctx, "ev", recs[c*n/calls:(c+1)*n/calls]...); err != nil {
					t.Fatal(err)
				}
			}
			closeT(t, s)
			if got := segFiles(t, fsys, "ev"); len(got) != maxima {
				t.Fatalf("%v, %d appends: %d segments, want %d (one per new latest day)", pol, calls, len(got), maxima)
			}
			s = openT(t, fsys, Options{})
			if c, err := s.Count("ev"); err != nil || c != n {
				t.Fatalf("%v, %d appends: count %d, %v", pol, calls, c, err)
			}
			closeT(t, s)
		}
	}
}

// TestOutOfOrderSizeRolls: out-of-order days in segments small enough to
// roll for size, under each sync policy (the buffered ones roll in the
// background): every record reads back, and a segment never takes a day
// before its predecessor's (one rolled for size keeps it), so names sort
// in seq order.
func TestOutOfOrderSizeRolls(t *testing.T) {
	const n = 3000
	day := int64(24 * time.Hour)
	for _, pol := range []SyncPolicy{SyncAlways, SyncInterval, SyncNever} {
		fsys := vfs.NewMem()
		o := Options{Sync: pol, SegmentMaxBytes: 1 << 10, BlockRows: 64}
		s := openT(t, fsys, o)
		for c := range 60 {
			var recs []Record
			for i := c * n / 60; i < (c+1)*n/60; i++ {
				d := int64(i / 1000) // days advance; every fifth row is two days late
				if i%5 == 0 {
					d -= 2
				}
				recs = append(recs, rec(day0+d*day+int64(i), "a", int64(i)))
			}
			if _, err := s.Append(ctx, "ev", recs...); err != nil {
				t.Fatal(err)
			}
		}
		closeT(t, s)
		names := segFiles(t, fsys, "ev")
		if len(names) < 10 {
			t.Fatalf("%v: %d segments: no roll for size", pol, len(names))
		}
		// ReadDir lists them by name: their first seqs must rise.
		for i := 1; i < len(names); i++ {
			_, a, _ := parseSegName(names[i-1])
			_, b, _ := parseSegName(names[i])
			if a >= b {
				t.Fatalf("%v: segment %s sorts before %s", pol, names[i-1], names[i])
			}
		}
		s = openT(t, fsys, o)
		if c, err := s.Count("ev"); err != nil || c != n {
			t.Fatalf("%v: count %d, %v", pol, c, err)
		}
		for q := uint64(1); q <= n; q += 97 {
			if r, err := s.Get("ev", q); err != nil || r.Seq != q {
				t.Fatalf("%v: Get(%d) = %+v, %v", pol, q, r, err)
			}
		}
		closeT(t, s)
	}
}

// TestStreamErrorText: an error about a stream names it once and says
// "tsq:" once, and still matches its sentinel.
func TestStreamErrorText(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{})
	_, err := s.Count("nosuch")
	if !errors.Is(err, ErrStreamNotFound) || err.Error() != `tsq: stream "nosuch": stream not found` {
		t.Fatalf("%v", err)
	}
	_, err = s.Query(ctx, "SELECT * FROM nosuch", nil)
	if !errors.Is(err, ErrStreamNotFound) || err.Error() != `query: line 1 col 15: stream "nosuch": stream not found (the store has no stream yet)` {
		t.Fatalf("query: %v", err)
	}
	closeT(t, s)
	_, err = s.Append(ctx, "ev", rec(day0, "a", 1))
	if !errors.Is(err, ErrClosed) || strings.Count(err.Error(), "tsq:") != 1 {
		t.Fatalf("%v", err)
	}
}
