package compact

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

// recKey is a (series, key) pair.
type recKey struct{ series, key string }

// recTomb is the highest superseding seq of a (series, key) and the op
// of that row.
type recTomb struct {
	seq uint64
	op  uint8
}

// Snapshot holds the tombstones of a seq window: for each (series, key)
// the highest seq of a later put or delete, for each series the highest
// drop. Its keys are copies, never aliases of decoded blocks.
type Snapshot struct {
	recs   map[recKey]recTomb
	series map[string]uint64
	maxSeq uint64 // highest tombstone seq
}

// NewSnapshot returns an empty Snapshot.
func NewSnapshot() *Snapshot {
	return &Snapshot{recs: map[recKey]recTomb{}, series: map[string]uint64{}}
}

// Observe adds the row (seq, series, key, op) if it supersedes anything:
// a keyed put or a delete is a record tombstone, a drop a series one.
// Samples add nothing. Keys are cloned.
func (s *Snapshot) Observe(seq uint64, series, key string, op uint8) {
	switch {
	case op == OpDrop:
		if seq > s.series[series] {
			if _, ok := s.series[series]; !ok {
				series = clone(series)
			}
			s.series[series] = seq
		}
	case key != "" && (op == OpPut || op == OpDelete):
		k := recKey{series, key}
		if t, ok := s.recs[k]; !ok || seq > t.seq {
			if !ok {
				k = recKey{clone(series), clone(key)}
			}
			s.recs[k] = recTomb{seq, op}
		}
	default:
		return
	}
	s.maxSeq = max(s.maxSeq, seq)
}

func clone(s string) string { return string([]byte(s)) }

// Len returns the number of entries: (series, key) pairs plus series.
func (s *Snapshot) Len() int { return len(s.recs) + len(s.series) }

// MaxSeq returns the highest tombstone seq, 0 if empty.
func (s *Snapshot) MaxSeq() uint64 { return s.maxSeq }

// Series returns the number of distinct series named, counting a series
// once per (series, key) pair and once per drop: an upper bound, for the
// bloom prefilter cutoff.
func (s *Snapshot) Series() int { return s.Len() }

// EachSeries calls fn with every series named, possibly more than once.
func (s *Snapshot) EachSeries(fn func(string) bool) {
	for k := range s.recs {
		if !fn(k.series) {
			return
		}
	}
	for name := range s.series {
		if !fn(name) {
			return
		}
	}
}

// ShouldDrop reports whether a row is superseded by a tombstone of the
// snapshot with a higher seq (strictly), and why. Tombstone rows (delete,
// drop) are never dropped; samples only by a drop.
func (s *Snapshot) ShouldDrop(seq uint64, series, key string, op uint8) (Reason, bool) {
	if op != OpPut {
		return 0, false
	}
	if d, ok := s.series[series]; ok && d > seq {
		return ReasonSeries, true
	}
	if key == "" {
		return 0, false
	}
	if t, ok := s.recs[recKey{series, key}]; ok && t.seq > seq {
		if t.op == OpDelete {
			return ReasonRecord, true
		}
		return ReasonUpdate, true
	}
	return 0, false
}
