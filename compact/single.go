package compact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/seg"
)

// The single-chunk pass. When the window (W, target] cannot hold more
// tombstones than the cap (target-W <= cap: seqs are distinct), the
// whole window is one chunk and the fold and the drop decisions are one
// read of the window, newest row first: when a row is reached, every
// row above it in the window has been observed, so the snapshot already
// holds exactly the tombstones that can supersede it (all with higher
// seqs), and one hash table operation per keyed row both decides the row
// and observes it. Each segment's plan is final once its first block is
// reached; the segment is then handed to the rewrite workers while the
// fold goes on with the older segments. Segments wholly at or below W
// hold no tombstone of the window: they are processed afterwards with
// the finished snapshot, as a chunk of the chunked pass.

// singleChunk reports whether the pass from W to target is one chunk.
func singleChunk(cfg *Config, w, target uint64) bool {
	return !cfg.Chunked && target > w && target-w <= uint64(cfg.TombstoneCap)
}

// segJob is a segment folded and decided, waiting for its rewrite.
type segJob struct {
	path   string
	r      *seg.Reader
	blocks []seg.BlockMeta
	sc     *scanner
	res    segResult
	drops  bool // a row drops: rewrite it
	// pending counts its blocks being re-encoded; err is the first
	// failure of one.
	pending sync.WaitGroup
	mu      sync.Mutex
	err     error
	slots   chan struct{} // the folder's
	// fresh[i]: no row older than block i's, in the window or below it,
	// may have a key of block i (the key spans say so): see tableOp.
	fresh []bool
	// started: its rewrite was handed over before its last block was
	// decided (phaseDecide); the rewrite closes it. Set by the fold's
	// loop only.
	started    bool
	settleOnce sync.Once
}

// settle tells the job's rewrite that the fold is done with the job
// (scanner.settled).
func (j *segJob) settle() { j.settleOnce.Do(func() { close(j.sc.settled) }) }

// close closes the job's reader and frees its place (see folder.slots).
func (j *segJob) close() error {
	err := j.r.Close()
	<-j.slots
	return err
}

func (j *segJob) setErr(err error) {
	j.mu.Lock()
	if j.err == nil {
		j.err = err
	}
	j.mu.Unlock()
}

func (j *segJob) getErr() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// runSingle runs the pass's one chunk, from st.Watermark to st.Target.
func runSingle(ctx context.Context, cfg *Config, budget *byteSem, st *Stats) error {
	w, target := st.Watermark, st.Target
	snap := newSnapshot(cfg.BloomCutoff)
	d := &decider{snap: snap, chunkEnd: target, wStart: cfg.Watermark, deleted: cfg.SoftDeleted, retained: cfg.Retained}
	var win, older []Segment
	for _, s := range cfg.Segments {
		if s.MaxSeq > w {
			win = append(win, s)
		} else {
			older = append(older, s)
		}
	}
	fresh, inserts, rows, err := freshBlocks(cfg, win, older)
	if err != nil {
		return err
	}
	two := twoPhase(cfg.TwoPhase, inserts, rows)
	switch {
	case two: // phaseObserve lists the keys of the inserts' blocks (see lookupOnly)
		snap.keys = newTombKeys(inserts)
	case len(older) > 0: // their key spans may rule them out
		snap.keys = &tombKeys{}
	}
	st.Chunks++
	t0 := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
		cancel()
	}
	jobs := make(chan *segJob, len(win))
	for range min(cfg.Workers, max(len(win), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				err := j.rewrite(ctx, cfg, budget)
				mu.Lock()
				st.record(&j.res, err)
				mu.Unlock()
				if err != nil {
					fail(err)
				}
			}
		}()
	}
	f := folder{d: d, lo: w, slots: make(chan struct{}, cfg.Workers+2), sized: make(chan struct{}), fresh: fresh}
	f.held.cap = cfg.HeldBytes
	// The table is presized (for a window of up to presizeMax rows: 14 MB
	// of slots cleared) while the first blocks are read and hashed.
	go func() {
		defer close(f.sized)
		f.size.start(snap.recs, min(target-w, inserts), cfg.TombstoneCap)
	}()
	if two {
		f.phase = phaseObserve
		f.run(ctx, cfg, win, func(j *segJob) {
			if err := j.close(); err != nil {
				fail(err)
			}
		}, fail)
		st.BytesRead += f.observed
		f.phase = phaseDecide
		<-f.sized
		var sorting sync.WaitGroup
		sorting.Go(snap.keys.sortRuns)
		snap.recs.buildFilter() // most lookups now miss: see hashfilter.go
		sorting.Wait()
		if ctx.Err() != nil {
			win = nil // failed: nothing more is read
		}
	}
	f.run(ctx, cfg, win, func(j *segJob) {
		if !j.drops {
			mu.Lock()
			st.record(&j.res, nil)
			mu.Unlock()
			if err := j.close(); err != nil {
				fail(err)
			}
			return
		}
		jobs <- j
	}, fail)
	<-f.sized
	close(jobs)
	st.FoldTime += time.Since(t0)
	t1 := time.Now()
	wg.Wait()
	st.MaxHeldBytes = max(st.MaxHeldBytes, f.held.max.Load())
	st.MaxSnapshot = max(st.MaxSnapshot, snap.Len())
	st.MaxSnapshotBytes = max(st.MaxSnapshotBytes, snap.Bytes())
	st.Tombstones[ReasonRecord] += f.kinds[1]
	st.Tombstones[ReasonUpdate] += f.kinds[0]
	st.Tombstones[ReasonSeries] += int64(snap.drops.len())
	err = errors.Join(errs...)
	if err == nil && len(older) > 0 && ctx.Err() == nil {
		oc := *cfg
		oc.Segments = older
		err = runChunk(ctx, &oc, d, budget, st)
	}
	st.ChunkTime += time.Since(t1)
	return err
}

// rewrite rewrites the job's segment and refreshes the caller's view of
// it; it closes the job's reader.
func (j *segJob) rewrite(ctx context.Context, cfg *Config, budget *byteSem) (err error) {
	defer func() {
		if j.sc.settled != nil {
			<-j.sc.settled
		}
		if cerr := j.close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := rewriteSegment(ctx, cfg, j.path, j.r, j.blocks, j.sc, budget); err != nil {
		return err
	}
	if cfg.OnRewritten != nil {
		if err := cfg.OnRewritten(j.path, j.res.meta); err != nil {
			return fmt.Errorf("compact: refresh after rewriting %s: %w", j.path, err)
		}
	}
	return nil
}

// folder folds the window (lo, d.chunkEnd] newest row first, deciding
// each row of the segments it reads.
type folder struct {
	d     *decider
	lo    uint64 // W: rows at or below are decided, not observed
	pair  []byte
	code  []bool   // series dictionary codes already named, per block
	kinds [2]int64 // record entries: keyed puts, deletes
	why   []uint8  // per row of the block being decided: reason+1 if it drops
	sinks [2]uint64
	// half, when not nil, is served by a goroutine deciding the upper
	// half of large blocks (decideHalf) it takes (halfJob); it answers
	// on halfDone.
	half     chan halfJob
	halfDone chan struct{}
	// halfClaim is the claim of the upper half on offer (halfJob), odd
	// once taken; halfGen numbers the offers.
	halfClaim atomic.Uint64
	halfGen   uint64
	// slots bounds the segments open at once, from their fold to the
	// end of their rewrite: what the re-encoded blocks waiting for their
	// rewrite take is a few segments' worth.
	slots chan struct{}
	size  tableSizer    // the record table's
	sized chan struct{} // closed once size has presized the table
	fresh map[string][]bool
	// table: what the block being decided does with the record table
	// (see folder.block); set before its halves start.
	table tableOp
	held  heldBytes // re-encoded blocks waiting for their rewrite
	// phase of the run (twophase.go); observed counts the bytes
	// phaseObserve read.
	phase    phase
	observed int64
	// tasks are the blocks read ahead, with their buffers and decoders:
	// two a prep worker (more take fresh memory a pass pays for in page
	// faults, and the table operations take the blocks in order anyway)
	tasks []*blockTask
}

// tableOp is what deciding a block does with the record table.
type tableOp uint8

const (
	// tableInsert observes each keyed row of the window (upsert of its
	// seq) and decides it by the entry it replaced.
	tableInsert tableOp = iota
	// tableLookupCount only looks the keyed rows up, and counts the
	// tombstones among them as if entered (a fresh block: see block).
	tableLookupCount
	// tableLookup only looks them up: they were entered and counted
	// already (phaseObserve).
	tableLookup
	// tableNone leaves the table alone: no tombstone's key is in the
	// block's span (see blockTask.untouched); its tombstones are
	// counted as tableLookupCount counts them.
	tableNone
	// tableLookupHits leaves the table alone too: it counts the block's
	// tombstones as tableNone does and takes prep's decisions of the
	// rows whose keys are listed, the only ones that can drop, and of
	// the tombstones among them found superseded (decideHits).
	tableLookupHits
)

// blockTask is a block of the window read, decoded (record columns) and
// hashed by a prep worker ahead of the fold, or a segment's end (i < 0).
type blockTask struct {
	job  *segJob
	i    int
	prep bool // read and decode block i
	buf  []byte
	dec  chunk.Decoder
	rw   rows
	hs   []hashKey // pair hash of each keyed row of the chunk, else zero
	// series holds the hash of each series of the block's dictionary
	series []hashKey
	// rowsOf lists the rows of each half of the block (see decideHalf),
	// ascending.
	rowsOf [2][]int32
	// sorted: the keys of the keyed rows of the chunk strictly increase
	// with the rows
	sorted bool
	// opsOnly (phaseObserve, a fresh block): prep read only its op
	// column, which holds no series drop; else the block was prepped
	// whole.
	opsOnly  bool
	readPart int64 // the bytes opsOnly read
	// untouched (phaseDecide, a fresh block): no row of it can drop —
	// its keys strictly increase, no tombstone's key lies in its span,
	// and no series drop or soft-deleted seq concerns it — so prep did
	// not hash it (see folder.lookupOnly).
	untouched bool
	// lookupHits (phaseDecide, a fresh block as untouched but for keys
	// listed in its span): prep decided the rows whose keys phaseObserve
	// listed, the only ones that can drop, from the tombstones listed
	// with them (decideHits): hitDrops are the rows that drop, by row,
	// with their reasons. hits and keyed are scratch.
	lookupHits bool
	hitDrops   []hitDrop
	hits       []hitTomb
	keyed      []int32
	// decided (untouched or lookupHits): prep also counted the block's
	// tombstones (counted) and its kept rows' series (keptCodes: codes,
	// when its series column is a dictionary), so that the fold only
	// takes the results.
	decided bool
	counted halfResult
	codes   []int32
	dropped []int32 // scratch of dropRows
	err     error
	done    chan struct{}
	// claim is taken by whichever preps the block: a prep worker, or
	// the fold when it comes to the block first (see run).
	claim atomic.Bool
}

// workerLate, when tests set it, runs before a prep worker takes a
// block offered to it: a worker thread the system wakes late.
var workerLate func()

// run folds the segments win newest first. Blocks are read, decoded and
// hashed by cfg.Workers prep goroutines, in parallel and ahead; the
// table operations take them one at a time, in order. Each segment's
// job goes to done once decided (phaseDecide: as soon as a block of it
// drops rows, see twophase.go); errors go to fail, which cancels ctx.
func (f *folder) run(ctx context.Context, cfg *Config, win []Segment, done func(*segJob), fail func(error)) {
	for len(f.tasks) < 2*max(cfg.Workers, 2) { // kept from run to run: their buffers too
		f.tasks = append(f.tasks, &blockTask{done: make(chan struct{}, 1)})
	}
	pool := len(f.tasks)
	free := make(chan *blockTask, pool)
	for _, t := range f.tasks {
		free <- t
	}
	order := make(chan *blockTask, pool)
	work := make(chan *blockTask, pool)
	var wg sync.WaitGroup
	for range max(cfg.Workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range work {
				if workerLate != nil {
					workerLate()
				}
				if !t.claim.CompareAndSwap(false, true) {
					continue // the fold prepped it
				}
				t.err = f.prep(t)
				t.done <- struct{}{}
			}
		}()
	}
	go func() { // dispatcher
		defer close(order)
		defer close(work)
		emit := func(j *segJob, i int, prep, opsOnly bool) {
			t := <-free
			t.job, t.i, t.prep, t.opsOnly, t.err = j, i, prep, opsOnly, nil
			// Last: a prep worker may hold an earlier offer of t.
			t.claim.Store(!prep)
			order <- t
			if prep {
				work <- t
			} else {
				t.done <- struct{}{}
			}
		}
		for si := len(win) - 1; si >= 0 && ctx.Err() == nil; si-- {
			select {
			case f.slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			path := win[si].Path
			r, err := seg.Open(cfg.FS, path)
			if err != nil {
				<-f.slots
				t := <-free
				t.job, t.i, t.prep, t.err = nil, -1, false, err
				t.claim.Store(true)
				order <- t
				t.done <- struct{}{}
				return
			}
			blocks := r.Blocks()
			j := &segJob{path: path, r: r, blocks: blocks, slots: f.slots, fresh: f.fresh[path]}
			j.sc = newScanner(f.d, &j.res, r, blocks)
			if f.phase == phaseDecide {
				j.sc.await(ctx, j)
			}
			block := func(i int) {
				m := &blocks[i]
				switch {
				case !j.sc.inChunk(m):
				case f.phase != phaseObserve:
					emit(j, i, m.Rows > 0, false)
				case m.Rows > 0:
					emit(j, i, true, j.isFresh(i))
				}
			}
			if f.phase == phaseDecide { // in file order: the rewrite follows
				for i := 0; i < len(blocks) && ctx.Err() == nil; i++ {
					block(i)
				}
			} else {
				for i := len(blocks) - 1; i >= 0 && ctx.Err() == nil; i-- {
					block(i)
				}
			}
			emit(j, -1, false, false)
		}
	}()
	// Blocks that lose some rows are re-encoded at once, from the
	// columns prep decoded, by filter workers: the rewrite only writes
	// the bytes.
	filt := make(chan *blockTask, pool)
	var fwg, waits sync.WaitGroup
	for range max(cfg.Workers, 1) {
		fwg.Add(1)
		go func() {
			defer fwg.Done()
			x := encScratches.Get().(*encScratch)
			defer encScratches.Put(x)
			for t := range filt {
				j, i := t.job, t.i
				p := &j.sc.plans[i]
				// Its own buffer, held until the rewrite wrote it
				// (then recycled): about the block's size. Past the
				// pass's budget the rewrite re-encodes the block.
				_, size := bufClass(len(t.buf) + len(t.buf)/8)
				if n := int64(size); ctx.Err() == nil && f.held.hold(n) {
					buf := blockBuf(size)
					b, rows, err := x.filter(&t.dec, &t.rw, p.drop, buf)
					if err != nil {
						f.held.release(n)
						j.setErr(fmt.Errorf("compact: %s block %d: %w", j.path, i, err))
					} else {
						p.enc, p.encRows, p.encBuf = b, rows, buf
						p.held, p.heldBy = n, &f.held
					}
				}
				j.pending.Done()
				j.sc.ready(i)
				free <- t
			}
		}()
	}
	if cfg.Workers > 1 {
		half, halfDone := make(chan halfJob, 1), make(chan struct{})
		f.half, f.halfDone = half, halfDone
		defer close(half)
		go func() {
			for j := range half {
				if !f.halfClaim.CompareAndSwap(j.claim, j.claim|1) {
					continue // block() decided it already
				}
				f.decideHalf(1, j.rw, j.hs, j.rows, j.out)
				halfDone <- struct{}{}
			}
		}()
	}
	failed := false
	var started []*segJob
	for t := range order {
		// A block no prep worker has taken yet is prepped here: the
		// workers' threads may be slow to wake (see block), and every
		// block waits for this one.
		if t.prep && t.claim.CompareAndSwap(false, true) {
			if !failed {
				t.err = f.prep(t)
			}
		} else {
			<-t.done
		}
		j := t.job
		if j != nil && t.i < 0 && j.started {
			waits.Add(1)
			go func() { // once its blocks are re-encoded
				defer waits.Done()
				j.pending.Wait()
				j.settle()
			}()
		}
		switch {
		case failed:
			if j != nil && t.i < 0 && !j.started {
				_ = j.close()
			}
		case t.err != nil:
			failed = true
			fail(t.err)
			if j != nil && t.i < 0 && !j.started {
				_ = j.close()
			}
		case t.i < 0:
			if j.started { // its rewrite has it
				break
			}
			if ctx.Err() != nil { // the dispatcher stopped in this segment
				failed = true
				_ = j.close()
				break
			}
			waits.Add(1)
			go func() { // once its blocks are re-encoded
				defer waits.Done()
				j.pending.Wait()
				if err := j.getErr(); err != nil || ctx.Err() != nil {
					_ = j.close()
					if err != nil {
						fail(err)
					}
					return
				}
				done(j)
			}()
		case !t.prep: // an empty frame
			j.res.absent = f.d.absent(j.res.absent, &j.blocks[t.i], nil)
			j.sc.plans[t.i].scanned = true
			j.sc.ready(t.i)
		case f.phase == phaseObserve:
			if t.opsOnly {
				f.observed += t.readPart
				break
			}
			f.observed += int64(len(t.buf))
			<-f.sized
			if t.i < len(j.fresh) {
				j.fresh[t.i] = false // a drop is in it: observed, then looked up
			}
			f.block(j.sc, t, tableInsert)
		default:
			j.res.readBytes += int64(len(t.buf))
			<-f.sized // closed: no wait after the first block
			op, err := f.tableOp(j, t)
			if err != nil {
				failed = true
				fail(err)
				break
			}
			if f.block(j.sc, t, op) {
				j.drops = true
				if f.phase == phaseDecide && !j.started {
					j.started = true
					started = append(started, j)
					done(j)
				}
				if n := len(j.sc.plans[t.i].drop); n < j.blocks[t.i].Rows {
					j.pending.Add(1)
					filt <- t // returned to free by the filter worker
					continue
				}
			}
			j.sc.ready(t.i)
		}
		free <- t
	}
	close(filt)
	fwg.Wait()
	waits.Wait()
	wg.Wait()
	for _, j := range started { // the fold stopped before their end
		j.settle()
	}
}

// tableOp returns what deciding block t.i of j does with the record
// table: a fresh block whose keys strictly increase only looks them up
// (see block); in phaseDecide every other block was observed by
// phaseObserve, save a fresh one whose keys do not increase, observed
// now.
func (f *folder) tableOp(j *segJob, t *blockTask) (tableOp, error) {
	fresh := j.isFresh(t.i)
	switch {
	case t.untouched:
		return tableNone, nil
	case f.phase == phaseFold && fresh && t.sorted:
		return tableLookupCount, nil
	case f.phase == phaseFold:
		return tableInsert, nil
	case !fresh:
		return tableLookup, nil
	}
	for k, op := range t.rw.op[:t.rw.n] {
		if op == OpDrop { // phaseObserve read its op column and found none
			return 0, fmt.Errorf("compact: %s block %d: row %d is a series drop the pass's first read of the block did not show", j.path, t.i, k)
		}
	}
	switch {
	case t.lookupHits:
		return tableLookupHits, nil
	case t.sorted:
		return tableLookupCount, nil
	}
	return tableInsert, nil
}

// isFresh reports whether block i is fresh (see segJob.fresh).
func (j *segJob) isFresh(i int) bool { return i < len(j.fresh) && j.fresh[i] }

// encScratches keeps the scratch space of re-encoding between passes.
var encScratches = sync.Pool{New: func() any { return new(encScratch) }}

// prep reads, decodes and hashes block t.i of t.job; with t.opsOnly,
// only its op column unless that holds a series drop (see opsHoldDrop).
func (f *folder) prep(t *blockTask) error {
	j := t.job
	var err error
	if t.opsOnly {
		drop, err := f.opsHoldDrop(t)
		if err != nil || !drop {
			return err
		}
		t.opsOnly = false
	}
	if t.buf, err = j.r.ReadBlock(t.i, t.buf); err != nil {
		return err
	}
	rw := &t.rw
	if err := decodeColumns(&t.dec, t.buf, rw); err != nil {
		return fmt.Errorf("compact: %s block %d: %w", j.path, t.i, err)
	}
	recs, end := f.d.snap.recs, f.d.chunkEnd
	t.untouched, t.lookupHits, t.decided = false, false, false
	t.hs = slices.Grow(t.hs[:0], rw.n)[:rw.n] // every row's set below
	t.rowsOf[0], t.rowsOf[1] = t.rowsOf[0][:0], t.rowsOf[1][:0]
	if f.phase == phaseDecide && j.isFresh(t.i) && f.lookupOnly(j, t.i) {
		var ok bool
		if t.keyed, ok = keyedRows(rw, end, t.keyed[:0]); ok {
			t.sorted = true
			t.hitDrops = t.hitDrops[:0]
			t.counted = halfResult{}
			t.counted.count(rw, t.keyed, f.lo, end)
			if span := j.r.BlockKeys(t.i); !f.d.snap.keys.mayHit(&span) {
				t.untouched = true
			} else if t.hits = f.d.snap.keys.hitTombs(rw, t.keyed, t.hits[:0]); len(t.hits) == 0 {
				t.untouched = true
			} else {
				t.lookupHits = true
				f.decideHits(t)
			}
			t.decided = true
			if rw.sc.Strs == nil {
				t.codes = keptCodes(&rw.sc, t.dropRows(), t.codes)
			}
			return nil
		}
	}
	t.resetSeries()
	t.sorted = true
	// A block phaseObserve entered (tableLookup) only looks its puts up:
	// its deletes, tombstones, neither drop nor count again.
	putsOnly := f.phase == phaseDecide && !j.isFresh(t.i)
	var prev []byte
	for k := range rw.n {
		t.hs[k] = hashKey{}
		if op := rw.op[k]; (op == OpPut || op == OpDelete) && uint64(rw.seq[k]) <= end {
			if key := rw.keyAt(k); len(key) > 0 {
				if !rw.kc.Ascending && prev != nil && bytes.Compare(prev, key) >= 0 {
					t.sorted = false
				}
				prev = key
				if op == OpPut || !putsOnly {
					t.hs[k] = recs.pairHash(t.seriesHash(recs, k), key)
				}
			}
		}
		h := t.hs[k].hi >> 63 // a row without a hash goes to half 0
		t.rowsOf[h] = append(t.rowsOf[h], int32(k))
	}
	return nil
}

// resetSeries forgets the series hashes of the block before.
func (t *blockTask) resetSeries() {
	if sc := &t.rw.sc; sc.Strs == nil {
		t.series = append(t.series[:0], make([]hashKey, sc.Dict.Len())...)
	}
}

// seriesHash returns the hash of row k's series: of each series of the
// block's dictionary once (t.series; zero: not yet).
func (t *blockTask) seriesHash(recs *hashTable, k int) hashKey {
	sc := &t.rw.sc
	if sc.Strs != nil || sc.IsNull(k) {
		return recs.hash(t.rw.seriesAt(k))
	}
	c := sc.Codes[k]
	sh := t.series[c]
	if sh == (hashKey{}) {
		sh = recs.hash(sc.Dict.At(int(c)))
		t.series[c] = sh
	}
	return sh
}

// hitDrop is a row of a block that drops, and why (Reason+1, as
// folder.why).
type hitDrop struct {
	row int32
	why uint8
}

// decideHits decides the rows t.hits names (a fresh block's rows whose
// keys are listed, see lookupOnly) as looking them up in the record
// table would: a row's tombstone is the newest of those listed with its
// key and its series (the table holds, for each pair, the newest that
// phaseObserve entered, and lists the same ones). A put drops when that
// is newer than it; a keyed row of the window whose tombstone is not
// older than itself is uncounted (t.counted counts them all as kept).
func (f *folder) decideHits(t *blockTask) {
	rw, keys, recs := &t.rw, f.d.snap.keys, f.d.snap.recs
	t.resetSeries()
	for i := 0; i < len(t.hits); {
		k := t.hits[i].row
		sh := t.seriesHash(recs, int(k))
		var v uint64 // the tombstone: 0 for none
		for ; i < len(t.hits) && t.hits[i].row == k; i++ {
			if e := &keys.tombs[t.hits[i].tomb]; e.series == sh && e.v>>1 > v>>1 {
				v = e.v
			}
		}
		if v == 0 {
			continue
		}
		q, op := uint64(rw.seq[k]), rw.op[k]
		if q > f.lo && v>>1 >= q {
			t.counted.kinds[b2u(op == OpDelete)]--
		}
		if op == OpPut && v>>1 > q {
			why := ReasonUpdate
			if v&1 == 1 {
				why = ReasonRecord
			}
			t.hitDrops = append(t.hitDrops, hitDrop{k, uint8(why) + 1})
		}
	}
}

// dropRows returns the rows of t.hitDrops, ascending, in scratch.
func (t *blockTask) dropRows() []int32 {
	t.dropped = t.dropped[:0]
	for _, h := range t.hitDrops {
		t.dropped = append(t.dropped, h.row)
	}
	return t.dropped
}

// b2u is 1 for true, 0 for false.
func b2u(b bool) int {
	if b {
		return 1
	}
	return 0
}

// block decides block i (meta m, record columns rw, pair hashes hs) and
// observes the rows of the window, and reports whether a row drops. The
// snapshot keeps the highest seq of each name and a row drops when that
// is strictly above its own, so the rows of one block may be taken in
// any order once the later blocks are observed: the block's drops are
// observed first, then its rows are decided in two halves, by the top
// bit of the pair hash (disjoint shards of the table), the upper half by
// f.half in parallel with the lower one for large blocks.
//
// A block whose keyed rows (in the window) have keys in strictly
// increasing order, none of which any older row can have (fresh: the
// key spans of every older block, and of the segments below the window,
// miss the block's), only looks them up: no older row will ever look
// for them, nor a later row of the block (their keys are distinct), so
// the table need not hold them. Keys that grow with time make most
// blocks of a window such, and the table holds only the keys that
// return (updates, deletes).
func (f *folder) block(sc *scanner, t *blockTask, op tableOp) bool {
	if t.decided {
		return f.takeDecided(sc, t)
	}
	d, snap := f.d, f.d.snap
	i, m, rw, hs, rowsOf := t.i, &t.job.blocks[t.i], &t.rw, t.hs, &t.rowsOf
	if f.phase != phaseDecide { // phaseObserve saw the tombstones already
		f.observe(t)
	}
	f.why = append(f.why[:0], make([]uint8, rw.n)...)
	f.table = op
	if op == tableInsert {
		f.size.before(snap.recs, rw.n) // no half is deciding
	}
	var lower, upper halfResult
	if f.half != nil && rw.n >= 1024 {
		// Offered to f.half, and decided here after the lower half if
		// f.half has not taken it by then: waking the goroutine's thread
		// can take longer than the half (the system may start it late,
		// or on this core), and every block waits for this one.
		f.halfGen += 2
		claim := f.halfGen
		f.halfClaim.Store(claim)
		select {
		case <-f.half: // a block's offer f.half never took
		default:
		}
		f.half <- halfJob{claim: claim, rw: rw, hs: hs, rows: rowsOf[1], out: &upper}
		f.decideHalf(0, rw, hs, rowsOf[0], &lower)
		if f.halfClaim.CompareAndSwap(claim, claim|1) {
			f.decideHalf(1, rw, hs, rowsOf[1], &upper)
		} else {
			<-f.halfDone
		}
	} else {
		f.decideHalf(0, rw, hs, rowsOf[0], &lower)
		f.decideHalf(1, rw, hs, rowsOf[1], &upper)
	}
	for _, h := range []*halfResult{&lower, &upper} {
		snap.maxSeq = max(snap.maxSeq, h.maxSeq)
		snap.recs.n += h.inserted
		f.kinds[0] += h.kinds[0]
		f.kinds[1] += h.kinds[1]
	}
	if f.phase == phaseObserve { // decided in phaseDecide
		return false
	}
	res, p := sc.res, &sc.plans[i]
	res.absent = d.absent(res.absent, m, rw.seq)
	for k, w := range f.why {
		if w != 0 {
			p.drop = append(p.drop, int32(k))
		}
	}
	// The seqs gone, in the order the blocks are taken (newest first,
	// or in file order in phaseDecide), so that each segment's lists are
	// sorted (see addSeqs).
	for x := range p.drop {
		k := p.drop[x]
		if f.phase == phaseFold {
			k = p.drop[len(p.drop)-1-x]
		}
		why, q := Reason(f.why[k]-1), uint64(rw.seq[k])
		res.dropped[d.counted(why, q)]++
		if why != ReasonSoftDelete {
			res.goneSup = append(res.goneSup, q)
		}
		if why == ReasonSoftDelete || (d.deleted != nil && d.deleted.Contains(q)) {
			res.gone = append(res.gone, q)
		}
	}
	sc.codes = keptSeries(&rw.sc, p.drop, sc.codes, sc.kept)
	if sc.tracks(i) {
		keptKeys(rw, p.drop, &sc.keys[i])
	}
	p.scanned = true
	return len(p.drop) > 0
}

// takeDecided is block for a block prep decided (t.decided: tableNone
// or tableLookupHits): it takes the tombstones prep counted, the rows
// that drop (superseded, never soft-deleted: see lookupOnly) and the
// kept rows' series.
func (f *folder) takeDecided(sc *scanner, t *blockTask) bool {
	d, snap, rw := f.d, f.d.snap, &t.rw
	snap.maxSeq = max(snap.maxSeq, t.counted.maxSeq)
	f.kinds[0] += t.counted.kinds[0]
	f.kinds[1] += t.counted.kinds[1]
	res, p := sc.res, &sc.plans[t.i]
	res.absent = d.absent(res.absent, &t.job.blocks[t.i], rw.seq)
	for _, h := range t.hitDrops {
		q := uint64(rw.seq[h.row])
		p.drop = append(p.drop, h.row)
		res.dropped[h.why-1]++
		res.goneSup = append(res.goneSup, q)
		if d.deleted != nil && d.deleted.Contains(q) {
			res.gone = append(res.gone, q)
		}
	}
	if rw.sc.Strs == nil {
		addKept(&rw.sc, t.codes, sc.kept)
	} else {
		sc.codes = keptSeries(&rw.sc, p.drop, sc.codes, sc.kept)
	}
	if sc.tracks(t.i) {
		keptKeys(rw, p.drop, &sc.keys[t.i])
	}
	p.scanned = true
	return len(p.drop) > 0
}

// observe enters the block's tombstones of the window in the snapshot
// other than the record table's: their series names, their keys (for
// the segments below the window; sorted: the block's keyed rows' keys
// increase, as prep found), and its series drops.
func (f *folder) observe(t *blockTask) {
	d, snap, rw := f.d, f.d.snap, &t.rw
	f.nameSeries(rw)
	if snap.keys != nil {
		f.listKeys(t, t.sorted)
	}
	for k := range rw.n {
		if q := uint64(rw.seq[k]); rw.op[k] == OpDrop && q > f.lo && q <= d.chunkEnd {
			f.pair = append(f.pair[:0], rw.seriesAt(k)...)
			snap.drops.set(snap.drops.hash(f.pair), q, func(old uint64) bool { return q > old })
			snap.maxSeq = max(snap.maxSeq, q)
			snap.addDropName(string(f.pair))
		}
	}
}

// halfResult is what deciding one half of a block observed.
type halfResult struct {
	maxSeq   uint64
	inserted int
	kinds    [2]int64
	pair     []byte
}

// count counts the tombstones of the window (lo, end] among keyed, rw's
// keyed puts and deletes up to end (keyedRows), as tableLookupCount
// does those it does not find superseded.
func (h *halfResult) count(rw *rows, keyed []int32, lo, end uint64) {
	for _, r := range keyed {
		k := int(r)
		q, op := uint64(rw.seq[k]), rw.op[k]
		if q > lo && q <= end && (op == OpPut || op == OpDelete) {
			h.maxSeq = max(h.maxSeq, q)
			if op == OpDelete {
				h.kinds[1]++
			} else {
				h.kinds[0]++
			}
		}
	}
}

// halfJob offers f.half the upper half of a block, to decide if it
// takes it first: if it turns folder.halfClaim from claim (even) to
// claim|1.
type halfJob struct {
	claim uint64
	rw    *rows
	hs    []hashKey
	rows  []int32
	out   *halfResult
}

// decideHalf decides the rows of half h, rowsOf (ascending; half 0:
// rows with a pair hash whose top bit is 0 and rows without one; 1: the
// others, as prep lists them) newest first,
// setting f.why[k] to the reason+1 of each row that drops. It writes
// only its own shards of the record table and reads the series table.
func (f *folder) decideHalf(h uint64, rw *rows, hs []hashKey, rowsOf []int32, out *halfResult) {
	d, snap := f.d, f.d.snap
	recs := snap.recs
	// The rows are taken newest first; the home slots of the rows
	// prefetchAhead further on are prefetched, a few at a time, while
	// these are decided (see prefetchRows), so that their cache misses
	// overlap the work.
	pf := len(rowsOf) // rowsOf[pf:] prefetched
	if f.table != tableInsert && recs.bits != nil {
		pf = 0 // most lookups end at the filter
	}
	for j := len(rowsOf) - 1; j >= 0; j-- {
		for want := max(0, j+1-prefetchAhead); pf > want; {
			lo := max(0, pf-prefetchBatch)
			f.sinks[h] += recs.prefetchRows(hs, rowsOf[lo:pf])
			pf = lo
		}
		k := int(rowsOf[j])
		hk := hs[k]
		q := uint64(rw.seq[k])
		op := uint8(rw.op[k])
		if q > d.chunkEnd {
			continue
		}
		var why Reason
		drop := false
		if d.deleted != nil && d.deleted.Contains(q) && ((op == OpPut && len(rw.keyAt(k)) == 0) || q <= d.wStart) {
			why, drop = ReasonSoftDelete, true
		}
		if op == OpPut && !drop && snap.drops.len() > 0 {
			out.pair = append(out.pair[:0], rw.seriesAt(k)...)
			if t, ok := snap.drops.get(snap.drops.hash(out.pair)); ok && t > q {
				why, drop = ReasonSeries, true
			}
		}
		if hk.lo != 0 { // a keyed put or delete (a drop is never superseded)
			var t uint64
			var ok bool
			if q > f.lo && f.table == tableLookup {
				t, ok = recs.get(hk)
			} else if q > f.lo && f.table == tableLookupCount {
				t, ok = recs.get(hk)
				out.maxSeq = max(out.maxSeq, q)
				if !ok || t>>1 < q { // a tombstone, counted as if kept
					v := uint64(0)
					if op == OpDelete {
						v = 1
					}
					out.kinds[v]++
				}
			} else if q > f.lo {
				v := q << 1
				if op == OpDelete {
					v |= 1
				}
				var inserted bool
				t, ok, inserted = recs.upsertNewer(hk, v)
				out.maxSeq = max(out.maxSeq, q)
				switch {
				case inserted:
					out.inserted++
					out.kinds[v&1]++
				case v>>1 > t>>1: // replaced (not in seq order)
					out.kinds[t&1]--
					out.kinds[v&1]++
				}
			} else {
				t, ok = recs.get(hk)
			}
			if !drop && op == OpPut && ok && t>>1 > q {
				why, drop = ReasonUpdate, true
				if t&1 == 1 {
					why = ReasonRecord
				}
			}
		}
		if drop {
			f.why[k] = uint8(why) + 1
		}
	}
}

// listKeys adds to the snapshot's keys those of the block's record
// tombstones in the window, in order when sorted.
func (f *folder) listKeys(t *blockTask, sorted bool) {
	keys, rw, recs := f.d.snap.keys, &t.rw, f.d.snap.recs
	keys.startRun(sorted)
	for k := range rw.n {
		q, op := uint64(rw.seq[k]), rw.op[k]
		if q <= f.lo || q > f.d.chunkEnd || (op != OpPut && op != OpDelete) {
			continue
		}
		if key := rw.keyAt(k); len(key) > 0 {
			if !keys.keepTombs {
				keys.add(key)
				continue
			}
			keys.addTomb(key, t.seriesHash(recs, k), q<<1|uint64(b2u(op == OpDelete)))
		}
	}
}

// nameSeries adds to the snapshot's names the series of the block's rows
// that are tombstones of the window, each dictionary entry once.
func (f *folder) nameSeries(rw *rows) {
	snap := f.d.snap
	if snap.manyNames {
		return
	}
	sc := &rw.sc
	if sc.Strs == nil {
		f.code = append(f.code[:0], make([]bool, sc.Dict.Len())...)
	}
	for k := range rw.n {
		c := int32(-1)
		if sc.Strs == nil && !sc.IsNull(k) {
			if c = sc.Codes[k]; c < 0 || int(c) >= len(f.code) || f.code[c] {
				continue // named already
			}
		}
		q, op := uint64(rw.seq[k]), rw.op[k]
		if q <= f.lo || q > f.d.chunkEnd || !(op == OpDrop || (len(rw.keyAt(k)) > 0 && (op == OpPut || op == OpDelete))) {
			continue
		}
		if c >= 0 {
			f.code[c] = true
		}
		snap.addName(string(rw.seriesAt(k)))
		if snap.manyNames {
			return
		}
	}
}

// freshOlderMax bounds the segments below the window whose key spans
// freshBlocks reads.
const freshOlderMax = 64

// freshBlocks returns, for each segment of the window win (in seq
// order), which of its blocks are fresh: their key span is known and
// misses the spans of every older block of the window and of every
// segment below it (older), so that no older row can have one of their
// keys. It also returns the rows of the blocks that are not, which the
// record table may have to hold, and the rows of every block. Past freshOlderMax segments below the
// window none is fresh: their trailers are not read twice a pass (the
// window of such an archive is small anyway, and runChunk reads them).
func freshBlocks(cfg *Config, win, older []Segment) (fresh map[string][]bool, inserts, rows uint64, err error) {
	seen := seg.KeySpan{} // the keys of every row older than the block at hand
	if len(older) > freshOlderMax {
		seen = seg.UnknownKeys()
		older = nil
	}
	for _, s := range older {
		r, err := seg.Open(cfg.FS, s.Path)
		if err != nil {
			return nil, 0, 0, err
		}
		k := r.Keys()
		seen.Merge(&k)
		_ = r.Close()
		if !seen.Known() {
			break
		}
	}
	fresh = map[string][]bool{}
	for _, s := range win {
		r, err := seg.Open(cfg.FS, s.Path)
		if err != nil {
			return nil, 0, 0, err
		}
		blocks := r.Blocks()
		f := make([]bool, len(blocks))
		for i := range blocks {
			k := r.BlockKeys(i)
			lo, hi, some := k.Bounds()
			f[i] = k.Known() && seen.Known() && (!some || !seen.MayOverlap(lo, hi))
			if !f[i] {
				inserts += uint64(blocks[i].Rows)
			}
			rows += uint64(blocks[i].Rows)
			seen.Merge(&k)
		}
		fresh[s.Path] = f
		_ = r.Close()
	}
	return fresh, inserts, rows, nil
}
