package seg

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/tsqdb/tsq/internal/vfs"
)

// Reader reads a segment file, sealed or not. Its methods other than Close
// are safe for concurrent use: the metadata is fixed at Open and blocks
// are read with ReadAt.
type Reader struct {
	f      vfs.File
	path   string
	hdr    Header
	sealed bool
	blocks []BlockMeta // in seq order; tile the file from the header on
	rows   int64       // sum of blocks' rows
	bloom  *bloom      // series filter of a sealed segment, nil if unsealed
	keys   []KeySpan   // each block's keys, of a sealed segment of version 2 on; else nil
	span   KeySpan     // the union of keys; unknown without them
	size   int64       // the file's size at Open
}

// Open opens the segment path. A sealed segment's footer, index and bloom
// filter are read and their CRCs checked. An unsealed segment's frames are
// scanned up to the last whole, valid frame, the durable prefix a
// concurrent writer has written so far; nothing is truncated. Corruption
// gives a *codec.CorruptionError matching chunk.ErrCorrupt.
func Open(fsys vfs.FS, path string) (*Reader, error) {
	f, err := fsys.Open(path)
	if err != nil {
		return nil, fmt.Errorf("seg: open %s: %w", path, err)
	}
	r, err := OpenFile(f, path)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return r, nil
}

// OpenFile is Open reading through f, an open handle of path, which it
// does not close on an error: the metadata and the blocks then come from
// one file even if path is replaced meanwhile. The Reader's Close closes
// f.
func OpenFile(f vfs.File, path string) (*Reader, error) {
	r := &Reader{f: f, path: path, span: UnknownKeys()}
	if err := r.load(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *Reader) load() error {
	l, err := inspect(r.f, r.path)
	if err != nil {
		return err
	}
	r.hdr, r.size = l.hdr, l.size
	if l.tail == validFooter {
		return r.loadSealed(&l)
	}
	s := scan{f: r.f, path: r.path, firstSeq: l.hdr.FirstSeq, start: l.hdrLen, size: l.size}
	res, err := s.run()
	if err != nil {
		return err
	}
	if err := l.resolveDamaged(&res, r.path); err != nil {
		return err
	}
	r.blocks, r.rows = res.blocks, res.rows
	return nil
}

// loadSealed reads the footer, the index and the bloom filter.
func (r *Reader) loadSealed(l *layout) error {
	ft, err := decodeFooter(l.foot, r.path, l.footOff(), l.hdrLen, l.hdr.Version)
	if err != nil {
		return err
	}
	buf := make([]byte, ft.indexLen+ft.bloomLen+ft.keysLen) // all lie inside the file
	if err := readFull(r.f, r.path, buf, ft.indexOff); err != nil {
		return err
	}
	r.blocks, r.rows, err = decodeIndex(buf[:ft.indexLen], r.path, ft.indexOff, l.hdrLen, l.hdr.FirstSeq)
	if err != nil {
		return err
	}
	if r.rows != ft.rows {
		return corrupt(r.path, sectionFooter, l.footOff()+24, "total rows %d, the index sums to %d", ft.rows, r.rows)
	}
	if r.bloom, err = decodeBloom(buf[ft.indexLen:ft.indexLen+ft.bloomLen], r.path, ft.bloomOff); err != nil {
		return err
	}
	if ft.keysLen > 0 {
		if r.keys, err = decodeKeySpans(buf[ft.indexLen+ft.bloomLen:], r.path, ft.bloomOff+ft.bloomLen, len(r.blocks)); err != nil {
			return err
		}
		r.span = KeySpan{}
		for i := range r.keys {
			r.span.Merge(&r.keys[i])
		}
	}
	r.sealed = true
	return nil
}

// Path returns the file's name.
func (r *Reader) Path() string { return r.path }

// Header returns the segment header.
func (r *Reader) Header() Header { return r.hdr }

// Sealed reports whether the segment was sealed when opened.
func (r *Reader) Sealed() bool { return r.sealed }

// Blocks returns the blocks in seq order; the slice must not be modified.
func (r *Reader) Blocks() []BlockMeta { return slices.Clip(r.blocks) }

// Size returns the file's size when it was opened: the whole file of a
// sealed segment.
func (r *Reader) Size() int64 { return r.size }

// ReadAt reads the file's bytes at off, for a verbatim copy of the
// segment (a backup); the bytes are not checked.
func (r *Reader) ReadAt(p []byte, off int64) (int, error) { return r.f.ReadAt(p, off) }

// Rows returns the rows of all blocks.
func (r *Reader) Rows() int64 { return r.rows }

// Meta returns what the reader loaded of the segment.
func (r *Reader) Meta() Meta {
	return Meta{Header: r.hdr, Blocks: r.Blocks(), Rows: r.rows, Size: r.size, Sealed: r.sealed}
}

// Find returns the index of the first block whose MaxSeq is at least seq:
// the block holding seq if any block does (check its MinSeq), or
// len(Blocks()) when every block ends before seq. It is a binary search.
func (r *Reader) Find(seq uint64) int {
	return sort.Search(len(r.blocks), func(i int) bool { return r.blocks[i].MaxSeq >= seq })
}

// MayContainSeries reports whether the segment may hold series name: false
// means it certainly does not. It is always true for an unsealed segment
// and for a sealed one written without series.
func (r *Reader) MayContainSeries(name string) bool {
	return r.bloom == nil || r.bloom.mayContain(name)
}

// Keys returns the span of the keys of the segment's keyed rows: unknown
// for an unsealed segment, one of version 1, and one whose writer was not
// told every block's keys.
func (r *Reader) Keys() KeySpan { return r.span }

// BlockKeys returns the span of the keys of block i's keyed rows, unknown
// where Keys would be or the writer was not told the block's.
func (r *Reader) BlockKeys(i int) KeySpan {
	if r.keys == nil {
		return UnknownKeys()
	}
	return r.keys[i]
}

// ReadBlock reads the bytes of block i into dst's backing array when it is
// large enough (else a new one) and returns them, after checking the
// block's CRC against its bytes and the index. An empty frame gives an
// empty slice.
func (r *Reader) ReadBlock(i int, dst []byte) ([]byte, error) {
	if i < 0 || i >= len(r.blocks) {
		return dst[:0], fmt.Errorf("seg: %s: block %d out of range [0, %d)", r.path, i, len(r.blocks))
	}
	m := &r.blocks[i]
	n, off := m.BlockLen(), m.Offset+frameHeaderLen
	dst = slices.Grow(dst[:0], n)[:n]
	if n == 0 {
		return dst, nil
	}
	if err := readFull(r.f, r.path, dst, off); err != nil {
		return dst[:0], err
	}
	crc, err := checkBlockCRC(dst, r.path, i, off)
	if err == nil && crc != m.CRC {
		err = corrupt(r.path, blockSection(i), off, "block CRC-32C %08x, the index says %08x", crc, m.CRC)
	}
	if err != nil {
		return dst[:0], err
	}
	return dst, nil
}

// ReadBlockPart reads len(dst) bytes of block i's bytes from offset off
// within the block, without any check: the block's CRC covers the whole
// block, so what it returns is only as good as the caller's own later
// check of the block (compaction reads a block's header and one column
// this way, and the whole block, checked, before it writes anything).
func (r *Reader) ReadBlockPart(i, off int, dst []byte) error {
	if i < 0 || i >= len(r.blocks) {
		return fmt.Errorf("seg: %s: block %d out of range [0, %d)", r.path, i, len(r.blocks))
	}
	m := &r.blocks[i]
	if off < 0 || off+len(dst) > m.BlockLen() {
		return fmt.Errorf("seg: %s: bytes [%d, %d) of block %d of %d bytes", r.path, off, off+len(dst), i, m.BlockLen())
	}
	return readFull(r.f, r.path, dst, m.Offset+frameHeaderLen+int64(off))
}

// Verify reads every frame header and block and checks them against the
// index: what a file check does. It returns every problem found, joined.
func (r *Reader) Verify() error {
	var errs []error
	var hdr [frameHeaderLen]byte
	var block []byte
	for i := range r.blocks {
		m := &r.blocks[i]
		if err := readFull(r.f, r.path, hdr[:], m.Offset); err != nil {
			return errors.Join(append(errs, err)...)
		}
		fm, err := decodeFrameHeader(hdr[:], r.path, i, m.Offset)
		if err == nil && (fm.Length != m.Length || fm.Rows != m.Rows || fm.MinSeq != m.MinSeq ||
			fm.MaxSeq != m.MaxSeq || fm.MinTime != m.MinTime || fm.MaxTime != m.MaxTime) {
			err = corrupt(r.path, frameSection(i), m.Offset, "frame header %+v disagrees with the index %+v", fm, *m)
		}
		if err != nil {
			errs = append(errs, err)
		}
		if block, err = r.ReadBlock(i, block); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Close closes the file.
func (r *Reader) Close() error {
	if err := r.f.Close(); err != nil {
		return fmt.Errorf("seg: close %s: %w", r.path, err)
	}
	return nil
}
