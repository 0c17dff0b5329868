package tsq

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsqdb/tsq/internal/vfs"
)

// appendN appends n records to stream, one per call, with times
// day0+i and series s<i%3>; it returns their seqs.
func appendN(t testing.TB, s *Store, stream string, n int) []uint64 {
	t.Helper()
	var out []uint64
	for i := range n {
		seqs, err := s.Append(ctx, stream, rec(day0+int64(i), "s"+string(rune('a'+i%3)), int64(i)))
		if err != nil {
			t.Fatalf("append %d: %v", i, err)
		}
		out = append(out, seqs...)
	}
	return out
}

// checkHidden checks that every read path hides exactly the deleted seqs
// of all.
func checkHidden(t *testing.T, s *Store, stream string, all []uint64, deleted map[uint64]bool) {
	t.Helper()
	var want []uint64
	for _, q := range all {
		if !deleted[q] {
			want = append(want, q)
		}
	}
	// The query runs first: it must reload a read-only store's state
	// files by itself, not rely on an earlier read having done so.
	var qwant []string
	for _, q := range want {
		qwant = append(qwant, strconv.FormatUint(q, 10))
	}
	if _, got := queryT(t, s, "SELECT seq FROM "+stream); !slices.Equal(got, qwant) {
		t.Fatalf("Query seqs %v, want %v", got, qwant)
	}
	if got := allSeqs(t, s, stream); !slices.Equal(got, want) {
		t.Fatalf("Scan seqs %v, want %v", got, want)
	}
	if n, err := s.Count(stream); err != nil || n != len(want) {
		t.Fatalf("Count %d, %v; want %d", n, err, len(want))
	}
	for _, k := range []int{0, 1, 3, len(want), len(want) + 5} {
		got, err := s.OldestIDs(stream, k)
		if err != nil || !slices.Equal(got, want[:min(k, len(want))]) {
			t.Fatalf("OldestIDs(%d) = %v, %v; want %v", k, got, err, want[:min(k, len(want))])
		}
	}
	for _, cut := range []int64{day0, day0 + 3, day0 + int64(len(all)), day0 + 1000} {
		got, err := s.IDsOlderThan(stream, cut)
		var w []uint64
		for _, q := range want {
			r, _ := s.Get(stream, q)
			if r.Time < cut {
				w = append(w, q)
			}
		}
		if err != nil || !slices.Equal(got, w) {
			t.Fatalf("IDsOlderThan(%d) = %v, %v; want %v", cut-day0, got, err, w)
		}
	}
	for _, q := range all {
		r, err := s.Get(stream, q)
		if deleted[q] {
			if !errors.Is(err, ErrNotFound) {
				t.Fatalf("Get(%d) of a deleted row: %v, %v", q, r, err)
			}
		} else if err != nil || r.Seq != q {
			t.Fatalf("Get(%d): %v, %v", q, r.Seq, err)
		}
	}
}

func TestDeleteHidesRows(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{BlockRows: 4, SegmentMaxBytes: 2048})
	all := appendN(t, s, "ev", 40)
	deleted := map[uint64]bool{}
	for _, batch := range [][]uint64{{3}, {1, 2, 4, 5, 6, 7, 8}, {40, 39}, {20, 3}} {
		if err := s.Delete(ctx, "ev", batch...); err != nil {
			t.Fatalf("Delete %v: %v", batch, err)
		}
		for _, q := range batch {
			deleted[q] = true
		}
		checkHidden(t, s, "ev", all, deleted)
	}
	if _, err := s.Get("ev", 3); !strings.Contains(fmt.Sprint(err), "soft-deleted") {
		t.Fatalf("Get of a soft-deleted row: %v does not say so", err)
	}
	if m := s.Metrics(); m.SoftDeletedRows != uint64(len(deleted)) || m.DeletedRows != uint64(len(deleted)) {
		t.Fatalf("metrics: SoftDeletedRows %d DeletedRows %d, want %d", m.SoftDeletedRows, m.DeletedRows, len(deleted))
	}
	// Unknown seqs and tombstone rows are refused; nothing changes.
	if err := s.Delete(ctx, "ev", 10, 41); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "41") {
		t.Fatalf("Delete of an unknown seq: %v", err)
	}
	seqs, err := s.Append(ctx, "ev", Record{Time: day0 + 50, Series: "sa", Key: "k", Op: OpDelete})
	if err != nil {
		t.Fatal(err)
	}
	all = append(all, seqs...)
	if err := s.Delete(ctx, "ev", 11, seqs[0]); !errors.Is(err, ErrTombstoneRow) {
		t.Fatalf("Delete of a tombstone row: %v", err)
	}
	checkHidden(t, s, "ev", all, deleted)
	if err := s.Delete(ctx, "nope", 1); !errors.Is(err, ErrStreamNotFound) {
		t.Fatalf("Delete on a missing stream: %v", err)
	}
	closeT(t, s)

	// Reopened, writable and read-only, and after a crash.
	for _, fsys := range []*vfs.MemFS{mem, mem.CrashClone()} {
		s = openT(t, fsys, Options{})
		checkHidden(t, s, "ev", all, deleted)
		closeT(t, s)
		r := openT(t, fsys, Options{ReadOnly: true})
		checkHidden(t, r, "ev", all, deleted)
		if err := r.Delete(ctx, "ev", 12); !errors.Is(err, ErrReadOnly) {
			t.Fatalf("Delete on a read-only store: %v", err)
		}
		closeT(t, r)
	}
}

// TestDeleteReadOnlyFollows: a read-only Store sees a writer's deletes
// at its next read.
func TestDeleteReadOnlyFollows(t *testing.T) {
	mem := vfs.NewMem()
	w := openT(t, mem, Options{BlockRows: 4})
	all := appendN(t, w, "ev", 10)
	r := openT(t, mem, Options{ReadOnly: true})
	checkHidden(t, r, "ev", all, nil)
	deleted := map[uint64]bool{}
	for _, q := range []uint64{2, 9, 5} {
		if err := w.Delete(ctx, "ev", q); err != nil {
			t.Fatal(err)
		}
		deleted[q] = true
		checkHidden(t, r, "ev", all, deleted)
	}
	closeT(t, r)
	closeT(t, w)
}

// TestDeleteReadOnlyOS: the same on the OS file system, where the reader
// shares nothing with the writer but the files, as another process.
func TestDeleteReadOnlyOS(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir, &Options{BlockRows: 4, SegmentMaxBytes: 1024, RetentionInterval: NoRetentionLoop})
	if err != nil {
		t.Fatal(err)
	}
	defer closeT(t, w)
	all := appendN(t, w, "ev", 30)
	r, err := Open(dir, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer closeT(t, r)
	deleted := map[uint64]bool{}
	for _, batch := range [][]uint64{{1}, {2}, {14, 15, 16}, {30}} {
		if err := w.Delete(ctx, "ev", batch...); err != nil {
			t.Fatal(err)
		}
		for _, q := range batch {
			deleted[q] = true
		}
		checkHidden(t, r, "ev", all, deleted)
	}
	if err := w.SetRetention("ev", Retention{MaxCount: 20}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ApplyRetention(ctx, "ev"); err != nil {
		t.Fatal(err)
	}
	if n, err := r.Count("ev"); err != nil || n != 20 {
		t.Fatalf("read-only Count after retention: %d, %v", n, err)
	}
	if got, err := r.Retention("ev"); err != nil || got.MaxCount != 20 {
		t.Fatalf("read-only Retention: %+v, %v", got, err)
	}
}

// coarseFS reports one modification time for every file, as a file
// system with coarse timestamps does within one tick.
type coarseFS struct {
	vfs.FS
	t time.Time
}

type coarseInfo struct {
	os.FileInfo
	t time.Time
}

func (i coarseInfo) ModTime() time.Time { return i.t }

func (c coarseFS) Stat(name string) (os.FileInfo, error) {
	fi, err := c.FS.Stat(name)
	if err != nil {
		return nil, err
	}
	return coarseInfo{fi, c.t}, nil
}

// TestDeleteReadOnlyCoarseMtime: a state file rewritten with the same
// size and modification time is still reloaded (by its write sequence).
func TestDeleteReadOnlyCoarseMtime(t *testing.T) {
	mem := vfs.NewMem()
	w := openT(t, mem, Options{RetentionInterval: NoRetentionLoop})
	defer closeT(t, w)
	all := appendN(t, w, "ev", 10)
	r := openT(t, coarseFS{mem, time.Now()}, Options{ReadOnly: true})
	defer closeT(t, r)
	deleted := map[uint64]bool{}
	for _, q := range []uint64{1, 2, 3, 4, 5} { // runs 1..n: same size from 3 on
		if err := w.Delete(ctx, "ev", q); err != nil {
			t.Fatal(err)
		}
		deleted[q] = true
		checkHidden(t, r, "ev", all, deleted)
	}
}
