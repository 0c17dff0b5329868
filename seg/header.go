package seg

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/tsqdb/tsq/chunk"
)

// Header is what a segment file says about itself in its first bytes.
type Header struct {
	Version    Version
	Stream     string // the stream the segment belongs to, 1..MaxStreamLen bytes
	Generation uint64 // bumped by every Rewrite of the segment
	FirstSeq   uint64 // no block holds a seq below it
}

const sectionHeader = "segment header"

// checksum is the CRC-32C every section of a segment uses.
func checksum(b []byte) uint32 { return chunk.Checksum(b) }

// appendHeader appends the encoding of h, version CurrentVersion.
func appendHeader(dst []byte, h *Header) []byte {
	start := len(dst)
	dst = append(dst, headerMagic...)
	dst = append(dst, byte(CurrentVersion))
	dst = binary.AppendUvarint(dst, uint64(len(h.Stream)))
	dst = append(dst, h.Stream...)
	dst = binary.AppendUvarint(dst, h.Generation)
	dst = binary.AppendUvarint(dst, h.FirstSeq)
	return binary.LittleEndian.AppendUint32(dst, checksum(dst[start:]))
}

func checkStream(stream string) error {
	if len(stream) == 0 || len(stream) > MaxStreamLen {
		return fmt.Errorf("%w: stream name of %d bytes, want 1..%d", ErrLimit, len(stream), MaxStreamLen)
	}
	return nil
}

// decodeHeader parses the header at the start of b, the first bytes of the
// file path, and returns it with its length.
func decodeHeader(b []byte, path string) (Header, int64, error) {
	c := cursor{buf: b, path: path, section: sectionHeader}
	c.magic(headerMagic)
	var h Header
	at := c.off
	if h.Version = Version(c.u8("version")); c.err == nil && h.Version != V1 && h.Version != V2 {
		c.off = at
		c.fail("unsupported segment format version %d", uint8(h.Version))
	}
	at = c.off
	if n := c.uvarint("stream name length"); c.err == nil && (n == 0 || n > MaxStreamLen) {
		c.off = at
		c.fail("stream name length %d outside 1..%d", n, MaxStreamLen)
	} else {
		h.Stream = string(c.bytes(int(n), "stream name"))
	}
	h.Generation = c.uvarint("generation")
	h.FirstSeq = c.uvarint("first seq")
	c.crc(0, "header")
	if c.err != nil {
		return Header{}, 0, c.err
	}
	return h, int64(c.off), nil
}

// readHeader reads and parses the header of a file of size bytes.
func readHeader(f io.ReaderAt, path string, size int64) (Header, int64, error) {
	buf := make([]byte, min(size, maxHeaderLen))
	if err := readFull(f, path, buf, 0); err != nil {
		return Header{}, 0, err
	}
	return decodeHeader(buf, path)
}
