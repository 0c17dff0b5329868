package compact

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tsqdb/tsq/seg"
)

// TestTombKeysMayHit checks the ruling out of a segment by key span
// against brute force: listed keys rule a span out exactly when none
// falls in it; past the list's limits, when the keys' span and the
// segment's do not overlap. Unknown spans are never ruled out, empty
// ones always.
func TestTombKeysMayHit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	key := func() string { return fmt.Sprintf("k%03d", rng.IntN(300)) }
	for round := range 300 {
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
		tk.sort()
		many := tk
		many.many, many.sorted = true, nil
		var span seg.KeySpan
		a, b := key(), key()
		span.AddString(a)
		span.AddString(b)
		lo, hi, _ := span.Bounds()
		exact, overlap := false, false
		for _, k := range listed {
			exact = exact || (k >= string(lo) && k <= string(hi))
		}
		if klo, khi, ok := tk.span.Bounds(); ok {
			overlap = string(klo) <= string(hi) && string(lo) <= string(khi)
		}
		if got := tk.mayHit(&span); got != exact {
			t.Fatalf("round %d: keys %q, span %s..%s: mayHit %v, want %v", round, listed, lo, hi, got, exact)
		}
		if got := many.mayHit(&span); got != overlap {
			t.Fatalf("round %d: keys' span, span %s..%s: mayHit %v, want %v", round, lo, hi, got, overlap)
		}
		unknown := seg.UnknownKeys()
		if !tk.mayHit(&unknown) || !many.mayHit(&unknown) {
			t.Fatalf("round %d: an unknown span was ruled out", round)
		}
		var empty seg.KeySpan
		if tk.mayHit(&empty) || many.mayHit(&empty) {
			t.Fatalf("round %d: a span without keyed puts may be hit", round)
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
