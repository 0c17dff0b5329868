package seg

import (
	"encoding/binary"
	"fmt"
)

// BlockMeta describes one block of a segment: where its frame is and what
// the block holds. Blocks of a segment are in seq order: each block's
// MinSeq is above the previous block's MaxSeq.
type BlockMeta struct {
	Offset  int64  // file offset of the frame (its header)
	Length  int    // frame length: FrameHeaderLen plus the block's bytes
	Rows    int    // rows in the block; 0 only for an empty frame
	MinSeq  uint64 // smallest and largest seq in the block
	MaxSeq  uint64
	MinTime int64 // smallest and largest time in the block
	MaxTime int64
	CRC     uint32 // the chunk block's own trailing CRC-32C; 0 for an empty frame
}

// Meta is what opening a segment loads that its readers keep resident:
// header, blocks, rows, size, and whether the file is sealed.
type Meta struct {
	Header Header
	Blocks []BlockMeta
	Rows   int64
	Size   int64
	Sealed bool
}

// FrameHeaderLen is the length of the header before each block.
const FrameHeaderLen = frameHeaderLen

// BlockLen returns the length of the block bytes inside the frame.
func (m *BlockMeta) BlockLen() int { return m.Length - frameHeaderLen }

// End returns the file offset just after the frame.
func (m *BlockMeta) End() int64 { return m.Offset + int64(m.Length) }

// appendFrameHeader appends the frame header for a block of m.BlockLen()
// bytes.
func appendFrameHeader(dst []byte, m *BlockMeta) []byte {
	start := len(dst)
	dst = append(dst, frameMagic...)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(m.BlockLen()))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(m.Rows))
	dst = appendRanges(dst, m)
	return binary.LittleEndian.AppendUint32(dst, checksum(dst[start:]))
}

// appendRanges appends min seq, max seq, min time, max time.
func appendRanges(dst []byte, m *BlockMeta) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, m.MinSeq)
	dst = binary.LittleEndian.AppendUint64(dst, m.MaxSeq)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(m.MinTime))
	return binary.LittleEndian.AppendUint64(dst, uint64(m.MaxTime))
}

// readRanges reads what appendRanges wrote.
func readRanges(c *cursor, m *BlockMeta) {
	m.MinSeq = c.u64("min seq")
	m.MaxSeq = c.u64("max seq")
	m.MinTime = int64(c.u64("min time"))
	m.MaxTime = int64(c.u64("max time"))
}

// decodeFrameHeader parses the frame header of block i in b, read from
// file offset off. It checks the magic, the CRC and the limits, not the
// order relative to other blocks (see orderProblem). CRC is left 0.
func decodeFrameHeader(b []byte, path string, i int, off int64) (BlockMeta, error) {
	c := cursor{buf: b, base: off, path: path, section: frameSection(i)}
	c.magic(frameMagic)
	m := BlockMeta{Offset: off}
	blockLen := c.u32("block length")
	m.Rows = int(c.u32("rows"))
	readRanges(&c, &m)
	c.crc(0, "frame header")
	if c.err != nil {
		return m, c.err
	}
	m.Length = frameHeaderLen + int(min(blockLen, MaxBlockLen+1))
	if p := metaProblem(&m); p != "" {
		return m, corrupt(path, frameSection(i), off, "%s", p)
	}
	return m, nil
}

// metaProblem describes what is wrong with one block's metadata on its
// own, or returns "".
func metaProblem(m *BlockMeta) string {
	n := m.BlockLen()
	switch {
	case n < 0 || n > MaxBlockLen:
		return fmt.Sprintf("block length %d outside 0..%d", n, MaxBlockLen)
	case n > 0 && n < minBlockLen:
		return fmt.Sprintf("block length %d is shorter than any block", n)
	case m.Rows < 0 || m.Rows > maxRows:
		return fmt.Sprintf("%d rows, limit %d", m.Rows, maxRows)
	case (n == 0) != (m.Rows == 0):
		return fmt.Sprintf("%d rows in a block of %d bytes", m.Rows, n)
	case m.MinSeq > m.MaxSeq:
		return fmt.Sprintf("min seq %d above max seq %d", m.MinSeq, m.MaxSeq)
	case m.MinTime > m.MaxTime:
		return fmt.Sprintf("min time %d above max time %d", m.MinTime, m.MaxTime)
	}
	return ""
}

// orderProblem describes why block m may not follow prev (nil for the
// first block) in a segment whose header says firstSeq, or returns "".
func orderProblem(m, prev *BlockMeta, firstSeq uint64) string {
	switch {
	case prev == nil && m.MinSeq < firstSeq:
		return fmt.Sprintf("min seq %d below the segment's first seq %d", m.MinSeq, firstSeq)
	case prev != nil && m.MinSeq <= prev.MaxSeq:
		return fmt.Sprintf("min seq %d not above the previous block's max seq %d", m.MinSeq, prev.MaxSeq)
	}
	return ""
}

// last returns a pointer to the last block, nil if there is none.
func last(blocks []BlockMeta) *BlockMeta {
	if len(blocks) == 0 {
		return nil
	}
	return &blocks[len(blocks)-1]
}

// checkBlockCRC verifies the trailing CRC-32C of block i, read from file
// offset off, and returns it.
func checkBlockCRC(block []byte, path string, i int, off int64) (uint32, error) {
	body := block[:len(block)-crcLen]
	want := binary.LittleEndian.Uint32(block[len(body):])
	if got := checksum(body); got != want {
		return 0, corrupt(path, blockSection(i), off, "block CRC-32C of %d bytes is %08x, stored %08x", len(body), got, want)
	}
	return want, nil
}
