package chunk

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
)

// zstdWindow is the encoders' window: the farthest back a match may
// reach, and what bounds the history each coder keeps for good (about
// twice the window, or the input when shorter). zstd's default, 8 MiB,
// kept up to 16 MiB per coder, and compaction keeps one per core; the
// stores of the shared data (OSM, NAB, flights) come out the same size
// with 1 MiB, segment for segment, their column bodies being shorter.
const zstdWindow = 1 << 20

// newZstdEncoder returns an encoder of level holding up to concurrency
// coders, with the window zstdWindow, and more options.
func newZstdEncoder(level zstd.EncoderLevel, concurrency int, more ...zstd.EOption) (*zstd.Encoder, error) {
	opts := []zstd.EOption{zstd.WithEncoderLevel(level), zstd.WithEncoderConcurrency(concurrency),
		zstd.WithWindowSize(zstdWindow), zstd.WithZeroFrames(true)}
	return zstd.NewWriter(nil, append(opts, more...)...)
}

// Zstd and s2 coders are shared: their EncodeAll/DecodeAll are safe for
// concurrent use. The decoder's memory and window are capped at
// MaxColumnBytes, so no frame can make it allocate more.
var (
	zstdOnce sync.Once
	zstdEnc  *zstd.Encoder
	zstdDec  *zstd.Decoder
	zstdErr  error
)

func zstdCoders() (*zstd.Encoder, *zstd.Decoder, error) {
	zstdOnce.Do(func() {
		zstdEnc, zstdErr = newZstdEncoder(zstd.SpeedDefault, 1)
		if zstdErr != nil {
			return
		}
		zstdDec, zstdErr = zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(0),
			zstd.WithDecoderMaxMemory(MaxColumnBytes),
			zstd.WithDecoderMaxWindow(MaxColumnBytes),
			zstd.WithDecodeAllCapLimit(true),
			// Every block's CRC-32C is verified before its columns
			// are decoded (Decoder.Reset, or the reader before
			// ResetChecked): the frames' content checksums would
			// check the same bytes again (xxhash of the output).
			zstd.IgnoreChecksum(true))
	})
	return zstdEnc, zstdDec, zstdErr
}

var (
	zstdFastOnce sync.Once
	zstdFastEnc  *zstd.Encoder // fastest level
	zstdTinyEnc  *zstd.Encoder // fastest level, no entropy coding
	zstdFastErr  error
)

// tinyBody is the raw size under which compressFast skips entropy
// coding: a body that small (a sparse column's validity and its few
// values) gains a few bytes from it at most, and building its tables
// costs more than the rest of the frame (a compaction of the OSM
// snapshot's 49-column blocks spent 10% less CPU at the same output).
const tinyBody = 1 << 10

// compressFast is compress with zstd's fastest level, its frames without
// zstd's optional content checksum (the block's CRC-32C covers the
// stored bytes), and without entropy coding under tinyBody bytes. Its
// encoders hold GOMAXPROCS coders: EncodeAll calls take one each, so
// that callers compressing in parallel (the re-encoding of a
// compaction) do not wait for each other.
func compressFast(dst, raw []byte, c Compression) ([]byte, error) {
	if c != CompressZstd {
		return compress(dst, raw, c)
	}
	zstdFastOnce.Do(func() {
		n := runtime.GOMAXPROCS(0)
		if zstdFastEnc, zstdFastErr = newZstdEncoder(zstd.SpeedFastest, n, zstd.WithEncoderCRC(false)); zstdFastErr == nil {
			zstdTinyEnc, zstdFastErr = newZstdEncoder(zstd.SpeedFastest, n, zstd.WithEncoderCRC(false), zstd.WithNoEntropyCompression(true))
		}
	})
	if zstdFastErr != nil {
		return nil, zstdFastErr
	}
	if len(raw) < tinyBody {
		return zstdTinyEnc.EncodeAll(raw, dst), nil
	}
	return zstdFastEnc.EncodeAll(raw, dst), nil
}

// compress appends raw compressed with c.
func compress(dst, raw []byte, c Compression) ([]byte, error) {
	switch c {
	case CompressS2:
		return append(dst, s2.Encode(nil, raw)...), nil
	case CompressZstd:
		enc, _, err := zstdCoders()
		if err != nil {
			return nil, err
		}
		return enc.EncodeAll(raw, dst), nil
	}
	return nil, fmt.Errorf("chunk: cannot compress with %v", c)
}

// decompress decodes stored into dst, which must come out rawLen bytes.
func decompress(dst, stored []byte, c Compression, rawLen int) ([]byte, error) {
	switch c {
	case CompressS2:
		n, err := s2.DecodedLen(stored)
		if err != nil {
			return nil, fmt.Errorf("s2: %w", err)
		}
		if n != rawLen {
			return nil, fmt.Errorf("s2 frame decodes to %d bytes, descriptor says %d", n, rawLen)
		}
		dst = grow(dst, rawLen)
		out, err := s2.Decode(dst, stored)
		if err != nil {
			return nil, fmt.Errorf("s2: %w", err)
		}
		return out, nil
	case CompressZstd:
		_, dec, err := zstdCoders()
		if err != nil {
			return nil, err
		}
		dst = grow(dst, rawLen)[:0]
		out, err := dec.DecodeAll(stored, dst)
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		if len(out) != rawLen {
			return nil, fmt.Errorf("zstd frame decodes to %d bytes, descriptor says %d", len(out), rawLen)
		}
		return out, nil
	}
	return nil, errors.New("unknown compression " + c.String())
}

func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}
