package compact

import "encoding/binary"

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
	}
	return "unknown"
}

// appendPair appends the map key of (series, key): the uvarint length of
// series, series, then key. Unambiguous whatever bytes the names hold.
func appendPair(dst []byte, series, key string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(series)))
	dst = append(dst, series...)
	return append(dst, key...)
}

// pairSeries returns the series of a pair key made by appendPair.
func pairSeries(k string) string {
	n, w := binary.Uvarint([]byte(k[:min(len(k), binary.MaxVarintLen64)]))
	return k[w : w+int(n)]
}

// Snapshot holds the tombstones of a seq window: for each (series, key)
// the highest seq of a later put or delete, for each series the highest
// drop. Its keys are copies, never aliases of decoded blocks, in a
// pairTable: no allocation per entry.
type Snapshot struct {
	recs   *pairTable // pair key -> seq<<1 | 1 if a delete
	series map[string]uint64
	maxSeq uint64 // highest tombstone seq
	buf    []byte
}

// NewSnapshot returns an empty Snapshot.
func NewSnapshot() *Snapshot {
	return &Snapshot{recs: newPairTable(), series: map[string]uint64{}}
}

// Observe adds the row (seq, series, key, op) if it supersedes anything:
// a keyed put or a delete is a record tombstone, a drop a series one.
// Samples add nothing. Seqs are below 2^63 (the seq column is int64).
func (s *Snapshot) Observe(seq uint64, series, key string, op uint8) {
	switch {
	case op == OpDrop:
		if d, ok := s.series[series]; !ok || seq > d {
			if !ok {
				series = clone(series)
			}
			s.series[series] = seq
		}
	case key != "" && (op == OpPut || op == OpDelete):
		v := seq << 1
		if op == OpDelete {
			v |= 1
		}
		s.buf = appendPair(s.buf[:0], series, key)
		s.recs.set(s.buf, v, func(old uint64) bool { return v>>1 > old>>1 })
	default:
		return
	}
	s.maxSeq = max(s.maxSeq, seq)
}

func clone(s string) string { return string([]byte(s)) }

// Len returns the number of entries: (series, key) pairs plus series.
func (s *Snapshot) Len() int { return s.recs.len() + len(s.series) }

// MaxSeq returns the highest tombstone seq, 0 if empty.
func (s *Snapshot) MaxSeq() uint64 { return s.maxSeq }

// Series returns the number of distinct series named, counting a series
// once per (series, key) pair and once per drop: an upper bound, for the
// bloom prefilter cutoff.
func (s *Snapshot) Series() int { return s.Len() }

// EachSeries calls fn with every series named, possibly more than once.
func (s *Snapshot) EachSeries(fn func(string) bool) {
	for i := range s.recs.ents {
		if !fn(pairSeries(string(s.recs.key(&s.recs.ents[i])))) {
			return
		}
	}
	for name := range s.series {
		if !fn(name) {
			return
		}
	}
}

// counts returns the record entries that are deletes and keyed puts.
func (s *Snapshot) counts() (deletes, puts int64) {
	for i := range s.recs.ents {
		if s.recs.ents[i].val&1 == 1 {
			deletes++
		} else {
			puts++
		}
	}
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
	if d, ok := s.series[series]; ok && d > seq {
		return ReasonSeries, true
	}
	if key == "" {
		return 0, false
	}
	*scratch = appendPair((*scratch)[:0], series, key)
	if t, ok := s.recs.get(*scratch); ok && t>>1 > seq {
		if t&1 == 1 {
			return ReasonRecord, true
		}
		return ReasonUpdate, true
	}
	return 0, false
}
