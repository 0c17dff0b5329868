package codec

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// refPack packs each slot in w bits, least significant bit first, one
// bit at a time: the layout bitpack.go documents.
func refPack(s []uint64, w uint) []byte {
	out := make([]byte, (len(s)*int(w)+7)/8)
	for i, x := range s {
		for b := range w {
			if x>>b&1 == 1 {
				at := uint(i)*w + b
				out[at/8] |= 1 << (at % 8)
			}
		}
	}
	return out
}

// TestPackBitsWidths: for every width 0..64 and every miniblock length,
// packBits writes the reference layout after whatever dst held, and
// unpackBits reads the values back.
func TestPackBitsWidths(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var exc [MiniBlockLen]uint8
	for w := uint(0); w <= 64; w++ {
		for n := 0; n <= MiniBlockLen; n++ {
			src := make([]int64, n)
			s := make([]uint64, n)
			lo := int64(rng.IntN(1000)) - 500
			for i := range src {
				if w > 0 {
					s[i] = rng.Uint64() >> (64 - w)
				}
				src[i] = lo + int64(s[i])
			}
			p := miniPlan{lo: lo, hi: lo + int64(^uint64(0)>>(64-max(w, 1))), w: w, whole: true}
			prefix := []byte{0xAA, 0x55, 0x0F}
			got, k := packBits(append([]byte(nil), prefix...), src, &p, newDivisor(1), &exc)
			want := append(append([]byte(nil), prefix...), refPack(s, w)...)
			if k != 0 || !bytes.Equal(got, want) {
				t.Fatalf("w=%d n=%d: got %x (%d exceptions), want %x", w, n, got, k, want)
			}
			if w == 0 || w > 56 {
				continue // unpackBits takes the general path there; checked by the round trips
			}
			back := make([]int64, n)
			unpackBits(back, append(got[len(prefix):], make([]byte, 8)...), lo, w, 1)
			for i := range back {
				if back[i] != src[i] {
					t.Fatalf("w=%d n=%d: value %d reads %d, want %d", w, n, i, back[i], src[i])
				}
			}
		}
	}
}
