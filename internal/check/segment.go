package check

import (
	"fmt"
	"path/filepath"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// checkSegment checks one segment file and adds what it finds to rep.
// seg.Open checks the header and, for a sealed segment, the footer, index
// and bloom CRCs; seg.Reader.Verify each frame header against the index and
// each block's CRC; here every block is also decoded whole and its rows
// compared with the index, and every series it holds looked up in the bloom.
func checkSegment(fsys vfs.FS, dir string, s Segment, rep *Report) {
	rel, err := filepath.Rel(dir, s.Path)
	if err != nil {
		rel = s.Path
	}
	add := func(ps ...Problem) { rep.Problems = append(rep.Problems, ps...) }
	r, err := seg.Open(fsys, s.Path)
	if err != nil {
		add(problemsOf(rel, err)...)
		return
	}
	defer r.Close()
	rep.Segments++
	if h := r.Header(); h.Stream != s.Stream {
		add(Problem{File: rel, Section: "segment header", Offset: 0,
			Msg: fmt.Sprintf("names stream %q but lies in the directory of stream %q", h.Stream, s.Stream)})
	}
	if err := r.Verify(); err != nil {
		add(problemsOf(rel, err)...)
	}
	var (
		buf []byte
		dec chunk.Decoder
		blk chunk.Block
	)
	blocks := r.Blocks()
	var ss segSeqs // for the journal check
	for i := range blocks {
		if m := &blocks[i]; m.MaxSeq > 0 { // not an empty frame
			if ss.blocks == 0 || m.MinSeq < ss.min {
				ss.min = m.MinSeq
			}
			ss.max = max(ss.max, m.MaxSeq)
			ss.blocks++
		}
	}
	if rep.seqs != nil {
		rep.seqs[s.Path] = ss
	}
	for i := range blocks {
		m := &blocks[i]
		rep.Blocks++
		rep.Rows += int64(m.Rows)
		buf, err = r.ReadBlock(i, buf)
		if err != nil {
			continue // Verify reported it
		}
		if len(buf) == 0 {
			continue // an empty frame
		}
		sec := fmt.Sprintf("block %d", i)
		body := m.Offset + seg.FrameHeaderLen
		if err := dec.Reset(buf); err != nil {
			add(problemsOf(rel, relocate(err, sec, body))...)
			continue
		}
		if err := dec.Block(&blk); err != nil {
			add(problemsOf(rel, relocate(err, sec, body))...)
			continue
		}
		for _, p := range blockAgainstIndex(&blk, m) {
			add(Problem{File: rel, Section: sec, Offset: m.Offset, Msg: p})
		}
		if r.Sealed() {
			if name, ok := missingSeries(&blk, r); !ok {
				add(Problem{File: rel, Section: "bloom", Offset: -1,
					Msg: fmt.Sprintf("series %q of block %d is not in the bloom filter", name, i)})
			}
			if key, ok := keyOutsideSpan(&blk, r, i); !ok {
				add(Problem{File: rel, Section: "key spans", Offset: -1,
					Msg: fmt.Sprintf("key %q of block %d lies outside its key span: a query for it would skip the block", key, i)})
			}
		}
	}
}

// relocate places a chunk decode error inside its block's file position.
func relocate(err error, section string, base int64) error {
	if ce, ok := asCorruption(err); ok {
		c := *ce
		c.Section = section + ": " + c.Section
		c.Offset += base
		return &c
	}
	return fmt.Errorf("%s: %w", section, err)
}

// blockAgainstIndex compares a decoded block's rows, seqs and times with
// its index entry.
func blockAgainstIndex(b *chunk.Block, m *seg.BlockMeta) []string {
	var out []string
	if b.Rows != m.Rows {
		out = append(out, fmt.Sprintf("block holds %d rows, the index says %d", b.Rows, m.Rows))
	}
	if c := column(b, "seq"); c != nil && c.Type == chunk.Int64 && b.Rows > 0 {
		lo, hi, ok := intRange(c.Ints[:b.Rows])
		if uint64(lo) != m.MinSeq || uint64(hi) != m.MaxSeq {
			out = append(out, fmt.Sprintf("seqs run %d..%d, the index says %d..%d", uint64(lo), uint64(hi), m.MinSeq, m.MaxSeq))
		}
		if !ok {
			out = append(out, "seqs are not strictly increasing")
		}
	}
	if c := column(b, "time"); c != nil && c.Type == chunk.Int64 && b.Rows > 0 {
		lo, hi := minMax(c.Ints[:b.Rows])
		if lo != m.MinTime || hi != m.MaxTime {
			out = append(out, fmt.Sprintf("times run %d..%d, the index says %d..%d", lo, hi, m.MinTime, m.MaxTime))
		}
	}
	return out
}

// missingSeries returns a series of b that the bloom filter of r denies.
func missingSeries(b *chunk.Block, r *seg.Reader) (string, bool) {
	c := column(b, "series")
	if c == nil || (c.Type != chunk.String && c.Type != chunk.Bytes) {
		return "", true
	}
	seen := map[string]bool{}
	for i := 0; i < b.Rows; i++ {
		if c.IsNull(i) {
			continue
		}
		s := c.StringAt(i)
		if seen[s] {
			continue
		}
		seen[s] = true
		if !r.MayContainSeries(s) {
			return s, false
		}
	}
	return "", true
}

// keyOutsideSpan returns a key of b that block i's key span (and so the
// segment's) denies.
func keyOutsideSpan(b *chunk.Block, r *seg.Reader, i int) (string, bool) {
	c := column(b, "key")
	if c == nil || (c.Type != chunk.String && c.Type != chunk.Bytes) {
		return "", true
	}
	span, all := r.BlockKeys(i), r.Keys()
	for j := 0; j < b.Rows; j++ {
		if c.IsNull(j) {
			continue
		}
		if k := c.BytesAt(j); len(k) > 0 && (!span.MayHold(k) || !all.MayHold(k)) {
			return string(k), false
		}
	}
	return "", true
}

func column(b *chunk.Block, name string) *chunk.Column {
	for i := range b.Columns {
		if b.Columns[i].Name == name {
			return &b.Columns[i]
		}
	}
	return nil
}

// intRange returns the first and last value and whether v strictly
// increases (seqs are stored as int64 bit patterns).
func intRange(v []int64) (first, last int64, increasing bool) {
	increasing = true
	for i := 1; i < len(v); i++ {
		if uint64(v[i]) <= uint64(v[i-1]) {
			increasing = false
		}
	}
	return v[0], v[len(v)-1], increasing
}

func minMax(v []int64) (lo, hi int64) {
	lo, hi = v[0], v[0]
	for _, x := range v[1:] {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}
