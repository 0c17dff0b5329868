package codec

import (
	"math/rand/v2"
	"testing"
)

// TestFilterPlain: filtering a plain encoding writes what encoding the
// kept values does, and spans the whole encoding; a dict encoding and
// unordered rows are refused.
func TestFilterPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var enc, ref Encoder
	var dec Decoder
	for round := range 200 {
		n := 1 + rng.IntN(600)
		var s Strings
		codes := make([]int32, n)
		fixed := round%3 == 0
		for i := range n {
			l := 11
			if !fixed {
				l = rng.IntN(40)
			}
			v := make([]byte, l)
			for k := range v {
				v[k] = byte(rng.Uint32())
			}
			s.Append(v)
			codes[i] = int32(i)
		}
		src := ref.AppendStringsAs(nil, &s, codes, StringPlain)
		src = append(src, 0xEE) // a trailing byte not spanned
		var keep []int32
		p := rng.Float64()
		for i := range n {
			if rng.Float64() < p {
				keep = append(keep, int32(i))
			}
		}
		want := ref.AppendStringsAs([]byte("x"), &s, keep, StringPlain)
		got, used, err := enc.FilterPlain([]byte("x"), src, n, keep, &dec, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) || used != len(src)-1 {
			t.Fatalf("round %d: %d rows kept of %d: output differs (spans %d of %d)", round, len(keep), n, used, len(src)-1)
		}
		if len(keep) > 1 {
			bad := append([]int32(nil), keep...)
			bad[0], bad[1] = bad[1], bad[0]
			if _, _, err := enc.FilterPlain(nil, src, n, bad, &dec, 1<<20); err == nil {
				t.Fatal("unordered rows accepted")
			}
		}
		if _, _, err := enc.FilterPlain(nil, src, n, []int32{int32(n)}, &dec, 1<<20); err == nil {
			t.Fatal("row out of range accepted")
		}
		if _, _, err := enc.FilterPlain(nil, src[:len(src)/2], n, keep, &dec, 1<<20); err == nil && len(src) > 8 {
			t.Fatal("truncated encoding accepted")
		}
		d := ref.AppendStringsAs(nil, &s, codes, StringDict)
		if _, _, err := enc.FilterPlain(nil, d, n, keep, &dec, 1<<20); err == nil {
			t.Fatal("dict encoding accepted")
		}
	}
}

// TestFilterTrue: for constant and sparse bools and random rows kept,
// FilterTrue writes what AppendBools writes for the kept values whenever
// no true value is left out and that is a constant false or a sparse
// list of true values, spans the bytes DecodeBools reads, reports a true
// value left out, and refuses everything else without writing.
func TestFilterTrue(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	kinds := map[string]int{}
	for range 5000 {
		n := 1 + rng.IntN(400)
		src := make([]bool, n)
		every := 1 + rng.IntN(60) // about one true in every
		if rng.IntN(10) == 0 {
			every = n + 1 // all false
		}
		for i := range src {
			src[i] = rng.IntN(every) == 0
		}
		var keep []int32
		pk := rng.Float64()
		for i := range n {
			if rng.Float64() < pk || (rng.IntN(2) == 0 && src[i]) {
				keep = append(keep, int32(i))
			}
		}
		if len(keep) == 0 {
			keep = []int32{int32(rng.IntN(n))}
		}
		enc := AppendBools(nil, src)
		enc = append(enc, 0xEE) // what follows
		prefix := []byte{9}
		got, used, ok, left, err := FilterTrue(append([]byte(nil), prefix...), enc, n, keep)
		if err != nil {
			t.Fatal(err)
		}
		_, want0, _ := DecodeBools(nil, enc, n)
		picked := make([]bool, len(keep))
		leftOut := false
		j := 0
		for i := range n {
			if j < len(keep) && int(keep[j]) == i {
				picked[j] = src[i]
				j++
			} else if src[i] {
				leftOut = true
			}
		}
		want := AppendBools(nil, picked)
		listed := BoolEncoding(enc[0]) == BoolConst || (BoolEncoding(enc[0]) == BoolSparse && enc[1] == 1)
		fits := BoolEncoding(want[0]) == BoolSparse && want[1] == 1 || BoolEncoding(want[0]) == BoolConst
		switch {
		case !listed:
			if ok || left || string(got) != string(prefix) {
				t.Fatalf("%v encoded %v: ok %v left %v", src, enc[0], ok, left)
			}
			kinds["bitmap or false listed"]++
		case leftOut:
			if ok || !left || string(got) != string(prefix) {
				t.Fatalf("%v keep %v: a true value left out, ok %v left %v", src, keep, ok, left)
			}
			kinds["left out"]++
		case fits:
			if !ok || left || string(got[1:]) != string(want) || got[0] != 9 || used != want0 {
				t.Fatalf("%v keep %v: got %x (ok %v left %v, used %d), want %x (used %d)", src, keep, got, ok, left, used, want, want0)
			}
			kinds["filtered"]++
		default:
			if ok || left || string(got) != string(prefix) {
				t.Fatalf("%v keep %v: AppendBools writes %x, FilterTrue ok %v left %v", src, keep, want, ok, left)
			}
			kinds["another encoding"]++
		}
	}
	for _, k := range []string{"bitmap or false listed", "left out", "filtered", "another encoding"} {
		if kinds[k] < 50 {
			t.Errorf("case %q seen %d times", k, kinds[k])
		}
	}
	// Corrupt lists fail with an error, as DecodeBools does.
	for _, bad := range [][]byte{{byte(BoolSparse), 1, 5, 0}, {byte(BoolSparse), 1, 1, 200}, {byte(BoolSparse), 2, 0}, {byte(BoolConst), 3}} {
		if _, _, ok, _, err := FilterTrue(nil, bad, 10, []int32{0, 1}); err == nil || ok {
			t.Errorf("%x: ok %v, err %v", bad, ok, err)
		}
	}
}
