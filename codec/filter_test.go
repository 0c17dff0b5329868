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
