package codec

import (
	"math/rand/v2"
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
