package compact

import (
	"hash/maphash"
	"math/bits"
	"unsafe"
)

// hashTable maps names (series, or (series, key) pairs) to a uint64 by
// a 128-bit hash of the name: no key bytes, no pointer, 24 bytes a slot.
// Two names match when their 128-bit hashes do.
//
// Collision argument: the two 64-bit halves are maphash with two seeds
// drawn at random per table (per pass), so an input cannot be chosen to
// collide, and each pair of distinct names collides with probability
// about 2^-127 (the low bit is forced to 1 to mark used slots). A pair's
// hash is its series' hash XOR its key's under two more seeds (pairHash):
// two distinct pairs differ in the key, whose independent hashes then
// differ but with probability 2^-64 a half, or only in the series, whose
// hashes do; the same 2^-127. A wrong
// drop needs a row's pair to collide with one of the n table entries:
// for n = 32M entries (2^25) checked against 2^40 rows of an archive the
// chance per pass is below 2^25 · 2^40 · 2^-127 = 2^-62, and inserting
// n names merges two with chance below n^2 · 2^-128 = 2^-78. Exact
// comparison of key bytes would cost more memory than the entries
// themselves.
//
// The table is split in 256 shards by the high hash bits, each an
// open-addressing table (linear probing, index by multiply-shift over
// any size) grown at 3/4 load: doubled while a shard is under
// smallShardLen slots (a table of up to about 1M slots, 37–75% full),
// by 5/4 beyond, where the slots stay 60–75% full (32–40 bytes an
// entry); a resize holds one shard twice, 1/256 of the table. A table
// may be presized (presize) when its entries can be bounded. Distinct
// shards may be written concurrently (upsertShard).
type hashTable struct {
	seeds  [4]maphash.Seed // a name's two halves; a pair's key's
	shards [numShards]hashShard
	n      int
	// bits, when not nil, is the table's filter (hashfilter.go), its
	// index shifted by bitsShift.
	bits      []uint64
	bitsShift uint
}

const (
	numShards   = 256
	minShardLen = 8
	// smallShardLen: shards grow by doubling up to here (a table of
	// about 1M entries), by 5/4 beyond.
	smallShardLen = 1 << 12
)

type hashKey struct{ lo, hi uint64 }

type hashSlot struct {
	k hashKey // lo == 0: empty
	v uint64
}

type hashShard struct {
	slots []hashSlot
	n     int
}

func newHashTable() *hashTable {
	t := &hashTable{}
	for i := range t.seeds {
		t.seeds[i] = maphash.MakeSeed()
	}
	return t
}

// hash returns the 128-bit hash of name; its low half is never 0.
func (t *hashTable) hash(name []byte) hashKey {
	return hashKey{lo: maphash.Bytes(t.seeds[0], name) | 1, hi: maphash.Bytes(t.seeds[1], name)}
}

// pairHash returns the hash of the pair (series, key) from hash(series),
// sh, which the rows of a series may share: sh XOR the key's hash under
// the seeds of keys; its low half is never 0.
func (t *hashTable) pairHash(sh hashKey, key []byte) hashKey {
	return hashKey{lo: (sh.lo ^ maphash.Bytes(t.seeds[2], key)) | 1, hi: sh.hi ^ maphash.Bytes(t.seeds[3], key)}
}

// pairOf is pairHash for a series not hashed yet.
func (t *hashTable) pairOf(series, key []byte) hashKey { return t.pairHash(t.hash(series), key) }

func (t *hashTable) shard(k hashKey) *hashShard { return &t.shards[shardOf(k)] }

// shardOf returns the index of k's shard.
func shardOf(k hashKey) int { return int(k.hi >> 56) }

// slot returns the index of k in s or of the empty slot where it would go.
func (s *hashShard) slot(k hashKey) (int, bool) {
	n := len(s.slots)
	hi, _ := bits.Mul64(k.lo, uint64(n))
	for i := int(hi); ; {
		sl := &s.slots[i]
		if sl.k == k {
			return i, true
		}
		if sl.k.lo == 0 {
			return i, false
		}
		if i++; i == n {
			i = 0
		}
	}
}

// get returns the value of the name hashed to k.
func (t *hashTable) get(k hashKey) (uint64, bool) {
	s := t.shard(k)
	if s.n == 0 || !t.mayHold(k) {
		return 0, false
	}
	i, ok := s.slot(k)
	if !ok {
		return 0, false
	}
	return s.slots[i].v, true
}

// set stores v for k, over an old value only if replace(old). It reports
// whether k was new.
func (t *hashTable) set(k hashKey, v uint64, replace func(old uint64) bool) bool {
	s := t.shard(k)
	if 4*(s.n+1) > 3*len(s.slots) {
		s.grow()
	}
	i, ok := s.slot(k)
	if ok {
		if replace(s.slots[i].v) {
			s.slots[i].v = v
		}
		return false
	}
	s.slots[i] = hashSlot{k: k, v: v}
	s.n++
	t.n++
	if t.bits != nil {
		t.setBit(k)
	}
	return true
}

// presize makes room for about n entries in an empty table, so that it
// does not grow up to there.
func (t *hashTable) presize(n int) {
	if t.n > 0 || n <= 0 {
		return
	}
	per := shardSlotsFor(n)
	for si := range t.shards {
		t.shards[si].slots = make([]hashSlot, per)
		touchPages(t.shards[si].slots)
	}
}

// touchPages writes a zero word into every page of slots. A large make
// returns pages the kernel has not mapped yet; the first lookup in one
// reads it (a fault that maps the shared zero page) and its insert
// writes it (a second fault that copies it), both on the fold's path.
// Written here, each page faults once, off that path.
func touchPages(slots []hashSlot) {
	const per = 4096 / int(unsafe.Sizeof(hashSlot{}))
	for i := 0; i < len(slots); i += per {
		slots[i].v = 0
	}
}

// reserve makes room for about n entries, rehashing each shard that has
// fewer slots than that needs once, instead of the growth steps that
// would get it there (beyond smallShardLen each step is 5/4: a shard
// grown from there to 8x its size rehashes its entries about 4 times).
func (t *hashTable) reserve(n int) {
	per := shardSlotsFor(n)
	for si := range t.shards {
		if s := &t.shards[si]; len(s.slots) < per {
			s.resize(per)
		}
	}
}

// shardSlotsFor returns the slots a shard needs when a table holds n
// entries: 2/3 full on average.
func shardSlotsFor(n int) int { return max(minShardLen, (n/numShards+1)*3/2) }

// touchRows is touch for the keys ks[r] of the rows r of rows.
func (t *hashTable) touchRows(ks []hashKey, rows []int32) uint64 {
	var acc uint64
	for _, r := range rows {
		k := ks[r]
		if k.lo == 0 {
			continue
		}
		s := t.shard(k)
		if n := len(s.slots); n > 0 {
			i, _ := bits.Mul64(k.lo, uint64(n))
			acc += s.slots[i].k.lo
		}
	}
	return acc
}

// prefetchRows is touchRows by prefetch hints where the CPU has them
// (prefetch_amd64.s): unlike loads, hints do not hold up the
// instructions after them until the lines arrive, so the lookups of the
// batch before can run meanwhile. len(rows) is at most prefetchBatch.
func (t *hashTable) prefetchRows(ks []hashKey, rows []int32) uint64 {
	if !hasPrefetch {
		return t.touchRows(ks, rows)
	}
	var addrs [prefetchBatch]uintptr
	n := 0
	for _, r := range rows {
		k := ks[r]
		if k.lo == 0 {
			continue
		}
		s := t.shard(k)
		if l := len(s.slots); l > 0 {
			i, _ := bits.Mul64(k.lo, uint64(l))
			addrs[n] = uintptr(unsafe.Pointer(&s.slots[i]))
			n++
		}
	}
	prefetchAll(addrs[:n])
	return 0
}

// prefetchBatch is the rows whose home slots prefetchRows hints at once,
// prefetchAhead how far ahead of the row being decided the hinted rows
// are. Hints run a little ahead, a few at a time: a burst of many
// outruns what the core can have in flight, and the hinted lines must
// still be in the cache when their rows are reached (BenchmarkTableUpsertPrefetch).
const (
	prefetchBatch = 4
	prefetchAhead = 16
)

// upsertNewer is upsertShard keeping the value whose seq (v>>1) is the
// higher: the record table's operation, without the cost of a call to
// a replace function.
func (t *hashTable) upsertNewer(k hashKey, v uint64) (old uint64, found, inserted bool) {
	s := t.shard(k)
	if 4*(s.n+1) > 3*len(s.slots) {
		s.grow()
	}
	i, ok := s.slot(k)
	sl := &s.slots[i]
	if ok {
		old = sl.v
		if v>>1 > old>>1 {
			sl.v = v
		}
		return old, true, false
	}
	*sl = hashSlot{k: k, v: v}
	s.n++
	if t.bits != nil {
		t.setBit(k)
	}
	return 0, false, true
}

// upsertShard is upsert touching only k's shard, for callers that
// write disjoint shards concurrently: it does not count the entry in
// t.n, and reports whether k was inserted, for the caller to add.
func (t *hashTable) upsertShard(k hashKey, v uint64, replace func(old uint64) bool) (old uint64, found, inserted bool) {
	s := t.shard(k)
	if 4*(s.n+1) > 3*len(s.slots) {
		s.grow()
	}
	i, ok := s.slot(k)
	if ok {
		old := s.slots[i].v
		if replace(old) {
			s.slots[i].v = v
		}
		return old, true, false
	}
	s.slots[i] = hashSlot{k: k, v: v}
	s.n++
	if t.bits != nil {
		t.setBit(k)
	}
	return 0, false, true
}

// grow resizes a full shard: doubled while small (under smallShardLen
// slots: few rehashes while a table fills), by 5/4 beyond (memory near
// the cap).
func (s *hashShard) grow() {
	n := len(s.slots)
	if n < smallShardLen {
		s.resize(max(minShardLen, 2*n))
		return
	}
	s.resize(n + n/4)
}

// resize rehashes s into n slots (n above its entries).
func (s *hashShard) resize(n int) {
	old := s.slots
	s.slots = make([]hashSlot, n)
	for _, sl := range old {
		if sl.k.lo != 0 {
			i, _ := s.slot(sl.k)
			s.slots[i] = sl
		}
	}
}

// evictUpTo removes the entries of shard si whose value is at most w,
// shrinking it when it became sparse (freeing it when emptied), and
// returns the greatest value it keeps, 0 if none. The kept entries are
// gathered in scratch (returned for reuse) in the one pass over the
// shard: after a pass they are few, the appends made during it.
func (t *hashTable) evictUpTo(si int, w uint64, scratch []hashSlot) (uint64, []hashSlot) {
	s := &t.shards[si]
	kept, top := scratch[:0], uint64(0)
	for i := range s.slots {
		// An empty slot's value is 0, never above w.
		if sl := &s.slots[i]; sl.v > w {
			kept = append(kept, *sl)
			top = max(top, sl.v)
		}
	}
	t.n -= s.n - len(kept)
	switch {
	case len(kept) == s.n:
	case len(kept) == 0:
		s.slots, s.n = nil, 0
	default:
		s.slots, s.n = make([]hashSlot, max(minShardLen, len(kept)*3/2)), len(kept)
		for _, sl := range kept {
			i, _ := s.slot(sl.k)
			s.slots[i] = sl
		}
	}
	return top, kept
}

// clearShard removes every entry of shard si.
func (t *hashTable) clearShard(si int) {
	s := &t.shards[si]
	t.n -= s.n
	s.slots, s.n = nil, 0
}

// each calls fn with every value.
func (t *hashTable) each(fn func(v uint64)) {
	for si := range t.shards {
		for _, sl := range t.shards[si].slots {
			if sl.k.lo != 0 {
				fn(sl.v)
			}
		}
	}
}

func (t *hashTable) len() int { return t.n }

// bytes returns the memory of the slots.
func (t *hashTable) bytes() int64 {
	var n int64
	for si := range t.shards {
		n += int64(len(t.shards[si].slots))
	}
	return n * 24
}
