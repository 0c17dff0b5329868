package codec

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSharedPrefix holds sharedPrefix to a byte-by-byte count on pairs of
// every length up to 40 that differ at every place (or nowhere), as
// strings and as byte slices.
func TestSharedPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for la := range 41 {
		for lb := range 41 {
			for diff := 0; diff <= min(la, lb); diff++ {
				a := make([]byte, la)
				for i := range a {
					a[i] = byte(rng.Uint32())
				}
				b := make([]byte, lb)
				copy(b, a[:min(la, lb)])
				for i := min(la, lb); i < lb; i++ {
					b[i] = byte(rng.Uint32())
				}
				if diff < min(la, lb) {
					b[diff] ^= byte(1 + rng.IntN(255))
				}
				want := 0
				for want < min(la, lb) && a[want] == b[want] {
					want++
				}
				if got := sharedPrefix(a, b); got != want {
					t.Fatalf("lengths %d, %d, first difference %d: got %d, want %d", la, lb, diff, got, want)
				}
				if got := sharedPrefix(string(a), string(b)); got != want {
					t.Fatalf("strings of lengths %d, %d, first difference %d: got %d, want %d", la, lb, diff, got, want)
				}
			}
		}
	}
}

// TestAppendFrontPicked: values picked from a decoded front-coded column
// whose values increase (codes increasing: a filter's kept rows) are
// front coded from its prefix lengths as from comparing them, byte for
// byte; codes that do not increase, and a dictionary refilled after
// decoding, take the comparing path with the same output.
func TestAppendFrontPicked(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var c Encoder
	var d Decoder
	for round := range 400 {
		// Increasing values with shared prefixes of every length: from a
		// small alphabet, some sequential keys, some long.
		set := map[string]bool{}
		for range 1 + rng.IntN(80) {
			switch rng.IntN(3) {
			case 0:
				set[fmt.Sprintf("obj%08d", rng.IntN(3000))] = true
			case 1:
				b := make([]byte, rng.IntN(12))
				for i := range b {
					b[i] = "ab\xff"[rng.IntN(3)]
				}
				set[string(b)] = true
			default:
				set[strings.Repeat("x", rng.IntN(40))+fmt.Sprint(rng.IntN(50))] = true
			}
		}
		vals := slices.Sorted(maps.Keys(set))
		plain, _ := dictOf(vals)
		var dict Strings
		all := make([]int32, len(vals))
		for i := range all {
			all[i] = int32(i)
		}
		buf := c.AppendStringsAs(nil, &plain, all, StringPrefix)
		if _, _, err := d.DecodeStrings(&dict, nil, buf, len(vals), 1<<20); err != nil {
			t.Fatal(err)
		}
		if len(dict.front) != len(vals) {
			t.Fatalf("round %d: %d prefix lengths kept for %d increasing values", round, len(dict.front), len(vals))
		}
		// Kept rows: each value with some chance, in order; or, in a
		// few rounds, out of order or repeated (not a filter's).
		var codes []int32
		for i := range all {
			if rng.IntN(4) != 0 {
				codes = append(codes, int32(i))
			}
		}
		if round%10 == 0 && len(codes) > 1 {
			k := rng.IntN(len(codes) - 1)
			codes[k], codes[k+1] = codes[k+1], codes[k]
			if round%20 == 0 {
				codes[k] = codes[k+1]
			}
		}
		got := c.AppendStringsAs(nil, &dict, codes, StringPrefix)
		want := c.AppendStringsAs(nil, &plain, codes, StringPrefix)
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d: %q picked %v: front coded from the prefix lengths\n%x\nfrom comparing\n%x", round, vals, codes, got, want)
		}
		// The same number of other values, after a Reset: the lengths
		// kept are not theirs.
		dict.Reset()
		other := make([]string, len(vals))
		for i := range other {
			other[i] = fmt.Sprintf("%c%d", 'a'+rune(rng.IntN(3)), i)
			dict.AppendString(other[i])
		}
		incr := make([]int32, len(other))
		for i := range incr {
			incr[i] = int32(i)
		}
		otherPlain, _ := dictOf(other)
		got = c.AppendStringsAs(nil, &dict, incr, StringPrefix)
		want = c.AppendStringsAs(nil, &otherPlain, incr, StringPrefix)
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d: values appended after a Reset front coded with the decoded column's prefix lengths", round)
		}
	}
}

// frontAscendingRef is what buildFront tells of the values it builds,
// checked after them: the front-coded values buf[offs[i]:offs[i+1]],
// value i sharing its first lens[i] bytes with value i-1, strictly
// increase (each longer than the prefix it shares and, unless that is
// the whole value before it, with a greater byte after it).
func frontAscendingRef(buf []byte, offs []int32, lens []int64) bool {
	for i := 1; i < len(lens); i++ {
		p := int(lens[i])
		prev, cur := buf[offs[i-1]:offs[i]], buf[offs[i]:offs[i+1]]
		if len(cur) == p || (p < len(prev) && cur[p] <= prev[p]) {
			return false
		}
	}
	return true
}

// TestBuildFrontAscending holds buildFront's report of increasing values
// to frontAscendingRef on front codings of every kind: prefixes shorter
// than the values share (the next bytes equal), empty suffixes, values
// that extend the one before, and values past the 16 bytes built in
// words, mostly increasing so that the later values are compared too.
func TestBuildFrontAscending(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	seen := [2]int{}
	for round := range 20000 {
		n := 1 + rng.IntN(12)
		vals := make([][]byte, n)
		for i := range vals {
			if i > 0 && rng.IntN(4) != 0 { // from the value before: increasing, mostly
				v := slices.Clone(vals[i-1][:rng.IntN(len(vals[i-1])+1)])
				if len(v) < len(vals[i-1]) && rng.IntN(3) != 0 {
					v = append(v, vals[i-1][len(v)]+byte(rng.IntN(2)))
				}
				for range rng.IntN(20) {
					v = append(v, "a\x00\xff"[rng.IntN(3)])
				}
				vals[i] = v
				continue
			}
			v := make([]byte, rng.IntN(24))
			for k := range v {
				v[k] = "ab\xff"[rng.IntN(3)]
			}
			vals[i] = v
		}
		var lens, sufs []int64
		var data []byte
		total := 0
		for i, v := range vals {
			p := 0
			if i > 0 {
				p = sharedPrefix(vals[i-1], v)
				if p > 0 && rng.IntN(5) == 0 {
					p = rng.IntN(p) // shorter than shared: allowed, not told ascending
				}
			}
			lens, sufs = append(lens, int64(p)), append(sufs, int64(len(v)-p))
			data = append(data, v[p:]...)
			total += len(v)
		}
		buf := make([]byte, total+16)
		offs := make([]int32, n+1)
		got := buildFront(buf, data, lens, sufs, offs[1:])
		for i, v := range vals {
			if !bytes.Equal(buf[offs[i]:offs[i+1]], v) {
				t.Fatalf("round %d: value %d built %q, want %q", round, i, buf[offs[i]:offs[i+1]], v)
			}
		}
		if want := frontAscendingRef(buf, offs, lens); got != want {
			t.Fatalf("round %d: %q (prefixes %v): buildFront says ascending %v, want %v", round, vals, lens, got, want)
		}
		seen[b2i(got)]++
	}
	if seen[0] < 1000 || seen[1] < 1000 {
		t.Fatalf("ascending %d, not %d of the rounds: too few of one kind", seen[1], seen[0])
	}
}
