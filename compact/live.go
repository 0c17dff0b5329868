package compact

import "sync"

// LiveSet is the in-memory set of tombstones appended above the
// watermark: for each (series, key) and each dropped series the highest
// seq, in hashTables (24 bytes a slot, no key bytes). It drives the
// early-pass trigger (Len against the cap), the size gauges, and tells
// which put a keyed row supersedes (Observe); a pass never takes its
// drop decisions from it. Safe for concurrent use.
//
// A (series, key) slot holds seq<<1 | 1 when its row is a put, seq<<1
// for a delete: the put bit says whether the row a later one supersedes
// is droppable (tombstones never are). Seqs are below 1<<63.
type LiveSet struct {
	mu    sync.Mutex
	recs  *hashTable // (series, key) pairs (pairHash)
	drops *hashTable // series
	// tops[0][i] and tops[1][i] bound the seqs in shard i of recs and
	// drops (0: empty): Evict frees a shard wholly at or below W
	// without reading it (a pass with no append during it frees them
	// all: 440,000 entries took 6.5 ms to filter one by one).
	tops [2][numShards]uint64
	buf  []byte
	kept []hashSlot // Evict's scratch
}

// NewLiveSet returns an empty LiveSet.
func NewLiveSet() *LiveSet {
	return &LiveSet{recs: newHashTable(), drops: newHashTable()}
}

// Observe adds the row if it is a tombstone (keyed put, delete, drop)
// and returns the number of entries and, when the row is a keyed put or
// delete whose (series, key) the set holds a lower put of, that put's
// seq: a row it supersedes (else 0). A put evicted (at or below W) is
// not told: the set knows only the rows above W.
func (l *LiveSet) Observe(seq uint64, series, key string, op uint8) (n int, superseded uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if op != OpDrop && (key == "" || op > OpDrop || op == 0) {
		return l.recs.len() + l.drops.len(), 0
	}
	if op == OpDrop {
		l.buf = append(l.buf[:0], series...)
		k := l.drops.hash(l.buf)
		l.drops.set(k, seq, func(old uint64) bool { return seq > old })
		l.raise(1, k, seq)
	} else {
		l.buf = append(append(l.buf[:0], series...), key...)
		k := l.recs.pairOf(l.buf[:len(series)], l.buf[len(series):])
		v := seq<<1 | uint64(b2u(op == OpPut))
		l.recs.set(k, v, func(old uint64) bool {
			if old>>1 >= seq {
				return false
			}
			if old&1 == 1 {
				superseded = old >> 1
			}
			return true
		})
		l.raise(0, k, seq)
	}
	return l.recs.len() + l.drops.len(), superseded
}

// raise notes seq in the bound of k's shard of table x (0: recs, 1: drops).
func (l *LiveSet) raise(x int, k hashKey, seq uint64) {
	top := &l.tops[x][shardOf(k)]
	*top = max(*top, seq)
}

// Evict removes the entries whose highest seq is at most w. It takes
// the set's lock a shard at a time: appends observed meanwhile wait for
// one shard's eviction at most (their seqs are above w: they stay).
func (l *LiveSet) Evict(w uint64) {
	for si := range numShards {
		l.mu.Lock()
		for x, t := range [2]*hashTable{l.recs, l.drops} {
			switch top := l.tops[x][si]; {
			case top == 0:
			case top <= w:
				t.clearShard(si)
				l.tops[x][si] = 0
			case x == 0: // values seq<<1 | put
				var top uint64
				top, l.kept = t.evictUpTo(si, w<<1|1, l.kept)
				l.tops[x][si] = top >> 1
			default:
				l.tops[x][si], l.kept = t.evictUpTo(si, w, l.kept)
			}
		}
		l.mu.Unlock()
	}
}

// Len returns the number of entries.
func (l *LiveSet) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.recs.len() + l.drops.len()
}

// Bytes returns the memory of the entries.
func (l *LiveSet) Bytes() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.recs.bytes() + l.drops.bytes()
}
