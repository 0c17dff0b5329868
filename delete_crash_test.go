package tsq

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/index"
	"github.com/tsqdb/tsq/internal/vfs"
)

const deletedPath = "db/streams/ev/deleted.bitmap"

func deletedSet(t *testing.T, s *Store, stream string) map[uint64]bool {
	t.Helper()
	st, err := s.stream(stream, false)
	if err != nil {
		t.Fatal(err)
	}
	out := map[uint64]bool{}
	if bm := st.deletedSnapshot(); bm != nil {
		for _, q := range bm.ToArray() {
			out[q] = true
		}
	}
	return out
}

func sameSet(a, b map[uint64]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// TestDeleteCrash: a Delete that returned survives a crash; a Delete
// stopped at any crash point of its bitmap write leaves, after a crash
// and reopen, the old or the new deleted set (the new one once the
// directory is synced), never a corrupt file, and no temp file.
func TestDeleteCrash(t *testing.T) {
	stop := errors.New("simulated crash")
	for _, cp := range index.CrashPoints() {
		t.Run(string(cp), func(t *testing.T) {
			mem := vfs.NewMem()
			s := openT(t, mem, Options{BlockRows: 4, RetentionInterval: NoRetentionLoop})
			all := appendN(t, s, "ev", 12)
			if err := s.Delete(ctx, "ev", 2, 3); err != nil {
				t.Fatal(err)
			}
			// A Delete that returned is durable.
			c := openT(t, mem.CrashClone(), Options{})
			old := map[uint64]bool{2: true, 3: true}
			if got := deletedSet(t, c, "ev"); !sameSet(got, old) {
				t.Fatalf("acknowledged delete lost in a crash: %v", got)
			}
			closeT(t, c)
			st, _ := s.stream("ev", false)
			st.soft.hook = func(p index.CrashPoint) error {
				if p == cp {
					return stop
				}
				return nil
			}
			if err := s.Delete(ctx, "ev", 7, 8); !errors.Is(err, stop) {
				t.Fatalf("Delete: %v", err)
			}
			neu := map[uint64]bool{2: true, 3: true, 7: true, 8: true}
			crashed := mem.CrashClone()
			c = openT(t, crashed, Options{})
			got := deletedSet(t, c, "ev")
			if !sameSet(got, old) && !sameSet(got, neu) {
				t.Fatalf("after a crash at %s: deleted %v", cp, got)
			}
			if cp == index.CrashDirSynced && !sameSet(got, neu) {
				t.Fatalf("durable write lost")
			}
			checkHidden(t, c, "ev", all, got)
			names, _ := crashed.ReadDir("db/streams/ev")
			for _, n := range names {
				if strings.HasSuffix(n, ".tmp") || strings.HasSuffix(n, index.TmpSuffix) {
					t.Fatalf("temp file %s left after reopen", n)
				}
			}
			closeT(t, c)
			st.soft.hook = nil
			closeT(t, s)
		})
	}
}

// TestDeleteUnsyncedRows: under SyncNever a Delete fsyncs the rows it
// names first, so a crash cannot keep the deletion and lose the row; and
// a bitmap naming seqs beyond the stored ones is trimmed at open.
func TestDeleteUnsyncedRows(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{Sync: SyncNever, BlockRows: 4})
	all := appendN(t, s, "ev", 6)
	if err := s.Delete(ctx, "ev", 6); err != nil {
		t.Fatal(err)
	}
	appendN(t, s, "ev", 3) // seqs 7-9, not durable
	c := openT(t, mem.CrashClone(), Options{})
	if got := allSeqs(t, c, "ev"); len(got) != 5 || got[4] != 5 {
		t.Fatalf("after a crash: %v (all %v)", got, all)
	}
	closeT(t, c)
	closeT(t, s)

	// A bitmap naming seqs never stored (written by hand) is trimmed.
	mem = vfs.NewMem()
	s = openT(t, mem, Options{})
	appendN(t, s, "ev", 3)
	closeT(t, s)
	if err := index.WriteBitmap(mem, deletedPath, index.KindDeleted, 9, roaring64.BitmapOf(2, 4, 5), nil); err != nil {
		t.Fatal(err)
	}
	s = openT(t, mem, Options{})
	if got := deletedSet(t, s, "ev"); !sameSet(got, map[uint64]bool{2: true}) {
		t.Fatalf("not trimmed: %v", got)
	}
	seqs := appendN(t, s, "ev", 3)
	checkHidden(t, s, "ev", []uint64{1, 2, 3, seqs[0], seqs[1], seqs[2]}, map[uint64]bool{2: true})
	closeT(t, s)
}

// TestDeleteENOSPC: a failure of any step of the bitmap write gives an
// error naming the file and the cause; the old state stays in memory and
// on disk, no temp file stays; after the disk recovers Delete works.
func TestDeleteENOSPC(t *testing.T) {
	for _, kind := range []vfs.OpKind{vfs.OpCreate, vfs.OpWrite, vfs.OpSync, vfs.OpRename} {
		t.Run(kind.String(), func(t *testing.T) {
			mem := vfs.NewMem()
			efs := vfs.NewErrorFS(mem)
			s := openT(t, efs, Options{BlockRows: 4, RetentionInterval: NoRetentionLoop})
			all := appendN(t, s, "ev", 10)
			if err := s.Delete(ctx, "ev", 1); err != nil {
				t.Fatal(err)
			}
			efs.FailAfter(kind, 0, syscall.ENOSPC, vfs.PartialWrite)
			err := s.Delete(ctx, "ev", 4, 5)
			efs.Disarm()
			if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), deletedPath) || !strings.Contains(err.Error(), `"ev"`) {
				t.Fatalf("error %v does not name the stream, the file and ENOSPC", err)
			}
			t.Logf("Delete error: %v", err)
			old := map[uint64]bool{1: true}
			checkHidden(t, s, "ev", all, old)
			names, _ := mem.ReadDir("db/streams/ev")
			for _, n := range names {
				if strings.HasSuffix(n, ".tmp") || strings.HasSuffix(n, index.TmpSuffix) {
					t.Fatalf("temp file %s left", n)
				}
			}
			c := openT(t, mem.CrashClone(), Options{})
			checkHidden(t, c, "ev", all, old)
			closeT(t, c)
			if err := s.Delete(ctx, "ev", 4, 5); err != nil {
				t.Fatal(err)
			}
			checkHidden(t, s, "ev", all, map[uint64]bool{1: true, 4: true, 5: true})
			closeT(t, s)
		})
	}
}

// TestBitmapsShrink: forgetDeleted and forgetTombstoned shrink the
// bitmaps and their files once rows are gone; tombstoned rows stay
// visible to raw reads.
func TestBitmapsShrink(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{Sync: SyncNever, RetentionInterval: NoRetentionLoop})
	times := make([]int64, 20000)
	vals := make([]float64, len(times))
	for i := range times {
		times[i] = day0 + int64(i)
	}
	if _, err := s.AppendSamples(ctx, "ev", "cpu", times, vals); err != nil {
		t.Fatal(err)
	}
	var odd []uint64
	for q := uint64(1); q <= 20000; q += 2 {
		odd = append(odd, q)
	}
	if err := s.Delete(ctx, "ev", odd...); err != nil {
		t.Fatal(err)
	}
	size := func(name string) int64 {
		fi, err := mem.Stat(filepath.Join("db/streams/ev", name))
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	full := size(deletedFile)
	st, _ := s.stream("ev", false)
	tomb := roaring64.New()
	tomb.AddRange(2, 5000)
	if err := st.markTombstoned(tomb); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Count("ev"); n != 10000 {
		t.Fatalf("count %d: tombstoned rows must stay visible", n)
	}
	// Compaction removed every odd row below 15000 and the tombstoned ones.
	gone := roaring64.New()
	for q := uint64(1); q < 15000; q += 2 {
		gone.Add(q)
	}
	if err := st.forgetDeleted(gone); err != nil {
		t.Fatal(err)
	}
	if err := st.forgetTombstoned(tomb); err != nil {
		t.Fatal(err)
	}
	part := size(deletedFile)
	m := s.Metrics()
	t.Logf("deleted.bitmap: %d bytes with 10000 seqs, %d bytes with %d; tombstoned.bitmap %d bytes empty",
		full, part, m.DeletedRows, size(tombstonedFile))
	if part >= full || m.DeletedRows != 2500 || m.TombstonedRows != 0 || size(tombstonedFile) > 40 {
		t.Fatalf("bitmaps did not shrink: %d -> %d bytes, DeletedRows %d TombstonedRows %d", full, part, m.DeletedRows, m.TombstonedRows)
	}
	gone.AddRange(15000, 20001)
	if err := st.forgetDeleted(gone); err != nil {
		t.Fatal(err)
	}
	if size(deletedFile) > 40 || st.deletedSnapshot() != nil {
		t.Fatalf("empty deleted bitmap takes %d bytes", size(deletedFile))
	}
	closeT(t, s)
	s = openT(t, mem, Options{})
	if m := s.Metrics(); m.DeletedRows != 0 {
		t.Fatalf("reopened: %d deleted", m.DeletedRows)
	}
	closeT(t, s)
}

// TestCorruptStateFile: a damaged state file makes the stream refuse to
// open with an error naming the file and matching ErrCorrupt.
func TestCorruptStateFile(t *testing.T) {
	for _, name := range []string{deletedFile, tombstonedFile, retentionFile} {
		for _, damage := range []string{"flip", "truncate", "garbage"} {
			t.Run(name+"/"+damage, func(t *testing.T) {
				mem := vfs.NewMem()
				s := openT(t, mem, Options{})
				appendN(t, s, "ev", 5)
				st, _ := s.stream("ev", false)
				if err := s.Delete(ctx, "ev", 2); err != nil {
					t.Fatal(err)
				}
				if err := st.markTombstoned(roaring64.BitmapOf(3)); err != nil {
					t.Fatal(err)
				}
				if err := s.SetRetention("ev", Retention{MaxCount: 3}); err != nil {
					t.Fatal(err)
				}
				closeT(t, s)
				path := filepath.Join("db/streams/ev", name)
				b := readAll(t, mem, path)
				switch damage {
				case "flip":
					b[len(b)/2] ^= 1
				case "truncate":
					b = b[:len(b)-3]
				case "garbage":
					b = bytes.Repeat([]byte{0xAB}, 64)
				}
				writeAll(t, mem, path, b)
				for _, ro := range []bool{false, true} {
					s = openT(t, mem, Options{ReadOnly: ro})
					_, err := s.Count("ev")
					if !errors.Is(err, chunk.ErrCorrupt) || !strings.Contains(err.Error(), path) {
						t.Fatalf("read-only %v: error %v does not name %s", ro, err, path)
					}
					if !ro && damage == "flip" {
						t.Logf("error: %v", err)
					}
					closeT(t, s)
				}
			})
		}
	}
}

func readAll(t *testing.T, fsys vfs.FS, path string) []byte {
	t.Helper()
	f, err := fsys.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeAll(t *testing.T, fsys vfs.FS, path string, b []byte) {
	t.Helper()
	f, err := fsys.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(f.Sync(), f.Close()); err != nil {
		t.Fatal(fmt.Errorf("write %s: %w", path, err))
	}
}

// TestForgetClearsBoth: rows gone are cleared from both bitmaps by
// either forget, and the files say so after a reopen.
func TestForgetClearsBoth(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{RetentionInterval: NoRetentionLoop})
	appendN(t, s, "ev", 10)
	st, _ := s.stream("ev", false)
	if err := s.Delete(ctx, "ev", 2, 3); err != nil {
		t.Fatal(err)
	}
	if err := st.markTombstoned(roaring64.BitmapOf(3, 4)); err != nil {
		t.Fatal(err)
	}
	if err := st.forgetTombstoned(roaring64.BitmapOf(3)); err != nil {
		t.Fatal(err)
	}
	if err := st.forgetDeleted(roaring64.BitmapOf(4)); err != nil {
		t.Fatal(err)
	}
	closeT(t, s)
	s = openT(t, mem, Options{RetentionInterval: NoRetentionLoop})
	defer closeT(t, s)
	st, _ = s.stream("ev", false)
	if d, tb := st.deletedSnapshot(), st.tombstonedSnapshot(); !d.Equals(roaring64.BitmapOf(2)) || tb != nil {
		t.Fatalf("deleted %v, tombstoned %v; want [2], none", d, tb)
	}
}

// TestDeleteCrashRandom crashes (clones the MemFS) at random moments
// while Deletes run: after a reopen, every Delete that had returned
// before the crash is there, and nothing that had not been asked for.
func TestDeleteCrashRandom(t *testing.T) {
	mem := vfs.NewMem()
	// fsyncs take 100µs, so crashes fall inside bitmap writes.
	s := openT(t, slowSyncFS(mem, 100*time.Microsecond), Options{BlockRows: 8, RetentionInterval: NoRetentionLoop})
	defer closeT(t, s)
	const n = 300
	appendN(t, s, "ev", n)
	var attempted, acked atomic.Uint64 // Deletes of seqs 1..k started / returned
	done := make(chan struct{})
	go func() {
		defer close(done)
		for q := uint64(1); q <= n; q++ {
			attempted.Store(q)
			if err := s.Delete(ctx, "ev", q); err != nil {
				t.Error(err)
				return
			}
			acked.Store(q)
		}
	}()
	rng := rand.New(rand.NewSource(7))
	for crashes := 0; ; crashes++ {
		select {
		case <-done:
			t.Logf("%d crashes checked", crashes)
			return
		default:
		}
		time.Sleep(time.Duration(rng.Intn(300)) * time.Microsecond)
		lo := acked.Load()
		c := mem.CrashClone()
		hi := attempted.Load()
		r := openT(t, c, Options{RetentionInterval: NoRetentionLoop})
		got := deletedSet(t, r, "ev")
		for q := uint64(1); q <= lo; q++ {
			if !got[q] {
				t.Fatalf("crash %d: acknowledged delete of seq %d lost (acked %d)", crashes, q, lo)
			}
		}
		for q := range got {
			if q > hi {
				t.Fatalf("crash %d: seq %d deleted, only 1..%d asked", crashes, q, hi)
			}
		}
		if n, err := r.Count("ev"); err != nil || n != 300-len(got) {
			t.Fatalf("crash %d: Count %d, %v with %d deleted", crashes, n, err, len(got))
		}
		closeT(t, r)
	}
}
