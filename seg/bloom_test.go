package seg

import (
	"fmt"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

// TestBloom seals a segment naming n series and probes the filter with
// the n members (no false negatives allowed) and with 100k non-members
// (false-positive rate within 2× of the target either way).
func TestBloom(t *testing.T) {
	for _, tc := range []struct {
		n    int
		rate float64
	}{
		{10_000, DefaultBloomFPRate},
		{10_000, 0.001},
		{10_000, 0.05},
		{100, 0.01},
	} {
		t.Run(fmt.Sprintf("n=%d,p=%g", tc.n, tc.rate), func(t *testing.T) {
			mem := vfs.NewMem()
			w, err := Create(mem, "b.seg", "cpu", 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			w.SetBloomFPRate(tc.rate)
			for i := range tc.n {
				w.AddSeries(fmt.Sprintf(`http_requests_total{pod="p-%d",code="200"}`, i))
			}
			if err := w.Seal(); err != nil {
				t.Fatal(err)
			}
			w.Close()
			r, err := Open(mem, "b.seg")
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			for i := range tc.n {
				if s := fmt.Sprintf(`http_requests_total{pod="p-%d",code="200"}`, i); !r.MayContainSeries(s) {
					t.Fatalf("false negative for %q", s)
				}
			}
			const probes = 100_000
			fp := 0
			for i := range probes {
				if r.MayContainSeries(fmt.Sprintf(`http_requests_total{pod="q-%d",code="200"}`, i)) {
					fp++
				}
			}
			rate := float64(fp) / probes
			t.Logf("%d bits, %d hashes: false-positive rate %.4f, target %g", r.bloom.m, r.bloom.k, rate, tc.rate)
			if rate > 2*tc.rate || rate < tc.rate/2 {
				t.Fatalf("false-positive rate %.4f outside [%g, %g]", rate, tc.rate/2, 2*tc.rate)
			}
		})
	}
}

// TestBloomHashStable pins the hash functions: the filter bits are part
// of the format, so they must not change between builds or processes.
func TestBloomHashStable(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want uint64
	}{
		{"", 0xcbf29ce484222325},  // FNV-1a 64 offset basis
		{"a", 0xaf63dc4c8601ec8c}, // published FNV-1a test vector
		{"foobar", 0x85944171f73967e8},
	} {
		if got := seriesHash(tc.s); got != tc.want {
			t.Errorf("seriesHash(%q) = %#x, want %#x", tc.s, got, tc.want)
		}
	}
	// The first output of SplitMix64 seeded with 0.
	if got := mix64(0x9e3779b97f4a7c15); got != 0xe220a8397b1dcdaf {
		t.Errorf("mix64(golden gamma) = %#x", got)
	}
}
