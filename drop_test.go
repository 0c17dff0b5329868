package tsq

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/tsqdb/tsq/internal/vfs"
)

// fillDrop gives stream x puts, samples, a delete, soft deletes, a
// retention rule and a compaction pass (a watermark), and stream y a
// few samples; it returns y's row count.
func fillDrop(t *testing.T, s *Store) int {
	t.Helper()
	fillDeleteWhere(t, s) // into ev
	for _, name := range []string{"x", "y"} {
		var recs []Record
		for i := range 50 {
			recs = append(recs, Record{Time: day0 + int64(i)*1e9, Series: "m", Key: fmt.Sprintf("k%d", i%7), Fields: []Field{{"v", Int(int64(i))}}})
		}
		if _, err := s.Append(ctx, name, recs...); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetRetention("x", Retention{MaxCount: 40}); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "x", 3, 4); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Compact(ctx, "x"); err != nil {
		t.Fatal(err)
	}
	n, err := s.Count("y")
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// streamFiles lists the entries of the streams directory.
func streamFiles(t *testing.T, fsys vfs.FS) []string {
	t.Helper()
	names, err := fsys.ReadDir("db/streams")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	return names
}

// TestDropStream: DropStream removes a stream and all its files; reads
// then say it is not found, the other streams are untouched, and a
// stream made again under the name starts afresh at seq 1, with no
// rule, soft delete or row of the old one, also after a reopen.
func TestDropStream(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{CompactInterval: 0})
	ny := fillDrop(t, s)
	reader := openT(t, mem, Options{ReadOnly: true}) // another process reading x
	if n, err := reader.Count("x"); err != nil || n == 0 {
		t.Fatalf("reader: %d, %v", n, err)
	}
	stale, err := s.stream("x", false) // as a call running during the drop holds it
	if err != nil {
		t.Fatal(err)
	}
	ds, err := s.DropStream(ctx, "x")
	if err != nil {
		t.Fatal(err)
	}
	if ds.Segments < 1 || ds.Bytes <= 0 {
		t.Fatalf("stats %+v", ds)
	}
	if names, _ := s.Streams(); !slices.Equal(names, []string{"ev", "y"}) {
		t.Fatalf("Streams %v", names)
	}
	if got := streamFiles(t, mem); !slices.Equal(got, []string{"ev", "y"}) {
		t.Fatalf("streams directory holds %v", got)
	}
	if _, err := s.Count("x"); !errors.Is(err, ErrStreamNotFound) {
		t.Fatalf("Count of a dropped stream: %v", err)
	}
	if _, err := s.Query(ctx, "SELECT * FROM x", nil); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("query of a dropped stream: %v", err)
	}
	if _, err := reader.Count("x"); !errors.Is(err, ErrStreamNotFound) {
		t.Fatalf("a reader's Count of a dropped stream: %v", err)
	}
	if _, err := s.Compact(ctx, "x"); !errors.Is(err, ErrStreamNotFound) {
		t.Fatalf("Compact of a dropped stream: %v", err)
	}
	if n, _ := s.Count("y"); n != ny {
		t.Fatalf("y holds %d rows, want %d", n, ny)
	}
	seqs, err := s.Append(ctx, "x", Record{Time: day0, Series: "m", Key: "k3", Fields: []Field{{"v", Int(1)}}})
	if err != nil || seqs[0] != 1 {
		t.Fatalf("append to a stream made again: %v, %v; want seq 1", seqs, err)
	}
	// The stale stream writes nothing into the new one's directory.
	if err := stale.markTombstoned(roaring64.BitmapOf(1)); !errors.Is(err, ErrStreamNotFound) {
		t.Fatalf("a state file write of the dropped stream: %v", err)
	}
	if _, err := stale.compact(ctx, false); !errors.Is(err, ErrStreamNotFound) {
		t.Fatalf("a pass of the dropped stream: %v", err)
	}
	recs := []Record{rec(day0, "m", 1)}
	schema, _ := validateRecords(recs)
	if err := stale.submit(ctx, &request{recs: recs, schema: schema, seqs: make([]uint64, 1)}); !errors.Is(err, ErrClosed) {
		t.Fatalf("an append to the dropped stream: %v", err)
	}
	check := func(s *Store) {
		t.Helper()
		if r, err := s.Retention("x"); err != nil || r.MaxCount != 0 || r.MaxAge != 0 {
			t.Fatalf("retention of the new x: %+v, %v", r, err)
		}
		if _, rows := queryT(t, s, "SELECT seq, key, v FROM x"); !slices.Equal(rows, []string{"1|k3|1"}) {
			t.Fatalf("new x holds %v", rows)
		}
		if n, _ := s.Count("y"); n != ny {
			t.Fatalf("y holds %d rows, want %d", n, ny)
		}
	}
	check(s)
	check(reader)
	closeT(t, reader)
	closeT(t, s)
	s = openT(t, mem, Options{CompactInterval: 0})
	check(s)
	// A stream this Store has not opened yet.
	if _, err := s.DropStream(ctx, "y"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		want error
	}{{"y", ErrStreamNotFound}, {"nosuch", ErrStreamNotFound}, {"Bad Name", ErrInvalidStreamName}} {
		if _, err := s.DropStream(ctx, c.name); !errors.Is(err, c.want) {
			t.Errorf("DropStream(%q): %v, want %v", c.name, err, c.want)
		}
	}
	closeT(t, s)
	r := openT(t, mem, Options{ReadOnly: true})
	defer closeT(t, r)
	if _, err := r.DropStream(ctx, "x"); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("DropStream on a read-only store: %v", err)
	}
	if names, _ := r.Streams(); !slices.Equal(names, []string{"ev", "x"}) {
		t.Fatalf("Streams after dropping y: %v", names)
	}
}

// TestDropStreamCrash: a crash at each step of a drop leaves the stream
// either whole (before the rename is durable) or gone (after), never in
// part, and the next open removes what is left of its directory.
func TestDropStreamCrash(t *testing.T) {
	errCrash := errors.New("crash")
	for _, p := range []dropPoint{dropRenamed, dropSynced} {
		for _, torn := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/torn=%v", p, torn), func(t *testing.T) {
				mem := vfs.NewMem()
				s := openT(t, mem, Options{CompactInterval: 0})
				ny := fillDrop(t, s)
				_, want := queryT(t, s, "SELECT * FROM x")
				var crashed *vfs.MemFS
				s.dropHook = func(at dropPoint) error {
					if at != p {
						return nil
					}
					if torn {
						crashed = mem.CrashCloneDisordered(rand.New(rand.NewPCG(1, uint64(len(at)))))
					} else {
						crashed = mem.CrashClone()
					}
					return errCrash
				}
				if _, err := s.DropStream(ctx, "x"); !errors.Is(err, errCrash) {
					t.Fatalf("DropStream: %v", err)
				}
				closeT(t, s)
				c := openT(t, crashed, Options{CompactInterval: 0})
				defer closeT(t, c)
				names, _ := c.Streams()
				files := streamFiles(t, crashed)
				switch {
				case slices.Equal(names, []string{"ev", "x", "y"}) && p == dropRenamed:
					if _, rows := queryT(t, c, "SELECT * FROM x"); !slices.Equal(rows, want) {
						t.Fatalf("x survived the crash changed: %d rows, want %d", len(rows), len(want))
					}
				case slices.Equal(names, []string{"ev", "y"}):
				default:
					t.Fatalf("after a crash at %s: streams %v", p, names)
				}
				if slices.ContainsFunc(files, func(n string) bool { return strings.HasSuffix(n, dropSuffix) }) {
					t.Fatalf("open left %v", files)
				}
				if n, _ := c.Count("y"); n != ny {
					t.Fatalf("y holds %d rows, want %d", n, ny)
				}
			})
		}
	}
	// A crash while the renamed directory was being removed.
	mem := vfs.NewMem()
	s := openT(t, mem, Options{CompactInterval: 0})
	fillDrop(t, s)
	closeT(t, s)
	if err := mem.Rename("db/streams/x", "db/streams/x"+dropSuffix); err != nil {
		t.Fatal(err)
	}
	if err := mem.Remove("db/streams/x" + dropSuffix + "/" + deletedFile); err != nil {
		t.Fatal(err)
	}
	s = openT(t, mem, Options{CompactInterval: 0})
	defer closeT(t, s)
	if got := streamFiles(t, mem); !slices.Equal(got, []string{"ev", "y"}) {
		t.Fatalf("open left %v", got)
	}
	if gs, err := s.GC(ctx); err != nil || gs.RemovedDropped != 0 {
		t.Fatalf("a second GC: %+v, %v", gs, err)
	}
}

// TestDropStreamLocked: a stream another Store writes cannot be dropped;
// the error names the lock, and the writer goes on.
func TestDropStreamLocked(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	a, err := Open(dir, &Options{CompactInterval: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.Append(ctx, "x", rec(day0, "a", 1)); err != nil {
		t.Fatal(err)
	}
	b, err := Open(dir, &Options{CompactInterval: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.DropStream(ctx, "x"); !errors.Is(err, vfs.ErrLocked) || !strings.Contains(err.Error(), "LOCK") {
		t.Fatalf("DropStream of a stream another Store holds: %v", err)
	}
	if _, err := a.Append(ctx, "x", rec(day0+1, "a", 2)); err != nil {
		t.Fatal(err)
	}
	if n, _ := a.Count("x"); n != 2 {
		t.Fatalf("Count %d, want 2", n)
	}
}

// TestDropStreamConcurrent: appends, deletes, retention, compaction
// passes and queries race with drops of their stream; each call either
// works or fails cleanly, nothing deadlocks, and the stream made again
// afterwards holds only what was appended after the last drop.
func TestDropStreamConcurrent(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{CompactInterval: 0, Sync: SyncAlways})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	work := []func(i int){
		func(i int) { _, _ = s.Append(ctx, "x", rec(day0+int64(i), "a", int64(i))) },
		func(i int) { _, _ = s.Compact(ctx, "x") },
		func(i int) { _ = s.SetRetention("x", Retention{MaxCount: 1000}) },
		func(i int) { _, _ = s.ApplyRetention(ctx, "x") },
		func(i int) { _ = s.Delete(ctx, "x", uint64(i%5+1)) },
		func(i int) {
			if rr, err := s.Query(ctx, "SELECT count(*) FROM x", nil); err == nil {
				rr.Release()
			}
		},
	}
	for _, f := range work {
		untilStopped(&wg, stop, func(i int) bool { f(i); return true })
	}
	drops := 0
	for deadline := time.Now().Add(500 * time.Millisecond); time.Now().Before(deadline); {
		if _, err := s.DropStream(ctx, "x"); err == nil {
			drops++
		} else if !errors.Is(err, ErrStreamNotFound) && !errors.Is(err, errDropping) {
			t.Fatalf("DropStream: %v", err)
		}
	}
	close(stop)
	wg.Wait()
	if drops == 0 {
		t.Fatal("no drop succeeded")
	}
	if _, err := s.DropStream(ctx, "x"); err != nil && !errors.Is(err, ErrStreamNotFound) {
		t.Fatal(err)
	}
	seqs := appendN(t, s, "x", 3)
	if !slices.Equal(seqs, []uint64{1, 2, 3}) {
		t.Fatalf("seqs after the last drop %v", seqs)
	}
	// Nothing of a call on the dropped streams reached the new one's
	// files: no soft delete, no rule.
	closeT(t, s)
	s = openT(t, mem, Options{CompactInterval: 0})
	defer closeT(t, s)
	if n, _ := s.Count("x"); n != 3 {
		t.Fatalf("Count %d, want 3", n)
	}
	if r, err := s.Retention("x"); err != nil || r.MaxCount != 0 {
		t.Fatalf("retention %+v, %v", r, err)
	}
	t.Logf("%d drops", drops)
}
