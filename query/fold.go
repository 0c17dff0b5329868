package query

import (
	"bytes"
	"context"
	"math"
	"sync"

	"github.com/tsqdb/tsq/seg"
)

// The folded view is the current state of a stream: for each (series,
// key) its latest put, unless a later delete of that key or drop of the
// series removed it; and every sample (a put without key) no later drop
// of its series removed. AS OF SEQ n / AS OF TIME t folds only the rows
// with seq <= n / time <= t. Soft-deleted rows never count.
//
// Survival depends only on maxima (the latest seq of each (series, key)
// and of each series' drops), so the first pass computes them on all
// cores in any order; the second pass is an ordinary scan that keeps the
// survivors and applies WHERE to them.

// foldState holds the first pass's maxima.
type foldState struct {
	latest map[string]int64 // series "\x00" key -> highest seq of a put or delete
	drops  map[string]int64 // series -> highest seq of a drop
	// only, when not nil, are the only keys WHERE can match (plan.keys):
	// the rows of other keys are not recorded (the second pass drops
	// them, as WHERE would).
	only map[string]bool
	// ranged, with lo and hi (plan.keyLo, keyHi): likewise the only keys
	// WHERE can match are at least lo and, cut to seg.MaxSpanKey bytes,
	// at most hi (nil: unbounded).
	ranged bool
	lo, hi []byte
}

// wants reports whether the first pass records key k.
func (f *foldState) wants(k []byte) bool {
	if f.only != nil && !f.only[string(k)] {
		return false
	}
	return !f.ranged || (bytes.Compare(k, f.lo) >= 0 && (f.hi == nil || bytes.Compare(k[:min(len(k), seg.MaxSpanKey)], f.hi) <= 0))
}

func newFoldState() *foldState {
	return &foldState{latest: map[string]int64{}, drops: map[string]int64{}}
}

const (
	opPut    = 1
	opDelete = 2
	opDrop   = 3
)

func (f *foldState) addBatch(b *batch) {
	for _, r := range b.sel {
		switch b.op[r] {
		case opDrop:
			s := b.series.StringAt(int(r))
			f.drops[s] = max(f.drops[s], b.seq[r])
		case opPut, opDelete:
			if k := b.key.BytesAt(int(r)); len(k) > 0 && f.wants(k) {
				id := b.series.StringAt(int(r)) + "\x00" + string(k)
				f.latest[id] = max(f.latest[id], b.seq[r])
			}
		}
	}
}

func (f *foldState) merge(o *foldState) {
	for k, v := range o.latest {
		f.latest[k] = max(f.latest[k], v)
	}
	for k, v := range o.drops {
		f.drops[k] = max(f.drops[k], v)
	}
}

// keep keeps the rows of b that survive the fold.
func (f *foldState) keep(b *batch) {
	var dropOf func(r int32) int64
	if c := b.series; c.Codes != nil && c.Strs == nil {
		per := make([]int64, c.Dict.Len())
		for i := range per {
			per[i] = f.drops[string(c.Dict.At(i))]
		}
		dropOf = func(r int32) int64 { return per[c.Codes[r]] }
	} else {
		dropOf = func(r int32) int64 { return f.drops[c.StringAt(int(r))] }
	}
	b.keep(func(r int32) bool {
		if b.op[r] != opPut || b.seq[r] <= dropOf(r) {
			return false
		}
		k := b.key.BytesAt(int(r))
		return len(k) == 0 || f.latest[b.series.StringAt(int(r))+"\x00"+string(k)] == b.seq[r]
	})
}

// foldPass runs the first pass over every block up to AS OF (and of the
// series the query is restricted to).
func (x *executor) foldPass(ctx context.Context) error {
	p := x.p
	// Not by key: a drop, which has none, removes the keyed rows of its
	// series.
	r := scanRange{shi: p.asSeq, tlo: math.MinInt64, thi: p.asTime, series: p.series}
	if r.empty() {
		x.fold = newFoldState()
		return nil
	}
	tasks, _ := prune(x.src.Segments(), r)
	var only map[string]bool
	if p.keys != nil {
		only = map[string]bool{}
		for _, k := range p.keys {
			only[k] = true
		}
	}
	saved, where := p.nd, p.where
	p.where = nil
	p.nd = need{series: true, key: true, op: true, time: p.asTime != math.MaxInt64}
	parts := make([]*foldState, x.o.Parallelism)
	var mu sync.Mutex
	err := x.each(ctx, tasks, r, func(w int, b *batch) error {
		mu.Lock()
		if parts[w] == nil {
			parts[w] = newFoldState()
			parts[w].only = only
			parts[w].ranged, parts[w].lo, parts[w].hi = p.keyset, p.keyLo, p.keyHi
		}
		mu.Unlock()
		parts[w].addBatch(b)
		return nil
	})
	p.nd, p.where = saved, where
	if err != nil {
		return err
	}
	x.fold = newFoldState()
	for _, f := range parts {
		if f != nil {
			x.fold.merge(f)
		}
	}
	return nil
}
