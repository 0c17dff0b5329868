package tsq

import (
	"path/filepath"
	"slices"
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
