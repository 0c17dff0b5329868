package compact

import "sync"

// LiveSet is the in-memory set of tombstones appended above the
// watermark: for each (series, key) and each dropped series the highest
// seq, in hashTables (24 bytes a slot, no key bytes). It drives the
// early-pass trigger (Len against the cap) and the size gauges only; a
// pass never takes its drop decisions from it. Safe for concurrent use.
type LiveSet struct {
	mu    sync.Mutex
	recs  *hashTable // (series, key) pairs (pairHash)
	drops *hashTable // series
	buf   []byte
}

// NewLiveSet returns an empty LiveSet.
func NewLiveSet() *LiveSet {
	return &LiveSet{recs: newHashTable(), drops: newHashTable()}
}

// Observe adds the row if it is a tombstone (keyed put, delete, drop)
// and returns the number of entries.
func (l *LiveSet) Observe(seq uint64, series, key string, op uint8) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if op != OpDrop && (key == "" || op > OpDrop || op == 0) {
		return l.recs.len() + l.drops.len()
	}
	higher := func(old uint64) bool { return seq > old }
	if op == OpDrop {
		l.buf = append(l.buf[:0], series...)
		l.drops.set(l.drops.hash(l.buf), seq, higher)
	} else {
		l.buf = append(append(l.buf[:0], series...), key...)
		l.recs.set(l.recs.pairOf(l.buf[:len(series)], l.buf[len(series):]), seq, higher)
	}
	return l.recs.len() + l.drops.len()
}

// Evict removes the entries whose highest seq is at most w.
func (l *LiveSet) Evict(w uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	above := func(s uint64) bool { return s > w }
	l.recs.filter(above)
	l.drops.filter(above)
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
