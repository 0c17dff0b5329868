package tsq

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

const dayNS = int64(24 * time.Hour)

// fillSealed appends n records in frames of rows records (BlockRows
// rows: no merge) on day0, then one record on the next day, which seals
// the first segment.
func fillSealed(t testing.TB, s *Store, stream string, n, rows int) {
	t.Helper()
	for i := 0; i < n; i += rows {
		var recs []Record
		for j := i; j < min(i+rows, n); j++ {
			recs = append(recs, rec(day0+int64(j), "a", int64(j)))
		}
		if _, err := s.Append(ctx, stream, recs...); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Append(ctx, stream, rec(day0+dayNS, "a", int64(n))); err != nil {
		t.Fatal(err)
	}
}

// cachedBlocks returns the blocks of the view that go through the cache,
// and their bytes.
func cachedBlocks(t testing.TB, s *Store, stream string) (n int, bytes uint64) {
	t.Helper()
	v, err := s.readViewT(stream)
	if err != nil {
		t.Fatal(err)
	}
	for _, sf := range v.segs {
		for i := range sf.blocks {
			if _, ok := s.cache.key(sf, i); ok {
				n++
				bytes += uint64(sf.blocks[i].BlockLen())
			}
		}
	}
	return n, bytes
}

func getAll(t testing.TB, s *Store, stream string, n int) []Record {
	t.Helper()
	out := make([]Record, 0, n)
	for q := uint64(1); q <= uint64(n); q++ {
		r, err := s.Get(stream, q)
		if err != nil {
			t.Fatalf("Get(%d): %v", q, err)
		}
		out = append(out, r)
	}
	return out
}

// TestBlockCacheHits: a second Scan and Gets of sealed blocks are served
// from the cache once its Sets are applied, and the metrics say so.
func TestBlockCacheHits(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 16, Sync: SyncNever, CacheBytes: 1 << 20})
	defer closeT(t, s)
	fillSealed(t, s, "ev", 160, 16)
	v, _ := s.readViewT("ev")
	if len(v.segs) != 2 || !v.segs[0].sealed || len(v.segs[0].blocks) != 10 {
		t.Fatalf("want a sealed segment of 10 blocks and an active one, got %d segments", len(v.segs))
	}
	nb, nbytes := cachedBlocks(t, s, "ev")
	if nb != 11 {
		t.Fatalf("%d cached blocks, want 11", nb)
	}
	want := allSeqs(t, s, "ev")
	m := s.Metrics()
	if m.CacheMisses != uint64(nb) || m.CacheHits != 0 {
		t.Fatalf("first scan: hits %d misses %d, want 0 and %d", m.CacheHits, m.CacheMisses, nb)
	}
	s.cache.wait()
	if m = s.Metrics(); m.CacheCostAdded != nbytes {
		t.Fatalf("cost added %d, want the blocks' %d bytes", m.CacheCostAdded, nbytes)
	}
	if got := allSeqs(t, s, "ev"); !reflect.DeepEqual(got, want) {
		t.Fatalf("cached scan differs")
	}
	if m = s.Metrics(); m.CacheHits != uint64(nb) || m.CacheMisses != uint64(nb) {
		t.Fatalf("second scan: hits %d misses %d, want %d and %d", m.CacheHits, m.CacheMisses, nb, nb)
	}
	// Gets of the sealed blocks: one hit each, nothing read from the file.
	for q := uint64(1); q <= 160; q += 16 {
		r, err := s.Get("ev", q)
		if err != nil || r.Seq != q {
			t.Fatalf("Get(%d) = %+v, %v", q, r, err)
		}
	}
	if ids, err := s.IDsOlderThan("ev", day0+8); err != nil || len(ids) != 8 {
		t.Fatalf("IDsOlderThan = %v, %v", ids, err)
	}
	m = s.Metrics()
	if m.CacheHits != uint64(nb)+11 || m.CacheMisses != uint64(nb) || m.CacheStale != 0 || m.CacheEvictions != 0 {
		t.Fatalf("after Gets: %+v", m)
	}
	closeT(t, s)
	if m2 := s.Metrics(); m2.CacheHits != m.CacheHits || m2.CacheCostAdded != m.CacheCostAdded {
		t.Fatalf("metrics after Close lost: %+v", m2)
	}
}

// TestBlockCacheOptions: NoCache disables the cache, nil Options and 0 get
// 64 MiB, other negative sizes are invalid.
func TestBlockCacheOptions(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 16, Sync: SyncNever, CacheBytes: NoCache})
	defer closeT(t, s)
	if s.cache != nil {
		t.Fatal("NoCache made a cache")
	}
	fillSealed(t, s, "ev", 64, 16)
	allSeqs(t, s, "ev")
	allSeqs(t, s, "ev")
	getAll(t, s, "ev", 65)
	if m := s.Metrics(); m.CacheHits != 0 || m.CacheMisses != 0 || m.CacheCostAdded != 0 {
		t.Fatalf("disabled cache counted: %+v", m)
	}
	v, _ := s.readViewT("ev")
	for _, sf := range v.segs {
		if sf.cacheID != 0 {
			t.Fatalf("segment %s has cache id %d without a cache", sf.name, sf.cacheID)
		}
	}
	if o, err := (*Options)(nil).withDefaults(); err != nil || o.CacheBytes != DefaultCacheBytes {
		t.Fatalf("nil Options: CacheBytes %d, %v", o.CacheBytes, err)
	}
	if o, err := (&Options{}).withDefaults(); err != nil || o.CacheBytes != DefaultCacheBytes {
		t.Fatalf("zero CacheBytes: %d, %v", o.CacheBytes, err)
	}
	if _, err := Open("db", &Options{FS: vfs.NewMem(), CacheBytes: -2}); !errors.Is(err, ErrInvalidOptions) {
		t.Fatalf("CacheBytes -2: %v", err)
	}
}

// TestBlockCacheMerge: a segment rewritten by a merge is never served
// from the old generation's entries, not even when a read of the old
// view inserts old bytes after the merge was published.
func TestBlockCacheMerge(t *testing.T) {
	fsys := vfs.NewMem()
	// SyncAlways: one small frame per append, merged at seal.
	s := openT(t, fsys, Options{BlockRows: 32, Sync: SyncAlways, CacheBytes: 1 << 20})
	defer closeT(t, s)
	for i := range 100 {
		if _, err := s.Append(ctx, "ev", rec(day0+int64(i), "a", int64(i))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Append(ctx, "ev", rec(day0+dayNS, "a", 100)); err != nil { // seals and merges day 1
		t.Fatal(err)
	}
	old, _ := s.readViewT("ev")
	oldSF := old.segs[0]
	before := getAll(t, s, "ev", 101) // caches the old generation's 100 blocks
	s.cache.wait()
	if k, _ := s.cache.key(oldSF, 0); !hasKey(s, k) {
		t.Fatal("old block 0 not cached")
	}
	deadline := time.Now().Add(2 * time.Second)
	for s.Metrics().Merges == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if _, err := s.Append(ctx, "ev", rec(day0+dayNS+1, "a", 101)); err != nil { // publishes the merge
		t.Fatal(err)
	}
	cur, _ := s.readViewT("ev")
	newSF := cur.segs[0]
	if len(newSF.blocks) != 4 || newSF.gen == oldSF.gen || newSF.cacheID != oldSF.cacheID {
		t.Fatalf("merged segment: %d blocks, gen %d (old %d), id %d (old %d)",
			len(newSF.blocks), newSF.gen, oldSF.gen, newSF.cacheID, oldSF.cacheID)
	}
	kOld, _ := s.cache.key(oldSF, 0)
	kNew, _ := s.cache.key(newSF, 0)
	if kOld == kNew || kOld>>24 != uint64(oldSF.cacheID)<<16|oldSF.gen&0xffff || kNew&0xffffff != 0 {
		t.Fatalf("keys %#x (old) and %#x (new)", kOld, kNew)
	}
	s.cache.wait()
	if hasKey(s, kOld) {
		t.Fatal("old generation's block 0 still cached after the merge was published")
	}
	// An in-flight read of the old view finishes now and inserts the old
	// bytes: under the old generation's key only.
	if _, err := s.st("ev").decodeBlock(oldSF, 0); err != nil {
		t.Fatal(err)
	}
	s.cache.wait()
	after := getAll(t, s, "ev", 102)
	s.cache.wait()
	again := getAll(t, s, "ev", 102)
	if !reflect.DeepEqual(before, after[:101]) || !reflect.DeepEqual(after, again) {
		t.Fatal("records differ across the merge")
	}
	// What the cache serves is the merged file's bytes: compare every
	// block with a read of the file.
	for i := range newSF.blocks {
		k, _ := s.cache.key(newSF, i)
		v, ok := s.cache.c.Get(k)
		if !ok {
			t.Fatalf("merged block %d not cached", i)
		}
		disk, err := s.st("ev").readBlockFile(newSF, i, true)
		if err != nil {
			t.Fatal(err)
		}
		if v.crc != newSF.blocks[i].CRC || !reflect.DeepEqual(v.data, disk) {
			t.Fatalf("merged block %d: cached bytes differ from the file's", i)
		}
	}
	ro := openT(t, fsys.CrashClone(), Options{ReadOnly: true})
	defer closeT(t, ro)
	if disk := getAll(t, ro, "ev", 100); !reflect.DeepEqual(disk, again[:100]) {
		t.Fatal("cached records differ from the merged file's")
	}
	if m := s.Metrics(); m.CacheStale != 0 {
		t.Fatalf("%d stale hits", m.CacheStale)
	}
}

func hasKey(s *Store, k uint64) bool {
	_, ok := s.cache.c.Get(k)
	return ok
}

func (s *Store) st(name string) *stream {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.streams[name]
}

// TestBlockCacheCorruption: a byte flipped on disk after a block was
// cached is not seen while the verified bytes stay cached; once evicted,
// and after reopening, the read reports the corruption.
func TestBlockCacheCorruption(t *testing.T) {
	dir := t.TempDir()
	o := Options{BlockRows: 16, Sync: SyncNever, CacheBytes: 1 << 20, FS: vfs.Default}
	s, err := Open(dir, &o)
	if err != nil {
		t.Fatal(err)
	}
	fillSealed(t, s, "ev", 64, 16)
	want, err := s.Get("ev", 3) // caches sealed block 0
	if err != nil {
		t.Fatal(err)
	}
	s.cache.wait()
	v, _ := s.readViewT("ev")
	sf := v.segs[0]
	if !sf.sealed {
		t.Fatal("segment 0 not sealed")
	}
	f, err := os.OpenFile(filepath.Join(dir, "streams", "ev", sf.name), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	off := sf.blocks[0].Offset + seg.FrameHeaderLen + int64(sf.blocks[0].BlockLen()/2)
	b := []byte{0}
	if _, err := f.ReadAt(b, off); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0x10
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	hits := s.Metrics().CacheHits
	if got, err := s.Get("ev", 3); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("cached Get after the flip = %+v, %v", got, err)
	}
	if s.Metrics().CacheHits != hits+1 {
		t.Fatal("Get after the flip was not a hit")
	}
	// Evicted: the next read goes to the file and finds the flip, and
	// does not cache it.
	k, _ := s.cache.key(sf, 0)
	s.cache.c.Del(k)
	for range 2 {
		if _, err := s.Get("ev", 3); !errors.Is(err, chunk.ErrCorrupt) {
			t.Fatalf("Get after eviction: %v, want ErrCorrupt", err)
		}
		s.cache.wait()
	}
	if got, err := s.Get("ev", 20); err != nil || got.Seq != 20 { // other blocks are fine
		t.Fatalf("Get(20) = %+v, %v", got, err)
	}
	closeT(t, s)
	s, err = Open(dir, &o)
	if err != nil {
		t.Fatal(err)
	}
	defer closeT(t, s)
	if _, err := s.Get("ev", 3); !errors.Is(err, chunk.ErrCorrupt) {
		t.Fatalf("Get after reopen: %v, want ErrCorrupt", err)
	}
}

// TestBlockCacheStaleCRC: an entry whose CRC differs from the index's is
// discarded and counted, and the block is read from the file.
func TestBlockCacheStaleCRC(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 16, Sync: SyncNever, CacheBytes: 1 << 20})
	defer closeT(t, s)
	fillSealed(t, s, "ev", 32, 16)
	v, _ := s.readViewT("ev")
	sf := v.segs[0]
	k, _ := s.cache.key(sf, 1)
	s.cache.set(k, sf.blocks[1].CRC^1, []byte("not this block"))
	s.cache.wait()
	if r, err := s.Get("ev", 20); err != nil || r.Seq != 20 {
		t.Fatalf("Get(20) = %+v, %v", r, err)
	}
	if m := s.Metrics(); m.CacheStale != 1 {
		t.Fatalf("stale %d, want 1", m.CacheStale)
	}
}

// TestBlockCacheEvictions: a cache smaller than the stream evicts, and
// the metrics count it.
func TestBlockCacheEvictions(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 16, Sync: SyncNever, CacheBytes: 4 << 10})
	defer closeT(t, s)
	fillSealed(t, s, "ev", 1600, 16)
	n := 1601
	for range 3 {
		for q := uint64(1); q <= uint64(n); q += 16 {
			if _, err := s.Get("ev", q); err != nil {
				t.Fatal(err)
			}
			s.cache.wait()
		}
	}
	m := s.Metrics()
	if m.CacheEvictions == 0 || m.CacheCostEvicted == 0 || m.CacheCostAdded-m.CacheCostEvicted > 4<<10 {
		t.Fatalf("evictions %d, cost added %d evicted %d", m.CacheEvictions, m.CacheCostAdded, m.CacheCostEvicted)
	}
}

func TestCacheKeyPacking(t *testing.T) {
	k := cacheKey(maxCacheID, 0x1_2345, maxCacheBlock)
	if k>>40 != maxCacheID || (k>>24)&0xffff != 0x2345 || k&0xffffff != maxCacheBlock {
		t.Fatalf("key %#x", k)
	}
	var a idAllocator
	a.used = map[uint32]struct{}{}
	a.last = maxCacheID - 1
	x := a.alloc()
	y := a.alloc() // wraps to 1
	a.used[2] = struct{}{}
	z := a.alloc() // skips 2, in use
	if x != maxCacheID || y != 1 || z != 3 {
		t.Fatalf("ids %d %d %d", x, y, z)
	}
	a.release([]uint32{x, y})
	if _, ok := a.used[x]; ok {
		t.Fatal("released id still used")
	}
}

// TestBlockCacheCompaction: a compaction pass that rewrites a segment
// whose blocks are cached publishes it under a new generation, and the
// old generation's blocks leave the cache before the pass returns; an
// in-flight decode of the old file inserts under the old key only, so
// reads never serve the rows the rewrite removed; the new blocks cached
// are the rewritten file's bytes.
func TestBlockCacheCompaction(t *testing.T) {
	o := smallSegs
	o.CacheBytes = 1 << 20
	s := openT(t, vfs.NewMem(), o)
	defer closeT(t, s)
	var recs []Record
	for i := range 64 {
		recs = append(recs, Record{Time: day0 + 200 + int64(i), Series: "b", Key: fmt.Sprint("k", i), Fields: []Field{{"v", Int(int64(i))}}})
	}
	if _, err := s.Append(ctx, "ev", recs...); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Compact(ctx, "ev"); err != nil { // seals them; nothing to drop yet
		t.Fatal(err)
	}
	st := s.st("ev")
	old, _ := s.readViewT("ev")
	var oldSF *segFile
	for _, sf := range old.segs {
		if sf.sealed && len(sf.blocks) > 0 {
			oldSF = sf // b's first puts
			break
		}
	}
	if oldSF == nil {
		t.Fatal("no sealed segment of b's puts")
	}
	beforeRows := len(rawRows(t, s, "ev")) // caches every block
	s.cache.wait()
	kOld, _ := s.cache.key(oldSF, 0)
	if !hasKey(s, kOld) {
		t.Fatal("b's first block not cached before the pass")
	}
	recs = recs[:0]
	for i := range 64 {
		recs = append(recs, Record{Time: day0 + 300 + int64(i), Series: "b", Key: fmt.Sprint("k", i), Op: OpDelete})
	}
	if _, err := s.Append(ctx, "ev", recs...); err != nil {
		t.Fatal(err)
	}
	cs, err := s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	if cs.RowsRecord != 64 {
		t.Fatalf("pass dropped %d of b's puts, want 64", cs.RowsRecord)
	}
	cur, _ := s.readViewT("ev")
	var newSF *segFile
	for _, sf := range cur.segs {
		if sf.path == oldSF.path {
			newSF = sf
		}
	}
	if newSF == nil || newSF.gen == oldSF.gen {
		t.Fatalf("rewritten segment %v: generation not bumped (old %d)", newSF, oldSF.gen)
	}
	if kNew, _ := s.cache.key(newSF, 0); kNew == kOld {
		t.Fatalf("old and new generations share the key %#x", kOld)
	}
	s.cache.wait()
	if hasKey(s, kOld) {
		t.Fatal("the old generation's block still cached after the pass returned")
	}
	// An in-flight read of the old view finishes now: its bytes go under
	// the old key, which no read of the new view asks for.
	if _, err := st.decodeBlock(oldSF, 0); err != nil {
		t.Fatal(err)
	}
	s.cache.wait()
	for _, r := range rawRows(t, s, "ev") {
		if r.series == "b" && r.op == OpPut {
			t.Fatalf("read served b's removed put %d", r.seq)
		}
	}
	if got := len(rawRows(t, s, "ev")); got != beforeRows+64-64 {
		t.Fatalf("%d rows after the pass, want %d (64 deletes in, 64 puts out)", got, beforeRows)
	}
	for i := range newSF.blocks {
		k, _ := s.cache.key(newSF, i)
		v, ok := s.cache.c.Get(k)
		if !ok {
			continue // not read since, or emptied
		}
		disk, err := st.readBlockFile(newSF, i, true)
		if err != nil {
			t.Fatal(err)
		}
		if v.crc != newSF.blocks[i].CRC || !reflect.DeepEqual(v.data, disk) {
			t.Fatalf("rewritten block %d: cached bytes differ from the file's", i)
		}
	}
	if m := s.Metrics(); m.CacheStale != 0 {
		t.Fatalf("%d stale hits", m.CacheStale)
	}
}
