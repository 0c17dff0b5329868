package tsq

import (
	"sync/atomic"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// syncCountFS counts the fsyncs of files and directories that reach the
// file system underneath.
type syncCountFS struct {
	vfs.FS
	n *atomic.Int64
}

type syncCountFile struct {
	vfs.File
	n *atomic.Int64
}

func (f syncCountFile) Sync() error { f.n.Add(1); return f.File.Sync() }

func (c syncCountFS) wrap(f vfs.File, err error) (vfs.File, error) {
	if err != nil {
		return nil, err
	}
	return syncCountFile{f, c.n}, nil
}

func (c syncCountFS) Create(name string) (vfs.File, error)     { return c.wrap(c.FS.Create(name)) }
func (c syncCountFS) CreateNew(name string) (vfs.File, error)  { return c.wrap(c.FS.CreateNew(name)) }
func (c syncCountFS) Open(name string) (vfs.File, error)       { return c.wrap(c.FS.Open(name)) }
func (c syncCountFS) OpenAppend(name string) (vfs.File, error) { return c.wrap(c.FS.OpenAppend(name)) }
func (c syncCountFS) SyncDir(dir string) error                 { c.n.Add(1); return c.FS.SyncDir(dir) }

// TestFsyncsMaintenance: Fsyncs counts the data fsyncs (one per append
// under SyncAlways with one appender); FsyncsMaintenance every other
// fsync: with rolls, creates, seals and merges there are some, and the
// two add up to every fsync the file system saw.
func TestFsyncsMaintenance(t *testing.T) {
	for _, pol := range []SyncPolicy{SyncAlways, SyncInterval} {
		var n atomic.Int64
		s := openT(t, syncCountFS{vfs.NewMem(), &n}, Options{Sync: pol, BlockRows: 16})
		const appends = 40
		for i := range appends {
			day := int64(i/10) * dayNS // 4 days: 3 rolls
			if _, err := s.AppendSamples(ctx, "m", "cpu", []int64{day0 + day + int64(i)}, []float64{float64(i)}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Count("m"); err != nil { // writes and settles everything
			t.Fatal(err)
		}
		s.st("m").mu.Lock()
		s.st("m").waitMerges()
		s.st("m").mu.Unlock()
		m := s.Metrics()
		if pol == SyncAlways && m.Fsyncs != appends {
			t.Errorf("%v: Fsyncs = %d, want %d (one per append)", pol, m.Fsyncs, appends)
		}
		if m.FsyncsMaintenance == 0 || m.SegmentsRolled != 3 {
			t.Errorf("%v: FsyncsMaintenance = %d, SegmentsRolled = %d; want some, 3", pol, m.FsyncsMaintenance, m.SegmentsRolled)
		}
		if got := int64(m.Fsyncs + m.FsyncsMaintenance); got != n.Load() {
			t.Errorf("%v: Fsyncs %d + FsyncsMaintenance %d = %d, the file system saw %d", pol, m.Fsyncs, m.FsyncsMaintenance, got, n.Load())
		}
		closeT(t, s)
	}
}

// TestRecoverEmptyAheadSegments: background rolls create segments ahead
// of their frames; a crash can leave an unsealed segment with frames
// followed by segments holding only a header. Opening removes those and
// appends go on in the unsealed one.
func TestRecoverEmptyAheadSegments(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{})
	for i := range 3 {
		if _, err := s.Append(ctx, "ev", rec(day0+int64(i), "a", int64(i))); err != nil {
			t.Fatal(err)
		}
	}
	closeT(t, s)
	dir := "db/streams/ev"
	for _, k := range []int64{1, 2} {
		w, err := seg.Create(mem, dir+"/"+segName(dayOf(day0)+k, 4), "ev", 1, 4)
		if err != nil {
			t.Fatal(err)
		}
		_ = w.Close()
	}
	s = openT(t, mem, Options{})
	defer closeT(t, s)
	if _, err := s.Append(ctx, "ev", rec(day0+3, "a", 3)); err != nil {
		t.Fatal(err)
	}
	r, err := s.Recovered("ev")
	if err != nil || len(r.RemovedEmpty) != 2 {
		t.Fatalf("Recovery %+v: want 2 empty segments removed", r)
	}
	if got := allSeqs(t, s, "ev"); len(got) != 4 || got[3] != 4 {
		t.Fatalf("seqs %v", got)
	}
	names, _ := mem.ReadDir(dir)
	n := 0
	for _, name := range names {
		if _, _, ok := parseSegName(name); ok {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d segments (%v), want 1", n, names)
	}
}
