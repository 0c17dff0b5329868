package compact

import (
	"bytes"
	"context"
	"fmt"
	"math/bits"
	"sync"

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
	retained *roaring64.Bitmap // those of them retention deleted, nil if none
}

// counted is the reason a row dropped for why is counted under: a soft
// delete of retention's apart.
func (d *decider) counted(why Reason, seq uint64) Reason {
	if why == ReasonSoftDelete && d.retained != nil && d.retained.Contains(seq) {
		return ReasonRetention
	}
	return why
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
	meta      seg.Meta // the new file's, when rewritten
	dropped   [numReasons]int64
	gone      []uint64 // soft-deleted seqs removed
	goneSup   []uint64 // superseded seqs removed
	absent    []uint64 // soft-deleted seqs no longer in the file (a crash after an earlier rewrite)
	readBytes int64
	wrote     int64 // the new file's bytes
}

// blockPlan lists the rows of a block that drop, in order.
type blockPlan struct {
	drop    []int32
	scanned bool // decided; its kept series are in the segment's set
	// enc, if not nil, is the block already re-encoded without its
	// drops (encRows rows), by the single-chunk fold.
	enc     []byte
	encRows int
	encBuf  []byte // the buffer enc was written in (see release)
	// held bytes of heldBy are reserved for enc until it is written.
	held   int64
	heldBy *heldBytes
}

// blockBufs recycles the buffers of re-encoded blocks once written, a
// pool per size class (bufClass), so that the buffer a block takes is
// one a block of about its size returned: a single pool hands out
// buffers too small for the next block, which then allocates, and the
// fresh memory a pass touches costs more than its allocation (the page
// faults of first touch).
var blockBufs [4 * 64]sync.Pool

// bufClass returns the size class of a buffer of at least n bytes and
// its capacity: the least of 4·2^e, 5·2^e, 6·2^e, 7·2^e at or above n
// (at most a quarter wasted), 4 KiB at the least.
func bufClass(n int) (class, size int) {
	n = max(n, 4<<10)
	e := bits.Len(uint(n)) - 3 // 4·2^e <= n < 8·2^e
	m := (n + 1<<e - 1) >> e   // 4..8
	if m == 8 {
		e, m = e+1, 4
	}
	return 4*e + m - 4, m << e
}

// blockBuf returns an empty buffer of capacity at least n.
func blockBuf(n int) []byte {
	c, size := bufClass(n)
	if b, ok := blockBufs[c].Get().(*[]byte); ok {
		return (*b)[:0]
	}
	return make([]byte, 0, size)
}

// release drops the re-encoded block, written, and recycles its buffer
// if it is still the block's array.
func (p *blockPlan) release() {
	if b := p.encBuf; cap(b) > 0 && cap(p.enc) > 0 && &b[:cap(b)][cap(b)-1] == &p.enc[:cap(p.enc)][cap(p.enc)-1] {
		if c, size := bufClass(cap(b)); size == cap(b) {
			blockBufs[c].Put(&b)
		}
	}
	p.enc, p.encBuf = nil, nil
	if p.heldBy != nil {
		p.heldBy.release(p.held)
		p.held, p.heldBy = 0, nil
	}
}

// scanner decides the drops of a segment's blocks and collects what the
// result and the new bloom need.
type scanner struct {
	d     *decider
	res   *segResult
	plans []blockPlan
	kept  map[string]struct{} // series of the kept rows: the new bloom's
	codes []int32             // scratch of keptSeries
	// keys are the rewritten blocks' key spans: the old block's when
	// known (it bounds the kept keyed rows too, and costs nothing); else
	// (tracked) the kept keyed rows' own, gathered as the block is
	// decided.
	keys    []seg.KeySpan
	tracked []bool // nil: every block's span is known
	// readyCh[i] is closed once block i's plan is final, when the
	// rewrite runs while the blocks are still being decided
	// (phaseDecide: see await); nil otherwise. wait waits for it.
	// settled is then closed once the fold is done with the segment (its
	// blocks decided and re-encoded, or the fold stopped): a rewrite
	// that fails early waits for it before it writes the result.
	readyCh []chan struct{}
	wait    func(i int) error
	settled chan struct{}
}

// newScanner returns the scanner of the segment r, whose blocks are
// blocks.
func newScanner(d *decider, res *segResult, r *seg.Reader, blocks []seg.BlockMeta) *scanner {
	sc := &scanner{d: d, res: res, plans: make([]blockPlan, len(blocks)), kept: map[string]struct{}{}, keys: make([]seg.KeySpan, len(blocks))}
	for i := range blocks {
		if sc.keys[i] = r.BlockKeys(i); !sc.keys[i].Known() {
			if sc.tracked == nil {
				sc.tracked = make([]bool, len(blocks))
			}
			sc.keys[i], sc.tracked[i] = seg.KeySpan{}, true
		}
	}
	return sc
}

// tracks reports whether block i's key span is gathered from its rows.
func (sc *scanner) tracks(i int) bool { return sc.tracked != nil && sc.tracked[i] }

// setKeys tells w the key span of each rewritten block.
func (sc *scanner) setKeys(w *seg.Writer) {
	for i := range sc.keys {
		w.SetBlockKeys(i, &sc.keys[i])
	}
}

// inChunk reports whether block m may hold a row the chunk drops.
func (sc *scanner) inChunk(m *seg.BlockMeta) bool { return m.MinSeq <= sc.d.chunkEnd }

// decide plans block i (meta m, record columns rw) and reports whether a
// row drops.
func (sc *scanner) decide(i int, m *seg.BlockMeta, rw *rows) bool {
	d, res, p := sc.d, sc.res, &sc.plans[i]
	res.absent = d.absent(res.absent, m, rw.seq)
	for k := range rw.n {
		if why, ok := d.decide(rw, k); ok {
			p.drop = append(p.drop, int32(k))
			q := uint64(rw.seq[k])
			res.dropped[d.counted(why, q)]++
			if why != ReasonSoftDelete {
				res.goneSup = append(res.goneSup, q)
			}
			// A soft-deleted row dropped as superseded leaves the
			// deleted bitmap too.
			if why == ReasonSoftDelete || (d.deleted != nil && d.deleted.Contains(q)) {
				res.gone = append(res.gone, q)
			}
		}
	}
	sc.codes = keptSeries(&rw.sc, p.drop, sc.codes, sc.kept)
	if sc.tracks(i) {
		keptKeys(rw, p.drop, &sc.keys[i])
	}
	p.scanned = true
	return len(p.drop) > 0
}

// keptKeys widens span to the keys of the block's keyed rows (rw) not
// listed in drop (ascending).
func keptKeys(rw *rows, drop []int32, span *seg.KeySpan) {
	var lo, hi []byte
	d := 0
	for k := range rw.n {
		if d < len(drop) && int(drop[d]) == k {
			d++
			continue
		}
		switch key := rw.keyAt(k); {
		case len(key) == 0:
		case lo == nil:
			lo, hi = key, key
		case bytes.Compare(key, hi) > 0:
			hi = key
		case bytes.Compare(key, lo) < 0:
			lo = key
		}
	}
	if lo != nil {
		span.Add(lo)
		span.Add(hi)
	}
}

// processSegment decides the drops of segment path and, if any row
// drops, rewrites it crash-safely keeping its block topology. A clean
// segment is left untouched. The blocks are scanned (record columns
// only) up to the first with a drop; the rewrite then decides each later
// block as it goes, decoding each column at most once.
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
	sc := newScanner(d, &res, r, blocks)
	var dec chunk.Decoder
	var rw rows
	var buf []byte
	first := -1
	for i := range blocks {
		m := &blocks[i]
		if !sc.inChunk(m) {
			continue
		}
		if m.Rows == 0 {
			res.absent = d.absent(res.absent, m, nil)
			sc.plans[i].scanned = true
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
		if sc.decide(i, m, &rw) {
			first = i
			break
		}
	}
	if first < 0 {
		return res, nil
	}
	err = rewriteSegment(ctx, cfg, path, r, blocks, sc, budget)
	return res, err
}

// rewriteSegment rewrites the segment path (open as r, its blocks
// blocks) without the rows sc plans to drop, deciding the blocks in the
// chunk sc has not scanned yet, and fills sc.res.
func rewriteSegment(ctx context.Context, cfg *Config, path string, r *seg.Reader, blocks []seg.BlockMeta, sc *scanner, budget *byteSem) error {
	fi, err := cfg.FS.Stat(path)
	if err != nil {
		return err
	}
	if err := budget.acquire(ctx, fi.Size()); err != nil {
		return err
	}
	defer budget.release(fi.Size())
	rwr := rewriter{ctx: ctx, path: path, r: r, blocks: blocks, sc: sc, helpers: cfg.Workers}
	var hooks *seg.CrashHooks
	if cfg.Crash != nil {
		hooks = &seg.CrashHooks{At: func(p seg.CrashPoint) error { return cfg.Crash(Point(p)) }}
	}
	rewrite := seg.RewriteDropBehind
	switch cfg.Writes {
	case WritesCached:
		rewrite = seg.Rewrite
	case WritesDirect:
		rewrite = seg.RewriteDirect
	}
	var w *seg.Writer
	err = rewrite(cfg.FS, path, func(nw *seg.Writer) error {
		w = nw
		return rwr.run(nw)
	}, hooks)
	if sc.settled != nil {
		<-sc.settled
	}
	sc.res.readBytes += rwr.read
	if err != nil {
		return err
	}
	// The new file's metadata as written: reading it back would wait
	// for the device (its pages left the cache as they were written
	// back), behind the writeback of the next segment's rewrite.
	sc.res.rewritten, sc.res.meta = true, w.Meta()
	// Everything the rewrite wrote: header, blocks, index, bloom, footer.
	sc.res.wrote = sc.res.meta.Size
	return nil
}

// keptSeries adds to set the series of the rows of a block's series
// column sc not listed in drop (ascending), each dictionary entry once;
// kept is scratch, returned for reuse.
func keptSeries(sc *chunk.Column, drop []int32, kept []int32, set map[string]struct{}) []int32 {
	if sc.Strs != nil { // not what decoding yields; handled for safety
		for r, s := range sc.Strs {
			if !dropped(drop, r) {
				set[s] = struct{}{}
			}
		}
		return kept
	}
	kept = keptCodes(sc, drop, kept)
	addKept(sc, kept, set)
	return kept
}

// keptCodes returns in kept, for each entry of the dictionary of sc (a
// decoded series column: Dict and Codes), how many rows not listed in
// drop hold it.
func keptCodes(sc *chunk.Column, drop []int32, kept []int32) []int32 {
	n := sc.Dict.Len()
	kept = append(kept[:0], make([]int32, n)...)
	if sc.Valid == nil {
		for _, c := range sc.Codes {
			if uint(c) < uint(n) {
				kept[c]++
			}
		}
		for _, r := range drop {
			if c := sc.Codes[r]; uint(c) < uint(n) {
				kept[c]--
			}
		}
		return kept
	}
	d := 0
	for r, c := range sc.Codes {
		if d < len(drop) && int(drop[d]) == r {
			d++
			continue
		}
		if !sc.IsNull(r) && uint(c) < uint(n) {
			kept[c]++
		}
	}
	return kept
}

// addKept adds to set each entry of the dictionary of sc that kept
// (keptCodes) counts rows of.
func addKept(sc *chunk.Column, kept []int32, set map[string]struct{}) {
	for c, k := range kept {
		if k > 0 {
			if _, ok := set[string(sc.Dict.At(c))]; !ok {
				set[string(sc.Dict.At(c))] = struct{}{}
			}
		}
	}
}

func dropped(drop []int32, r int) bool {
	for _, d := range drop {
		if int(d) == r {
			return true
		}
	}
	return false
}

// rewriter writes the blocks of a segment, minus the planned drops:
// blocks without drops as their frames' bytes (copied, see copyFrames,
// when decided already), emptied blocks as 0-row frames, others
// re-encoded with the encodings their columns had
// (chunk.Encoder.EncodeFiltered: no candidate search). Blocks in the chunk not
// yet scanned are decided here from their record columns, and only a
// block that loses rows has its other columns decoded.
type rewriter struct {
	filterer
	ctx     context.Context
	path    string
	r       *seg.Reader
	blocks  []seg.BlockMeta
	sc      *scanner
	col     chunk.Column
	read    int64
	helpers int // goroutines re-encoding blocks (see runParallel)
}

// filterer re-encodes blocks without some rows; it holds the scratch
// space.
type filterer struct {
	encScratch
	dec chunk.Decoder
	rw  rows
	buf []byte
}

func (x *rewriter) run(w *seg.Writer) error {
	if x.sc.wait == nil && x.helpers > 1 && x.allScanned() && x.toFilter() {
		return x.runParallel(w)
	}
	from := -1 // first of the copyable blocks before i, if any
	for i := range x.blocks {
		if x.sc.wait != nil {
			// The copyable blocks before a block not yet decided are
			// copied while it is: the file's writes, and their
			// writeback, follow the decisions instead of waiting for
			// the end of a run of copyable blocks.
			if from >= 0 && !x.sc.isReady(i) {
				if err := x.copyFrames(w, from, i); err != nil {
					return err
				}
				from = -1
			}
			if err := x.sc.wait(i); err != nil {
				return err
			}
		}
		if x.copyable(i) {
			if from < 0 {
				from = i
			}
			continue
		}
		if err := x.copyFrames(w, from, i); err != nil {
			return err
		}
		from = -1
		m := x.blocks[i] // historical envelope: seq and time bounds kept
		p := &x.sc.plans[i]
		empty := seg.BlockMeta{MinSeq: m.MinSeq, MaxSeq: m.MaxSeq, MinTime: m.MinTime, MaxTime: m.MaxTime}
		if m.Rows == 0 || len(p.drop) == m.Rows {
			if m.Rows == 0 && !p.scanned && x.sc.inChunk(&m) {
				x.sc.res.absent = x.sc.d.absent(x.sc.res.absent, &m, nil)
			}
			if err := w.Append(nil, empty); err != nil {
				return err
			}
			continue
		}
		if err := x.ctx.Err(); err != nil {
			return err
		}
		if p.enc != nil {
			if err := w.AppendChecked(p.enc, seg.BlockMeta{Rows: p.encRows, MinSeq: m.MinSeq, MaxSeq: m.MaxSeq, MinTime: m.MinTime, MaxTime: m.MaxTime}); err != nil {
				return err
			}
			p.release()
			continue
		}
		var err error
		if x.buf, err = x.r.ReadBlock(i, x.buf); err != nil {
			return err
		}
		x.read += int64(len(x.buf))
		decoded := false // x.dec holds the block's record columns in x.rw
		if !p.scanned && x.sc.inChunk(&m) {
			if err := decodeRows(&x.dec, x.buf, &x.rw); err != nil {
				return fmt.Errorf("compact: %s block %d: %w", x.path, i, err)
			}
			x.sc.decide(i, &m, &x.rw)
			decoded = true
		}
		meta := seg.BlockMeta{Rows: m.Rows, MinSeq: m.MinSeq, MaxSeq: m.MaxSeq, MinTime: m.MinTime, MaxTime: m.MaxTime}
		switch {
		case len(p.drop) == 0:
			if !p.scanned { // above the chunk: its series were not collected
				if err := x.addSeries(w, i); err != nil {
					return err
				}
			}
			err = w.AppendChecked(x.buf, meta)
		case len(p.drop) == m.Rows:
			err = w.Append(nil, empty)
		default:
			var block []byte
			if block, meta.Rows, err = x.filter(p.drop, decoded); err != nil {
				err = fmt.Errorf("block %d: %w", i, err)
				return err
			}
			err = w.AppendChecked(block, meta)
		}
		if err != nil {
			return err
		}
	}
	if err := x.copyFrames(w, from, len(x.blocks)); err != nil {
		return err
	}
	for name := range x.sc.kept {
		w.AddSeries(name)
	}
	x.sc.setKeys(w)
	return nil
}

// copyable reports whether block i is written as it is, decided already
// (its series are in the new bloom's set): its frame can be copied
// (copyFrames) without reading it.
func (x *rewriter) copyable(i int) bool {
	p := &x.sc.plans[i]
	return x.blocks[i].Rows > 0 && p.scanned && len(p.drop) == 0 && p.enc == nil
}

// copyFrames copies the frames of blocks [from, to) (from < 0: none),
// copyable, to w as they are: by the kernel where it can (seg.Writer.
// CopyFrames), without a copy through memory.
func (x *rewriter) copyFrames(w *seg.Writer, from, to int) error {
	if from < 0 || from >= to {
		return nil
	}
	if err := x.ctx.Err(); err != nil {
		return err
	}
	if err := w.CopyFrames(x.r, from, to); err != nil {
		return err
	}
	for i := from; i < to; i++ {
		x.read += int64(x.blocks[i].BlockLen())
	}
	return nil
}

// addSeries adds the series of block i (in x.buf) to the new bloom, and
// its keyed rows' keys to its key span when the scanner tracks them.
func (x *rewriter) addSeries(w *seg.Writer, i int) error {
	if x.sc.tracks(i) {
		if err := decodeColumns(&x.dec, x.buf, &x.rw); err != nil {
			return fmt.Errorf("block %d: %w", i, err)
		}
		x.sc.codes = keptSeries(&x.rw.sc, nil, x.sc.codes, x.sc.kept)
		keptKeys(&x.rw, nil, &x.sc.keys[i])
		return nil
	}
	if err := x.dec.ResetChecked(x.buf); err != nil {
		return err
	}
	k := x.dec.Find(colSeries)
	if k < 0 {
		return fmt.Errorf("%w: block %d has no series column", chunk.ErrCorrupt, i)
	}
	if err := x.dec.Column(k, &x.col); err != nil {
		return err
	}
	if x.col.Strs != nil {
		for _, s := range x.col.Strs {
			w.AddSeries(s)
		}
		return nil
	}
	for j := range x.col.Dict.Len() {
		w.AddSeries(string(x.col.Dict.At(j)))
	}
	return nil
}

// filter re-encodes the block in x.buf without the rows drop lists
// (ascending, fewer than the block's rows) and returns the new block and
// its rows. With decoded, x.dec is already Reset on the block and x.rw
// holds its record columns, which are not decoded again.
func (x *filterer) filter(drop []int32, decoded bool) ([]byte, int, error) {
	if !decoded {
		if err := x.dec.ResetChecked(x.buf); err != nil {
			return nil, 0, err
		}
		return x.encScratch.filter(&x.dec, nil, drop, nil)
	}
	return x.encScratch.filter(&x.dec, &x.rw, drop, nil)
}

// encScratch is the scratch space of re-encoding a block.
type encScratch struct {
	enc    chunk.Encoder
	keep   []int32
	have   []*chunk.Column
	outBuf []byte
}

// filter re-encodes the block dec is Reset on without the rows drop
// lists (ascending, fewer than the block's rows), with the encodings its
// columns had (chunk.Encoder.EncodeFiltered: plain string columns are
// filtered without decoding), and returns the new block and its rows.
// The block is written in dst's array (a slice of it, not at its
// start), or if dst is nil in x's buffer. rw, if not nil, holds the
// block's record columns decoded by dec, which are not decoded again.
func (x *encScratch) filter(dec *chunk.Decoder, rw *rows, drop []int32, dst []byte) ([]byte, int, error) {
	x.enc.FastZstd = true    // every rewrite: zstd at its fastest level
	x.enc.OmitNull = isField // a field only removed rows had goes too
	x.keep = x.keep[:0]
	for r, d := 0, 0; r < dec.Rows(); r++ {
		if d < len(drop) && int(drop[d]) == r {
			d++
			continue
		}
		x.keep = append(x.keep, int32(r))
	}
	x.have = x.have[:0]
	for k := range dec.NumColumns() {
		var c *chunk.Column
		if rw != nil {
			c = rw.column(dec.Info(k).Name)
		}
		x.have = append(x.have, c)
	}
	if dst != nil {
		out, err := x.enc.EncodeFiltered(dst, dec, x.keep, x.have)
		return out, len(x.keep), err
	}
	out, err := x.enc.EncodeFiltered(x.outBuf[:0], dec, x.keep, x.have)
	if err != nil {
		return nil, 0, err
	}
	if cap(out) > cap(x.outBuf) { // grown: keep the larger array
		x.outBuf = out[:0]
	}
	return out, len(x.keep), nil
}

// isField reports whether a block's column is a field (not one of the
// record columns every block has).
func isField(name string) bool {
	switch name {
	case colSeq, colTime, colSeries, colKey, colOp:
		return false
	}
	return true
}
