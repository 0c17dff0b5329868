package tsq

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sync"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/index"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// Deferred durability of background rolls (SyncInterval, SyncNever).
//
// Replaying history rolls once per UTC day of data; an fsync per roll,
// each waiting for the one before, would bound ingest by the disk's
// fsync latency. So under the buffered policies a background roll seals
// the old segment and creates the next without any fsync, and records
// both as undurable. The interval tick (and Close, compaction, an
// import) fsyncs every undurable segment at once, in parallel, then the
// directory, and then writes the stream's durable mark: the first seq
// of the newest sealed segment, every segment up to which is durable.
//
// A crash may thus leave any suffix of the segments after the mark
// damaged: a file cut short (torn create, header alone, frames without
// their trailer) or, where the file system wrote pages out of order, a
// sealed file with a block that never reached the disk. Opening walks
// the segments in seq order, checks the block CRCs of every sealed
// segment after the mark, and at the first damaged segment that is not
// the last keeps its valid prefix as the active segment and removes
// every later one (Recovery.RemovedLater): what survives is a prefix of
// the seqs, and every row acknowledged before the last completed tick.
//
// A stream without a mark (created by SyncAlways, where every seal is
// fsynced, or by a release before marks) trusts every sealed segment.

// durableFile is the durable mark's name in the stream directory
// (docs/FORMAT.md, "State files").
const durableFile = "durable.mark"

// maxParallelSyncs bounds the fsyncs syncUndurable runs at once.
const maxParallelSyncs = 16

// durableState tracks the segments written without an fsync.
type durableState struct {
	pending  []undurable // segments sealed or created without an fsync
	dirDirty bool        // a segment was created without a directory fsync
	mark     uint64      // the mark as last read or written
	hasMark  bool        // the mark file exists
	stamp    uint64      // counts noteUndurable calls
	dirStamp uint64      // stamp of the last create noted
}

// undurable is a segment written since its last fsync.
type undurable struct {
	name   string
	synced int64  // bytes its last successful fsync made durable (0: none)
	stamp  uint64 // durableState.stamp when last noted
}

// noteUndurable records segment name, sealed or created without an
// fsync; synced is what an earlier fsync made durable of it (the
// segment that was active, fsynced by ticks), 0 if none. Caller holds mu.
func (st *stream) noteUndurable(name string, created bool, synced int64) {
	d := &st.dur
	d.stamp++
	if n := len(d.pending); n > 0 && d.pending[n-1].name == name {
		d.pending[n-1].synced = max(d.pending[n-1].synced, synced)
		d.pending[n-1].stamp = d.stamp
	} else {
		d.pending = append(d.pending, undurable{name, synced, d.stamp})
	}
	if created {
		d.dirDirty, d.dirStamp = true, d.stamp
	}
}

// errStreamChanged: the stream was closed or failed while mu was not
// held; whoever did it settles durability.
var errStreamChanged = errors.New("tsq: stream changed while unlocked")

// newestSealed returns the first seq of the newest sealed segment of
// segs, 0 if none.
func newestSealed(segs []*segFile) uint64 {
	for i := len(segs) - 1; i >= 0; i-- {
		if segs[i].sealed {
			return segs[i].firstSeq
		}
	}
	return 0
}

// syncUndurable makes every segment noted by noteUndurable durable:
// their fsyncs run in parallel (the file system commits them together),
// then the directory's; then it advances the durable mark. On a failed
// fsync the segment is cut back at recovery, which removes every later
// segment. Caller holds mu.
func (st *stream) syncUndurable() error { return st.syncPending(false) }

// syncUndurableUnlocked is syncUndurable for the interval tick, which
// must not stall appends: mu is released during the fsyncs and held
// again. Segments noted meanwhile stay for the next tick; the mark
// advances to the newest segment sealed before it began. It returns
// errStreamChanged, doing nothing more, if the stream was closed or
// failed meanwhile. Caller holds mu.
func (st *stream) syncUndurableUnlocked() error { return st.syncPending(true) }

// syncPending fsyncs the segments pending now through handles of its own
// (opened by path: no handle of the stream is closed under it, with or
// without mu), retires them and advances the mark. Caller holds mu.
func (st *stream) syncPending(unlock bool) error {
	d := &st.dur
	if len(d.pending) == 0 && !d.dirDirty {
		if d.hasMark {
			return st.advanceMark() // past segments sealed durably (imports, synchronous rolls)
		}
		return nil
	}
	batch, dirty, stamp := slices.Clone(d.pending), d.dirDirty, d.stamp
	mark := newestSealed(st.segs)
	fsys, dir := st.s.fs, st.dir
	if unlock {
		st.mu.Unlock()
	}
	errs := syncSegments(fsys, dir, batch)
	var dirErr error
	if dirty && errors.Join(errs...) == nil {
		dirErr = fsys.SyncDir(dir)
	}
	if unlock {
		st.mu.Lock()
		if st.closed || st.broken != nil {
			return errStreamChanged
		}
	}
	for i, err := range errs {
		if err != nil {
			st.cutUndurable(batch[i])
			return fmt.Errorf("tsq: stream %q: fsync segment %s: %w", st.name, batch[i].name, err)
		}
	}
	if dirErr != nil {
		return streamErr(st.name, dirErr)
	}
	d.pending = slices.DeleteFunc(d.pending, func(u undurable) bool { return u.stamp <= stamp })
	if dirty && d.dirStamp <= stamp {
		d.dirDirty = false
	}
	return st.advanceMarkTo(mark)
}

// syncSegments fsyncs the segments of batch in dir, at most
// maxParallelSyncs at once; a segment that no longer exists (removed, or
// replaced by a durable rewrite) is skipped.
func syncSegments(fsys vfs.FS, dir string, batch []undurable) []error {
	errs := make([]error, len(batch))
	var wg sync.WaitGroup
	sem := make(chan struct{}, maxParallelSyncs)
	for i, u := range batch {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			f, err := fsys.Open(filepath.Join(dir, u.name))
			if errors.Is(err, fs.ErrNotExist) {
				return
			}
			if err == nil {
				err = errors.Join(f.Sync(), f.Close())
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	return errs
}

// cutUndurable notes that segment u, whose fsync failed, must be cut
// back at recovery (unsynced.go) to what its last good fsync made
// durable, or to its header if none did: nothing written to it since is
// known durable, nor is anything after it (recovery removes the later
// segments). Caller holds mu.
func (st *stream) cutUndurable(u undurable) {
	if st.cut.path != "" {
		return
	}
	var sf *segFile
	for _, s := range st.segs {
		if s.name == u.name {
			sf = s
		}
	}
	if st.active != nil && st.active.name == u.name {
		sf = st.active
	}
	if sf == nil {
		return
	}
	blocks := sf.blocks
	if sf == st.active {
		blocks = st.blocks
	}
	size := u.synced // 0 with no frame: the whole file goes (a torn create)
	if len(blocks) > 0 {
		size = max(size, blocks[0].Offset)
	}
	st.cut = unsyncedCut{path: sf.path, size: size}
	first := sf.firstSeq // the first row the cut drops
	for _, b := range blocks {
		if b.Offset+int64(b.Length) > size {
			break
		}
		first = b.MaxSeq + 1
	}
	if first < st.ackedNext {
		st.s.m.syncErrors.Add(1)
		if st.syncErr == nil {
			st.syncErr = fmt.Errorf("tsq: stream %q: up to %d acknowledged rows from seq %d on were lost: an fsync of %s failed",
				st.name, st.ackedNext-first, first, sf.path)
		}
	}
}

// advanceMark writes the durable mark if the newest sealed segment is
// newer than it. Call it only when every sealed segment is durable.
// Caller holds mu.
func (st *stream) advanceMark() error { return st.advanceMarkTo(newestSealed(st.segs)) }

// advanceMarkTo writes the durable mark mark if it is newer than the
// one written. Every segment up to mark must be durable. Caller holds mu.
func (st *stream) advanceMarkTo(mark uint64) error {
	d := &st.dur
	if d.hasMark && mark <= d.mark {
		return nil
	}
	if err := index.WriteDurable(st.s.fs, filepath.Join(st.dir, durableFile), mark); err != nil {
		return streamErr(st.name, err)
	}
	d.mark, d.hasMark = mark, true
	return nil
}

// readMark reads the durable mark; ok is false if there is none (every
// sealed segment is trusted). A damaged mark trusts none.
func (st *stream) readMark() (mark uint64, ok bool, err error) {
	mark, err = index.ReadDurable(st.s.fs, filepath.Join(st.dir, durableFile))
	switch {
	case err == nil:
		return mark, true, nil
	case errors.Is(err, fs.ErrNotExist):
		return 0, false, nil
	case errors.Is(err, index.ErrCorrupt):
		return 0, true, nil // verify every sealed segment; the next mark replaces it
	}
	return 0, false, streamErr(st.name, err)
}

// damaged reports whether sealed segment sf, after the durable mark, has
// a block that fails its checks. If so it cuts the file before that
// block, dropping the trailer, so that it reopens as an unsealed segment
// holding the valid prefix.
func (st *stream) damaged(sf *segFile) (bool, error) {
	r, err := seg.Open(st.s.fs, sf.path)
	if err != nil {
		return false, streamErr(st.name, err)
	}
	cut := int64(-1)
	var buf []byte
	for i, b := range r.Blocks() {
		if buf, err = r.ReadBlock(i, buf); err != nil {
			cut = b.Offset
			break
		}
	}
	if err := r.Close(); err != nil {
		return false, err
	}
	if cut < 0 {
		return false, nil
	}
	f, err := st.s.fs.OpenAppend(sf.path)
	if err != nil {
		return false, fmt.Errorf("tsq: stream %q: cut damaged segment: %w", st.name, err)
	}
	err = f.Truncate(cut)
	if err == nil {
		err = f.Sync()
	}
	if err = errors.Join(err, f.Close()); err != nil {
		return false, fmt.Errorf("tsq: stream %q: cut damaged segment %s: %w", st.name, sf.path, err)
	}
	st.rec.CutDamaged = append(st.rec.CutDamaged, sf.path)
	return true, nil
}

// cutTrailer cuts segment name after its last frame that checks, so that
// it reopens as an unsealed segment holding them. A damaged header is
// left for the caller (an error matching chunk.ErrCorrupt). Caller holds
// mu.
func (st *stream) cutTrailer(name string) error {
	path := filepath.Join(st.dir, name)
	if _, err := seg.CutToFrames(st.s.fs, path); err != nil {
		if errors.Is(err, chunk.ErrCorrupt) {
			return nil
		}
		return streamErr(st.name, err)
	}
	st.rec.CutDamaged = append(st.rec.CutDamaged, path)
	return nil
}

// removeLater removes segments names, which follow a damaged one: they
// were written while it was not durable. Caller holds mu.
func (st *stream) removeLater(names []string) error {
	for _, name := range names {
		path := filepath.Join(st.dir, name)
		kind := &st.rec.RemovedLater
		if r, err := seg.Open(st.s.fs, path); err != nil {
			if st.tornCreate(path) {
				kind = &st.rec.RemovedTorn
			}
		} else {
			if len(r.Blocks()) == 0 {
				kind = &st.rec.RemovedEmpty // a header alone
			}
			_ = r.Close()
		}
		if f := st.files[name]; f != nil {
			_ = f.Close()
			delete(st.files, name)
		}
		if err := st.s.fs.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("tsq: stream %q: remove a segment after a damaged one: %w", st.name, err)
		}
		*kind = append(*kind, path)
	}
	if len(names) == 0 {
		return nil
	}
	if err := st.s.fs.SyncDir(st.dir); err != nil {
		return streamErr(st.name, err)
	}
	return nil
}
