package seg

import (
	"fmt"

	"github.com/tsqdb/tsq/chunk"
)

// Segment layout (all fixed-width integers little-endian; uvarint as
// encoding/binary; CRC-32C is chunk.Checksum):
//
//	header:  <4b "TSQS"> <1b version> <uvarint stream length> <stream>
//	         <uvarint generation> <uvarint first seq> <4b CRC-32C of the above>
//	frames:  per block, back to back:
//	         <4b "TSQB"> <4b block length> <4b rows> <8b min seq> <8b max seq>
//	         <8b min time> <8b max time> <4b CRC-32C of the 44 bytes before>
//	         <block length bytes: one chunk block>
//	sealed trailer, written once by Seal:
//	index:   per block <8b frame offset> <4b frame length> <4b rows>
//	         <8b min seq> <8b max seq> <8b min time> <8b max time> <4b block CRC>
//	         then <4b CRC-32C of the entries>
//	bloom:   <1b k> <uvarint m> <ceil(m/8) bytes> <4b CRC-32C of the above>
//	keys:    (version 2 on) <1b state> [state 2: <uvarint n> <n bytes: least key>
//	         <uvarint n> <n bytes: greatest key>] <4b CRC-32C of the above>
//	footer:  <8b index offset> <4b index length> <8b bloom offset>
//	         <4b bloom length> <8b total rows> <4b CRC-32C of the 32 bytes
//	         before> <4b "TSQF">
//
// Part of the format; do not change.
const (
	headerMagic = "TSQS"
	frameMagic  = "TSQB"
	footerMagic = "TSQF"

	crcLen         = 4
	frameHeaderLen = 48 // 44 bytes of fields, then their CRC
	indexEntryLen  = 52
	footerLen      = 40
)

// Version is a segment format version.
type Version uint8

const (
	// V1 is the first segment format.
	V1 Version = 1
	// V2 adds the key span section between the bloom filter and the
	// footer.
	V2 Version = 2
	// CurrentVersion is what Writers write.
	CurrentVersion = V2
)

func (v Version) String() string { return fmt.Sprintf("v%d", uint8(v)) }

// Limits, enforced by the Writer and checked by readers before allocating.
const (
	// MaxStreamLen bounds the stream name in the header, in bytes.
	MaxStreamLen = 255
	// MaxBlockLen bounds one block's bytes; a frame is at most
	// MaxFrameLen bytes with its header.
	MaxBlockLen = 64 << 20
	// MaxFrameLen bounds a frame, header included.
	MaxFrameLen = frameHeaderLen + MaxBlockLen
	// MaxBlocks bounds the blocks of one segment.
	MaxBlocks = 1 << 20
	// MaxBloomBits bounds the series bloom filter's bit count m.
	MaxBloomBits = 64 << 20
	// MaxBloomHashes bounds the bloom filter's hash count k.
	MaxBloomHashes = 32

	// maxHeaderLen is the longest possible header: magic, version, a
	// 2-byte length, the name, two 10-byte uvarints and the CRC.
	maxHeaderLen = 4 + 1 + 2 + MaxStreamLen + 10 + 10 + crcLen
	// minBlockLen is the shortest chunk block: version, rows, columns, CRC.
	minBlockLen = 3 + crcLen
	// maxRows bounds a frame's row count.
	maxRows = chunk.MaxRows
)

// DefaultBloomFPRate is the series bloom filter's target false-positive
// rate unless Writer.SetBloomFPRate says otherwise.
const DefaultBloomFPRate = 0.01
