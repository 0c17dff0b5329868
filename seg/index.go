package seg

import (
	"encoding/binary"
	"slices"
)

const sectionIndex = "index"

// appendIndex appends the block index of a sealed segment: one entry per
// block, then the CRC of the entries.
func appendIndex(dst []byte, blocks []BlockMeta) []byte {
	dst = slices.Grow(dst, indexLen(len(blocks))) // one allocation, not a doubling series
	start := len(dst)
	for i := range blocks {
		m := &blocks[i]
		dst = binary.LittleEndian.AppendUint64(dst, uint64(m.Offset))
		dst = binary.LittleEndian.AppendUint32(dst, uint32(m.Length))
		dst = binary.LittleEndian.AppendUint32(dst, uint32(m.Rows))
		dst = appendRanges(dst, m)
		dst = binary.LittleEndian.AppendUint32(dst, m.CRC)
	}
	return binary.LittleEndian.AppendUint32(dst, checksum(dst[start:]))
}

// indexLen returns the encoded length of an index of n blocks.
func indexLen(n int) int { return n*indexEntryLen + crcLen }

// decodeIndex parses an index read from file offset off. The frames it
// names must tile the file from frameStart to exactly off, in seq order
// from firstSeq. It returns the blocks and their total rows.
func decodeIndex(b []byte, path string, off, frameStart int64, firstSeq uint64) ([]BlockMeta, int64, error) {
	n := (len(b) - crcLen) / indexEntryLen
	if len(b) < crcLen || indexLen(n) != len(b) || n > MaxBlocks {
		return nil, 0, corrupt(path, sectionIndex, off, "index length %d is not %d-byte entries (at most %d) and a CRC", len(b), indexEntryLen, MaxBlocks)
	}
	c := cursor{buf: b, base: off, path: path, section: sectionIndex}
	c.off = len(b) - crcLen
	c.crc(0, "index")
	if c.err != nil {
		return nil, 0, c.err
	}
	c.off = 0
	blocks := make([]BlockMeta, n)
	next := frameStart
	var rows int64
	for i := range blocks {
		m := &blocks[i]
		at := off + int64(c.off)
		m.Offset = int64(c.u64("frame offset"))
		m.Length = int(min(c.u32("frame length"), MaxFrameLen+1))
		m.Rows = int(c.u32("rows"))
		readRanges(&c, m)
		m.CRC = c.u32("block CRC")
		if m.Offset != next {
			return nil, 0, corrupt(path, sectionIndex, at, "block %d at offset %d, want %d (frames are back to back)", i, m.Offset, next)
		}
		p := metaProblem(m)
		if p == "" {
			p = orderProblem(m, last(blocks[:i]), firstSeq)
		}
		if p != "" {
			return nil, 0, corrupt(path, sectionIndex, at, "block %d: %s", i, p)
		}
		if m.Rows == 0 && m.CRC != 0 {
			return nil, 0, corrupt(path, sectionIndex, at, "empty block %d has CRC %08x, want 0", i, m.CRC)
		}
		next = m.End()
		rows += int64(m.Rows)
	}
	if next != off {
		return nil, 0, corrupt(path, sectionIndex, off, "frames end at %d, index starts at %d", next, off)
	}
	return blocks, rows, nil
}
