package tsq

import (
	"strings"
	"testing"
	"time"

	"github.com/tsqdb/tsq/internal/vfs"
)

// Buffered frames: under SyncInterval and SyncNever the frame that is not
// full stays in memory across appends (commit.go, writePending).

// TestBufferedFrameVisibleToReads: rows of a frame still in memory are
// written before a read of this Store, so reads see every acknowledged
// row; a full frame is handed to the background encoder by the append
// that fills it and written once encoded, by a later append or the read
// at the latest (encode.go).
func TestBufferedFrameVisibleToReads(t *testing.T) {
	fsys := vfs.NewMem()
	s := openT(t, fsys, Options{BlockRows: 8, Sync: SyncNever})
	defer closeT(t, s)
	for i := range 10 {
		if _, err := s.Append(ctx, "ev", rec(day0+int64(i), "a", int64(i))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.AppendSamples(ctx, "ev", "cpu", []int64{day0 + 10, day0 + 11}, []float64{1.5, 2.5}); err != nil {
		t.Fatal(err)
	}
	if m := s.Metrics(); m.Frames > 1 {
		t.Fatalf("%d frames written before any read, want at most 1 (the full one, if encoded)", m.Frames)
	}
	if n, err := s.Count("ev"); err != nil || n != 12 {
		t.Fatalf("Count = %d, %v; want 12", n, err)
	}
	if m := s.Metrics(); m.Frames != 2 {
		t.Fatalf("%d frames after the read, want 2", m.Frames)
	}
	for q := uint64(1); q <= 10; q++ {
		r, err := s.Get("ev", q)
		if n, _ := r.Field("n"); err != nil || n.Int() != int64(q-1) {
			t.Fatalf("Get(%d) = %+v, %v", q, r, err)
		}
	}
	r, err := s.Get("ev", 12)
	if v, _ := r.Field("value"); err != nil || v.Float() != 2.5 || r.Series != "cpu" {
		t.Fatalf("Get(12) = %+v, %v", r, err)
	}
	// A read with nothing buffered writes nothing.
	if got := allSeqs(t, s, "ev"); len(got) != 12 {
		t.Fatalf("%d seqs", len(got))
	}
	if m := s.Metrics(); m.Frames != 2 {
		t.Fatalf("%d frames after a second read, want 2", m.Frames)
	}
}

// TestBufferedFrameWrittenAtTick: under SyncInterval the interval tick
// writes and fsyncs the buffered frame: a crash after it keeps the rows.
func TestBufferedFrameWrittenAtTick(t *testing.T) {
	fsys := vfs.NewMem()
	s := openT(t, fsys, Options{BlockRows: 64, Sync: SyncInterval, SyncInterval: 5 * time.Millisecond})
	defer closeT(t, s)
	for i := range 10 {
		if _, err := s.Append(ctx, "ev", rec(day0+int64(i), "a", int64(i))); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for s.Metrics().Fsyncs == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	m := s.Metrics()
	if m.Frames != 1 || m.Fsyncs == 0 {
		t.Fatalf("after ticks: %d frames, %d fsyncs", m.Frames, m.Fsyncs)
	}
	ro := openT(t, fsys.CrashClone(), Options{ReadOnly: true})
	defer closeT(t, ro)
	if got := allSeqs(t, ro, "ev"); len(got) != 10 {
		t.Fatalf("crash after the tick keeps %d rows, want 10", len(got))
	}
}

// TestBufferedFrameNeverTick: under SyncNever the tick writes the frame
// (readers in other processes see it) without an fsync.
func TestBufferedFrameNeverTick(t *testing.T) {
	fsys := vfs.NewMem()
	s := openT(t, fsys, Options{BlockRows: 64, Sync: SyncNever, SyncInterval: 5 * time.Millisecond})
	defer closeT(t, s)
	if _, err := s.Append(ctx, "ev", rec(day0, "a", 0), rec(day0+1, "a", 1)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for s.Metrics().Frames == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if m := s.Metrics(); m.Frames != 1 || m.Fsyncs != 0 {
		t.Fatalf("after ticks: %d frames, %d fsyncs", m.Frames, m.Fsyncs)
	}
	ro := openT(t, fsys, Options{ReadOnly: true}) // another process's view
	defer closeT(t, ro)
	if n, err := ro.Count("ev"); err != nil || n != 2 {
		t.Fatalf("reader: Count = %d, %v", n, err)
	}
}

// TestBufferedFrameWrittenAtClose: Close writes and fsyncs the buffered
// frame under both policies.
func TestBufferedFrameWrittenAtClose(t *testing.T) {
	for _, pol := range []SyncPolicy{SyncNever, SyncInterval} {
		t.Run(pol.String(), func(t *testing.T) {
			fsys := vfs.NewMem()
			s := openT(t, fsys, Options{BlockRows: 64, Sync: pol, SyncInterval: time.Hour})
			times := []int64{day0, day0 + 1, day0 + 2}
			if _, err := s.AppendSamples(ctx, "ev", "cpu", times, []float64{1, 2, 3}); err != nil {
				t.Fatal(err)
			}
			if m := s.Metrics(); m.Frames != 0 {
				t.Fatalf("%d frames before Close", m.Frames)
			}
			closeT(t, s)
			ro := openT(t, fsys.CrashClone(), Options{ReadOnly: true})
			defer closeT(t, ro)
			if n, err := ro.Count("ev"); err != nil || n != 3 {
				t.Fatalf("after Close and a crash: Count = %d, %v", n, err)
			}
		})
	}
}

// TestBufferedFrameWriteError: a buffered frame whose write fails loses
// rows that appends acknowledged. The read that triggered the write gets
// the error, Close reports the loss, the store stays consistent: later
// appends recover in place and everything written reads back after a
// reopen.
func TestBufferedFrameWriteError(t *testing.T) {
	mem := vfs.NewMem()
	efs := vfs.NewErrorFS(mem)
	s := openT(t, efs, Options{BlockRows: 64, Sync: SyncNever})
	if _, err := s.Append(ctx, "ev", rec(day0, "a", 0), rec(day0+1, "a", 1)); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Count("ev"); err != nil || n != 2 { // written: seqs 1, 2
		t.Fatalf("Count = %d, %v", n, err)
	}
	if _, err := s.Append(ctx, "ev", rec(day0+2, "a", 2), rec(day0+3, "a", 3)); err != nil {
		t.Fatal(err) // buffered: seqs 3, 4
	}
	efs.FailAfter(vfs.OpWrite, 0, nil)
	_, err := s.Count("ev")
	if err == nil || !strings.Contains(err.Error(), `"ev"`) {
		t.Fatalf("read with a failing buffered write: %v", err)
	}
	efs.Disarm()
	if m := s.Metrics(); m.SyncErrors != 1 || m.AppendErrors != 1 {
		t.Fatalf("sync errors %d, append errors %d", m.SyncErrors, m.AppendErrors)
	}
	seqs, err := s.Append(ctx, "ev", rec(day0+4, "a", 4)) // recovers first
	if err != nil || len(seqs) != 1 || seqs[0] != 5 {
		t.Fatalf("append after the failure: %v, %v", seqs, err)
	}
	if got := allSeqs(t, s, "ev"); len(got) != 3 || got[2] != 5 {
		t.Fatalf("seqs after the failure: %v", got)
	}
	cerr := s.Close()
	if cerr == nil || !strings.Contains(cerr.Error(), "2 acknowledged rows") {
		t.Fatalf("Close: %v, want the loss of 2 acknowledged rows", cerr)
	}
	s = openT(t, mem.CrashClone(), Options{})
	defer closeT(t, s)
	if got := allSeqs(t, s, "ev"); len(got) != 3 || got[0] != 1 || got[1] != 2 || got[2] != 5 {
		t.Fatalf("after reopen: %v", got)
	}
}

// TestBufferedFrameCloseError: a failing write of the buffered frame at
// Close is reported by Close.
func TestBufferedFrameCloseError(t *testing.T) {
	mem := vfs.NewMem()
	efs := vfs.NewErrorFS(mem)
	s := openT(t, efs, Options{BlockRows: 64, Sync: SyncInterval, SyncInterval: time.Hour})
	if _, err := s.Append(ctx, "ev", rec(day0, "a", 0)); err != nil {
		t.Fatal(err)
	}
	efs.FailAfter(vfs.OpWrite, 0, nil)
	if err := s.Close(); err == nil || !strings.Contains(err.Error(), "1 acknowledged rows") {
		t.Fatalf("Close: %v", err)
	}
	s = openT(t, mem, Options{})
	defer closeT(t, s)
	if n, err := s.Count("ev"); err != nil || n != 0 {
		t.Fatalf("Count after reopen = %d, %v", n, err)
	}
}

// TestAppendSamplesRuns: one AppendSamples call whose times go back and
// forth across UTC days and fill frames is cut into frames where the day
// advances past the frame's (its first row's, the latest it holds) and
// at BlockRows, never where it goes back; every sample comes back with
// its seq, time and value.
func TestAppendSamplesRuns(t *testing.T) {
	for _, pol := range []SyncPolicy{SyncAlways, SyncInterval} {
		s := openT(t, vfs.NewMem(), Options{BlockRows: 7, Sync: pol})
		var times []int64
		var values []float64
		for i := range 60 {
			d := int64((i / 9) % 3) // days 0,0,..,1,..,2,..,0,...
			times = append(times, day0+d*dayNS+int64(i)*1e9)
			values = append(values, float64(i)/4)
		}
		times = append(times, -5*dayNS+3, 1<<62) // far from the others
		values = append(values, -1, -2)
		first, err := s.AppendSamples(ctx, "m", "cpu", times, values)
		if err != nil || first != 1 {
			t.Fatalf("%v: first %d, %v", pol, first, err)
		}
		n, prevRows, prevDay := 0, 0, int64(0)
		for blk, err := range s.Scan(ctx, "m", ScanOptions{}) {
			if err != nil {
				t.Fatal(err)
			}
			var seqs, ts []int64
			var vs []float64
			for _, c := range blk.Columns {
				switch c.Name {
				case colSeq:
					seqs = c.Ints
				case colTime:
					ts = c.Ints
				case "value":
					vs = c.Floats
				}
			}
			if blk.Rows > 7 {
				t.Fatalf("%v: a block of %d rows", pol, blk.Rows)
			}
			if n > 0 && prevRows < 7 && dayOf(ts[0]) <= prevDay {
				t.Fatalf("%v: a frame of %d rows of day %d was cut before seq %d of day %d", pol, prevRows, prevDay, seqs[0], dayOf(ts[0]))
			}
			for i := range blk.Rows {
				q := int(seqs[i]) - 1
				if ts[i] != times[q] || vs[i] != values[q] || dayOf(ts[i]) > dayOf(ts[0]) {
					t.Fatalf("%v: seq %d: time %d value %v, want %d %v (block day %d)", pol, seqs[i], ts[i], vs[i], times[q], values[q], dayOf(ts[0]))
				}
				n++
			}
			prevRows, prevDay = blk.Rows, dayOf(ts[0])
		}
		if n != len(times) {
			t.Fatalf("%v: %d samples back, want %d", pol, n, len(times))
		}
		closeT(t, s)
	}
}
