package compact

import "sync"

// entryOverhead is the approximate bytes of one live-set entry beyond its
// key bytes (map slot, string headers, seq).
const entryOverhead = 64

// LiveSet is the in-memory set of tombstones appended above the
// watermark: for each (series, key) and each dropped series the highest
// seq. It drives the early-pass trigger (Len against the cap) and the
// size gauges only; a pass never takes its drop decisions from it. Safe
// for concurrent use.
type LiveSet struct {
	mu    sync.Mutex
	recs  map[string]uint64 // appendPair keys
	buf   []byte
	drops map[string]uint64
	bytes int64
}

// NewLiveSet returns an empty LiveSet.
func NewLiveSet() *LiveSet {
	return &LiveSet{recs: map[string]uint64{}, drops: map[string]uint64{}}
}

// Observe adds the row if it is a tombstone (keyed put, delete, drop)
// and returns the number of entries.
func (l *LiveSet) Observe(seq uint64, series, key string, op uint8) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if op != OpDrop && (key == "" || op > OpDrop || op == 0) {
		return len(l.recs) + len(l.drops)
	}
	if op == OpDrop {
		if _, ok := l.drops[series]; !ok {
			series = clone(series)
			l.bytes += int64(len(series)) + entryOverhead
		}
		l.drops[series] = max(l.drops[series], seq)
		return len(l.recs) + len(l.drops)
	}
	l.buf = appendPair(l.buf[:0], series, key)
	if old, ok := l.recs[string(l.buf)]; !ok {
		l.recs[string(l.buf)] = seq
		l.bytes += int64(len(l.buf)) + entryOverhead
	} else if seq > old {
		l.recs[string(l.buf)] = seq
	}
	return len(l.recs) + len(l.drops)
}

// Evict removes the entries whose highest seq is at most w.
func (l *LiveSet) Evict(w uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, s := range l.recs {
		if s <= w {
			delete(l.recs, k)
			l.bytes -= int64(len(k)) + entryOverhead
		}
	}
	for k, s := range l.drops {
		if s <= w {
			delete(l.drops, k)
			l.bytes -= int64(len(k)) + entryOverhead
		}
	}
}

// Len returns the number of entries.
func (l *LiveSet) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.recs) + len(l.drops)
}

// Bytes returns the approximate memory of the entries.
func (l *LiveSet) Bytes() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.bytes
}
