package compact

import (
	"context"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/seg"
)

// decider says which rows of a chunk drop.
type decider struct {
	snap     *Snapshot
	chunkEnd uint64            // rows above are kept
	wStart   uint64            // the watermark the pass started from
	deleted  *roaring64.Bitmap // soft-deleted seqs, nil if none
}

// decide returns why row i of r drops, if it does.
func (d *decider) decide(r *rows, i int) (Reason, bool) {
	seq := uint64(r.seq[i])
	if seq > d.chunkEnd {
		return 0, false
	}
	if d.deleted != nil && d.deleted.Contains(seq) {
		// A soft-deleted sample supersedes nothing; any other row may
		// still supersede rows not yet removed unless it lies at or
		// below the watermark the pass started from.
		if (r.op[i] == OpPut && r.key[i] == "") || seq <= d.wStart {
			return ReasonSoftDelete, true
		}
	}
	return d.snap.ShouldDrop(seq, r.series[i], r.key[i], uint8(r.op[i]), &r.pair)
}

// absent appends the soft-deleted seqs within block m's envelope (up to
// the chunk end) that its rows (seqs, in order) do not hold: rows a
// rewrite removed before a crash kept their seqs from leaving the
// deleted bitmap.
func (d *decider) absent(dst []uint64, m *seg.BlockMeta, seqs []int64) []uint64 {
	if d.deleted == nil {
		return dst
	}
	hi := min(m.MaxSeq, d.chunkEnd)
	it := d.deleted.Iterator()
	it.AdvanceIfNeeded(m.MinSeq)
	k := 0
	for it.HasNext() && it.PeekNext() <= hi {
		q := it.Next()
		for k < len(seqs) && uint64(seqs[k]) < q {
			k++
		}
		if k == len(seqs) || uint64(seqs[k]) != q {
			dst = append(dst, q)
		}
	}
	return dst
}

// segResult is what processing one segment did.
type segResult struct {
	rewritten bool
	dropped   [numReasons]int64
	gone      []uint64 // soft-deleted seqs removed
	goneSup   []uint64 // superseded seqs removed
	absent    []uint64 // soft-deleted seqs no longer in the file (a crash after an earlier rewrite)
	readBytes int64
	wrote     int64
}

// blockPlan lists the rows of a block that drop, in order.
type blockPlan struct {
	drop []int32
}

// processSegment decides the drops of segment path and, if any row
// drops, rewrites it crash-safely keeping its block topology. A clean
// segment is left untouched.
func processSegment(ctx context.Context, cfg *Config, path string, d *decider, budget *byteSem) (res segResult, err error) {
	r, err := seg.Open(cfg.FS, path)
	if err != nil {
		return res, err
	}
	defer func() {
		if cerr := r.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	blocks := r.Blocks()
	plans := make([]blockPlan, len(blocks))
	var dec chunk.Decoder
	var rw rows
	var buf []byte
	any := false
	for i := range blocks {
		m := &blocks[i]
		if m.MinSeq > d.chunkEnd {
			continue
		}
		if m.Rows == 0 {
			res.absent = d.absent(res.absent, m, nil)
			continue
		}
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if buf, err = r.ReadBlock(i, buf); err != nil {
			return res, err
		}
		res.readBytes += int64(len(buf))
		if err := decodeRows(&dec, buf, &rw); err != nil {
			return res, fmt.Errorf("compact: %s block %d: %w", path, i, err)
		}
		res.absent = d.absent(res.absent, m, rw.seq)
		for k := range rw.n {
			if why, ok := d.decide(&rw, k); ok {
				plans[i].drop = append(plans[i].drop, int32(k))
				res.dropped[why]++
				q := uint64(rw.seq[k])
				if why != ReasonSoftDelete {
					res.goneSup = append(res.goneSup, q)
				}
				// A soft-deleted row dropped as superseded leaves the
				// deleted bitmap too.
				if why == ReasonSoftDelete || (d.deleted != nil && d.deleted.Contains(q)) {
					res.gone = append(res.gone, q)
				}
				any = true
			}
		}
	}
	if !any {
		return res, nil
	}
	fi, err := cfg.FS.Stat(path)
	if err != nil {
		return res, err
	}
	if err := budget.acquire(ctx, fi.Size()); err != nil {
		return res, err
	}
	defer budget.release(fi.Size())
	rwr := rewriter{r: r, blocks: blocks, plans: plans}
	var hooks *seg.CrashHooks
	if cfg.Crash != nil {
		hooks = &seg.CrashHooks{At: func(p seg.CrashPoint) error { return cfg.Crash(Point(p)) }}
	}
	if err := seg.Rewrite(cfg.FS, path, rwr.run, hooks); err != nil {
		return res, err
	}
	res.rewritten, res.wrote = true, rwr.wrote
	res.readBytes += rwr.read
	return res, nil
}

// rewriter writes the blocks of a segment, minus the planned drops.
type rewriter struct {
	r      *seg.Reader
	blocks []seg.BlockMeta
	plans  []blockPlan
	dec    chunk.Decoder
	enc    chunk.Encoder
	buf    []byte
	out    []byte
	rw     rows
	read   int64
	wrote  int64
}

func (x *rewriter) run(w *seg.Writer) error {
	for i := range x.blocks {
		m := x.blocks[i] // historical envelope: seq and time bounds kept
		var err error
		if m.Rows == 0 {
			if err := w.Append(nil, seg.BlockMeta{MinSeq: m.MinSeq, MaxSeq: m.MaxSeq, MinTime: m.MinTime, MaxTime: m.MaxTime}); err != nil {
				return err
			}
			continue
		}
		if x.buf, err = x.r.ReadBlock(i, x.buf); err != nil {
			return err
		}
		x.read += int64(len(x.buf))
		drop := x.plans[i].drop
		meta := seg.BlockMeta{Rows: m.Rows, MinSeq: m.MinSeq, MaxSeq: m.MaxSeq, MinTime: m.MinTime, MaxTime: m.MaxTime}
		if len(drop) == 0 {
			if err := x.addSeries(w, i); err != nil {
				return err
			}
			x.wrote += int64(len(x.buf))
			if err := w.Append(x.buf, meta); err != nil {
				return err
			}
			continue
		}
		block, rows, err := x.filter(w, i, drop)
		if err != nil {
			return err
		}
		meta.Rows = rows
		x.wrote += int64(len(block))
		if err := w.Append(block, meta); err != nil {
			return err
		}
	}
	return nil
}

// addSeries adds the series of block i (in x.buf) to the new bloom.
func (x *rewriter) addSeries(w *seg.Writer, i int) error {
	if err := x.dec.Reset(x.buf); err != nil {
		return err
	}
	k := x.dec.Find(colSeries)
	if k < 0 {
		return fmt.Errorf("%w: block %d has no series column", chunk.ErrCorrupt, i)
	}
	if err := x.dec.Column(k, &x.rw.sc); err != nil {
		return err
	}
	c := &x.rw.sc
	if c.Strs != nil {
		for _, s := range c.Strs {
			w.AddSeries(s)
		}
		return nil
	}
	for j := range c.Dict.Len() {
		w.AddSeries(string(c.Dict.At(j)))
	}
	return nil
}

// filter re-encodes block i (in x.buf) without the rows drop lists and
// returns the new block (nil if no row is left) and its rows.
func (x *rewriter) filter(w *seg.Writer, i int, drop []int32) ([]byte, int, error) {
	var blk chunk.Block
	if err := x.dec.Reset(x.buf); err != nil {
		return nil, 0, err
	}
	if err := x.dec.Block(&blk); err != nil {
		return nil, 0, fmt.Errorf("block %d: %w", i, err)
	}
	keep := make([]int, 0, blk.Rows-len(drop))
	for r, d := 0, 0; r < blk.Rows; r++ {
		if d < len(drop) && int(drop[d]) == r {
			d++
			continue
		}
		keep = append(keep, r)
	}
	if len(keep) == 0 {
		return nil, 0, nil
	}
	out := chunk.Block{Rows: len(keep), Columns: make([]chunk.Column, len(blk.Columns))}
	for k := range blk.Columns {
		out.Columns[k] = pick(&blk.Columns[k], keep)
		if blk.Columns[k].Name == colSeries {
			c := &out.Columns[k]
			for r := range len(keep) {
				w.AddSeries(c.StringAt(r))
			}
		}
	}
	var err error
	if x.out, err = x.enc.Append(x.out[:0], &out, nil); err != nil {
		return nil, 0, fmt.Errorf("block %d: %w", i, err)
	}
	return x.out, len(keep), nil
}

func pick(c *chunk.Column, keep []int) chunk.Column {
	return chunk.Column{Name: c.Name, Type: c.Type, Dict: c.Dict,
		Valid: pickOf(c.Valid, keep), Ints: pickOf(c.Ints, keep), Floats: pickOf(c.Floats, keep),
		Bools: pickOf(c.Bools, keep), Codes: pickOf(c.Codes, keep), Strs: pickOf(c.Strs, keep)}
}

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
