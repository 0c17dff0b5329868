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
func (t *tombKeys) add(key []byte) { t.span.Add(key); listKey(t, key) }

// addString is add of a string key.
func (t *tombKeys) addString(key string) { t.span.AddString(key); listKey(t, key) }

// listKey appends key to the list unless that takes it past its limits
// (then the list is dropped and many set).
func listKey[S ~string | ~[]byte](t *tombKeys, key S) {
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

// scanLimit bounds the segments hits checks against every listed key in
// turn (stopping once all are hit) before it sorts the keys instead.
const scanLimit = 32

// hits reports, for each of spans (known), whether a segment whose keyed
// puts' keys lie in it may hold one of a tombstone key's puts. Spans the
// keys' own span misses are ruled out at once; the others are checked
// against each key listed: for a few spans, key by key until every span
// is hit (keys spread over every span, random ids, stop early); for
// many, by binary search in the keys sorted once.
func (t *tombKeys) hits(spans []seg.KeySpan) []bool {
	out := make([]bool, len(spans))
	lo, hi, ok := t.span.Bounds()
	if !ok {
		return out
	}
	var open []int // spans the keys' span overlaps
	for i := range spans {
		slo, shi, sok := spans[i].Bounds()
		if sok && bytes.Compare(lo, shi) <= 0 && bytes.Compare(slo, hi) <= 0 {
			open = append(open, i)
		}
	}
	switch {
	case len(open) == 0:
	case t.many: // only the span is known: an overlap may hit
		for _, i := range open {
			out[i] = true
		}
	case len(open) <= scanLimit:
		start := 0
		for _, end := range t.ends {
			k := t.arena[start:end]
			start = end
			for j := 0; j < len(open); {
				if i := open[j]; spans[i].MayHold(k) {
					out[i] = true
					open[j] = open[len(open)-1]
					open = open[:len(open)-1]
					continue
				}
				j++
			}
			if len(open) == 0 {
				break
			}
		}
	default:
		t.sort()
		for _, i := range open {
			out[i] = spans[i].MayHoldAny(t.sorted)
		}
	}
	return out
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
