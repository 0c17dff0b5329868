package query

import (
	"fmt"
	"slices"
	"sync"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/tsqdb/tsq/chunk"
)

// A stream lists a series (SHOW SERIES, Store.Series) while it holds a
// put of the series that is neither soft-deleted nor older than the
// series' latest drop: a dropped series leaves the list at once, though
// its drop (a tombstone, which compaction keeps) still names it, and
// comes back with its next put; so does a series whose puts are all
// soft-deleted. A series whose keyed puts were all deleted by record
// tombstones stays listed until compaction removes them.

// seriesSeqs is what a segment holds of a series: the highest seq of a
// put (not soft-deleted) and of a drop, 0 for none.
type seriesSeqs struct{ put, drop uint64 }

// segSeries caches seriesSeqs of the first n blocks of a segment that
// holds no soft-deleted seq, like schemaCache.
type segSeries struct {
	n       int
	lastCRC uint32
	seqs    map[string]seriesSeqs
}

var seriesCache struct {
	sync.Mutex
	m map[string]*segSeries
}

// maxCachedSeries bounds the series cached for one segment; a segment
// with more is read again each time.
const maxCachedSeries = 1 << 16

// Series returns up to limit series of a source, sorted (limit <= 0:
// all): those with a put after their latest drop that is not
// soft-deleted. Only the series, seq and op columns of each block are
// decoded, once per segment: what a segment without soft-deleted seqs
// holds is cached by Segment.Key.
func Series(src Source, limit int) ([]string, error) {
	all := map[string]seriesSeqs{}
	del := src.Deleted()
	if del != nil && del.IsEmpty() {
		del = nil
	}
	var sr seriesReader
	for _, sg := range src.Segments() {
		blocks := sg.Blocks()
		key := sg.Key()
		// Soft deletes change without the segment: a segment holding
		// a soft-deleted seq is read whole, and not cached.
		deleted := false
		if del != nil {
			for i := range blocks {
				if blocks[i].Rows > 0 && deletedIn(del, blocks[i].MinSeq, blocks[i].MaxSeq) {
					deleted = true
					break
				}
			}
		}
		cacheable := key != "" && !deleted
		start := 0
		seqs := map[string]seriesSeqs{}
		if cacheable {
			seriesCache.Lock()
			cached := seriesCache.m[key]
			seriesCache.Unlock()
			if cached != nil && cached.n > 0 && cached.n <= len(blocks) && blocks[cached.n-1].CRC == cached.lastCRC {
				start = cached.n
				for s, q := range cached.seqs {
					seqs[s] = q
				}
			}
		}
		for i := start; i < len(blocks); i++ {
			if blocks[i].Rows == 0 {
				continue
			}
			data, err := sg.ReadBlock(i)
			if err != nil {
				return nil, err
			}
			if err := sr.add(data, del, seqs); err != nil {
				return nil, fmt.Errorf("query: segment %s block %d: %w", sg.Name(), i, err)
			}
		}
		if cacheable && len(blocks) > 0 && len(seqs) <= maxCachedSeries && start < len(blocks) {
			seriesCache.Lock()
			if seriesCache.m == nil || len(seriesCache.m) >= maxSchemaCache {
				seriesCache.m = map[string]*segSeries{}
			}
			seriesCache.m[key] = &segSeries{n: len(blocks), lastCRC: blocks[len(blocks)-1].CRC, seqs: seqs}
			seriesCache.Unlock()
		}
		for s, q := range seqs {
			a := all[s]
			all[s] = seriesSeqs{put: max(a.put, q.put), drop: max(a.drop, q.drop)}
		}
	}
	out := make([]string, 0, len(all))
	for s, q := range all {
		if q.put > q.drop {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// seriesReader reads blocks' series, seq and op columns.
type seriesReader struct {
	dec             chunk.Decoder
	series, seq, op chunk.Column
	puts, drops     []uint64 // per dictionary entry of the block
}

// add merges into seqs what the block data holds of each series, puts in
// del left out. A block without seq or op columns (a file's) holds puts
// only.
func (r *seriesReader) add(data []byte, del *roaring64.Bitmap, seqs map[string]seriesSeqs) error {
	d := &r.dec
	if err := d.Reset(data); err != nil {
		return err
	}
	k := d.Find(ColSeries)
	if k < 0 {
		return fmt.Errorf("%w: no series column", chunk.ErrCorrupt)
	}
	if err := d.Column(k, &r.series); err != nil {
		return err
	}
	var seq, op []int64
	if k := d.Find(ColSeq); k >= 0 {
		if err := d.Column(k, &r.seq); err != nil {
			return err
		}
		seq = r.seq.Ints
	}
	if k := d.Find(ColOp); k >= 0 {
		if err := d.Column(k, &r.op); err != nil {
			return err
		}
		op = r.op.Ints
	}
	c := &r.series
	// Per dictionary entry (or per row of a plain column), then by name.
	n := c.Dict.Len()
	if c.Strs != nil {
		n = len(c.Strs)
	}
	r.puts = append(r.puts[:0], make([]uint64, n)...)
	r.drops = append(r.drops[:0], make([]uint64, n)...)
	for row := range d.Rows() {
		if c.IsNull(row) {
			continue
		}
		e := row
		if c.Strs == nil {
			e = int(c.Codes[row])
		}
		q := uint64(1) // a put of a block without seqs
		if seq != nil {
			q = uint64(seq[row])
		}
		switch {
		case op != nil && op[row] == opDrop:
			r.drops[e] = max(r.drops[e], q)
		case op == nil || op[row] == opPut:
			if del == nil || !del.Contains(q) {
				r.puts[e] = max(r.puts[e], q)
			}
		}
	}
	for e := range n {
		if r.puts[e] == 0 && r.drops[e] == 0 {
			continue
		}
		var name string
		if c.Strs != nil {
			name = c.Strs[e]
		} else {
			name = string(c.Dict.At(e))
		}
		a := seqs[name]
		seqs[name] = seriesSeqs{put: max(a.put, r.puts[e]), drop: max(a.drop, r.drops[e])}
	}
	return nil
}
