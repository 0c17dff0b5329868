package tsq

import (
	"math/rand/v2"
	"slices"
	"time"
)

// softDelete soft-deletes, through Store.Delete, either a few samples or
// every stored version of one (series, key): the model's folded view
// hides what was deleted, and deleting a key's whole history keeps the
// folded view of the visible rows equal to the store's (an older version
// never resurfaces).
func (m *modelStore) softDelete(rng *rand.Rand, or *oracle) {
	raw := rawRows(m.t, m.s, "ev")
	var puts []rowInfo
	for _, r := range raw {
		if r.op == OpPut {
			puts = append(puts, r)
		}
	}
	if len(puts) == 0 {
		return
	}
	var seqs []uint64
	pick := puts[rng.IntN(len(puts))]
	if pick.key == "" {
		for range 1 + rng.IntN(3) {
			if r := puts[rng.IntN(len(puts))]; r.key == "" {
				seqs = append(seqs, r.seq)
			}
		}
	} else {
		for _, r := range puts {
			if r.series == pick.series && r.key == pick.key {
				seqs = append(seqs, r.seq)
			}
		}
	}
	slices.Sort(seqs)
	seqs = slices.Compact(seqs)
	if err := m.s.Delete(ctx, "ev", seqs...); err != nil {
		m.t.Fatalf("Delete %v: %v", seqs, err)
	}
	for _, q := range seqs {
		or.deleted[q] = true
	}
}

// retention sets a random rule (max age, max count, key k0 protected or
// not), applies it and predicts what it soft-deletes from the visible
// rows: with record times increasing with seqs, it deletes a prefix of
// each key's versions.
func (m *modelStore) retention(rng *rand.Rand, or *oracle) {
	raw := rawRows(m.t, m.s, "ev")
	if len(raw) == 0 {
		return
	}
	var r Retention
	if rng.IntN(2) == 0 {
		r.MaxAge = time.Duration(m.now-raw[rng.IntN(len(raw))].time) + time.Nanosecond
	} else {
		r.MaxCount = int64(len(raw) - rng.IntN(len(raw)/4+1))
		r.MaxCount = max(r.MaxCount, 1)
	}
	if rng.IntN(2) == 0 {
		r.ProtectField, r.ProtectValues = "key", []string{"k0"}
	}
	removable := func(x rowInfo) bool {
		return x.op == OpPut && !(r.ProtectField == "key" && x.key == "k0")
	}
	want := map[uint64]bool{}
	visible := len(raw)
	if r.MaxAge > 0 {
		cutoff := m.now - int64(r.MaxAge)
		for _, x := range raw {
			if x.time < cutoff && removable(x) {
				want[x.seq] = true
				visible--
			}
		}
	}
	if r.MaxCount > 0 {
		for _, x := range raw {
			if int64(visible) <= r.MaxCount {
				break
			}
			if removable(x) && !want[x.seq] {
				want[x.seq] = true
				visible--
			}
		}
	}
	if err := m.s.SetRetention("ev", r); err != nil {
		m.t.Fatalf("SetRetention %+v: %v", r, err)
	}
	st, err := m.s.ApplyRetention(ctx, "ev")
	if err != nil {
		m.t.Fatalf("ApplyRetention %+v: %v", r, err)
	}
	if got := st.ByAge + st.ByCount; got != int64(len(want)) {
		m.t.Fatalf("retention %+v deleted %d rows, the model predicts %d", r, got, len(want))
	}
	for q := range want {
		or.deleted[q] = true
	}
	if err := m.s.SetRetention("ev", Retention{}); err != nil {
		m.t.Fatal(err)
	}
}
