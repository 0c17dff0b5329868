package chunk

import (
	"bytes"
	"encoding/binary"
	"errors"
	"runtime"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// bombBlock builds a one-column block whose zstd body inflates to inflated
// bytes while its descriptor claims rawLen.
func bombBlock(t *testing.T, inflated, rawLen int) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest))
	if err != nil {
		t.Fatal(err)
	}
	frame := enc.EncodeAll(bytes.Repeat([]byte{0}, inflated), nil)
	b := []byte{byte(V1), 1, 1, 1, 'x', byte(Int64), byte(CompressZstd)}
	b = binary.AppendUvarint(b, uint64(len(frame)))
	b = binary.AppendUvarint(b, uint64(rawLen))
	b = append(b, frame...)
	return binary.LittleEndian.AppendUint32(b, Checksum(b))
}

// TestZstdBomb: a small frame that inflates far beyond what its descriptor
// claims, or beyond MaxColumnBytes, is rejected without allocating what it
// would inflate to.
func TestZstdBomb(t *testing.T) {
	for _, tc := range []struct {
		name             string
		inflated, rawLen int
	}{
		{"claims 100 bytes, inflates to 100 MiB", 100 << 20, 100},
		{"claims the limit, inflates past it", MaxColumnBytes + 1<<20, MaxColumnBytes},
	} {
		t.Run(tc.name, func(t *testing.T) {
			blk := bombBlock(t, tc.inflated, tc.rawLen)
			t.Logf("%d-byte block inflating to %d bytes", len(blk), tc.inflated)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			var dec Decoder
			if err := dec.Reset(blk); err != nil {
				t.Fatal(err)
			}
			var col Column
			err := dec.Column(0, &col)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("got %v, want a corruption error", err)
			}
			// The decoder may allocate the claimed size plus its own
			// bounded state, never the inflated size.
			allowed := uint64(tc.rawLen) + 16<<20
			if got := after.TotalAlloc - before.TotalAlloc; got > allowed {
				t.Fatalf("decoding allocated %d bytes, allowed %d", got, allowed)
			}
		})
	}
}

// TestCompressFast: bodies on both sides of tinyBody (entropy coded or
// not) come back exactly, and a sparse validity-like body still shrinks.
func TestCompressFast(t *testing.T) {
	for _, n := range []int{64, tinyBody - 1, tinyBody, 64 << 10} {
		raw := make([]byte, n)
		for i := range raw {
			if i%97 == 0 {
				raw[i] = byte(i)
			}
		}
		stored, err := compressFast(nil, raw, CompressZstd)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decompress(nil, stored, CompressZstd, n)
		if err != nil || !bytes.Equal(got, raw) {
			t.Fatalf("%d bytes: round trip differs (err %v)", n, err)
		}
		if len(stored) >= n/2 {
			t.Errorf("%d bytes: stored in %d", n, len(stored))
		}
	}
}

// TestZstdEncoderMemory: an encoder's history is bounded by its window,
// not by the longest column it compressed (zstd's default window kept
// 16 MiB a coder, held for the life of the process).
func TestZstdEncoderMemory(t *testing.T) {
	raw := make([]byte, 8<<20) // longer than the window, compressible
	for i := range raw {
		raw[i] = byte(i * 7 % 251)
	}
	for _, level := range []zstd.EncoderLevel{zstd.SpeedDefault, zstd.SpeedFastest} {
		out := make([]byte, 0, len(raw))
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		enc, err := newZstdEncoder(level, 1)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			out = enc.EncodeAll(raw, out[:0])
		}
		runtime.ReadMemStats(&m1)
		if took, most := m1.TotalAlloc-m0.TotalAlloc, uint64(4*zstdWindow); took > most {
			t.Errorf("%v: compressing %d bytes allocated %d bytes, more than %d", level, len(raw), took, most)
		}
		_, dec, _ := zstdCoders()
		if back, err := dec.DecodeAll(out, make([]byte, 0, len(raw))); err != nil || !bytes.Equal(back, raw) {
			t.Fatalf("%v: round trip: %v", level, err)
		}
	}
}
