package compact

import (
	"bytes"
	"slices"
	"sort"

	"github.com/tsqdb/tsq/codec"
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
	ends   []uint32 // where each key ends in arena (within tombKeyBytesLimit)
	many   bool     // past a limit: the list was dropped
	sorted [][]byte // the list, sorted, once sort ran
	// runs start where each block's keys do (startRun), in the list;
	// inOrder says those whose keys were added in order; perm, once
	// sortRuns ran, orders each run's keys that were not in order (nil
	// for a run that was).
	runs    []int
	inOrder []bool
	perm    [][]int32
	// tombs, when keepTombs (a two-phase pass: newTombKeys), holds each
	// listed key's tombstone as the record table holds it (addTomb), for
	// deciding a fresh block's rows without the table (hitTombs);
	// sortedAt, once sort ran, the list index of each key of sorted.
	tombs     []listedTomb
	keepTombs bool
	sortedAt  []int32
}

// listedTomb is a listed key's tombstone: the hash of its series
// (hashTable.hash) and v as the record table holds it: seq<<1, plus 1
// for a delete.
type listedTomb struct {
	series hashKey
	v      uint64
}

// newTombKeys returns an empty list with room for the keys of about n
// record tombstones (the keyed rows a pass observes), within the list's
// limits and at 16 bytes a key: grown by appends, 1.25 times at a time,
// the list would be allocated about five times over. The keys'
// tombstones are kept with them (see tombs).
func newTombKeys(n uint64) *tombKeys {
	n = min(n, tombKeyLimit)
	return &tombKeys{arena: make([]byte, 0, min(16*n, tombKeyBytesLimit)), ends: make([]uint32, 0, n),
		tombs: make([]listedTomb, 0, n), keepTombs: true}
}

// add records the key of a record tombstone.
func (t *tombKeys) add(key []byte) { t.span.Add(key); listKey(t, key) }

// addTomb records the key of a record tombstone of the series whose
// hash is series, v as the record table holds it (see listedTomb).
func (t *tombKeys) addTomb(key []byte, series hashKey, v uint64) {
	t.add(key)
	if t.keepTombs && !t.many {
		t.tombs = append(t.tombs, listedTomb{series, v})
	}
}

// addString is add of a string key.
func (t *tombKeys) addString(key string) { t.span.AddString(key); listKey(t, key) }

// listKey appends key to the list unless that takes it past its limits
// (then the list is dropped and many set).
func listKey[S ~string | ~[]byte](t *tombKeys, key S) {
	if t.many {
		return
	}
	if len(t.ends) == tombKeyLimit || len(t.arena)+len(key) > tombKeyBytesLimit {
		t.many, t.arena, t.ends, t.tombs = true, nil, nil, nil
		return
	}
	t.arena = append(t.arena, key...)
	t.ends = append(t.ends, uint32(len(t.arena)))
}

// key returns listed key i.
func (t *tombKeys) key(i int) []byte {
	start := 0
	if i > 0 {
		start = int(t.ends[i-1])
	}
	return t.arena[start:t.ends[i]]
}

// startRun marks where the keys of the next block start; inOrder says
// they will be added in order (sortRuns need not check).
func (t *tombKeys) startRun(inOrder bool) {
	switch {
	case t.many:
	case len(t.runs) == 0 || t.runs[len(t.runs)-1] < len(t.ends):
		t.runs, t.inOrder = append(t.runs, len(t.ends)), append(t.inOrder, inOrder)
	default: // the run before holds no key: this one starts there
		t.inOrder[len(t.inOrder)-1] = inOrder
	}
}

// runLimit bounds the runs mayHit searches one by one: past it, the
// whole list is sorted once instead.
const runLimit = 64

// sortRuns orders each run (a block's keys: most often in order
// already), once all keys are added: cheaper than sorting the list. A
// run made of a few stretches in order (a block's last puts, then its
// first deletes) is split into them rather than sorted.
func (t *tombKeys) sortRuns() {
	if t.many || t.perm != nil {
		return
	}
	if len(t.runs) <= runLimit {
		t.splitRuns()
	}
	if len(t.runs) > runLimit {
		t.sort()
		return
	}
	t.perm = make([][]int32, len(t.runs))
	for r := range t.runs {
		if t.inOrder[r] {
			continue
		}
		lo, hi := t.run(r)
		for i := lo + 1; i < hi; i++ {
			if bytes.Compare(t.key(i-1), t.key(i)) > 0 {
				p := make([]int32, hi-lo)
				for k := range p {
					p[k] = int32(lo + k)
				}
				slices.SortFunc(p, func(a, b int32) int { return bytes.Compare(t.key(int(a)), t.key(int(b))) })
				t.perm[r] = p
				break
			}
		}
	}
}

// maxStretches bounds the stretches in order a run is split into
// (splitRuns).
const maxStretches = 4

// splitRuns marks each run in order that is, and splits each made of
// at most maxStretches stretches in order into them, unless that takes
// the runs past runLimit; the others stay, not in order.
func (t *tombKeys) splitRuns() {
	var runs []int
	var inOrder []bool
	var starts []int
	for r := range t.runs {
		lo, hi := t.run(r)
		starts = append(starts[:0], lo)
		if !t.inOrder[r] {
			for i := lo + 1; i < hi && len(starts) <= maxStretches; i++ {
				if bytes.Compare(t.key(i-1), t.key(i)) > 0 {
					starts = append(starts, i)
				}
			}
		}
		if len(starts) > maxStretches {
			runs, inOrder = append(runs, lo), append(inOrder, false)
			continue
		}
		for _, s := range starts {
			runs, inOrder = append(runs, s), append(inOrder, true)
		}
	}
	if len(runs) <= runLimit {
		t.runs, t.inOrder = runs, inOrder
	}
}

// run returns the list indexes [lo, hi) of run r.
func (t *tombKeys) run(r int) (lo, hi int) {
	lo, hi = t.runs[r], len(t.ends)
	if r+1 < len(t.runs) {
		hi = t.runs[r+1]
	}
	return lo, hi
}

// mayHit reports whether a listed key may lie in span (true when the
// keys are past the list's limits), after sortRuns.
func (t *tombKeys) mayHit(span *seg.KeySpan) bool {
	if t.many || !span.Known() {
		return true
	}
	lo, hi, ok := span.Bounds()
	if !ok || len(t.ends) == 0 {
		return false
	}
	if t.sorted != nil {
		return span.MayHoldAny(t.sorted)
	}
	for r := range t.runs {
		a, b := t.run(r)
		at := func(k int) []byte { return t.key(a + k) }
		if p := t.perm[r]; p != nil {
			at = func(k int) []byte { return t.key(int(p[k])) }
		}
		// Cutting keeps the order: the keys cut are in order too.
		i := sort.Search(b-a, func(k int) bool { return bytes.Compare(cutSpanKey(at(k)), lo) >= 0 })
		if i < b-a && bytes.Compare(cutSpanKey(at(i)), hi) <= 0 {
			return true
		}
	}
	return false
}

// cutSpanKey is key as a key span keeps it (seg.MaxSpanKey bytes).
func cutSpanKey(key []byte) []byte { return key[:min(len(key), seg.MaxSpanKey)] }

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
			start = int(end)
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
		start = int(end)
	}
	if !t.keepTombs {
		slices.SortFunc(t.sorted, bytes.Compare)
		return
	}
	// With each key's list index, which hitTombs pairs rows with.
	type listed struct {
		key []byte
		at  int32
	}
	ls := make([]listed, len(t.sorted))
	for i, k := range t.sorted {
		ls[i] = listed{k, int32(i)}
	}
	slices.SortFunc(ls, func(a, b listed) int { return bytes.Compare(a.key, b.key) })
	t.sortedAt = make([]int32, len(ls))
	for i, l := range ls {
		t.sorted[i], t.sortedAt[i] = l.key, l.at
	}
}

// hitTomb pairs a row of a block with a listed key equal to its key
// (the list index of the key).
type hitTomb struct{ row, tomb int32 }

// hitTombs appends to dst, by row ascending, each row among keyed whose
// key is listed, once for every time it is listed, after sortRuns, of a
// list that keeps its tombstones (keepTombs) within the list's limits
// (not many): keyed are rows of rw whose keys
// strictly increase (keyedRows). Each run's keys within the rows' span
// are looked for among theirs, each search starting where the one
// before it ended.
func (t *tombKeys) hitTombs(rw *rows, keyed []int32, dst []hitTomb) []hitTomb {
	if len(keyed) == 0 || t.many {
		return dst
	}
	start, runs := len(dst), 0
	rk := newRowKeys(rw, keyed)
	lo, hi := rk.at(0), rk.at(len(keyed)-1)
	find := func(n int, at func(int) []byte, index func(int) int32) {
		i := searchKeys(n, lo, at)
		p, found := 0, false // keyed[p:] can hold the keys still to look for
		for ; i < n; i++ {
			key := at(i)
			if bytes.Compare(key, hi) > 0 {
				break
			}
			p = rk.gallop(p, key)
			if p < len(keyed) && bytes.Equal(rk.at(p), key) {
				dst = append(dst, hitTomb{keyed[p], index(i)})
				found = true
			}
		}
		if found {
			runs++
		}
	}
	if t.sorted != nil {
		find(len(t.sorted), func(k int) []byte { return t.sorted[k] }, func(k int) int32 { return t.sortedAt[k] })
	} else {
		for r := range t.runs {
			a, b := t.run(r)
			if p := t.perm[r]; p != nil {
				find(b-a, func(k int) []byte { return t.key(int(p[k])) }, func(k int) int32 { return p[k] })
			} else {
				find(b-a, func(k int) []byte { return t.key(a + k) }, func(k int) int32 { return int32(a + k) })
			}
		}
	}
	if runs > 1 { // several runs' hits: merged by row
		slices.SortFunc(dst[start:], func(x, y hitTomb) int { return int(x.row) - int(y.row) })
	}
	return dst
}

// rowKeys reads the keys of rows keyed of rw (strictly increasing)
// from the key column's dictionary, without a call through a func
// value: key of row k is data[offs[codes[k]]:offs[codes[k]+1]].
type rowKeys struct {
	keyed []int32
	data  []byte
	offs  []int32
	codes []int32
}

// newRowKeys reads the dictionary of rw's key column as decoding yields
// it (the keyed rows are not null: their codes are entries); a column
// given as strings is copied into one.
func newRowKeys(rw *rows, keyed []int32) rowKeys {
	kc := &rw.kc
	if kc.Strs == nil {
		return rowKeys{keyed, kc.Dict.Data, kc.Dict.Offsets, kc.Codes}
	}
	var dict codec.Strings
	codes := make([]int32, rw.n)
	for x, k := range keyed {
		dict.AppendString(kc.Strs[k])
		codes[k] = int32(x)
	}
	return rowKeys{keyed, dict.Data, dict.Offsets, codes}
}

// at returns the key of row keyed[x].
func (r *rowKeys) at(x int) []byte {
	c := r.codes[r.keyed[x]]
	return r.data[r.offs[c]:r.offs[c+1]]
}

// gallop returns the least x in [p, len(keyed)) whose key is at least
// key, else len(keyed), searching outward from p first: the keys looked
// for one after another lie close together.
func (r *rowKeys) gallop(p int, key []byte) int {
	n, step := len(r.keyed), 1
	for p+step <= n && bytes.Compare(r.at(p+step-1), key) < 0 {
		p += step
		step *= 2
	}
	lo, hi := p, min(p+step-1, n)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if bytes.Compare(r.at(m), key) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// searchKeys returns the least k < n with at(k) >= key (at ascending),
// else n.
func searchKeys(n int, key []byte, at func(int) []byte) int {
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if bytes.Compare(at(m), key) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
