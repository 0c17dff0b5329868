package tsq

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// rowInfo is what the compaction tests keep of a stored row.
type rowInfo struct {
	seq         uint64
	series, key string
	op          Op
	time        int64
}

// rawRows scans the stream's visible rows in seq order.
func rawRows(t testing.TB, s *Store, stream string) []rowInfo {
	t.Helper()
	var out []rowInfo
	for b, err := range s.Scan(ctx, stream, ScanOptions{}) {
		if err != nil {
			t.Fatalf("Scan: %v", err)
		}
		seqs, ops, times := column(b, colSeq).Ints, column(b, colOp).Ints, column(b, colTime).Ints
		series, keys := column(b, colSeries), column(b, colKey)
		for i := range b.Rows {
			out = append(out, rowInfo{uint64(seqs[i]), series.StringAt(i), keys.StringAt(i), Op(ops[i]), times[i]})
		}
	}
	return out
}

// fold computes the folded view of rows in seq order: for each
// (series, key) the latest put unless a later delete or drop removed it,
// and every sample not dropped later. The result maps a view key to the
// seq that provides it.
func fold(rows []rowInfo) map[string]uint64 {
	view := map[string]uint64{}
	for _, r := range rows {
		switch {
		case r.op == OpDrop:
			for k := range view {
				if strings.HasPrefix(k, r.series+"\x00") {
					delete(view, k)
				}
			}
		case r.op == OpDelete:
			if r.key != "" {
				delete(view, r.series+"\x00k"+r.key)
			}
		case r.key == "":
			view[fmt.Sprintf("%s\x00s%d", r.series, r.seq)] = r.seq
		default:
			view[r.series+"\x00k"+r.key] = r.seq
		}
	}
	return view
}

// supersededUpTo returns the seqs at or below w of rows a row at or
// below w supersedes (strictly later): what a pass up to w must remove.
func supersededUpTo(rows []rowInfo, w uint64) map[uint64]bool {
	out := map[uint64]bool{}
	lastKey := map[string]uint64{} // latest keyed put or delete, scanning backwards
	lastDrop := map[string]uint64{}
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		if r.seq > w {
			continue
		}
		k := r.series + "\x00" + r.key
		if r.op == OpPut {
			if _, ok := lastDrop[r.series]; ok {
				out[r.seq] = true
			} else if _, ok := lastKey[k]; ok && r.key != "" {
				out[r.seq] = true
			}
		}
		switch {
		case r.op == OpDrop:
			lastDrop[r.series] = r.seq
		case r.key != "":
			lastKey[k] = r.seq
		}
	}
	return out
}

func checkView(t testing.TB, what string, got, want map[string]uint64) {
	t.Helper()
	if !maps.Equal(got, want) {
		var miss, extra []string
		for k, v := range want {
			if got[k] != v {
				miss = append(miss, fmt.Sprintf("%q=%d(got %d)", k, v, got[k]))
			}
		}
		for k, v := range got {
			if _, ok := want[k]; !ok {
				extra = append(extra, fmt.Sprintf("%q=%d", k, v))
			}
		}
		slices.Sort(miss)
		slices.Sort(extra)
		t.Fatalf("%s: folded view differs: missing/wrong %v, extra %v", what, miss, extra)
	}
}

// checkCompacted checks that no row at or below w that a row at or
// below w supersedes is still stored, and no other row is missing.
func checkCompacted(t testing.TB, all, raw []rowInfo, w uint64) {
	t.Helper()
	gone := supersededUpTo(all, w)
	have := map[uint64]bool{}
	for _, r := range raw {
		have[r.seq] = true
		if r.seq <= w && gone[r.seq] {
			t.Fatalf("seq %d (%+v) is superseded below W=%d but still stored", r.seq, r, w)
		}
	}
	for _, r := range all {
		if !have[r.seq] && !gone[r.seq] {
			t.Fatalf("seq %d (%+v) is missing though not superseded at or below W=%d", r.seq, r, w)
		}
	}
}

// workload appends n random records to stream over few series and keys:
// keyed puts (updates), samples, deletes and drops.
func workload(t testing.TB, s *Store, stream string, rng *rand.Rand, n int, t0 int64) []rowInfo {
	return workloadOf(t, s, stream, rng, n, t0, randRecord)
}

func workloadOf(t testing.TB, s *Store, stream string, rng *rand.Rand, n int, t0 int64, gen func(*rand.Rand, int64) Record) []rowInfo {
	t.Helper()
	var out []rowInfo
	for i := 0; i < n; {
		batch := min(1+rng.IntN(20), n-i)
		recs := make([]Record, batch)
		for j := range recs {
			recs[j] = gen(rng, t0+int64(i+j))
		}
		seqs, err := s.Append(ctx, stream, recs...)
		if err != nil {
			t.Fatalf("Append: %v", err)
		}
		for j, q := range seqs {
			out = append(out, rowInfo{q, recs[j].Series, recs[j].Key, opOf(recs[j].Op), recs[j].Time})
		}
		i += batch
	}
	return out
}

func opOf(o Op) Op {
	if o == 0 {
		return OpPut
	}
	return o
}

func randRecord(rng *rand.Rand, t int64) Record {
	series := fmt.Sprintf("s%d", rng.IntN(6))
	r := Record{Time: t, Series: series, Fields: []Field{{"v", Int(rng.Int64N(1000))}}}
	switch x := rng.IntN(100); {
	case x < 45:
		r.Key = fmt.Sprintf("k%d", rng.IntN(8))
	case x < 80: // sample
	case x < 96:
		r.Op, r.Key = OpDelete, fmt.Sprintf("k%d", rng.IntN(8))
	default:
		r.Op = OpDrop
		r.Fields = append(r.Fields, Field{"reason", Str("sync")})
	}
	return r
}
