package tsq

import (
	"errors"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

func segFiles(t *testing.T, fsys vfs.FS, stream string) []string {
	t.Helper()
	names, err := fsys.ReadDir(filepath.Join("db", "streams", stream))
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(names, func(n string) bool { return !strings.HasSuffix(n, ".seg") })
}

// TestDayRoll: records on two UTC days land in two segment files named
// by day and first seq; the first is sealed.
func TestDayRoll(t *testing.T) {
	fsys := vfs.NewMem()
	s := openT(t, fsys, Options{})
	day := int64(24 * time.Hour)
	if _, err := s.Append(ctx, "ev", rec(day0+day-2, "a", 1), rec(day0+day-1, "a", 2), rec(day0+day, "a", 3)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendSamples(ctx, "ev", "cpu", []int64{day0 + day + 5}, []float64{1}); err != nil {
		t.Fatal(err)
	}
	if got, want := segFiles(t, fsys, "ev"), []string{"2026-12-01-0000000000000001.seg", "2026-12-02-0000000000000003.seg"}; !slices.Equal(got, want) {
		t.Fatalf("segments %v, want %v", got, want)
	}
	if m := s.Metrics(); m.SegmentsRolled != 1 || m.Segments != 2 {
		t.Fatalf("metrics %+v", m)
	}
	closeT(t, s)
	s = openT(t, fsys, Options{ReadOnly: true})
	defer closeT(t, s)
	v, err := s.readViewT("ev")
	if err != nil || len(v.segs) != 2 || !v.segs[0].sealed || v.segs[1].sealed {
		t.Fatalf("view %+v, %v", v, err)
	}
	if got := allSeqs(t, s, "ev"); !slices.Equal(got, []uint64{1, 2, 3, 4}) {
		t.Fatalf("seqs %v", got)
	}
	// time-pruned scan reads only the second day's segment
	var n int
	for b, err := range s.Scan(ctx, "ev", ScanOptions{MinTime: day0 + day}) {
		if err != nil {
			t.Fatal(err)
		}
		n += b.Rows
	}
	if n != 2 {
		t.Fatalf("scan of day 2: %d rows", n)
	}
}

func (s *Store) readViewT(stream string) (*view, error) {
	_, v, err := s.readView(stream)
	return v, err
}

// TestSizeRoll: a segment rolls before a frame would take it past
// SegmentMaxBytes; all records read back across the segments.
func TestSizeRoll(t *testing.T) {
	fsys := vfs.NewMem()
	// SyncNever buffers frames until BlockRows: 4-row frames.
	s := openT(t, fsys, Options{SegmentMaxBytes: 2048, BlockRows: 4, Sync: SyncNever})
	for i := range 200 {
		if _, err := s.Append(ctx, "ev", rec(day0+int64(i), "series-with-a-long-name", int64(i))); err != nil {
			t.Fatal(err)
		}
	}
	closeT(t, s)
	files := segFiles(t, fsys, "ev")
	if len(files) < 5 {
		t.Fatalf("only %d segments", len(files))
	}
	for _, f := range files {
		fi, _ := fsys.Stat(filepath.Join("db", "streams", "ev", f))
		if fi.Size() > 2048+512 { // frames fit; the sealed trailer may add a little
			t.Errorf("%s is %d bytes", f, fi.Size())
		}
	}
	s = openT(t, fsys, Options{})
	defer closeT(t, s)
	if got := allSeqs(t, s, "ev"); len(got) != 200 || got[199] != 200 {
		t.Fatalf("%d seqs", len(got))
	}
	r, err := s.Get("ev", 137)
	if v, _ := r.Field("n"); err != nil || v.Int() != 136 {
		t.Fatalf("Get(137) = %+v, %v", r, err)
	}
}

// TestLockNamesHolder: a second writer of a stream gets an error that
// wraps vfs.ErrLocked and names the holder's pid.
func TestLockNamesHolder(t *testing.T) {
	for _, name := range []string{"mem", "os"} {
		t.Run(name, func(t *testing.T) {
			var fsys vfs.FS = vfs.NewMem()
			dir := "db"
			if name == "os" {
				fsys, dir = vfs.Default, t.TempDir()
			}
			s1, err := Open(dir, &Options{FS: fsys})
			if err != nil {
				t.Fatal(err)
			}
			defer s1.Close()
			if _, err := s1.Append(ctx, "ev", rec(day0, "a", 1)); err != nil {
				t.Fatal(err)
			}
			s2, err := Open(dir, &Options{FS: fsys})
			if err != nil {
				t.Fatal(err)
			}
			defer s2.Close()
			_, err = s2.Append(ctx, "ev", rec(day0, "a", 2))
			var le *vfs.LockError
			if !errors.Is(err, vfs.ErrLocked) || !errors.As(err, &le) || le.PID != syscall.Getpid() ||
				!strings.Contains(err.Error(), "pid") || !strings.Contains(err.Error(), `"ev"`) {
				t.Fatalf("second writer: %v", err)
			}
			// other streams are free; after s1 closes, s2 can write ev
			if _, err := s2.Append(ctx, "other", rec(day0, "a", 1)); err != nil {
				t.Fatal(err)
			}
			if err := s1.Close(); err != nil {
				t.Fatal(err)
			}
			s3, err := Open(dir, &Options{FS: fsys})
			if err != nil {
				t.Fatal(err)
			}
			defer s3.Close()
			if seqs, err := s3.Append(ctx, "ev", rec(day0, "a", 2)); err != nil || seqs[0] != 2 {
				t.Fatalf("after release: %v, %v", seqs, err)
			}
		})
	}
}

// TestReadOnly: a read-only store never writes or locks; it sees sealed
// segments and the durable prefix of the active one, including frames a
// live writer syncs after the reader opened.
func TestReadOnly(t *testing.T) {
	fsys := vfs.NewMem()
	if _, err := Open("db", &Options{FS: fsys, ReadOnly: true}); err == nil {
		t.Fatal("read-only open of a missing store succeeded")
	}
	w := openT(t, fsys, Options{SegmentMaxBytes: 2048})
	defer closeT(t, w)
	for i := range 60 {
		if _, err := w.Append(ctx, "ev", rec(day0+int64(i), "a", int64(i))); err != nil {
			t.Fatal(err)
		}
	}
	r := openT(t, fsys, Options{ReadOnly: true})
	defer closeT(t, r)
	if n, err := r.Count("ev"); err != nil || n != 60 {
		t.Fatalf("Count = %d, %v", n, err)
	}
	if _, err := r.Append(ctx, "ev", rec(day0, "a", 1)); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("read-only append: %v", err)
	}
	if _, err := r.Recovered("ev"); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("read-only Recovered: %v", err)
	}
	// the reader holds no lock: the writer keeps writing, and the reader
	// sees the new frames at its next read
	if _, err := w.Append(ctx, "ev", rec(day0+100, "a", 100)); err != nil {
		t.Fatal(err)
	}
	if n, err := r.Count("ev"); err != nil || n != 61 {
		t.Fatalf("Count after write = %d, %v", n, err)
	}
	// a torn, unsynced tail is not visible to a reader of the crash state
	clone := fsys.CrashClone()
	r2, err := Open("db", &Options{FS: clone, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if got := allSeqs(t, r2, "ev"); len(got) != 61 {
		t.Fatalf("clone: %d records", len(got))
	}
}

// TestReadOnlyTornCreate: a reader that finds the newest segment empty
// or with a header cut short (a writer between creating the file and
// writing its header, or a crash there) reads the others instead of
// failing, and sees the segment once it is whole.
func TestReadOnlyTornCreate(t *testing.T) {
	fsys := tenRecords(t)
	dir := filepath.Join("db", "streams", "ev")
	torn := filepath.Join(dir, segName(day0/86400e9+1, 11))
	// The header the writer would give it, made aside.
	aside := vfs.NewMem()
	sw, err := seg.Create(aside, "x.seg", "ev", 1, 11)
	if err != nil {
		t.Fatal(err)
	}
	_ = sw.Close()
	head := readAll(t, aside, "x.seg")
	r := openT(t, fsys, Options{ReadOnly: true})
	defer closeT(t, r)
	for _, n := range []int{0, 3, len(head) / 2, len(head) - 1} { // empty, part of the magic, part of the header
		writeAll(t, fsys, torn, head[:n])
		if got, err := r.Count("ev"); err != nil || got != 10 {
			t.Fatalf("torn create of %d bytes: Count = %d, %v", n, got, err)
		}
	}
	if err := fsys.Remove(torn); err != nil {
		t.Fatal(err)
	}
	w := openT(t, fsys, Options{})
	defer closeT(t, w)
	if _, err := w.Append(ctx, "ev", rec(day0+2*86400e9, "a", 10)); err != nil {
		t.Fatal(err)
	}
	if got, err := r.Count("ev"); err != nil || got != 11 {
		t.Fatalf("after the writer's next segment: Count = %d, %v", got, err)
	}
}

// phantomFS lists one more segment in every directory than there is, as
// a directory listed just before a writer removed an empty segment.
type phantomFS struct {
	vfs.FS
	name string
}

func (p phantomFS) ReadDir(dir string) ([]string, error) {
	names, err := p.FS.ReadDir(dir)
	if err == nil && strings.HasSuffix(dir, "ev") {
		names = append(names, p.name)
		sort.Strings(names)
	}
	return names, err
}

// TestReadOnlySegmentGone: a segment listed but gone when the reader
// opens it (a writer removes only segments without frames) is left out,
// not an error.
func TestReadOnlySegmentGone(t *testing.T) {
	fsys := tenRecords(t)
	r := openT(t, phantomFS{fsys, segName(day0/86400e9+1, 11)}, Options{ReadOnly: true})
	defer closeT(t, r)
	if got, err := r.Count("ev"); err != nil || got != 10 {
		t.Fatalf("Count = %d, %v", got, err)
	}
}

// tenRecords returns a file system holding a closed store ("db") whose
// stream "ev" holds ten records on day0.
func tenRecords(t *testing.T) *vfs.MemFS {
	t.Helper()
	fsys := vfs.NewMem()
	w := openT(t, fsys, Options{})
	for i := range 10 {
		if _, err := w.Append(ctx, "ev", rec(day0+int64(i), "a", int64(i))); err != nil {
			t.Fatal(err)
		}
	}
	closeT(t, w)
	return fsys
}
