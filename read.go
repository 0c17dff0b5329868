package tsq

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"iter"
	"math"
	"sort"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/codec"
	"github.com/tsqdb/tsq/seg"
)

// Reads see a snapshot of a stream taken when they start: sealed
// segments plus the active segment's acknowledged blocks (this Store's
// writes), or, for a read-only Store, the whole frames on disk (the
// durable prefix a writer in another process has written). Within a
// block the seqs are consecutive: a block of r rows holds exactly the
// seqs MinSeq..MaxSeq, MaxSeq = MinSeq+r-1, because Append assigns the
// seqs of a frame consecutively. Count, OldestIDs and IDsOlderThan rely
// on it and decode no rows for such blocks.

// ScanOptions bound a Scan; every bound is inclusive and a zero bound is
// no bound. (A time bound of exactly 0 cannot be expressed: use -1 or 1.)
type ScanOptions struct {
	MinSeq, MaxSeq   uint64
	MinTime, MaxTime int64
}

func (o *ScanOptions) bounds() (slo, shi uint64, tlo, thi int64) {
	slo, shi, tlo, thi = o.MinSeq, o.MaxSeq, o.MinTime, o.MaxTime
	if shi == 0 {
		shi = math.MaxUint64
	}
	if tlo == 0 {
		tlo = math.MinInt64
	}
	if thi == 0 {
		thi = math.MaxInt64
	}
	return
}

// readStream returns the stream's current view for a read.
func (s *Store) readView(stream string) (*stream, *view, error) {
	st, err := s.stream(stream, false)
	if err != nil {
		return nil, nil, err
	}
	v, err := st.snapshot()
	return st, v, err
}

// readState returns the stream, its soft-deleted seqs (nil if none) and
// its view, for a read that must hide soft-deleted rows. The bitmap is
// taken before the view (see deletedSnapshot); a read-only stream
// reloads its state files first if they changed.
func (s *Store) readState(stream string) (*stream, *view, *roaring64.Bitmap, error) {
	st, err := s.stream(stream, false)
	if err != nil {
		return nil, nil, nil, err
	}
	if !st.writable {
		if err := st.refreshSoft(); err != nil {
			return nil, nil, nil, err
		}
	}
	del := st.deletedSnapshot()
	v, err := st.snapshot()
	return st, v, del, err
}

// locate returns the segment and block holding seq.
func (v *view) locate(seq uint64) (*segFile, int, bool) {
	i := sort.Search(len(v.segs), func(i int) bool { return v.segs[i].firstSeq > seq }) - 1
	if i < 0 {
		return nil, 0, false
	}
	sf := v.segs[i]
	j := sort.Search(len(sf.blocks), func(j int) bool { return sf.blocks[j].MaxSeq >= seq })
	if j == len(sf.blocks) || sf.blocks[j].MinSeq > seq || sf.blocks[j].Rows == 0 {
		return nil, 0, false
	}
	return sf, j, true
}

// cacheMode says how a block read uses the block cache.
type cacheMode uint8

const (
	cacheFill   cacheMode = iota // look up; insert what was read from the file
	cacheLookup                  // look up only (a merge reading a file it replaces)
)

// readBlock returns the bytes of block i of sf, checked against the
// index: from the block cache when it holds them, else from the file.
// The bytes may be shared with the cache and must not be modified.
func (st *stream) readBlock(sf *segFile, i int, mode cacheMode) ([]byte, error) {
	c := st.s.cache
	key, cached := c.key(sf, i)
	if cached {
		if b, ok := c.get(key, sf.blocks[i].CRC); ok {
			return b, nil
		}
	}
	b, err := st.readBlockFile(sf, i, cached && mode == cacheFill)
	if err == nil && cached && mode == cacheFill {
		// The key holds the generation of the view this read started
		// from: bytes of a replaced file can only go under its own keys.
		c.set(key, sf.blocks[i].CRC, b)
	}
	return b, err
}

// readBlockFile reads block i of sf into a new slice and checks it
// against the index. verify also checks the CRC-32C of the whole block
// (the bytes go into the cache, which holds verified bytes only); without
// it the decoder checks it.
func (st *stream) readBlockFile(sf *segFile, i int, verify bool) ([]byte, error) {
	if sf.r != nil {
		b, err := sf.r.ReadBlock(i, nil) // checks the CRC against the bytes and the index
		if err != nil {
			return nil, streamErr(st.name, err)
		}
		return b, nil
	}
	m := &sf.blocks[i]
	n := m.BlockLen()
	dst := make([]byte, n)
	off := m.Offset + seg.FrameHeaderLen
	if _, err := sf.f.ReadAt(dst, off); err != nil && err != io.EOF {
		return nil, fmt.Errorf("tsq: stream %q: read %s block %d: %w", st.name, sf.path, i, err)
	}
	if n < 4 || binary.LittleEndian.Uint32(dst[n-4:]) != m.CRC {
		return nil, streamErr(st.name, &codec.CorruptionError{
			Path: sf.path, Section: fmt.Sprintf("block %d", i), Offset: off,
			Err: fmt.Errorf("%w: block CRC differs from the index's %#08x", chunk.ErrCorrupt, m.CRC)})
	}
	if verify {
		if crc := chunk.Checksum(dst[:n-4]); crc != m.CRC {
			return nil, streamErr(st.name, &codec.CorruptionError{
				Path: sf.path, Section: fmt.Sprintf("block %d", i), Offset: off,
				Err: fmt.Errorf("%w: block CRC-32C %08x, the index says %08x", chunk.ErrCorrupt, crc, m.CRC)})
		}
	}
	return dst, nil
}

// decodeBlock reads (through the block cache) and decodes every column
// of block i of sf.
func (st *stream) decodeBlock(sf *segFile, i int) (*chunk.Block, error) {
	return st.decodeBlockMode(sf, i, cacheFill)
}

func (st *stream) decodeBlockMode(sf *segFile, i int, mode cacheMode) (*chunk.Block, error) {
	data, err := st.readBlock(sf, i, mode)
	if err != nil {
		return nil, err
	}
	var dec chunk.Decoder
	blk := new(chunk.Block)
	if err = dec.Reset(data); err == nil {
		err = dec.Block(blk)
	}
	if err != nil {
		return nil, fmt.Errorf("tsq: stream %q: %s block %d: %w", st.name, sf.path, i, err)
	}
	if c := column(blk, colSeq); c == nil || c.Type != chunk.Int64 || column(blk, colTime) == nil {
		return nil, fmt.Errorf("tsq: stream %q: %s block %d: %w: no seq or time column", st.name, sf.path, i, chunk.ErrCorrupt)
	}
	return blk, nil
}

func column(b *chunk.Block, name string) *chunk.Column {
	for i := range b.Columns {
		if b.Columns[i].Name == name {
			return &b.Columns[i]
		}
	}
	return nil
}

// Get returns the record with seq, or an error matching ErrNotFound. It
// decodes only the block holding it, found by binary search of the
// segments' first seqs and then of the segment's block index.
func (s *Store) Get(stream string, seq uint64) (Record, error) {
	st, v, del, err := s.readState(stream)
	if err != nil {
		return Record{}, err
	}
	if del != nil && del.Contains(seq) {
		return Record{}, fmt.Errorf("tsq: stream %q seq %d: soft-deleted: %w", stream, seq, ErrNotFound)
	}
	sf, i, ok := v.locate(seq)
	if !ok {
		return Record{}, fmt.Errorf("tsq: stream %q seq %d: %w", stream, seq, ErrNotFound)
	}
	blk, err := st.decodeBlock(sf, i)
	if err != nil {
		return Record{}, err
	}
	seqs := column(blk, colSeq).Ints
	row := int(seq - sf.blocks[i].MinSeq)
	if row >= len(seqs) || seqs[row] != int64(seq) {
		row = sort.Search(len(seqs), func(k int) bool { return uint64(seqs[k]) >= seq })
		if row == len(seqs) || seqs[row] != int64(seq) {
			return Record{}, fmt.Errorf("tsq: stream %q seq %d: %w", stream, seq, ErrNotFound)
		}
	}
	return RecordAt(blk, row), nil
}

// RecordAt returns row i of a block yielded by Scan as a Record; null
// fields are left out.
func RecordAt(b *chunk.Block, i int) Record {
	var r Record
	for k := range b.Columns {
		c := &b.Columns[k]
		switch c.Name {
		case colSeq:
			r.Seq = uint64(c.Ints[i])
		case colTime:
			r.Time = c.Ints[i]
		case colSeries:
			r.Series = c.StringAt(i)
		case colKey:
			r.Key = c.StringAt(i)
		case colOp:
			r.Op = Op(c.Ints[i])
		default:
			if c.IsNull(i) {
				continue
			}
			r.Fields = append(r.Fields, Field{Name: c.Name, Value: valueAt(c, i)})
		}
	}
	return r
}

func valueAt(c *chunk.Column, i int) Value {
	switch c.Type {
	case chunk.Int64:
		return Int(c.Ints[i])
	case chunk.Float64:
		return Float(c.Floats[i])
	case chunk.String:
		return Str(c.StringAt(i))
	case chunk.Bool:
		return Bool(c.Bools[i])
	case chunk.Bytes:
		return Bytes(append([]byte(nil), c.BytesAt(i)...))
	}
	return Null()
}

// Scan yields the stream's blocks that hold rows in the range, decoded
// and trimmed to the range, in seq order. Segments and blocks outside
// the range are skipped by their seq and time bounds without reading
// them. Each block is the caller's. An error ends the scan.
func (s *Store) Scan(ctx context.Context, stream string, o ScanOptions) iter.Seq2[*chunk.Block, error] {
	return func(yield func(*chunk.Block, error) bool) {
		st, v, del, err := s.readState(stream)
		if err != nil {
			yield(nil, err)
			return
		}
		dels := newDeletedCursor(del)
		slo, shi, tlo, thi := o.bounds()
		for _, sf := range v.segs {
			if sf.firstSeq > shi {
				return
			}
			if len(sf.blocks) == 0 || sf.blocks[len(sf.blocks)-1].MaxSeq < slo {
				continue
			}
			start := sort.Search(len(sf.blocks), func(j int) bool { return sf.blocks[j].MaxSeq >= slo })
			for j := start; j < len(sf.blocks); j++ {
				m := &sf.blocks[j]
				if m.MinSeq > shi {
					return
				}
				if m.Rows == 0 || m.MaxTime < tlo || m.MinTime > thi {
					continue
				}
				if err := ctx.Err(); err != nil {
					yield(nil, err)
					return
				}
				blk, err := st.decodeBlock(sf, j)
				inside := m.MinSeq >= slo && m.MaxSeq <= shi && m.MinTime >= tlo && m.MaxTime <= thi
				if err == nil && !inside {
					blk = trim(blk, slo, shi, tlo, thi)
				}
				if err == nil && dels.any(m.MinSeq, m.MaxSeq) {
					dropDeleted(blk, del)
				}
				if err != nil {
					yield(nil, err)
					return
				}
				if blk.Rows > 0 && !yield(blk, nil) {
					return
				}
			}
		}
	}
}

// trim keeps the rows of b within the seq and time bounds.
func trim(b *chunk.Block, slo, shi uint64, tlo, thi int64) *chunk.Block {
	seqs, times := column(b, colSeq).Ints, column(b, colTime).Ints
	in := func(i int) bool {
		s, t := uint64(seqs[i]), times[i]
		return s >= slo && s <= shi && t >= tlo && t <= thi
	}
	// Most blocks lie wholly inside the range: check before collecting.
	first := 0
	for first < b.Rows && in(first) {
		first++
	}
	if first == b.Rows {
		return b
	}
	keep := make([]int, first, b.Rows)
	for i := range first {
		keep[i] = i
	}
	for i := first + 1; i < b.Rows; i++ {
		if in(i) {
			keep = append(keep, i)
		}
	}
	out := &chunk.Block{Rows: len(keep), Columns: make([]chunk.Column, len(b.Columns))}
	for k := range b.Columns {
		out.Columns[k] = pick(&b.Columns[k], keep)
	}
	return out
}

func pick(c *chunk.Column, keep []int) chunk.Column {
	out := chunk.Column{Name: c.Name, Type: c.Type, Dict: c.Dict,
		Valid: pickOf(c.Valid, keep), Ints: pickOf(c.Ints, keep), Floats: pickOf(c.Floats, keep),
		Bools: pickOf(c.Bools, keep), Codes: pickOf(c.Codes, keep), Strs: pickOf(c.Strs, keep)}
	return out
}

// pickOf returns the entries of s at keep, nil for an empty s.
func pickOf[T any](s []T, keep []int) []T {
	if len(s) == 0 {
		return nil
	}
	out := make([]T, len(keep))
	for j, i := range keep {
		out[j] = s[i]
	}
	return out
}

// Count returns the number of records in the stream that are not
// soft-deleted, from the block indexes and the deleted bitmap: only a
// block that holds soft-deleted seqs and whose seqs are not consecutive
// (rows removed by compaction) has its seq column decoded.
func (s *Store) Count(stream string) (int, error) {
	st, v, del, err := s.readState(stream)
	if err != nil {
		return 0, err
	}
	n, err := st.visibleRows(v, del)
	return int(n), err
}

// OldestIDs returns the seqs of the n oldest records (lowest seqs) that
// are not soft-deleted, from the block indexes and the deleted bitmap.
func (s *Store) OldestIDs(stream string, n int) ([]uint64, error) {
	st, v, del, err := s.readState(stream)
	if err != nil {
		return nil, err
	}
	dels := newDeletedCursor(del)
	var out []uint64
	for _, sf := range v.segs {
		for j := range sf.blocks {
			if len(out) >= n {
				return out, nil
			}
			m := &sf.blocks[j]
			if m.Rows == 0 {
				continue
			}
			hit := dels.any(m.MinSeq, m.MaxSeq)
			if contiguous(m) {
				for q := m.MinSeq; q <= m.MaxSeq && len(out) < n; q++ {
					if !hit || !del.Contains(q) {
						out = append(out, q)
					}
				}
				continue
			}
			seqs, _, err := st.seqTimes(sf, j, false)
			if err != nil {
				return nil, err
			}
			for _, q := range seqs {
				if len(out) < n && (!hit || !del.Contains(uint64(q))) {
					out = append(out, uint64(q))
				}
			}
		}
	}
	return out, nil
}

// IDsOlderThan returns, in seq order, the seqs of the records whose time
// is before t and that are not soft-deleted. A block whose MaxTime < t
// contributes its seq range from the index, less the deleted bitmap; only
// a block straddling t has its seq and time columns decoded.
func (s *Store) IDsOlderThan(stream string, t int64) ([]uint64, error) {
	st, v, del, err := s.readState(stream)
	if err != nil {
		return nil, err
	}
	dels := newDeletedCursor(del)
	var out []uint64
	for _, sf := range v.segs {
		for j := range sf.blocks {
			m := &sf.blocks[j]
			if m.Rows == 0 || m.MinTime >= t {
				continue
			}
			hit := dels.any(m.MinSeq, m.MaxSeq)
			if m.MaxTime < t && contiguous(m) {
				for q := m.MinSeq; ; q++ {
					if !hit || !del.Contains(q) {
						out = append(out, q)
					}
					if q == m.MaxSeq {
						break
					}
				}
				continue
			}
			seqs, times, err := st.seqTimes(sf, j, true)
			if err != nil {
				return nil, err
			}
			for k, q := range seqs {
				if times[k] < t && (!hit || !del.Contains(uint64(q))) {
					out = append(out, uint64(q))
				}
			}
		}
	}
	return out, nil
}

func contiguous(m *seg.BlockMeta) bool { return m.MaxSeq-m.MinSeq == uint64(m.Rows-1) }

// seqTimes decodes only the seq (and time) columns of a block.
func (st *stream) seqTimes(sf *segFile, i int, withTime bool) (seqs, times []int64, err error) {
	data, err := st.readBlock(sf, i, cacheFill)
	if err != nil {
		return nil, nil, err
	}
	var dec chunk.Decoder
	var sc, tc chunk.Column
	if err = dec.Reset(data); err == nil {
		err = decodeNamed(&dec, colSeq, &sc)
	}
	if err == nil && withTime {
		err = decodeNamed(&dec, colTime, &tc)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("tsq: stream %q: %s block %d: %w", st.name, sf.path, i, err)
	}
	return sc.Ints, tc.Ints, nil
}

func decodeNamed(dec *chunk.Decoder, name string, dst *chunk.Column) error {
	k := dec.Find(name)
	if k < 0 || dec.Info(k).Type != chunk.Int64 {
		return fmt.Errorf("%w: no int64 %s column", chunk.ErrCorrupt, name)
	}
	return dec.Column(k, dst)
}
