package codec

import (
	"bytes"
	"math"
	"testing"
)

// TestAppendIntsSteady holds AppendInts' constant-step shortcut to the
// general path byte for byte, and checks the decoded values.
func TestAppendIntsSteady(t *testing.T) {
	var c Encoder
	var d Decoder
	starts := []int64{0, 1, -7, 1392388200000000000, math.MaxInt64 - 3, math.MinInt64}
	steps := []int64{0, 1, -1, 300e9, 1 << 40, math.MaxInt64, math.MinInt64}
	lens := []int{3, 4, 5, 129, 130, 131, 257, 258, 1000, 8192}
	for _, start := range starts {
		for _, step := range steps {
			for _, n := range lens {
				src := make([]int64, n)
				v := start
				for i := range src {
					src[i] = v
					v += step // wrapping
				}
				if _, ok := constantStep(src); !ok {
					t.Fatalf("start %d step %d n %d: step not seen as constant", start, step, n)
				}
				got := c.AppendInts([]byte{9}, src)
				want := c.appendIntsGeneral([]byte{9}, src)
				if !bytes.Equal(got, want) {
					t.Fatalf("start %d step %d n %d:\n got  %x\n want %x", start, step, n, got, want)
				}
				out, k, err := d.DecodeInts(nil, got[1:], n)
				if err != nil || k != len(got)-1 {
					t.Fatalf("start %d step %d n %d: decode: %d bytes of %d, %v", start, step, n, k, len(got)-1, err)
				}
				for i := range src {
					if out[i] != src[i] {
						t.Fatalf("start %d step %d n %d: [%d] = %d, want %d", start, step, n, i, out[i], src[i])
					}
				}
			}
		}
	}
	// One irregular delta anywhere takes the general path.
	for _, at := range []int{2, 3, 64, 999} {
		src := make([]int64, 1000)
		for i := range src {
			src[i] = int64(i) * 10
		}
		src[at]++
		if _, ok := constantStep(src); ok {
			t.Fatalf("irregular delta at %d not seen", at)
		}
	}
}
