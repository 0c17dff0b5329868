package compact

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
)

func TestSnapshotSemantics(t *testing.T) {
	s := NewSnapshot()
	s.Observe(10, "a", "k", OpPut)
	s.Observe(20, "a", "k", OpDelete)
	s.Observe(15, "a", "k", OpPut) // lower than 20: ignored
	s.Observe(30, "b", "", OpDrop)
	s.Observe(40, "c", "", OpPut) // a sample: no tombstone
	s.Observe(5, "c", "x", 0)     // unknown op: nothing
	if s.Len() != 2 || s.MaxSeq() != 30 {
		t.Fatalf("len %d max %d", s.Len(), s.MaxSeq())
	}
	var buf []byte
	for _, tc := range []struct {
		seq         uint64
		series, key string
		op          uint8
		why         Reason
		drop        bool
	}{
		{19, "a", "k", OpPut, ReasonRecord, true},
		{20, "a", "k", OpPut, 0, false}, // strict: the same seq does not drop
		{21, "a", "k", OpPut, 0, false},
		{19, "a", "k", OpDelete, 0, false}, // tombstone rows never drop
		{19, "a", "", OpPut, 0, false},     // samples only by a drop
		{29, "b", "", OpPut, ReasonSeries, true},
		{29, "b", "z", OpPut, ReasonSeries, true},
		{30, "b", "", OpPut, 0, false},
		{29, "b", "", OpDrop, 0, false},
		{1, "c", "", OpPut, 0, false},
	} {
		why, drop := s.ShouldDrop(tc.seq, tc.series, tc.key, tc.op, &buf)
		if drop != tc.drop || (drop && why != tc.why) {
			t.Errorf("%+v: got %v %v", tc, why, drop)
		}
	}
	s.Observe(50, "a", "k", OpPut)
	if why, drop := s.ShouldDrop(21, "a", "k", OpPut, &buf); !drop || why != ReasonUpdate {
		t.Errorf("update: %v %v", why, drop)
	}
	if d, p := s.counts(); d != 0 || p != 1 {
		t.Errorf("counts %d %d", d, p)
	}
}

// TestPairKeysUnambiguous: names holding the length prefix's bytes or
// NULs never collide.
func TestPairKeysUnambiguous(t *testing.T) {
	s := NewSnapshot()
	s.Observe(10, "a\x00b", "c", OpDelete)
	var buf []byte
	if _, drop := s.ShouldDrop(1, "a", "b\x00c", OpPut, &buf); drop {
		t.Fatal("(a, b\\0c) matched (a\\0b, c)")
	}
	if _, drop := s.ShouldDrop(1, "a\x00b", "c", OpPut, &buf); !drop {
		t.Fatal("exact pair not found")
	}
	var names []string
	s.EachSeries(func(n string) bool { names = append(names, n); return true })
	if len(names) != 1 || names[0] != "a\x00b" {
		t.Fatalf("series %q", names)
	}
	long := string(make([]byte, 300))
	s.Observe(11, long, "k", OpPut)
	found := false
	s.EachSeries(func(n string) bool { found = found || n == long; return true })
	if !found {
		t.Fatal("long series not returned")
	}
}

// TestPairHash: a pair's hash from its series' hash (as the fold shares
// it between the rows of a series) is the one its names give; pairs that
// split the same bytes differently, or swap series and key, differ; a
// null series hashes as the empty one.
func TestPairHash(t *testing.T) {
	h := newHashTable()
	pairs := [][2]string{{"ab", "c"}, {"a", "bc"}, {"abc", ""}, {"", "abc"}, {"c", "ab"}, {"host07", "obj1"}, {"host07", "obj2"}, {"host08", "obj1"}}
	seen := map[hashKey][2]string{}
	for _, p := range pairs {
		k := h.pairOf([]byte(p[0]), []byte(p[1]))
		if k != h.pairHash(h.hash([]byte(p[0])), []byte(p[1])) {
			t.Fatalf("%q: pairOf and pairHash differ", p)
		}
		if k.lo&1 == 0 {
			t.Fatalf("%q: low bit clear (an empty slot's)", p)
		}
		if q, ok := seen[k]; ok {
			t.Fatalf("%q and %q hash alike", p, q)
		}
		seen[k] = p
	}
	if h.pairOf(nil, []byte("k")) != h.pairOf([]byte{}, []byte("k")) {
		t.Fatal("a null series hashes unlike the empty one")
	}
	if other := newHashTable(); other.pairOf([]byte("ab"), []byte("c")) == h.pairOf([]byte("ab"), []byte("c")) {
		t.Fatal("two tables share their seeds")
	}
}

func TestDeciderSoftDeletes(t *testing.T) {
	del := roaring64.BitmapOf(3, 8, 12)
	d := &decider{snap: NewSnapshot(), chunkEnd: 10, wStart: 5, deleted: del}
	r := &rows{n: 4, seq: []int64{3, 8, 8, 12}, op: []int64{OpPut, OpPut, OpPut, OpPut},
		series: []string{"s", "s", "s", "s"}, key: []string{"k", "", "k", ""}}
	want := []bool{
		true,  // keyed put at or below the starting W: its superseded rows are gone
		true,  // a sample: supersedes nothing
		false, // keyed put above the starting W: may still supersede rows not yet removed
		false, // above the chunk end
	}
	for i, w := range want {
		why, drop := d.decide(r, i)
		if drop != w || (drop && why != ReasonSoftDelete) {
			t.Errorf("row %d: %v %v, want %v", i, why, drop, w)
		}
	}
}

func TestLiveSet(t *testing.T) {
	l := NewLiveSet()
	l.Observe(1, "a", "k", OpPut)
	l.Observe(2, "a", "k", OpDelete)
	l.Observe(3, "a", "", OpPut) // sample: not a tombstone
	if n, _ := l.Observe(4, "b", "", OpDrop); n != 2 {
		t.Fatalf("len %d", n)
	}
	if l.Bytes() <= 0 {
		t.Fatal("no bytes counted")
	}
	l.Evict(2)
	if l.Len() != 1 {
		t.Fatalf("after evict(2): %d", l.Len())
	}
	l.Evict(4)
	if l.Len() != 0 || l.Bytes() != 0 {
		t.Fatalf("after evict(4): %d entries, %d bytes", l.Len(), l.Bytes())
	}
}

// TestLiveSetEvict: random tombstones and evictions against a map of
// each entry's highest seq; shards whose entries all go are freed
// whole, the others filtered. Each keyed row must name the put it
// supersedes, the entry's put if not evicted.
func TestLiveSetEvict(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	l := NewLiveSet()
	want := map[string]uint64{} // "r series/key" or "d series" -> highest seq
	put := map[string]bool{}    // "r series/key" -> its highest row is a put
	told := 0
	seq, w := uint64(0), uint64(0)
	evict := func(to uint64) {
		l.Evict(to)
		for k, s := range want {
			if s <= to {
				delete(want, k)
			}
		}
		w = to
		for k := range put {
			if _, ok := want[k]; !ok {
				delete(put, k)
			}
		}
		if l.Len() != len(want) {
			t.Fatalf("after evicting up to %d: %d entries, want %d", to, l.Len(), len(want))
		}
	}
	for round := range 40 {
		for range rng.IntN(3000) {
			seq++
			series := fmt.Sprintf("s%d", rng.IntN(20))
			if rng.IntN(50) == 0 {
				l.Observe(seq, series, "", OpDrop)
				want["d "+series] = seq
				continue
			}
			key := fmt.Sprintf("k%d", rng.IntN(5000))
			op := []uint8{OpPut, OpDelete}[rng.IntN(2)]
			_, sup := l.Observe(seq, series, key, op)
			k := "r " + series + "/" + key
			var wantSup uint64
			if s, ok := want[k]; ok && put[k] {
				wantSup = s
			}
			if sup != wantSup {
				t.Fatalf("seq %d (%s, op %d): supersedes %d, want %d", seq, k, op, sup, wantSup)
			}
			if sup != 0 {
				told++
			}
			want[k], put[k] = seq, op == OpPut
		}
		switch round % 3 {
		case 0: // everything: every shard freed whole
			evict(seq)
			if l.Bytes() != 0 {
				t.Fatalf("round %d: %d bytes left", round, l.Bytes())
			}
		default: // part of what came since the last eviction
			evict(w + uint64(rng.IntN(int(seq-w)+1)))
		}
	}
	if told < 200 {
		t.Fatalf("only %d superseded puts told", told)
	}
}

func TestByteSem(t *testing.T) {
	s := newByteSem(100)
	ctx := context.Background()
	if err := s.acquire(ctx, 60); err != nil {
		t.Fatal(err)
	}
	got := make(chan struct{})
	go func() {
		_ = s.acquire(ctx, 60) // waits: 120 > 100
		close(got)
	}()
	select {
	case <-got:
		t.Fatal("second acquire did not wait")
	case <-time.After(20 * time.Millisecond):
	}
	s.release(60)
	<-got
	// A request larger than the budget passes alone.
	s.release(60)
	if err := s.acquire(ctx, 500); err != nil {
		t.Fatal(err)
	}
	s.release(500)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.acquire(cctx, 1); err == nil {
		t.Fatal("cancelled acquire succeeded")
	}
	if s.used != 0 {
		t.Fatalf("used %d after a failed acquire", s.used)
	}
}

// TestHashTableSlots: keys sharing a slot (same low hash half) are told
// apart by the high half; resizes, replacement and filter keep every
// entry exact.
func TestHashTableSlots(t *testing.T) {
	tb := newHashTable()
	keep := func(uint64) bool { return true }
	key := func(i int) hashKey { return hashKey{lo: 42 << 8, hi: uint64(i) * 0x9e3779b97f4a7c15} }
	for i := range 1000 {
		if !tb.set(key(i), uint64(i), keep) {
			t.Fatalf("key %d not new", i)
		}
	}
	tb.set(key(7), 700, func(old uint64) bool { return old < 700 })
	tb.set(key(8), 1, func(old uint64) bool { return old < 1 })
	if tb.len() != 1000 {
		t.Fatalf("len %d", tb.len())
	}
	check := func(n int, skip func(int) bool) {
		t.Helper()
		for i := range n {
			want := uint64(i)
			if i == 7 {
				want = 700
			}
			v, ok := tb.get(key(i))
			if skip(i) {
				if ok {
					t.Fatalf("key %d kept", i)
				}
				continue
			}
			if !ok || v != want {
				t.Fatalf("key %d: %d %v", i, v, ok)
			}
		}
	}
	check(1000, func(int) bool { return false })
	if _, ok := tb.get(key(1000)); ok {
		t.Fatal("absent key found")
	}
	for si := range numShards {
		tb.evictUpTo(si, 499, nil)
	}
	if tb.len() != 501 { // 500..999 and key 7 (700)
		t.Fatalf("after evicting up to 499: len %d", tb.len())
	}
	check(1000, func(i int) bool { return i < 500 && i != 7 })
	// Real hashes of distinct names: all found, no false match.
	for i := range 20000 {
		tb.set(tb.hash([]byte(fmt.Sprintf("name%d", i))), uint64(i), keep)
	}
	for i := range 20000 {
		if v, ok := tb.get(tb.hash([]byte(fmt.Sprintf("name%d", i)))); !ok || v != uint64(i) {
			t.Fatalf("name%d: %d %v", i, v, ok)
		}
		if _, ok := tb.get(tb.hash([]byte(fmt.Sprintf("other%d", i)))); ok {
			t.Fatalf("other%d found", i)
		}
	}
	if b := tb.bytes(); b > int64(tb.len())*24*2 {
		t.Fatalf("%d bytes for %d entries", b, tb.len())
	}
}
