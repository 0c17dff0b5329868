package tsq

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// Recovery reports what opening a stream for writing found and repaired.
type Recovery struct {
	// Segment is the active segment that was reopened, "" if none.
	Segment string
	// TruncatedBytes and DroppedFrames are what seg.OpenWriter cut from
	// the active segment's torn tail; Cause says why (nil if nothing).
	TruncatedBytes int64
	DroppedFrames  int
	Cause          error
	// RemovedTmp lists stale temp files of an unfinished rewrite.
	RemovedTmp []string
	// RemovedTorn lists segment files removed because their header was
	// torn: a crash during segment creation, before any frame.
	RemovedTorn []string
	// RemovedEmpty lists unsealed segment files holding only a header,
	// followed by later segments, that were removed: segments created
	// in the background by rolls a crash or a failed seal cut short.
	RemovedEmpty []string
	// CutDamaged lists sealed segments after the durable mark cut before
	// a block that failed its checks; RemovedLater the segments removed
	// because they followed a damaged or unsealed one (durable.go).
	CutDamaged   []string
	RemovedLater []string
}

// Truncated reports whether anything was cut or removed.
func (r Recovery) Truncated() bool {
	return r.TruncatedBytes > 0 || len(r.RemovedTorn) > 0 || len(r.RemovedEmpty) > 0 ||
		len(r.CutDamaged) > 0 || len(r.RemovedLater) > 0
}

const nsPerDay = int64(24 * time.Hour)

// dayOf returns the UTC day number of t (ns since the epoch).
func dayOf(t int64) int64 {
	d := t / nsPerDay
	if t%nsPerDay < 0 {
		d--
	}
	return d
}

// segName is the file name of a segment: the UTC day of its first
// record and its first seq.
func segName(day int64, firstSeq uint64) string {
	return fmt.Sprintf("%s-%016x.seg", time.Unix(day*86400, 0).UTC().Format("2006-01-02"), firstSeq)
}

// parseSegName parses a name made by segName.
func parseSegName(name string) (day int64, firstSeq uint64, ok bool) {
	if len(name) != 31 || name[10] != '-' || name[27:] != ".seg" {
		return 0, 0, false
	}
	t, err := time.Parse("2006-01-02", name[:10])
	if err != nil {
		return 0, 0, false
	}
	firstSeq, err = strconv.ParseUint(name[11:27], 16, 64)
	if err != nil {
		return 0, 0, false
	}
	return dayOf(t.UnixNano()), firstSeq, true
}

// segFile is one segment as readers see it. It is immutable once
// published in a view; the writer publishes a new one as the active
// segment grows.
type segFile struct {
	name     string
	path     string
	day      int64
	firstSeq uint64
	sealed   bool
	f        vfs.File        // read handle, shared by every segFile of the path
	r        *seg.Reader     // read-only stores: the Reader of a sealed segment, used instead of f
	blocks   []seg.BlockMeta // readable blocks: the index, or the acknowledged prefix
	size     int64           // file size when loaded (read-only refresh)
	mtime    time.Time       // file modification time when loaded (read-only refresh)
	rows     int64
	gen      uint64 // the header's generation
	cacheID  uint32 // segment id of block cache keys, 0 if not cached
}

// view is a stream's segments in seq order, as readers see them.
type view struct {
	segs []*segFile
}

// stream is one stream of a Store.
type stream struct {
	s        *Store
	name     string
	dir      string
	writable bool

	view atomic.Pointer[view]

	mu     sync.Mutex // guards everything below and the segment files' writes
	closed bool
	lock   io.Closer           // the LOCK file, writable streams only
	files  map[string]vfs.File // read handles by segment name
	segs   []*segFile          // all but the active segment, seq order
	w      *seg.Writer         // the active segment, nil if none
	active *segFile            // the published state of w
	blocks []seg.BlockMeta     // w's blocks; active.blocks is a prefix
	// rowsOf caches the row count of a prefix of blocks, so that
	// publishing after each commit adds only the new blocks' rows.
	rowsOf struct {
		first *seg.BlockMeta // &blocks[0] when counted
		n     int            // blocks counted
		rows  int64
	}
	next    uint64 // the next seq to assign
	broken  error  // a write or sync failed; recover before writing
	syncErr error  // first background fsync failure, for Close
	rec     Recovery
	b       builder
	enc     chunk.Encoder
	buf     []byte
	c       *committer // group commit, SyncAlways only
	// pending is set while b holds rows not yet written (buffered) or a
	// background roll runs; readers check it without mu. Seqs below
	// ackedNext were acknowledged.
	pending   atomic.Bool
	ackedNext uint64
	bgRoll    rollState   // background seal (roll.go)
	encq      []*frameJob // frames being encoded, oldest first (encode.go)
	encFree   []*frameJob // spare jobs with their builders
	encShared *sharedEncoder
	// published fingerprints the state of the last publish
	// (publishIfChanged).
	published struct {
		valid   bool
		segs    **segFile
		nsegs   int
		active  *segFile
		blocks  *seg.BlockMeta
		nblocks int
	}
	one     [1]*request
	sreq    request // AppendSamples' request in direct mode
	merge   mergeState
	readers []*seg.Reader     // read-only: Readers of sealed segments, closed at close
	ids     streamIDs         // block cache segment ids, released at close
	soft    softState         // soft deletes, tombstoned rows, retention (softstate.go)
	cmp     *streamCompaction // compaction state, writable streams (compaction.go)
	imp     importGate        // running import (import.go)
	fresh   freshState        // created by an import (import_fresh.go); guarded by Store.mu
	// dropped: DropStream removed the stream (set under soft.mu, after
	// close): writers of its state files and passes stop.
	dropped atomic.Bool
	cut     unsyncedCut  // a segment to cut back after a failed fsync (unsynced.go)
	dur     durableState // segments written without an fsync (durable.go)
}

// openWriter locks the stream directory and loads its segments,
// recovering the active one.
func (st *stream) openWriter() error {
	fsys := st.s.fs
	if err := fsys.MkdirAll(st.dir, 0o755); err != nil {
		return streamErr(st.name, err)
	}
	if err := fsys.SyncDir(filepath.Dir(st.dir)); err != nil {
		return streamErr(st.name, err)
	}
	lk, err := fsys.Lock(filepath.Join(st.dir, "LOCK"))
	if err != nil {
		return fmt.Errorf("tsq: stream %q: open for writing: %w", st.name, err)
	}
	st.lock = lk
	removed, err := seg.RemoveStaleTmp(fsys, st.dir)
	if err != nil {
		return streamErr(st.name, err)
	}
	st.rec = Recovery{RemovedTmp: removed}
	if err := st.load(); err != nil {
		return err
	}
	if err := st.loadSoft(); err != nil {
		return err
	}
	st.s.m.noteRecovery(&st.rec)
	if err := st.initCompaction(); err != nil {
		return err
	}
	st.b.init(st.s.o.BlockRows)
	if st.s.o.Sync == SyncAlways {
		st.c = newCommitter(st)
	}
	return nil
}

// load reads the segment list from disk: every segment but the last is
// opened with seg.Open, the last unsealed one with seg.OpenWriter.
func (st *stream) load() error {
	st.dropEncoding()
	st.waitRoll()
	st.waitMerges()
	if err := st.rollImports(); err != nil { // settle interrupted imports first
		return err
	}
	// Fresh read handles: a merge may have replaced a file since.
	for name, f := range st.files {
		st.merge.retired = append(st.merge.retired, f)
		delete(st.files, name)
	}
	names, err := st.listSegments()
	if err != nil {
		return err
	}
	st.segs, st.w, st.active, st.blocks = nil, nil, nil, nil
	mark, hasMark, err := st.readMark()
	if err != nil {
		return err
	}
	var next uint64 = 1
	for i := 0; i < len(names); i++ {
		name := names[i]
		last := i == len(names)-1
		sf, err := st.loadSealed(name, last)
		if _, first, _ := parseSegName(name); err != nil && hasMark && first > mark && errors.Is(err, chunk.ErrCorrupt) {
			// Not known durable (durable.go): a crash damaged its
			// trailer or header. Keep the frames that check as the
			// active segment, drop the later ones.
			if err := st.removeLater(names[i+1:]); err != nil {
				return err
			}
			names, last = names[:i+1], true
			if err := st.cutTrailer(name); err != nil {
				return err
			}
			if sf, err = st.loadSealed(name, true); errors.Is(err, chunk.ErrCorrupt) {
				if err := st.removeLater(names[i:]); err != nil { // the header itself
					return err
				}
				break
			}
		}
		if err != nil {
			return err
		}
		// A segment after a damaged one was written while that one was
		// not durable (durable.go): keep the prefix.
		bad := sf != nil && sf.sealed && hasMark && sf.firstSeq > mark
		if bad {
			if bad, err = st.damaged(sf); err != nil {
				return err
			}
		}
		if !last || bad {
			bad = bad || sf == nil || !sf.sealed
			if bad {
				if err := st.removeLater(names[i+1:]); err != nil {
					return err
				}
				names = names[:i+1]
				if sf == nil {
					break // removed as torn or empty
				}
				if sf, err = st.loadSealed(name, true); err != nil {
					return err
				}
			}
		}
		if sf == nil {
			continue // the active segment, or a torn one removed
		}
		st.segs = append(st.segs, sf)
		next = max(next, sf.firstSeq, lastSeq(sf.blocks)+1)
	}
	if st.s.o.Sync != SyncAlways && !hasMark && len(st.dur.pending) == 0 {
		// From now on seals may skip their fsync: mark what is trusted.
		st.dur.hasMark = false
		if err := st.advanceMark(); err != nil {
			return err
		}
	} else {
		st.dur.mark, st.dur.hasMark = mark, hasMark
	}
	if n := len(st.segs); n > 0 && !st.segs[n-1].sealed && (st.active == nil || len(st.blocks) == 0) {
		// The last segment with frames is unsealed and only an empty
		// one follows, or a torn one did: a background roll that a
		// crash cut short created it (roll.go). Drop the empty one and
		// take the unsealed one as the active segment again.
		if st.active != nil {
			_ = st.w.Close()
			st.w = nil
			if err := st.removeEmpty(st.active.name, st.active.path); err != nil {
				return err
			}
			st.active = nil
		}
		prev := st.segs[n-1]
		st.segs = st.segs[:n-1]
		sf, err := st.loadSealed(prev.name, true)
		if err != nil {
			return err
		}
		if sf != nil {
			st.segs = append(st.segs, sf)
		}
	}
	if st.active != nil {
		next = max(next, st.active.firstSeq, lastSeq(st.blocks)+1)
	}
	st.next = max(st.next, next)
	st.publish()
	return nil
}

// loadSealed loads segment name. The last segment, if unsealed, becomes
// the writer's active segment (and nil is returned).
func (st *stream) loadSealed(name string, last bool) (*segFile, error) {
	fsys := st.s.fs
	path := filepath.Join(st.dir, name)
	sf, err := st.newSegFile(name)
	if err != nil {
		return nil, err
	}
	if last {
		w, rec, err := seg.OpenWriter(fsys, path)
		switch {
		case err == nil:
			st.w, st.blocks = w, slices.Clone(w.Blocks())
			sf.blocks = st.blocks
			sf.gen = w.Header().Generation
			st.active = sf
			st.rec.Segment, st.rec.TruncatedBytes, st.rec.DroppedFrames, st.rec.Cause = path, rec.TruncatedBytes, rec.DroppedFrames, rec.Cause
			return nil, st.checkHeader(sf, w.Header())
		case errors.Is(err, seg.ErrSealed):
			// fall through to a sealed open
		case errors.Is(err, chunk.ErrCorrupt) && st.tornCreate(path):
			if err := st.removeTorn(name, path); err != nil {
				return nil, err
			}
			return nil, nil
		default:
			return nil, streamErr(st.name, err)
		}
	}
	r, err := seg.Open(fsys, path)
	if errors.Is(err, chunk.ErrCorrupt) && st.tornCreate(path) {
		// Background rolls create segments ahead (roll.go): a torn
		// create may be followed by later ones.
		if err := st.removeTorn(name, path); err != nil {
			return nil, err
		}
		return nil, nil
	}
	if err != nil {
		return nil, streamErr(st.name, err)
	}
	defer r.Close()
	if !last && !r.Sealed() && len(r.Blocks()) == 0 {
		// A header alone before later segments: created in the
		// background by a roll that a crash or a failed seal cut short
		// (roll.go). It holds nothing.
		if err := st.removeEmpty(name, path); err != nil {
			return nil, err
		}
		return nil, nil
	}
	sf.sealed, sf.blocks = r.Sealed(), r.Blocks()
	sf.rows, sf.gen = r.Rows(), r.Header().Generation
	return sf, st.checkHeader(sf, r.Header())
}

// tornCreate reports whether path is a segment whose creation was cut by
// a crash before its header was durable: small enough that no frame can
// follow a header of at most 286 bytes, and its header does not check.
// (A small segment whose header checks but whose trailer was cut is not
// one: durable.go keeps its frames.)
func (st *stream) tornCreate(path string) bool {
	fi, err := st.s.fs.Stat(path)
	if err != nil || fi.Size() >= maxHeaderLen+seg.FrameHeaderLen {
		return false
	}
	_, err = seg.ReadHeader(st.s.fs, path)
	return errors.Is(err, chunk.ErrCorrupt)
}

func (st *stream) removeEmpty(name, path string) error {
	return st.removeSegment(name, path, "empty", &st.rec.RemovedEmpty)
}

func (st *stream) removeTorn(name, path string) error {
	return st.removeSegment(name, path, "torn", &st.rec.RemovedTorn)
}

// removeSegment closes the read handle of segment name, removes its file,
// syncs the directory and reports path in *list. Caller holds mu.
func (st *stream) removeSegment(name, path, what string, list *[]string) error {
	if f := st.files[name]; f != nil {
		_ = f.Close()
		delete(st.files, name)
	}
	if err := st.s.fs.Remove(path); err != nil {
		return fmt.Errorf("tsq: stream %q: remove %s segment: %w", st.name, what, err)
	}
	if err := st.s.fs.SyncDir(st.dir); err != nil {
		return streamErr(st.name, err)
	}
	*list = append(*list, path)
	return nil
}

// checkHeader checks that a segment's header agrees with its name.
func (st *stream) checkHeader(sf *segFile, h seg.Header) error {
	if h.Stream != st.name || h.FirstSeq != sf.firstSeq {
		return fmt.Errorf("tsq: stream %q: segment %s: header says stream %q first seq %d: %w",
			st.name, sf.path, h.Stream, h.FirstSeq, chunk.ErrCorrupt)
	}
	return nil
}

// newSegFile describes segment name and opens its read handle.
func (st *stream) newSegFile(name string) (*segFile, error) {
	day, first, _ := parseSegName(name)
	path := filepath.Join(st.dir, name)
	f := st.files[name]
	if f == nil {
		var err error
		if f, err = st.s.fs.Open(path); err != nil {
			return nil, streamErr(st.name, err)
		}
		st.files[name] = f
	}
	sf := &segFile{name: name, path: path, day: day, firstSeq: first, f: f}
	if st.writable {
		sf.cacheID = st.newCacheID()
	}
	return sf, nil
}

// listSegments returns the segment file names in seq order.
func (st *stream) listSegments() ([]string, error) {
	names, err := st.s.fs.ReadDir(st.dir)
	if err != nil {
		return nil, streamErr(st.name, err)
	}
	type ent struct {
		name  string
		first uint64
	}
	var ents []ent
	for _, n := range names {
		if _, first, ok := parseSegName(n); ok {
			ents = append(ents, ent{n, first})
		}
	}
	slices.SortFunc(ents, func(a, b ent) int {
		if a.first != b.first {
			if a.first < b.first {
				return -1
			}
			return 1
		}
		if a.name < b.name {
			return -1
		}
		return 1
	})
	out := make([]string, len(ents))
	for i, e := range ents {
		out[i] = e.name
	}
	return out, nil
}

func lastSeq(blocks []seg.BlockMeta) uint64 {
	if len(blocks) == 0 {
		return 0
	}
	return blocks[len(blocks)-1].MaxSeq
}

func sumRows(blocks []seg.BlockMeta) int64 {
	var n int64
	for i := range blocks {
		n += int64(blocks[i].Rows)
	}
	return n
}

// activeRows returns the rows of st.blocks, counting only the blocks
// appended since the last call when the slice still starts where it did.
// Caller holds mu.
func (st *stream) activeRows() int64 {
	c := &st.rowsOf
	if len(st.blocks) == 0 {
		*c = struct {
			first *seg.BlockMeta
			n     int
			rows  int64
		}{}
		return 0
	}
	if c.first != &st.blocks[0] || c.n > len(st.blocks) {
		c.first, c.n, c.rows = &st.blocks[0], 0, 0
	}
	c.rows += sumRows(st.blocks[c.n:])
	c.n = len(st.blocks)
	return c.rows
}

// publishIfChanged publishes unless nothing readers see changed since
// the last publish: the common case of a buffered append, which only
// fills the frame in memory. Every change of the published state either
// changes the length of st.segs or st.blocks, or replaces st.segs'
// array (appends beyond capacity, clones before an in-place update), or
// st.active (publish itself replaces it by its published copy). The
// arrays compared are still referenced by the published view, so their
// addresses cannot be reused. Caller holds mu.
func (st *stream) publishIfChanged() {
	p := &st.published
	if p.valid && p.segs == unsafe.SliceData(st.segs) && p.nsegs == len(st.segs) &&
		p.active == st.active && p.blocks == unsafe.SliceData(st.blocks) && p.nblocks == len(st.blocks) {
		return
	}
	st.publish()
}

// publish makes the current segments and the active segment's blocks
// visible to readers. Caller holds mu.
func (st *stream) publish() {
	defer st.notePublished()
	segs := slices.Clip(st.segs)
	if st.active != nil {
		a := *st.active
		a.blocks = slices.Clip(st.blocks)
		if st.w != nil {
			a.gen = st.w.Header().Generation
		}
		a.rows = st.activeRows()
		st.active = &a
		segs = append(segs, &a)
	}
	st.view.Store(&view{segs: segs})
}

func (st *stream) notePublished() {
	st.published.valid = true
	st.published.segs, st.published.nsegs = unsafe.SliceData(st.segs), len(st.segs)
	st.published.active = st.active
	st.published.blocks, st.published.nblocks = unsafe.SliceData(st.blocks), len(st.blocks)
}

// refresh reloads a read-only stream's segments from disk: sealed
// segments already loaded are kept, unsealed ones are rescanned when
// their size changed, new ones are opened.
func (st *stream) refresh() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return ErrClosed
	}
	names, err := st.listSegments()
	if errors.Is(err, fs.ErrNotExist) {
		// Dropped by a writer (DropStream); its files stay readable to
		// reads already running.
		return streamErr(st.name, ErrStreamNotFound)
	}
	if err != nil {
		return err
	}
	old := map[string]*segFile{}
	if v := st.view.Load(); v != nil {
		for _, sf := range v.segs {
			old[sf.name] = sf
		}
	}
	segs := make([]*segFile, 0, len(names))
	for _, name := range names {
		sf := old[name]
		if sf != nil {
			// An unsealed segment grows; a sealed one is replaced whole
			// by a merge or a compaction rewrite, which hides soft-deleted
			// rows the deleted bitmap may have forgotten already.
			if fi, err := st.s.fs.Stat(sf.path); err != nil || fi.Size() != sf.size ||
				(sf.sealed && !fi.ModTime().Equal(sf.mtime)) {
				sf = nil
			}
		}
		if sf == nil {
			if sf, err = st.loadReadOnly(name); err != nil {
				if errors.Is(err, fs.ErrNotExist) || st.tornCreate(filepath.Join(st.dir, name)) {
					// Gone since the listing (a writer removes only a
					// segment without frames: an empty active one at a
					// roll, a torn create), being created (its header not
					// yet written), or a torn create a crash left (the
					// next writable open removes it): it holds no row.
					continue
				}
				return err
			}
		}
		segs = append(segs, sf)
	}
	st.view.Store(&view{segs: segs})
	return nil
}

// loadReadOnly opens segment name: its index if sealed, else its
// durable prefix. Both are read through the handle the segment's blocks
// will be read with, so that they agree even when the writer replaces
// the file meanwhile (a merge of the segment just sealed). An unsealed
// segment's handle is shared by its views, as it only grows.
func (st *stream) loadReadOnly(name string) (*segFile, error) {
	day, first, _ := parseSegName(name)
	path := filepath.Join(st.dir, name)
	f, shared := st.files[name]
	if !shared {
		var err error
		if f, err = st.s.fs.Open(path); err != nil {
			return nil, streamErr(st.name, err)
		}
	}
	fail := func(err error) (*segFile, error) {
		if !shared {
			err = errors.Join(err, f.Close())
		}
		return nil, streamErr(st.name, err)
	}
	fi, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	r, err := seg.OpenFile(f, path)
	if err != nil {
		return fail(err)
	}
	sf := &segFile{name: name, path: path, day: day, firstSeq: first,
		sealed: r.Sealed(), blocks: r.Blocks(), rows: r.Rows(), size: fi.Size(), mtime: fi.ModTime(), gen: r.Header().Generation}
	if err := st.checkHeader(sf, r.Header()); err != nil {
		if shared {
			return nil, err
		}
		return nil, errors.Join(err, r.Close())
	}
	if sf.sealed && shared {
		// A handle kept from when the file was unsealed: the path may
		// hold a rewrite of it since. Older views read through the old
		// handle until the stream closes; read the file the path holds.
		delete(st.files, name)
		st.readers = append(st.readers, r)
		return st.loadReadOnly(name)
	}
	if sf.sealed {
		// Read a sealed segment through its Reader, which owns the
		// handle.
		sf.r = r
		sf.cacheID = st.newCacheID()
		st.readers = append(st.readers, r)
		return sf, nil
	}
	st.files[name] = f
	sf.f = f
	return sf, nil
}

// snapshot returns the segments readers see now, refreshing a read-only
// stream from disk first.
func (st *stream) snapshot() (*view, error) {
	if !st.writable {
		if err := st.refresh(); err != nil {
			return nil, err
		}
	} else if err := st.flushForRead(); err != nil {
		return nil, err
	}
	v := st.view.Load()
	if v == nil {
		return &view{}, nil
	}
	return v, nil
}

// backgroundSync writes the buffered frame (SyncInterval, SyncNever)
// and fsyncs the active segment (SyncInterval).
func (st *stream) backgroundSync() {
	// Wait for the background rolls running now without holding mu, so
	// that appends go on meanwhile; writePending then settles them.
	st.mu.Lock()
	var wait []chan struct{}
	if n := len(st.bgRoll.jobs); n > 0 {
		wait = append(wait, st.bgRoll.jobs[n-1].done)
	}
	if st.bgRoll.next != nil {
		wait = append(wait, st.bgRoll.next.done)
	}
	st.mu.Unlock()
	for _, c := range wait {
		<-c
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed || st.broken != nil {
		return
	}
	if err := st.writePending(); err != nil {
		return // recorded by fail
	}
	if st.s.o.Sync != SyncInterval {
		return
	}
	// The segments that rolls made are fsynced without mu (durable.go).
	err := st.syncUndurableUnlocked()
	if errors.Is(err, errStreamChanged) {
		return
	}
	if err == nil {
		err = st.sync()
	}
	if err != nil {
		// Records acknowledged since the last fsync may not be durable:
		// count it, report it from Close, recover at the next append.
		st.broken = err
		st.s.m.syncErrors.Add(1)
		if st.syncErr == nil {
			st.syncErr = fmt.Errorf("tsq: stream %q: background fsync failed: %w", st.name, err)
		}
	}
}

// sync fsyncs the active segment if it holds unsynced bytes. Caller
// holds mu.
func (st *stream) sync() error {
	if err := st.syncUndurable(); err != nil { // durable.go
		return err
	}
	if st.w == nil || st.w.Synced() == st.w.Size() {
		return nil
	}
	if err := st.w.Sync(); err != nil {
		return streamErr(st.name, err)
	}
	st.s.m.fsyncs.Add(1)
	return nil
}

// close stops the committer, fsyncs and closes the active segment,
// closes the read handles and releases the lock.
func (st *stream) close() error {
	if st.c != nil {
		st.c.stop()
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return nil
	}
	_ = st.writePending() // a failure is in syncErr (fail)
	st.closed = true
	errs := []error{st.syncErr}
	if st.broken == nil {
		err := st.sync()
		if err == nil && st.dur.hasMark && len(st.dur.pending) == 0 {
			err = st.advanceMark() // seals fsynced under SyncAlways
		}
		errs = append(errs, err)
	}
	if st.w != nil {
		errs = append(errs, st.w.Close())
		st.w = nil
	}
	st.waitMerges()
	for _, f := range st.merge.retired {
		errs = append(errs, f.Close())
	}
	st.merge.retired = nil
	if st.cmp != nil {
		errs = append(errs, st.cmp.closeRetired(time.Time{}))
	}
	for _, r := range st.readers {
		errs = append(errs, r.Close())
	}
	st.readers = nil
	errs = append(errs, st.closeFiles())
	st.releaseCacheIDs()
	if st.lock != nil {
		errs = append(errs, st.lock.Close())
		st.lock = nil
	}
	return errors.Join(errs...)
}

func (st *stream) closeFiles() error {
	var errs []error
	for name, f := range st.files {
		errs = append(errs, f.Close())
		delete(st.files, name)
	}
	return errors.Join(errs...)
}
