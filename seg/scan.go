package seg

import (
	"encoding/binary"
	"io"
	"slices"
)

// scan walks the frames of an unsealed segment from the end of its header
// up to the file size, stopping at the first frame that is torn or
// invalid: the durable prefix of a file that only ever grows by appends.
type scan struct {
	f        io.ReaderAt
	path     string
	firstSeq uint64
	start    int64 // end of the header, where frames begin
	size     int64
	// verify reads every block and checks its CRC, passing each verified
	// block to onBlock (OpenWriter). Otherwise only the last block is read
	// in full (readers); the others are checked by ReadBlock.
	verify  bool
	onBlock func(i int, block []byte)
}

// scanResult is the durable prefix a scan found.
type scanResult struct {
	blocks []BlockMeta
	rows   int64
	end    int64 // end of the last good frame: start when there is none
	// cause says why the frames stop before size, a *codec.CorruptionError
	// (a torn or corrupt frame); nil when the last frame ends at size.
	cause error
}

// run scans; its error is an IO error, never corruption.
func (s *scan) run() (scanResult, error) {
	res := scanResult{end: s.start}
	var hdr [frameHeaderLen]byte
	var block []byte
	for res.end < s.size && res.cause == nil {
		off, i := res.end, len(res.blocks)
		m, cause, err := s.frame(hdr[:], i, off, last(res.blocks))
		if err != nil || cause != nil {
			res.cause = cause
			if err != nil {
				return res, err
			}
			break
		}
		if n := m.BlockLen(); n > 0 && s.verify {
			block = slices.Grow(block[:0], n)[:n]
			if err := readFull(s.f, s.path, block, off+frameHeaderLen); err != nil {
				return res, err
			}
			if m.CRC, res.cause = checkBlockCRC(block, s.path, i, off+frameHeaderLen); res.cause != nil {
				break
			}
			s.onBlock(i, block)
		} else if n > 0 {
			var crc [crcLen]byte
			if err := readFull(s.f, s.path, crc[:], m.End()-crcLen); err != nil {
				return res, err
			}
			m.CRC = binary.LittleEndian.Uint32(crc[:])
		}
		res.blocks = append(res.blocks, m)
		res.rows += int64(m.Rows)
		res.end = m.End()
	}
	if !s.verify {
		return res, s.checkLast(&res)
	}
	return res, nil
}

// frame reads and checks the header of frame i at off; cause says why the
// frame is not part of the durable prefix.
func (s *scan) frame(hdr []byte, i int, off int64, prev *BlockMeta) (m BlockMeta, cause, err error) {
	if n := s.size - off; n < frameHeaderLen {
		return m, corrupt(s.path, frameSection(i), off, "torn frame header: %d of %d bytes", n, frameHeaderLen), nil
	}
	if i >= MaxBlocks {
		return m, corrupt(s.path, frameSection(i), off, "more than %d blocks", MaxBlocks), nil
	}
	if err := readFull(s.f, s.path, hdr, off); err != nil {
		return m, nil, err
	}
	if m, cause = decodeFrameHeader(hdr, s.path, i, off); cause != nil {
		return m, cause, nil
	}
	if p := orderProblem(&m, prev, s.firstSeq); p != "" {
		return m, corrupt(s.path, frameSection(i), off, "%s", p), nil
	}
	if m.End() > s.size {
		return m, corrupt(s.path, blockSection(i), off+frameHeaderLen, "torn block: %d of %d bytes", s.size-off-frameHeaderLen, m.BlockLen()), nil
	}
	return m, nil, nil
}

// checkLast verifies the last block's CRC, dropping the block from the
// prefix if it does not match: a torn write may have left its header
// whole and its bytes not.
func (s *scan) checkLast(res *scanResult) error {
	m := last(res.blocks)
	if m == nil || m.BlockLen() == 0 {
		return nil
	}
	block := make([]byte, m.BlockLen())
	if err := readFull(s.f, s.path, block, m.Offset+frameHeaderLen); err != nil {
		return err
	}
	_, cause := checkBlockCRC(block, s.path, len(res.blocks)-1, m.Offset+frameHeaderLen)
	if cause != nil {
		res.cause, res.end = cause, m.Offset
		res.rows -= int64(m.Rows)
		res.blocks = res.blocks[:len(res.blocks)-1]
	}
	return nil
}

// countFrames counts the frames from off whose headers are whole and
// valid, walking by their lengths until a header is torn or invalid or a
// frame runs past size. A frame whose block is torn still counts.
func countFrames(f io.ReaderAt, path string, off, size int64) (int, error) {
	var hdr [frameHeaderLen]byte
	n := 0
	for size-off >= frameHeaderLen {
		if err := readFull(f, path, hdr[:], off); err != nil {
			return n, err
		}
		m, err := decodeFrameHeader(hdr[:], path, n, off)
		if err != nil {
			break
		}
		n++
		off = m.End()
	}
	return n, nil
}
