package tsq

import (
	"path/filepath"
	"slices"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/index"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// appendDays appends perDay rows to each of days UTC days from day
// first on, n counting the records, and settles the rolls with a read.
func appendDays(t *testing.T, s *Store, first, days, perDay int64, n *int64) {
	t.Helper()
	for d := first; d < first+days; d++ {
		for range perDay {
			if _, err := s.Append(ctx, "ev", rec(day0+d*dayNS+*n, "a", *n)); err != nil {
				t.Fatal(err)
			}
			*n++
		}
	}
	if _, err := s.Count("ev"); err != nil {
		t.Fatal(err)
	}
}

// snapshot copies every file of the store's stream directory as it is
// now, synced or not, into a new MemFS: what a crash may leave when the
// file system wrote everything back.
func snapshot(t *testing.T, mem *vfs.MemFS) *vfs.MemFS {
	t.Helper()
	out := vfs.NewMem()
	dir := filepath.Join("db", "streams", "ev")
	if err := out.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	names, err := mem.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		writeAll(t, out, filepath.Join(dir, name), readAll(t, mem, filepath.Join(dir, name)))
	}
	return out
}

// TestDurableMark: under SyncInterval background rolls seal and create
// segments without an fsync; the tick fsyncs them and advances the
// durable mark to the newest sealed segment. A crash image in which a
// block of a sealed segment after the mark never reached the disk opens
// with that segment cut before the block (Recovery.CutDamaged), the
// later segments removed (RemovedLater), and seqs 1..k, k at least every
// row acknowledged before the tick. The same damage to a segment at or
// before the mark is not cut: reading its block fails with a
// CorruptionError, as for any sealed segment.
func TestDurableMark(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{BlockRows: 4, Sync: SyncInterval, SyncInterval: time.Hour})
	var n int64
	appendDays(t, s, 0, 3, 8, &n)
	st := s.st("ev")
	if len(st.dur.pending) == 0 {
		t.Fatal("background rolls left nothing undurable")
	}
	st.backgroundSync() // the interval tick
	ticked := n
	markPath := filepath.Join("db", "streams", "ev", durableFile)
	mark, err := index.ReadDurable(mem, markPath)
	if err != nil || mark != 9 || len(st.dur.pending) != 0 {
		t.Fatalf("mark after the tick = %d, %v (pending %v); want 9, the newest sealed segment's first seq", mark, err, st.dur.pending)
	}
	appendDays(t, s, 3, 3, 8, &n) // sealed after the mark, not synced

	// The second frame of day 3's segment (seqs 29..32) never reached the disk.
	img := snapshot(t, mem)
	day3 := filepath.Join("db", "streams", "ev", segName(dayOf(day0+3*dayNS), 25))
	r, err := seg.Open(img, day3)
	if err != nil {
		t.Fatal(err)
	}
	b := r.Blocks()[1]
	r.Close()
	data := readAll(t, img, day3)
	clear(data[b.Offset+20 : b.Offset+int64(b.Length)])
	writeAll(t, img, day3, data)

	c := openT(t, img, Options{Sync: SyncInterval})
	rec, err := c.Recovered("ev")
	if err != nil || !slices.Equal(rec.CutDamaged, []string{day3}) || len(rec.RemovedLater) != 2 || !rec.Truncated() {
		t.Fatalf("Recovered = %+v, %v", rec, err)
	}
	got := allSeqs(t, c, "ev")
	if len(got) != 28 || got[len(got)-1] != 28 || int64(len(got)) < ticked {
		t.Fatalf("seqs after recovery: %d, last %v; want 1..28 (ticked %d)", len(got), got[len(got)-1:], ticked)
	}
	if seqs, err := c.Append(ctx, "ev", rec2()); err != nil || seqs[0] != 29 {
		t.Fatalf("append after recovery = %v, %v", seqs, err)
	}
	closeT(t, c)

	// The same damage to day 1's segment (first seq 9, at the mark) is
	// not cut: it is corruption.
	img = snapshot(t, mem)
	day1 := filepath.Join("db", "streams", "ev", segName(dayOf(day0+1*dayNS), 9))
	data = readAll(t, img, day1)
	r, err = seg.Open(img, day1)
	if err != nil {
		t.Fatal(err)
	}
	b = r.Blocks()[1]
	r.Close()
	clear(data[b.Offset+20 : b.Offset+int64(b.Length)])
	writeAll(t, img, day1, data)
	c = openT(t, img, Options{Sync: SyncInterval})
	defer closeT(t, c)
	if rec, _ := c.Recovered("ev"); rec.Truncated() {
		t.Fatalf("a segment at the mark was cut: %+v", rec)
	}
	if _, err := c.Get("ev", 14); !errorsIs(err, chunk.ErrCorrupt) {
		t.Fatalf("Get of a damaged block at the mark = %v, want a corruption error", err)
	}
	closeT(t, s)
}

// failSync fails every fsync of the file whose name it holds (by any
// handle of a file system it wraps, see failSyncFS).
type failSync struct{ name atomic.Pointer[string] }

// failSyncFS wraps fsys so that fsyncs of the file named in fail fail.
func failSyncFS(fsys vfs.FS, fail *failSync) vfs.FS {
	return vfs.WrapFS{FS: fsys, File: func(f vfs.File) vfs.File { return failSyncFile{f, fail} }}
}

type failSyncFile struct {
	vfs.File
	fail *failSync
}

func (f failSyncFile) Sync() error {
	if p := f.fail.name.Load(); p != nil && *p == f.Name() {
		return syscall.EIO
	}
	return f.File.Sync()
}

// TestTickSyncErrorKeepsSynced: an interval tick made the first 8 rows
// of the active segment durable; a roll then sealed it without an fsync
// and the next tick's fsync of it fails. Recovery cuts it back to what
// the earlier tick made durable (not to its header), removes the later
// segment, and the seqs go on past the lost ones; a crash image holds
// exactly the rows kept.
func TestTickSyncErrorKeepsSynced(t *testing.T) {
	mem := vfs.NewMem()
	fail := &failSync{}
	s := openT(t, failSyncFS(mem, fail), Options{BlockRows: 4, Sync: SyncInterval, SyncInterval: time.Hour})
	for i := range 8 {
		if _, err := s.Append(ctx, "ev", rec(day0+int64(i), "a", int64(i))); err != nil {
			t.Fatal(err)
		}
	}
	st := s.st("ev")
	st.backgroundSync() // rows 1..8 durable
	var recs []Record
	for i := range 4 {
		recs = append(recs, rec(day0+dayNS+int64(i), "a", int64(8+i)))
	}
	if _, err := s.Append(ctx, "ev", recs...); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Count("ev"); err != nil { // settles the roll: the first segment sealed without an fsync
		t.Fatal(err)
	}
	first := filepath.Join("db", "streams", "ev", segName(dayOf(day0), 1))
	fail.name.Store(&first)
	st.backgroundSync()
	if m := s.Metrics(); m.SyncErrors == 0 {
		t.Fatal("the failed tick fsync was not counted")
	}
	fail.name.Store(nil)
	seqs, err := s.Append(ctx, "ev", rec(day0+dayNS+10, "a", 12)) // recovers first
	if err != nil || seqs[0] != 13 {
		t.Fatalf("append after the failure: %v, %v", seqs, err)
	}
	want := []uint64{1, 2, 3, 4, 5, 6, 7, 8, 13}
	if got := allSeqs(t, s, "ev"); !slices.Equal(got, want) {
		t.Fatalf("seqs after recovery %v, want %v", got, want)
	}
	if err := s.Close(); err == nil {
		t.Fatal("Close reported no loss")
	}
	c := openT(t, mem.CrashClone(), Options{})
	defer closeT(t, c)
	if got := allSeqs(t, c, "ev"); !slices.Equal(got, want) {
		t.Fatalf("crash image: seqs %v, want %v", got, want)
	}
}

// TestImportAdvancesMark: under SyncInterval a committed import moves the
// durable mark to its newest segment at once, so that an open after a
// crash does not read the imported segments back to check them.
func TestImportAdvancesMark(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{Sync: SyncInterval, SyncInterval: time.Hour, SegmentMaxBytes: 16 << 10, BlockRows: 1000})
	defer closeT(t, s)
	if _, err := s.Append(ctx, "ev", rec(day0, "a", 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Import(ctx, "ev", &jsonGen{rows: 20000}, importOpts(t)); err != nil {
		t.Fatal(err)
	}
	st := s.st("ev")
	st.mu.Lock()
	var newest uint64
	for _, sf := range st.segs {
		if sf.sealed {
			newest = sf.firstSeq
		}
	}
	st.mu.Unlock()
	mark, err := index.ReadDurable(mem, filepath.Join("db", "streams", "ev", durableFile))
	if err != nil || mark != newest || newest < 2 {
		t.Fatalf("mark after the import = %d, %v; want %d, the newest imported segment's first seq", mark, err, newest)
	}
}
