package tsq

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tsqdb/tsq/compact"
	"github.com/tsqdb/tsq/internal/vfs"
)

// smallSegs makes many small segments and blocks, compaction off in the
// background.
var smallSegs = Options{SegmentMaxBytes: 4 << 10, BlockRows: 16, CompactTombstoneCap: 1 << 20}

func TestCompactRemovesSuperseded(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, smallSegs)
	defer closeT(t, s)
	rng := rand.New(rand.NewPCG(1, 2))
	all := workload(t, s, "ev", rng, 3000, day0)
	before := fold(rawRows(t, s, "ev"))
	if m := s.CompactionMetrics(); m.LagSeconds["ev"] <= 0 || m.Watermark["ev"] != 0 {
		t.Fatalf("before a pass: lag %v, W %d", m.LagSeconds["ev"], m.Watermark["ev"])
	}
	// A stale temp file (a rewrite cut by a crash of another process) is
	// removed at the start of a pass.
	f, err := mem.Create("db/streams/ev/2026-12-01-0000000000000001.seg.tmp")
	if err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	st, err := s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	if tmp := tmpFiles(t, mem, "db/streams/ev"); len(tmp) > 0 {
		t.Fatalf("temp files after a pass: %v", tmp)
	}
	m := s.CompactionMetrics()
	if m.Watermark["ev"] != st.Watermark || m.LagSeconds["ev"] != 0 || m.SegmentsRewritten != uint64(st.SegmentsRewritten) ||
		m.RowsRecord != uint64(st.RowsRecord) || m.TombstonesRecord == 0 || m.Passes != 1 {
		t.Fatalf("metrics after a pass %+v, stats %+v", m, st)
	}
	if st.Watermark != all[len(all)-1].seq || st.Target != st.Watermark {
		t.Fatalf("watermark %d target %d, want the last seq %d", st.Watermark, st.Target, all[len(all)-1].seq)
	}
	if st.SegmentsRewritten == 0 || st.RowsRecord == 0 || st.RowsUpdate == 0 || st.RowsSeries == 0 {
		t.Fatalf("stats %+v: expected rewrites and drops of every reason", st)
	}
	raw := rawRows(t, s, "ev")
	checkView(t, "after pass", fold(raw), before)
	checkCompacted(t, all, raw, st.Watermark)
	if n, _ := s.Count("ev"); n != len(raw) {
		t.Fatalf("Count %d, scan %d", n, len(raw))
	}
	for _, r := range raw[:10] {
		if _, err := s.Get("ev", r.seq); err != nil {
			t.Fatalf("Get %d: %v", r.seq, err)
		}
	}
	// A second pass has nothing to do.
	st2, err := s.Compact(ctx, "ev")
	if err != nil || st2.SegmentsRewritten != 0 || st2.Start != st.Watermark {
		t.Fatalf("second pass %+v %v", st2, err)
	}
	// More writes: the next pass covers only (W, tip].
	all = append(all, workload(t, s, "ev", rng, 1000, day0+5000)...)
	before = fold(rawRows(t, s, "ev"))
	st3, err := s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	raw = rawRows(t, s, "ev")
	checkView(t, "third pass", fold(raw), before)
	checkCompacted(t, all, raw, st3.Watermark)
	// Reopen: W persisted, data intact.
	closeT(t, s)
	s = openT(t, mem, smallSegs)
	if w, ok, err := compact.LoadWatermark(mem, "db/streams/ev"); !ok || err != nil || w != st3.Watermark {
		t.Fatalf("watermark on disk %d %v %v, want %d", w, ok, err, st3.Watermark)
	}
	checkView(t, "reopened", fold(rawRows(t, s, "ev")), before)
}

// TestCompactChunks runs a pass in many chunks (a tiny cap), in a few
// and in one; the result is the same. (The bloom prefilter on and off:
// compact's TestRunBloomPrefilter.)
func TestCompactChunks(t *testing.T) {
	for _, tc := range []struct {
		name string
		cap  int
	}{{"cap3", 3}, {"cap50", 50}, {"nocap", 1 << 30}} {
		t.Run(tc.name, func(t *testing.T) {
			o := smallSegs
			o.CompactTombstoneCap = tc.cap
			s := openT(t, vfs.NewMem(), o)
			defer closeT(t, s)
			all := workload(t, s, "ev", rand.New(rand.NewPCG(3, 4)), 2000, day0)
			before := fold(rawRows(t, s, "ev"))
			st, err := s.Compact(ctx, "ev")
			if err != nil {
				t.Fatal(err)
			}
			if tc.cap == 3 && st.Chunks < 10 {
				t.Fatalf("cap 3: %d chunks", st.Chunks)
			}
			raw := rawRows(t, s, "ev")
			checkView(t, tc.name, fold(raw), before)
			checkCompacted(t, all, raw, st.Watermark)
		})
	}
}

// TestCompactReadOnlyReader: a read-only Store reading the stream sees
// the rewritten segments after a pass.
func TestCompactReadOnlyReader(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, smallSegs)
	defer closeT(t, s)
	all := workload(t, s, "ev", rand.New(rand.NewPCG(5, 5)), 1500, day0)
	ro := openT(t, mem, Options{ReadOnly: true})
	defer closeT(t, ro)
	before := fold(rawRows(t, ro, "ev"))
	st, err := s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	raw := rawRows(t, ro, "ev")
	checkView(t, "read-only", fold(raw), before)
	checkCompacted(t, all, raw, st.Watermark)
}

// TestCompactRetiredHandles: handles of replaced files are closed after
// the grace period at a later pass, and reads go on through the new ones.
func TestCompactRetiredHandles(t *testing.T) {
	s := openT(t, vfs.NewMem(), smallSegs)
	defer closeT(t, s)
	workload(t, s, "ev", rand.New(rand.NewPCG(8, 8)), 1500, day0)
	if _, err := s.Compact(ctx, "ev"); err != nil {
		t.Fatal(err)
	}
	st, _ := s.stream("ev", false)
	st.mu.Lock()
	n := len(st.cmp.old)
	err := st.cmp.closeRetired(time.Now()) // within the grace: kept
	kept := len(st.cmp.old)
	err2 := st.cmp.closeRetired(time.Now().Add(retiredGrace + time.Second))
	left := len(st.cmp.old)
	st.mu.Unlock()
	if n == 0 || kept != n || left != 0 || err != nil || err2 != nil {
		t.Fatalf("retired %d, kept %d, left %d, errs %v %v", n, kept, left, err, err2)
	}
	before := fold(rawRows(t, s, "ev"))
	if _, err := s.Compact(ctx, "ev"); err != nil {
		t.Fatal(err)
	}
	checkView(t, "after closing old handles", fold(rawRows(t, s, "ev")), before)
}

// TestCompactBytesWrittenEmptied: a pass that empties every block of a
// segment still reports the bytes it wrote: BytesWritten is the size of
// the rewritten files (header, frames, index, bloom, footer), not only
// of their blocks.
func TestCompactBytesWrittenEmptied(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, smallSegs)
	defer closeT(t, s)
	var puts, dels []Record
	for i := range 40 {
		puts = append(puts, Record{Time: day0 + int64(i), Series: "a", Key: fmt.Sprintf("k%02d", i), Fields: []Field{{"v", Int(int64(i))}}})
		dels = append(dels, Record{Time: day0 + int64(40+i), Series: "a", Key: fmt.Sprintf("k%02d", i), Op: OpDelete})
	}
	if _, err := s.Append(ctx, "ev", puts...); err != nil {
		t.Fatal(err)
	}
	first := "db/streams/ev/" + segNames(t, mem, "db/streams/ev")[0]
	if _, err := s.Append(ctx, "ev", dels...); err != nil {
		t.Fatal(err)
	}
	st, err := s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	if st.RowsRecord != 40 || st.SegmentsRewritten != 1 {
		t.Fatalf("stats %+v: want the 40 puts dropped from their one segment", st)
	}
	fi, err := mem.Stat(first)
	if err != nil {
		t.Fatal(err)
	}
	if st.BytesWritten != fi.Size() {
		t.Fatalf("BytesWritten %d; the rewritten segment has %d bytes", st.BytesWritten, fi.Size())
	}
}

// segNames lists the segment files of a stream directory in name order.
func segNames(t *testing.T, fsys vfs.FS, dir string) []string {
	t.Helper()
	names, err := fsys.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range names {
		if strings.HasSuffix(n, ".seg") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// TestCompactWriteModes: on the OS file system a pass writes its
// segments through the page cache, dropping their pages once written
// back, by default (seg.RewriteDropBehind), keeping them with
// CompactPageCache, and past the cache with CompactDirect: the three
// leave the same files and the same rows. Setting both options is an
// error.
func TestCompactWriteModes(t *testing.T) {
	if _, err := Open(t.TempDir(), &Options{CompactPageCache: true, CompactDirect: true}); !errors.Is(err, ErrInvalidOptions) {
		t.Fatalf("both write modes: %v", err)
	}
	var files [3]map[string][]byte
	var rows [3][]rowInfo
	for i, mode := range []struct{ pageCache, direct bool }{{false, false}, {true, false}, {false, true}} {
		dir := filepath.Join(t.TempDir(), "db")
		s, err := Open(dir, &Options{SegmentMaxBytes: 1 << 20, CompactInterval: 0, RetentionInterval: NoRetentionLoop,
			CompactPageCache: mode.pageCache, CompactDirect: mode.direct})
		if err != nil {
			t.Fatal(err)
		}
		// Keyed puts with incompressible bodies, then deletes of every
		// tenth key: every segment loses rows.
		const n = 40_000
		rng := rand.New(rand.NewPCG(3, 4))
		var recs []Record
		for k := range n + n/10 {
			r := Record{Time: day0 + int64(k)*1e6, Series: fmt.Sprintf("h%d", k%7), Key: fmt.Sprintf("k%d", k)}
			if k >= n {
				r.Series, r.Key, r.Op = fmt.Sprintf("h%d", (k-n)*10%7), fmt.Sprintf("k%d", (k-n)*10), OpDelete
			} else {
				body := make([]byte, 64)
				for j := range body {
					body[j] = byte(rng.Uint32())
				}
				r.Fields = []Field{{"body", Bytes(body)}}
			}
			if recs = append(recs, r); len(recs) == 1000 {
				if _, err := s.Append(ctx, "ev", recs...); err != nil {
					t.Fatal(err)
				}
				recs = recs[:0]
			}
		}
		st, err := s.Compact(ctx, "ev")
		if err != nil {
			t.Fatal(err)
		}
		if st.SegmentsRewritten < 2 || st.BytesWritten < 2<<20 {
			t.Fatalf("pass %+v: too little rewritten to span the direct writes' buffers", st)
		}
		rows[i] = rawRows(t, s, "ev")
		if len(rows[i]) != n || st.RowsRecord != n/10 {
			t.Fatalf("%d rows after a pass that dropped %d, want %d and %d", len(rows[i]), st.RowsRecord, n, n/10)
		}
		closeT(t, s)
		files[i] = map[string][]byte{}
		sdir := filepath.Join(dir, "streams", "ev")
		ents, err := os.ReadDir(sdir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if b, err := os.ReadFile(filepath.Join(sdir, e.Name())); err == nil && strings.HasSuffix(e.Name(), ".seg") {
				files[i][e.Name()] = b
			}
		}
	}
	for i := 1; i < len(files); i++ {
		if !maps.EqualFunc(files[0], files[i], bytes.Equal) {
			t.Fatalf("write mode %d left different segments from the default's (%d and %d files)", i, len(files[i]), len(files[0]))
		}
		if len(rows[0]) != len(rows[i]) {
			t.Fatalf("%d rows after a pass in write mode %d, %d after the default's", len(rows[i]), i, len(rows[0]))
		}
	}
}
