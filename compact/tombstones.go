package compact

import (
	"math"
)

// Op values of the "op" column (the root package's Op). Part of the
// format; do not change.
const (
	OpPut    = 1
	OpDelete = 2
	OpDrop   = 3
)

// Reason says why a row is dropped or a tombstone collected.
type Reason uint8

const (
	// ReasonRecord: a later delete of the same (series, key).
	ReasonRecord Reason = iota
	// ReasonUpdate: a later put of the same (series, key).
	ReasonUpdate
	// ReasonSeries: a later drop of the series.
	ReasonSeries
	// ReasonSoftDelete: the row's seq is soft deleted.
	ReasonSoftDelete
	// ReasonRetention: the row's seq is soft deleted by retention
	// (Config.Retained); decided as ReasonSoftDelete, counted apart.
	ReasonRetention
	numReasons
)

func (r Reason) String() string {
	switch r {
	case ReasonRecord:
		return "record"
	case ReasonUpdate:
		return "update"
	case ReasonSeries:
		return "series"
	case ReasonSoftDelete:
		return "softdelete"
	case ReasonRetention:
		return "retention"
	}
	return "unknown"
}

// Snapshot holds the tombstones of a seq window: for each (series, key)
// the highest seq of a later put or delete, for each series the highest
// drop, both in hashTables keyed by a 128-bit hash of the name (see
// hashTable for why a hash match is trusted): 32–40 bytes an entry,
// nothing per entry for the garbage collector. The names of the series
// named are kept, for the bloom prefilter, only up to nameLimit.
type Snapshot struct {
	recs      *hashTable // pair key -> seq<<1 | 1 if a delete
	drops     *hashTable // series -> seq
	names     map[string]struct{}
	nameLimit int    // past it names is dropped and manyNames set
	manyNames bool   // more than nameLimit series named
	last      string // the series last added to names
	maxSeq    uint64 // highest tombstone seq
	buf       []byte
	// keys lists the record tombstones' keys when not nil (see
	// tombKeys); dropNames names the series of drops, up to nameLimit
	// (past it manyDrops): with both, a segment whose key span no
	// tombstone key falls in and whose bloom holds none of the dropped
	// series needs no reading.
	keys      *tombKeys
	dropNames map[string]struct{}
	manyDrops bool
}

// NewSnapshot returns an empty Snapshot that keeps up to
// DefaultBloomCutoff series names.
func NewSnapshot() *Snapshot { return newSnapshot(DefaultBloomCutoff) }

func newSnapshot(nameLimit int) *Snapshot {
	return &Snapshot{recs: newHashTable(), drops: newHashTable(), names: map[string]struct{}{}, nameLimit: nameLimit}
}

// Observe adds the row (seq, series, key, op) if it supersedes anything:
// a keyed put or a delete is a record tombstone, a drop a series one.
// Samples add nothing. Seqs are below 2^63 (the seq column is int64).
func (s *Snapshot) Observe(seq uint64, series, key string, op uint8) {
	switch {
	case op == OpDrop:
		s.buf = append(s.buf[:0], series...)
		s.drops.set(s.drops.hash(s.buf), seq, func(old uint64) bool { return seq > old })
		s.addDropName(series)
	case key != "" && (op == OpPut || op == OpDelete):
		v := seq << 1
		if op == OpDelete {
			v |= 1
		}
		s.buf = append(append(s.buf[:0], series...), key...)
		s.recs.set(s.recs.pairOf(s.buf[:len(series)], s.buf[len(series):]), v, func(old uint64) bool { return v>>1 > old>>1 })
		if s.keys != nil {
			s.keys.addString(key)
		}
	default:
		return
	}
	s.maxSeq = max(s.maxSeq, seq)
	s.addName(series)
}

// addName records series among the names unless there are too many.
func (s *Snapshot) addName(series string) {
	if s.manyNames || (series == s.last && len(s.names) > 0) {
		return
	}
	if _, ok := s.names[series]; ok {
		s.last = series
		return
	}
	if len(s.names) >= s.nameLimit {
		s.manyNames, s.names, s.last = true, nil, ""
		return
	}
	series = clone(series)
	s.names[series] = struct{}{}
	s.last = series
}

func clone(s string) string { return string([]byte(s)) }

// addDropName records the series of a drop unless there are too many.
func (s *Snapshot) addDropName(series string) {
	if s.manyDrops {
		return
	}
	if _, ok := s.dropNames[series]; ok {
		return
	}
	if len(s.dropNames) >= s.nameLimit {
		s.manyDrops, s.dropNames = true, nil
		return
	}
	if s.dropNames == nil {
		s.dropNames = map[string]struct{}{}
	}
	s.dropNames[clone(series)] = struct{}{}
}

// Len returns the number of entries: (series, key) pairs plus series.
func (s *Snapshot) Len() int { return s.recs.len() + s.drops.len() }

// Bytes returns the memory of the entries' tables.
func (s *Snapshot) Bytes() int64 { return s.recs.bytes() + s.drops.bytes() }

// MaxSeq returns the highest tombstone seq, 0 if empty.
func (s *Snapshot) MaxSeq() uint64 { return s.maxSeq }

// Series returns the number of distinct series named, or MaxInt if more
// than the snapshot's name limit (the names are then not kept): for the
// bloom prefilter cutoff.
func (s *Snapshot) Series() int {
	if s.manyNames {
		return math.MaxInt
	}
	return len(s.names)
}

// EachSeries calls fn with every series named; none if Series is above
// the name limit.
func (s *Snapshot) EachSeries(fn func(string) bool) {
	for name := range s.names {
		if !fn(name) {
			return
		}
	}
}

// counts returns the record entries that are deletes and keyed puts.
func (s *Snapshot) counts() (deletes, puts int64) {
	s.recs.each(func(v uint64) {
		if v&1 == 1 {
			deletes++
		} else {
			puts++
		}
	})
	return deletes, puts
}

// ShouldDrop reports whether a row is superseded by a tombstone of the
// snapshot with a higher seq (strictly), and why. Tombstone rows (delete,
// drop) are never dropped; samples only by a drop. scratch is the
// caller's buffer (concurrent callers each pass their own).
func (s *Snapshot) ShouldDrop(seq uint64, series, key string, op uint8, scratch *[]byte) (Reason, bool) {
	if op != OpPut {
		return 0, false
	}
	if s.drops.len() > 0 {
		*scratch = append((*scratch)[:0], series...)
		if d, ok := s.drops.get(s.drops.hash(*scratch)); ok && d > seq {
			return ReasonSeries, true
		}
	}
	if key == "" {
		return 0, false
	}
	*scratch = append(append((*scratch)[:0], series...), key...)
	if t, ok := s.recs.get(s.recs.pairOf((*scratch)[:len(series)], (*scratch)[len(series):])); ok && t>>1 > seq {
		if t&1 == 1 {
			return ReasonRecord, true
		}
		return ReasonUpdate, true
	}
	return 0, false
}
