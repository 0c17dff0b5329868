package index

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"github.com/tsqdb/tsq/codec"
)

// Part of the format, do not change.
const (
	// Magic opens every state file.
	Magic = "TSQI"
	// HeaderLen is the length of the frame header.
	HeaderLen = 24
	// TrailerLen is the length of the CRC-32C after the payload.
	TrailerLen = 4
	// MaxPayload bounds a payload's length: a reader refuses a larger
	// one before allocating.
	MaxPayload = 1 << 30
)

// Version is the format version of a state file.
type Version uint8

// Versions of the state file format.
const (
	// V1: header, payload, CRC-32C; kinds 1-3.
	V1 Version = 1
	// CurrentVersion is the version WriteFile writes.
	CurrentVersion = V1
)

func (v Version) String() string { return fmt.Sprintf("v%d", uint8(v)) }

// Kind says what a state file's payload holds.
type Kind uint8

// Kinds of state file. Part of the format, do not change.
const (
	// KindDeleted: a roaring64 bitmap of the stream's soft-deleted seqs.
	KindDeleted Kind = 1
	// KindTombstoned: a roaring64 bitmap of seqs known superseded.
	KindTombstoned Kind = 2
	// KindRetention: the stream's retention rule.
	KindRetention Kind = 3
	// KindDurable: no payload; the frame's seq is the first seq of the
	// newest segment known durable and sealed (segments after it may
	// have been sealed without an fsync and are verified at open).
	KindDurable Kind = 4
	// KindRetained: a roaring64 bitmap of the soft-deleted seqs that
	// retention deleted (a subset of KindDeleted's; compaction counts
	// their rows apart).
	KindRetained Kind = 5
)

func (k Kind) String() string {
	switch k {
	case KindDeleted:
		return "deleted bitmap"
	case KindTombstoned:
		return "tombstoned bitmap"
	case KindRetention:
		return "retention rule"
	case KindDurable:
		return "durable mark"
	case KindRetained:
		return "retained bitmap"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// ErrCorrupt is matched by every decode error caused by the bytes; a
// *codec.CorruptionError names the file, section and offset.
var ErrCorrupt = codec.ErrCorrupt

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Frame is a decoded state file.
type Frame struct {
	Version Version
	Kind    Kind
	// Seq is the write sequence: each rewrite of a file stores the
	// previous value plus one, so readers can tell two versions apart.
	Seq uint64
	// Payload aliases the decoded buffer.
	Payload []byte
}

// AppendFrame appends a state file holding payload to dst.
func AppendFrame(dst []byte, kind Kind, seq uint64, payload []byte) []byte {
	start := len(dst)
	dst = append(dst, Magic...)
	dst = append(dst, byte(CurrentVersion), byte(kind), 0, 0)
	dst = binary.LittleEndian.AppendUint64(dst, seq)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(len(payload)))
	dst = append(dst, payload...)
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli))
}

// corrupt returns a *codec.CorruptionError for path at offset off.
func corrupt(path, section string, off int, format string, args ...any) error {
	return &codec.CorruptionError{Path: path, Section: section, Offset: int64(off),
		Err: fmt.Errorf(format, args...)}
}

// DecodeFrame decodes the state file b read from path (used in errors).
// want, unless 0, is the kind the caller expects. The payload is checked
// by its CRC only; decode it with DecodeBitmap or DecodeRule.
func DecodeFrame(b []byte, path string, want Kind) (Frame, error) {
	if len(b) < HeaderLen+TrailerLen {
		return Frame{}, corrupt(path, "header", 0, "file of %d bytes is shorter than the %d-byte minimum", len(b), HeaderLen+TrailerLen)
	}
	if string(b[:4]) != Magic {
		return Frame{}, corrupt(path, "header", 0, "magic %q, want %q", b[:4], Magic)
	}
	f := Frame{Version: Version(b[4]), Kind: Kind(b[5])}
	if f.Version != V1 {
		return Frame{}, corrupt(path, "header", 4, "format version %d, this reader knows %v", b[4], CurrentVersion)
	}
	if f.Kind < KindDeleted || f.Kind > KindRetained {
		return Frame{}, corrupt(path, "header", 5, "unknown kind %d", b[5])
	}
	if want != 0 && f.Kind != want {
		return Frame{}, corrupt(path, "header", 5, "kind %v, want %v", f.Kind, want)
	}
	if b[6] != 0 || b[7] != 0 {
		return Frame{}, corrupt(path, "header", 6, "reserved bytes %#02x %#02x are not zero", b[6], b[7])
	}
	f.Seq = binary.LittleEndian.Uint64(b[8:])
	n := binary.LittleEndian.Uint64(b[16:])
	if n > MaxPayload || n != uint64(len(b)-HeaderLen-TrailerLen) {
		return Frame{}, corrupt(path, "header", 16, "payload length %d, but the file holds %d bytes of payload (limit %d)",
			n, len(b)-HeaderLen-TrailerLen, MaxPayload)
	}
	end := len(b) - TrailerLen
	want32 := binary.LittleEndian.Uint32(b[end:])
	if got := crc32.Checksum(b[:end], castagnoli); got != want32 {
		return Frame{}, corrupt(path, "trailer", end, "CRC-32C %08x of header and payload, the file says %08x", got, want32)
	}
	f.Payload = b[HeaderLen:end]
	return f, nil
}
