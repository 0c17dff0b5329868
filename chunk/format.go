package chunk

import (
	"fmt"
	"hash/crc32"
)

// Block layout (all integers little-endian; uvarint as encoding/binary):
//
//	<1b version> <uvarint rows> <uvarint columns>
//	columns × descriptor:
//	    <uvarint name length> <name> <1b type> <1b compression>
//	    <uvarint stored length> [<uvarint raw length> if compressed]
//	column bodies, in descriptor order, each `stored length` bytes
//	<4b CRC-32C (Castagnoli) of every preceding byte of the block>
//
// A raw column body is
//
//	<1b 0: no nulls | 1: nulls> [<bools: rows validity flags>] <values>
//
// where values holds only the present rows, in the codec encoding of the
// column's type (the first byte of each codec encoding is its tag).
//
// Part of the format; do not change.
const (
	crcLen = 4
)

// Version is a block format version.
type Version uint8

const (
	// V1 is the first block format.
	V1 Version = 1
	// V2 adds the front-coded string encoding (codec.StringPrefix). The
	// encoder writes the lowest version that holds a block's encodings:
	// V1 unless a column is front coded.
	V2 Version = 2
	// V3 adds the sparse bool encoding (codec.BoolSparse), for null
	// bitmaps and bool columns: V3 when a column has one, else as above.
	V3 Version = 3
	// CurrentVersion is the newest version, what the decoder reads up to.
	CurrentVersion = V3
)

func (v Version) String() string { return fmt.Sprintf("v%d", uint8(v)) }

// Limits enforced on encode and checked on decode before allocating.
const (
	// DefaultRows is the block size the store uses.
	DefaultRows = 8192
	// MaxRows bounds the rows of one block.
	MaxRows = 1 << 20
	// MaxColumns bounds the columns of one block.
	MaxColumns = 4096
	// MaxNameLen bounds a column name in bytes.
	MaxNameLen = 255
	// MaxColumnBytes bounds a column body, raw or stored, and the string
	// data of a decoded String or Bytes column.
	MaxColumnBytes = 64 << 20
)

// Compression is a whole-column compression pass. The numeric values are
// part of the format; do not change them.
type Compression uint8

const (
	CompressNone Compression = 0
	CompressS2   Compression = 1
	CompressZstd Compression = 2
)

func (c Compression) String() string {
	switch c {
	case CompressNone:
		return "none"
	case CompressS2:
		return "s2"
	case CompressZstd:
		return "zstd"
	}
	return fmt.Sprintf("Compression(%d)", uint8(c))
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Checksum returns the CRC-32C of b, as blocks use.
func Checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }
