package seg

import (
	"bytes"
	"encoding/binary"
)

const sectionFooter = "footer"

// footer is the fixed-size end of a sealed segment; a reader finds it at
// file size - footerLen.
type footer struct {
	indexOff, bloomOff int64
	indexLen, bloomLen int64
	rows               int64
	keysLen            int64 // version 2 on: the key spans section, from bloomOff+bloomLen to the footer
}

func appendFooter(dst []byte, f *footer) []byte {
	start := len(dst)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(f.indexOff))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(f.indexLen))
	dst = binary.LittleEndian.AppendUint64(dst, uint64(f.bloomOff))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(f.bloomLen))
	dst = binary.LittleEndian.AppendUint64(dst, uint64(f.rows))
	dst = binary.LittleEndian.AppendUint32(dst, checksum(dst[start:]))
	return append(dst, footerMagic...)
}

// footerState classifies the last footerLen bytes of a file.
type footerState uint8

const (
	noFooter      footerState = iota // neither magic nor CRC match: unsealed
	validFooter                      // magic and CRC match: sealed
	damagedFooter                    // exactly one matches
)

// classifyFooter looks at the last footerLen bytes of a file. A file whose
// frames happen to end in "TSQF" is unsealed yet looks damaged; the
// caller tells them apart by scanning its frames.
func classifyFooter(b []byte) footerState {
	magic := bytes.Equal(b[footerLen-4:], []byte(footerMagic))
	sum := checksum(b[:32]) == binary.LittleEndian.Uint32(b[32:])
	switch {
	case magic && sum:
		return validFooter
	case magic || sum:
		return damagedFooter
	}
	return noFooter
}

// damagedFooterError describes a damaged footer at file offset off.
func damagedFooterError(b []byte, path string, off int64) error {
	if !bytes.Equal(b[footerLen-4:], []byte(footerMagic)) {
		return corrupt(path, sectionFooter, off+footerLen-4, "footer magic %q, want %q", b[footerLen-4:], footerMagic)
	}
	return corrupt(path, sectionFooter, off, "footer CRC-32C of 32 bytes is %08x, stored %08x", checksum(b[:32]), binary.LittleEndian.Uint32(b[32:]))
}

// decodeFooter parses a valid footer read at file offset off and checks
// that the index and bloom (and from version 2 on the key spans) lie back
// to back between the frames, which start at frameStart, and the footer.
func decodeFooter(b []byte, path string, off, frameStart int64, v Version) (footer, error) {
	c := cursor{buf: b, base: off, path: path, section: sectionFooter}
	var f footer
	f.indexOff = int64(c.u64("index offset"))
	f.indexLen = int64(c.u32("index length"))
	f.bloomOff = int64(c.u64("bloom offset"))
	f.bloomLen = int64(c.u32("bloom length"))
	f.rows = int64(c.u64("total rows"))
	bloomEnd := off // where the bloom ends
	if v >= V2 {
		// The key spans are what lies between the bloom and the footer.
		if f.bloomOff >= 0 && f.bloomLen >= 0 && f.bloomOff <= off && f.bloomLen <= off-f.bloomOff {
			f.keysLen = off - f.bloomOff - f.bloomLen
		}
		blocks := max(f.indexLen-crcLen, 0) / indexEntryLen
		if f.keysLen < 1+crcLen || f.keysLen > maxKeySpansLen(blocks) {
			return f, corrupt(path, sectionFooter, off+20, "bloom of %d bytes at %d leaves %d bytes before the footer at %d for the key spans of %d blocks, want %d..%d",
				f.bloomLen, f.bloomOff, f.keysLen, off, blocks, 1+crcLen, maxKeySpansLen(blocks))
		}
		bloomEnd = off - f.keysLen
	}
	switch {
	case f.indexOff < frameStart || f.indexOff > off:
		return f, corrupt(path, sectionFooter, off, "index offset %d outside %d..%d", f.indexOff, frameStart, off)
	case f.indexLen < crcLen || f.indexLen > int64(indexLen(MaxBlocks)) || f.bloomOff != f.indexOff+f.indexLen:
		return f, corrupt(path, sectionFooter, off+8, "index of %d bytes at %d does not end at the bloom offset %d", f.indexLen, f.indexOff, f.bloomOff)
	case f.bloomLen < 1+1+crcLen || f.bloomLen > maxBloomLen || f.bloomOff+f.bloomLen != bloomEnd:
		return f, corrupt(path, sectionFooter, off+20, "bloom of %d bytes at %d does not end at %d", f.bloomLen, f.bloomOff, bloomEnd)
	case f.rows < 0:
		return f, corrupt(path, sectionFooter, off+24, "total rows %d", uint64(f.rows))
	}
	return f, nil
}
