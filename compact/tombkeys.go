package compact

import (
	"bytes"
	"slices"

	"github.com/tsqdb/tsq/seg"
)

// Limits of the keys a snapshot lists: past either, only their span is
// kept (a 16 MiB list of 524,288 keys costs 12 MiB more to sort).
const (
	tombKeyLimit      = 1 << 19
	tombKeyBytesLimit = 16 << 20
)

// tombKeys are the keys of a window's record tombstones (keyed puts and
// deletes), for ruling segments out by their key span (seg.KeySpan): a
// segment none of whose keyed puts' keys can equal one of these holds no
// row a record tombstone of the window supersedes. The keys are listed,
// to be sorted once (sort), up to tombKeyLimit keys and
// tombKeyBytesLimit bytes; their span is kept always.
type tombKeys struct {
	span   seg.KeySpan
	arena  []byte
	ends   []int
	many   bool     // past a limit: the list was dropped
	sorted [][]byte // the list, sorted, once sort ran
}

// add records the key of a record tombstone.
func (t *tombKeys) add(key []byte) {
	t.span.Add(key)
	if t.many {
		return
	}
	if len(t.ends) == tombKeyLimit || len(t.arena)+len(key) > tombKeyBytesLimit {
		t.many, t.arena, t.ends = true, nil, nil
		return
	}
	t.arena = append(t.arena, key...)
	t.ends = append(t.ends, len(t.arena))
}

// addString is add of a string key.
func (t *tombKeys) addString(key string) {
	t.span.AddString(key)
	if t.many {
		return
	}
	if len(t.ends) == tombKeyLimit || len(t.arena)+len(key) > tombKeyBytesLimit {
		t.many, t.arena, t.ends = true, nil, nil
		return
	}
	t.arena = append(t.arena, key...)
	t.ends = append(t.ends, len(t.arena))
}

// sort sorts the list, once all keys are added.
func (t *tombKeys) sort() {
	if t.many || t.sorted != nil || len(t.ends) == 0 {
		return
	}
	t.sorted = make([][]byte, len(t.ends))
	start := 0
	for i, end := range t.ends {
		t.sorted[i] = t.arena[start:end:end]
		start = end
	}
	slices.SortFunc(t.sorted, bytes.Compare)
}

// mayHit reports whether a segment whose keyed puts' keys lie in s may
// hold one of a tombstone key's puts. sort must have run.
func (t *tombKeys) mayHit(s *seg.KeySpan) bool {
	if !s.Known() {
		return true
	}
	if t.many { // do the spans overlap? (both bounds are cut alike)
		lo, hi, ok := t.span.Bounds()
		slo, shi, sok := s.Bounds()
		return ok && sok && bytes.Compare(lo, shi) <= 0 && bytes.Compare(slo, hi) <= 0
	}
	return s.MayHoldAny(t.sorted)
}
