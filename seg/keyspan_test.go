package seg

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

// TestKeySpanBounds checks Add, AddString and Merge against the least and
// greatest key, and that MayHold and MayHoldAny never rule out a key
// added, keys cut to MaxSpanKey bytes included.
func TestKeySpanBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	long := strings.Repeat("k", MaxSpanKey)
	for round := range 200 {
		var a, b, all KeySpan
		var keys [][]byte
		for i := range 1 + rng.IntN(40) {
			k := []byte{byte('a' + rng.IntN(6))}
			if rng.IntN(3) == 0 {
				k = append([]byte(long), byte('a'+rng.IntN(6))) // cut to the same MaxSpanKey bytes
			}
			k = append(k, byte('0'+rng.IntN(10)))
			keys = append(keys, k)
			if i%2 == 0 {
				a.Add(k)
			} else {
				b.AddString(string(k))
			}
		}
		all.Merge(&a)
		all.Merge(&b)
		lo, hi, ok := all.Bounds()
		sorted := slices.Clone(keys)
		slices.SortFunc(sorted, bytes.Compare)
		if !ok || !bytes.Equal(lo, cutKey(sorted[0])) || !bytes.Equal(hi, cutKey(sorted[len(sorted)-1])) {
			t.Fatalf("round %d: bounds %q..%q (%v), want %q..%q", round, lo, hi, ok, cutKey(sorted[0]), cutKey(sorted[len(sorted)-1]))
		}
		for _, k := range keys {
			if !all.MayHold(k) || !all.MayHoldAny([][]byte{k}) {
				t.Fatalf("round %d: key %q added is ruled out by %q..%q", round, k, lo, hi)
			}
		}
		// MayHoldAny agrees with MayHold over sorted probes.
		var probes [][]byte
		for range rng.IntN(5) {
			probes = append(probes, []byte{byte('a' + rng.IntN(8)), byte('0' + rng.IntN(10))})
		}
		slices.SortFunc(probes, bytes.Compare)
		want := slices.ContainsFunc(probes, all.MayHold)
		if got := all.MayHoldAny(probes); got != want {
			t.Fatalf("round %d: MayHoldAny(%q) = %v over %q..%q, MayHold says %v", round, probes, got, lo, hi, want)
		}
	}
	var none KeySpan
	if !none.Empty() || none.MayHold([]byte("a")) || none.MayHoldAny([][]byte{[]byte("a")}) {
		t.Fatal("an empty span holds a key")
	}
	unk := UnknownKeys()
	if unk.Known() || !unk.MayHold([]byte("a")) || !unk.MayHoldAny(nil) {
		t.Fatal("an unknown span rules a key out")
	}
	none.Merge(&unk)
	if none.Known() {
		t.Fatal("merging an unknown span gave a known one")
	}
}

// TestKeySpanSealed writes segments whose blocks' keys were told, all or
// not, and reads their spans back.
func TestKeySpanSealed(t *testing.T) {
	mem := vfs.NewMem()
	blocks := makeBlocks(t, 100, 3)
	var span KeySpan
	span.AddString("order-00017")
	span.AddString("order-00003")
	span.AddString(strings.Repeat("z", 2*MaxSpanKey))
	for _, c := range []struct {
		name string
		told int
		span *KeySpan
		want string
	}{
		{"all", 3, &span, "bounds"},
		{"none", 3, &KeySpan{}, "none"},
		{"partly", 2, &span, "unknown"},
		{"untold", 0, nil, "unknown"},
		{"last", 1, nil, "unknown"}, // told block 0 nil: unknown too
	} {
		w, err := Create(mem, c.name, "cpu", 1, 100)
		if err != nil {
			t.Fatal(err)
		}
		appendAll(t, w, blocks)
		for i := range c.told {
			w.SetBlockKeys(i, c.span)
		}
		sealClose(t, w)
		r := openReader(t, mem, c.name)
		k := r.Keys()
		lo, hi, ok := k.Bounds()
		got := map[bool]string{true: "bounds", false: "none"}[ok]
		if !k.Known() {
			got = "unknown"
		}
		if got != c.want {
			t.Fatalf("%s: key span %s, want %s", c.name, got, c.want)
		}
		if got == "bounds" && (string(lo) != "order-00003" || string(hi) != strings.Repeat("z", MaxSpanKey)) {
			t.Fatalf("%s: bounds %q..%q", c.name, lo, hi)
		}
		if got == "bounds" && (k.MayHold([]byte("order-00002")) || !k.MayHold([]byte("order-00009")) || !k.MayHold([]byte(strings.Repeat("z", 3*MaxSpanKey)))) {
			t.Fatalf("%s: MayHold disagrees with %q..%q", c.name, lo, hi)
		}
		for i := range blocks {
			bk := r.BlockKeys(i)
			if want := i < c.told && c.span != nil; bk.Known() != want {
				t.Fatalf("%s: block %d's keys known %v, want %v", c.name, i, bk.Known(), want)
			}
		}
		if err := r.Verify(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestKeySpanCorrupt damages the key spans section of a sealed segment:
// each damage is reported as corruption of the section (or of the footer
// that bounds it), never as a span.
func TestKeySpanCorrupt(t *testing.T) {
	mem := vfs.NewMem()
	w, err := Create(mem, "s", "cpu", 1, 100)
	if err != nil {
		t.Fatal(err)
	}
	appendAll(t, w, makeBlocks(t, 100, 2))
	var span KeySpan
	span.AddString("a")
	span.AddString("b")
	w.SetBlockKeys(0, &span)
	w.SetBlockKeys(1, &span)
	sealClose(t, w)
	good := fileBytes(t, mem, "s")
	foot := len(good) - footerLen
	keysOff := int(binary.LittleEndian.Uint64(good[foot+12:]) + uint64(binary.LittleEndian.Uint32(good[foot+20:])))
	if got := good[keysOff : foot-crcLen]; !bytes.Equal(got, []byte{2, spanBounds, 1, 'a', 1, 'b', spanBounds, 1, 'a', 1, 'b'}) {
		t.Fatalf("key spans section % x", got)
	}
	// reseal puts body (of the section's length) and its CRC in place.
	reseal := func(body []byte) []byte {
		if len(body) != foot-crcLen-keysOff {
			t.Fatalf("body of %d bytes for a section of %d", len(body), foot-crcLen-keysOff)
		}
		out := append(slices.Clone(good[:keysOff]), body...)
		out = binary.LittleEndian.AppendUint32(out, checksum(body))
		return append(out, good[foot:]...)
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"crc", func() []byte { b := slices.Clone(good); b[keysOff+3] ^= 1; return b }(), "key spans CRC"},
		{"count", reseal([]byte{3, spanBounds, 1, 'a', 1, 'b', spanBounds, 1, 'a', 1, 'b'}), "3 entries for 2 blocks"},
		{"state", reseal([]byte{2, spanBounds, 1, 'a', 1, 'b', 7, 1, 'a', 1, 'b'}), "block 1: state 7"},
		{"order", reseal([]byte{2, spanBounds, 1, 'b', 1, 'a', spanBounds, 1, 'a', 1, 'b'}), "above the greatest"},
		{"trailing", reseal([]byte{2, spanNone, spanNone, 0, 0, 0, 0, 0, 0, 0, 0}), "after the key spans"},
		{"length", reseal([]byte{2, spanBounds, 0xff, 0x7f, 'a', 1, 'b', 0, 0, 0, 0}), "exceeds"},
		{"short", reseal([]byte{2, spanBounds, 9, 'a', 1, 'b', spanBounds, 1, 'a', 1, 'b'}), "truncated"},
	} {
		putFile(t, mem, c.name, c.data)
		_, err := Open(mem, c.name)
		if err == nil || !isCorrupt(err) || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%s: Open: %v, want corruption saying %q", c.name, err, c.want)
		}
	}
	// A key spans section longer than two blocks' may be is the footer's
	// fault.
	long := slices.Clone(good[:keysOff])
	long = append(long, make([]byte, int(maxKeySpansLen(2))+1)...)
	long = append(long, good[foot:]...)
	putFile(t, mem, "long", long)
	if _, err := Open(mem, "long"); err == nil || !isCorrupt(err) || !strings.Contains(err.Error(), "footer") {
		t.Fatalf("an oversized key spans section: %v", err)
	}
}

// TestRecoverV1Seals: a version 1 segment left unsealed is recovered and
// sealed in its own layout, without a key span, and reads as version 1.
func TestRecoverV1Seals(t *testing.T) {
	b := goldenV1(t)
	mem := vfs.NewMem()
	indexOff := binary.LittleEndian.Uint64(b[len(b)-footerLen:])
	putFile(t, mem, "v1", b[:indexOff]) // the frames, no trailer
	w, _, err := OpenWriter(mem, "v1")
	if err != nil {
		t.Fatal(err)
	}
	var span KeySpan
	span.AddString("k")
	for i := range w.Blocks() {
		w.SetBlockKeys(i, &span)
	}
	sealClose(t, w)
	// The frames and index are the original's; the bloom differs (the
	// golden block has no series column to recover series from).
	bloomOff := binary.LittleEndian.Uint64(b[len(b)-footerLen+12:])
	if got := fileBytes(t, mem, "v1"); !bytes.Equal(got[:bloomOff], b[:bloomOff]) || strings.Contains(annotate(got), "key span") {
		t.Fatalf("the recovered version 1 segment:\n%s", annotate(got))
	}
	r := openReader(t, mem, "v1")
	if k := r.Keys(); r.Header().Version != V1 || k.Known() {
		t.Fatalf("recovered: %v, key span known %v", r.Header().Version, k.Known())
	}
}

// TestKeySpanMayOverlap: a range holding a key added is never ruled out,
// keys longer than MaxSpanKey included, and one that misses the span's
// bounds always is.
func TestKeySpanMayOverlap(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	long := strings.Repeat("q", MaxSpanKey-1)
	key := func() []byte {
		k := []byte{byte('a' + rng.IntN(5)), byte('a' + rng.IntN(5))}
		if rng.IntN(4) == 0 {
			k = append([]byte(long), k...)
		}
		return k
	}
	for round := range 2000 {
		var s KeySpan
		var keys [][]byte
		for range rng.IntN(6) {
			k := key()
			keys = append(keys, k)
			s.Add(k)
		}
		var lo, hi []byte
		if rng.IntN(3) > 0 {
			lo = key()
		}
		if rng.IntN(3) > 0 {
			hi = key()
		}
		got := s.MayOverlap(lo, hi)
		for _, k := range keys {
			if (lo == nil || bytes.Compare(lo, k) <= 0) && (hi == nil || bytes.Compare(k, hi) <= 0) && !got {
				t.Fatalf("round %d: [%q, %q] holds key %q, ruled out by %q..%q", round, lo, hi, k, s.lo, s.hi)
			}
		}
		if slo, shi, ok := s.Bounds(); ok && got && ((lo != nil && bytes.Compare(cutKey(lo), shi) > 0) || (hi != nil && bytes.Compare(slo, cutKey(hi)) > 0)) {
			t.Fatalf("round %d: [%q, %q] misses %q..%q, not ruled out", round, lo, hi, slo, shi)
		}
		if s.Empty() && got {
			t.Fatalf("round %d: an empty span overlaps", round)
		}
	}
}

// TestKeySpanAddAllocs: widening a span by keys of the length it holds
// allocates nothing (the append path adds every keyed row's key).
func TestKeySpanAddAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	var s KeySpan
	s.AddString("k00000")
	i := 0
	if n := testing.AllocsPerRun(1000, func() {
		i++
		s.AddString(fmt.Sprintf("k%05d", i%100000)[:6])
	}); n > 1 { // the Sprintf's string
		t.Fatalf("AddString allocates %.1f times a key", n-1)
	}
	keys := [][]byte{[]byte("a00000"), []byte("z99999")}
	if n := testing.AllocsPerRun(1000, func() { i++; s.Add(keys[i%2]) }); n > 0 {
		t.Fatalf("Add allocates %.1f times a key", n)
	}
}
