package compact

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/codec"
	"github.com/tsqdb/tsq/seg"
)

// TestTombKeysHits checks the ruling out of segments by key span
// against brute force: listed keys rule a span out exactly when none
// falls in it, whether the spans are few (scanned key by key) or many
// (binary search in the sorted keys); past the list's limits, when the
// keys' span and the segment's do not overlap. Spans without keyed puts
// are never hit.
func TestTombKeysHits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	key := func() string { return fmt.Sprintf("k%03d", rng.IntN(300)) }
	for round := range 400 {
		var tk tombKeys
		var listed []string
		for range rng.IntN(20) {
			k := key()
			listed = append(listed, k)
			if rng.IntN(2) == 0 {
				tk.add([]byte(k))
			} else {
				tk.addString(k)
			}
		}
		many := tk
		many.many = true
		n := 1 + rng.IntN(2*scanLimit)
		spans := make([]seg.KeySpan, n)
		for i := range spans {
			if rng.IntN(8) > 0 { // else no keyed put
				spans[i].AddString(key())
				spans[i].AddString(key())
			}
		}
		got, gotMany := tk.hits(spans), many.hits(spans)
		klo, khi, kok := tk.span.Bounds()
		for i := range spans {
			lo, hi, ok := spans[i].Bounds()
			exact := false
			for _, k := range listed {
				exact = exact || (ok && k >= string(lo) && k <= string(hi))
			}
			overlap := ok && kok && string(klo) <= string(hi) && string(lo) <= string(khi)
			if got[i] != exact {
				t.Fatalf("round %d (%d spans): keys %q, span %d %s..%s: hit %v, want %v", round, n, listed, i, lo, hi, got[i], exact)
			}
			if gotMany[i] != overlap {
				t.Fatalf("round %d: keys' span, span %d %s..%s: hit %v, want %v", round, i, lo, hi, gotMany[i], overlap)
			}
		}
	}
}

// TestTombKeysLimit: past the list's limit only the span is kept.
func TestTombKeysLimit(t *testing.T) {
	var tk tombKeys
	for i := range tombKeyLimit + 1 {
		tk.add(fmt.Appendf(nil, "k%07d", i))
	}
	if !tk.many || tk.arena != nil || tk.ends != nil {
		t.Fatalf("past %d keys the list is kept (%d keys)", tombKeyLimit, len(tk.ends))
	}
	if lo, hi, _ := tk.span.Bounds(); string(lo) != "k0000000" || string(hi) != fmt.Sprintf("k%07d", tombKeyLimit) {
		t.Fatalf("span %q..%q", lo, hi)
	}
}

// TestTombKeysMayHit checks mayHit against brute force: keys listed in
// runs (a block's each, in order or not), a span is hit exactly when a
// listed key, cut as spans cut their bounds, lies in it; with more runs
// than runLimit, through the sorted list; past the list's limits,
// always. Some keys are longer than seg.MaxSpanKey, sharing its prefix.
func TestTombKeysMayHit(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	long := string(make([]byte, seg.MaxSpanKey))
	key := func() string {
		k := fmt.Sprintf("k%03d", rng.IntN(300))
		if rng.IntN(10) == 0 {
			k = long + k // cut to the common prefix
		}
		return k
	}
	cut := func(k string) string { return k[:min(len(k), seg.MaxSpanKey)] }
	for round := range 300 {
		var tk tombKeys
		var listed []string
		runs := 1 + rng.IntN(2*runLimit)
		addRuns(&tk, rng, runs, 12, key, func(k string) { listed = append(listed, k) })
		tk.sortRuns()
		for range 20 {
			var span seg.KeySpan
			if rng.IntN(8) > 0 {
				span.AddString(key())
				span.AddString(key())
			}
			lo, hi, ok := span.Bounds()
			want := false
			for _, k := range listed {
				want = want || (ok && cut(k) >= string(lo) && cut(k) <= string(hi))
			}
			if got := tk.mayHit(&span); got != want {
				t.Fatalf("round %d (%d runs): span %q..%q: hit %v, want %v", round, runs, lo, hi, got, want)
			}
			many := tombKeys{many: true}
			if !many.mayHit(&span) {
				t.Fatal("past the list's limits a span was ruled out")
			}
		}
	}
}

// TestTombKeysHitTombs: hitTombs pairs each of a block's keyed rows
// (keys strictly increasing, keyedRows) with every listed key equal to
// its key, by row, against a brute-force search: keys listed in runs in
// order and not, twice in a run and in several runs, longer than a span
// keeps, in more runs than runLimit (one sorted list), and every keyed
// row past the list's limits. keyedRows gives the keyed puts and
// deletes up to the end seq, and reports keys that do not increase.
func TestTombKeysHitTombs(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	long := string(make([]byte, seg.MaxSpanKey))
	key := func(i int) string {
		k := fmt.Sprintf("k%04d", i)
		if i%7 == 0 {
			k += long // longer than a span keeps, in the same order
		}
		return k
	}
	for round := range 300 {
		tk := tombKeys{keepTombs: true} // as a two-phase pass lists them
		listed := map[string]bool{}
		runs := 1 + rng.IntN(2*runLimit)
		if round%3 == 0 {
			runs = 1 + rng.IntN(4)
		}
		addRuns(&tk, rng, runs, 40, func() string { return key(rng.IntN(2000)) }, func(k string) { listed[k] = true })
		tk.sortRuns()
		// A block: keyed puts and deletes with increasing keys, among
		// rows without keys, drops and rows past the end seq.
		var rw rows
		var keys []string
		const end = 1000
		next := rng.IntN(2000)
		for k := range 1 + rng.IntN(300) {
			op, q, kv := int64(OpPut), int64(k+1), ""
			switch rng.IntN(10) {
			case 0:
				op = OpDrop
			case 1:
				q = end + 1 + int64(k) // past the end: not keyed
				kv = key(next)
				next++
			case 2: // a sample: no key
			case 3:
				op = OpDelete
				fallthrough
			default:
				kv = key(next)
				next += 1 + rng.IntN(3)
			}
			rw.seq, rw.op = append(rw.seq, q), append(rw.op, op)
			keys = append(keys, kv)
		}
		rw.n = len(keys)
		rw.kc = chunk.Column{Name: colKey, Type: chunk.String, Strs: keys}
		keyed, ok := keyedRows(&rw, end, nil)
		if !ok {
			t.Fatalf("round %d: increasing keys reported not increasing", round)
		}
		var wantKeyed []int32
		var want []hitTomb
		for k, kv := range keys {
			if kv != "" && rw.seq[k] <= end && (rw.op[k] == OpPut || rw.op[k] == OpDelete) {
				wantKeyed = append(wantKeyed, int32(k))
				for i := range tk.ends {
					if string(tk.key(i)) == kv {
						want = append(want, hitTomb{int32(k), int32(i)})
					}
				}
			}
		}
		if !slices.Equal(keyed, wantKeyed) {
			t.Fatalf("round %d: keyedRows %v, want %v", round, keyed, wantKeyed)
		}
		got := tk.hitTombs(&rw, keyed, []hitTomb{{-1, -1}})
		if got[0] != (hitTomb{-1, -1}) {
			t.Fatalf("round %d: dst's first entry overwritten", round)
		}
		got = got[1:]
		// The same keys as decoding gives them: a dictionary, rows
		// without a key null, the entries in another order.
		dec := rw
		dec.kc = chunk.Column{Name: colKey, Type: chunk.String, Valid: make([]bool, len(keys)), Codes: make([]int32, len(keys))}
		for _, k := range rng.Perm(len(keys)) {
			if keys[k] != "" {
				dec.kc.Valid[k], dec.kc.Codes[k] = true, int32(dec.kc.Dict.Len())
				dec.kc.Dict.AppendString(keys[k])
			}
		}
		if fromDict := tk.hitTombs(&dec, keyed, nil); !slices.Equal(fromDict, got) {
			t.Fatalf("round %d: from a dictionary %v, from strings %v", round, fromDict, got)
		}
		for i := 1; i < len(got); i++ {
			if got[i].row < got[i-1].row {
				t.Fatalf("round %d (%d runs): hits not by row: %v", round, runs, got)
			}
		}
		byRowTomb := func(x, y hitTomb) int {
			if x.row != y.row {
				return int(x.row) - int(y.row)
			}
			return int(x.tomb) - int(y.tomb)
		}
		slices.SortFunc(got, byRowTomb)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d (%d runs): hits %v, want %v", round, runs, got, want)
		}
		if len(keyed) > 1 {
			keys[keyed[1]] = keys[keyed[0]] // now not increasing
			if _, ok := keyedRows(&rw, end, nil); ok {
				t.Fatalf("round %d: a repeated key reported increasing", round)
			}
		}
		many := tombKeys{many: true}
		if got := many.hitTombs(&rw, keyed, nil); len(got) != 0 {
			t.Fatal("past the list's limits some rows were paired with keys no longer listed")
		}
	}
}

// addRuns lists runs runs of up to perRun-1 keys from key in tk, half of
// them sorted, a quarter two sorted stretches one after the other (split,
// not sorted: see splitRuns), and passes each key to list. Half the
// sorted runs are said to be in order (sortRuns checks only the others).
func addRuns(tk *tombKeys, rng *rand.Rand, runs, perRun int, key func() string, list func(string)) {
	for range runs {
		var ks []string
		for range rng.IntN(perRun) {
			ks = append(ks, key())
		}
		sorted := false
		switch rng.IntN(4) {
		case 0, 1:
			sorted = true
			slices.Sort(ks)
		case 2:
			h := len(ks) / 2
			slices.Sort(ks[:h])
			slices.Sort(ks[h:])
		}
		tk.startRun(sorted && rng.IntN(2) == 0)
		for _, k := range ks {
			if tk.keepTombs {
				tk.addTomb([]byte(k), hashKey{}, 0)
			} else {
				tk.addString(k)
			}
			list(k)
		}
	}
}

// TestKeyedRowsAscending: for a decoded key column whose values the
// decoder found strictly increasing (Ascending, as a dictionary), keyedRows
// gives what comparing the keys gives, whether every row is a keyed put
// or delete at or below the end seq (the shortcut, with and without an
// empty first key) or not (a drop, a seq past the end, a sample, nulls,
// an op of another kind).
func TestKeyedRowsAscending(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	const end = 1 << 40
	shortcuts := 0
	for round := range 2000 {
		n := 1 + rng.IntN(200)
		var rw rows
		rw.n = n
		var dict codec.Strings
		for k := range n {
			if k == 0 && round%4 == 0 {
				dict.AppendString("") // an empty key sorts first
			} else {
				dict.AppendString(fmt.Sprintf("obj%06d", 10*k+rng.IntN(10)))
			}
			rw.seq = append(rw.seq, int64(1+k+rng.IntN(1<<20)))
			rw.op = append(rw.op, int64(OpPut+rng.IntN(2)))
		}
		rw.kc = chunk.Column{Name: colKey, Type: chunk.String, Dict: dict, Codes: make([]int32, n), Ascending: true}
		for k := range rw.kc.Codes {
			rw.kc.Codes[k] = int32(k)
		}
		switch k := rng.IntN(n); round % 8 {
		case 1:
			rw.op[k] = OpDrop
		case 2:
			rw.seq[k] = end + 1
		case 3:
			rw.seq[k] = -1 // past any end as a seq
		case 4:
			rw.kc.Valid = make([]bool, n)
			for i := range rw.kc.Valid {
				rw.kc.Valid[i] = i != k
			}
		case 5:
			rw.op[k] = 0
		case 6:
			rw.op[k] = 7
		}
		got, ok := keyedRows(&rw, end, []int32{-1})
		slow := rw
		slow.kc.Ascending = false
		want, wantOK := keyedRows(&slow, end, []int32{-1})
		if !ok || !wantOK || !slices.Equal(got, want) {
			t.Fatalf("round %d: keyedRows %v %v, comparing the keys %v %v", round, got, ok, want, wantOK)
		}
		if round%8 == 0 || round%8 == 7 {
			shortcuts++
			all := n
			if round%4 == 0 {
				all-- // the empty key
			}
			if len(got)-1 != all {
				t.Fatalf("round %d: %d keyed rows of %d, all keyed", round, len(got)-1, n)
			}
		}
	}
	if shortcuts == 0 {
		t.Fatal("no round took the shortcut")
	}
}

// BenchmarkKeyedRows: the keyed rows of a block of 8,192 keyed puts
// whose keys the decoder found increasing (the usual fresh block).
func BenchmarkKeyedRows(b *testing.B) {
	const n = 8192
	rw := rows{n: n}
	var dict codec.Strings
	for k := range n {
		dict.AppendString(fmt.Sprintf("obj%08d", k))
		rw.seq = append(rw.seq, int64(k+1))
		rw.op = append(rw.op, OpPut)
	}
	rw.kc = chunk.Column{Name: colKey, Type: chunk.String, Dict: dict, Codes: make([]int32, n), Ascending: true}
	for k := range rw.kc.Codes {
		rw.kc.Codes[k] = int32(k)
	}
	var dst []int32
	for b.Loop() {
		dst, _ = keyedRows(&rw, n, dst[:0])
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/row")
}

// BenchmarkHitTombs: the rows of a block of 8,192 increasing keys (a
// decoded dictionary) whose keys are listed, one key in ten, in one
// sorted run.
func BenchmarkHitTombs(b *testing.B) {
	const n = 8192
	rw := rows{n: n}
	var dict codec.Strings
	tk := tombKeys{keepTombs: true}
	tk.startRun(true)
	for k := range n {
		key := fmt.Sprintf("obj%08d", k)
		dict.AppendString(key)
		rw.seq = append(rw.seq, int64(k+1))
		rw.op = append(rw.op, OpPut)
		if k%10 == 0 {
			tk.addTomb([]byte(key), hashKey{}, 0)
		}
	}
	tk.sortRuns()
	rw.kc = chunk.Column{Name: colKey, Type: chunk.String, Dict: dict, Codes: make([]int32, n), Ascending: true}
	for k := range rw.kc.Codes {
		rw.kc.Codes[k] = int32(k)
	}
	keyed, _ := keyedRows(&rw, n, nil)
	var dst []hitTomb
	for b.Loop() {
		dst = tk.hitTombs(&rw, keyed, dst[:0])
	}
	if len(dst) != n/10+1 {
		b.Fatalf("%d hits, want %d", len(dst), n/10+1)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(dst)), "ns/hit")
}
