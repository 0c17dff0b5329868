package tsq

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/tsqdb/tsq/compact"
	"github.com/tsqdb/tsq/index"
	"github.com/tsqdb/tsq/seg"
)

// Online backup: Store.Backup writes a copy of the store that opens as a
// store of its own, while appends, imports, deletes and compaction go on.
//
// Consistency. Every stream is copied as of one moment: first, for each
// stream, its compaction pass lock is taken (no pass rewrites a segment
// or moves W until the stream is copied), then its watermark, import
// journal, soft-delete bitmaps and retention rule are read, and last its
// view (every acknowledged row written out first). That order is the one
// reads follow (see deletedSnapshot): a bitmap read before the view names
// every soft-deleted row the view holds, a journal read before it names
// only imports whose segments it holds, and a watermark read before it is
// never above what its segments reflect. In a writable store the views
// of all the streams are taken at one moment (takeViews), the same for
// all. A read-only store, following a writer in another process that may
// compact meanwhile, gets the same guarantees per stream from the same
// order, its streams' moments one after the other.
//
// Copy. Sealed segments are copied byte for byte from the view's read
// handles (a merge or rewrite replacing a file later does not change
// them); the active segment is copied up to its last acknowledged frame
// and sealed in the copy. Every copied segment is then opened and each of
// its blocks checked against its CRC-32C, so a backup never holds a
// damaged block unnoticed: a corrupt source fails the backup, naming the
// file and block. State files are written fresh; LOCK, the durable mark
// and staging are not copied (every copied segment is fsynced, so the
// copy trusts all of them).
//
// Atomicity. Everything is written under <dest>.tsq-backup-partial,
// fsynced, then renamed to dest and the parent directory fsynced: dest
// either does not exist or holds the whole backup. A failed or cancelled
// backup removes the partial directory; one a crash left is removed by
// the next backup to the same dest.

// backupPartialSuffix names the directory a backup is written in.
const backupPartialSuffix = ".tsq-backup-partial"

// backupBuf is the copy buffer's size.
const backupBuf = 1 << 20

// BackupOptions tune Store.Backup. A nil *BackupOptions means the zero
// value: every stream, no progress.
type BackupOptions struct {
	// Streams lists the streams to copy; empty means every stream.
	Streams []string
	// Progress, when set, is called as segment bytes are copied with the
	// bytes copied so far and the total.
	Progress func(done, total int64)
}

// BackupStats report a backup.
type BackupStats struct {
	Dir      string // the backup's directory
	Streams  int
	Segments int
	Rows     int64 // rows in the copied segments (soft-deleted ones included)
	Bytes    int64 // bytes of the copied segments
	Duration time.Duration
}

// backupStream is what phase one takes of a stream, under its pass lock.
type backupStream struct {
	st         *stream
	unlock     func()
	w          uint64
	hasW       bool
	journal    []JournalRecord
	deleted    *roaring64.Bitmap
	tombstoned *roaring64.Bitmap
	retained   *roaring64.Bitmap
	rule       *index.Rule
	v          *view
}

// Backup writes a consistent copy of the store (or of o.Streams) to the
// new directory dest, online. See the comment above for what is copied
// and how; dest must not exist, nor be the store or lie in its streams/
// or staging/.
func (s *Store) Backup(ctx context.Context, dest string, o *BackupOptions) (BackupStats, error) {
	if o == nil {
		o = &BackupOptions{}
	}
	start := time.Now()
	dest = filepath.Clean(dest)
	stats := BackupStats{Dir: dest}
	fail := func(err error) (BackupStats, error) {
		return BackupStats{Dir: dest}, fmt.Errorf("tsq: backup to %s: %w", dest, err)
	}
	if err := s.checkBackupDest(dest); err != nil {
		return fail(err)
	}
	names := o.Streams
	if len(names) == 0 {
		var err error
		if names, err = s.Streams(); err != nil {
			return fail(err)
		}
	}
	names = slices.Compact(slices.Sorted(slices.Values(names)))
	partial := dest + backupPartialSuffix
	if err := s.fs.RemoveAll(partial); err != nil { // left by a crash
		return fail(err)
	}
	snaps, err := s.backupSnapshots(names, len(o.Streams) > 0)
	defer func() {
		for _, b := range snaps {
			b.unlock()
		}
	}()
	if err != nil {
		return fail(err)
	}
	c := &backupCopy{s: s, ctx: ctx, progress: o.Progress, buf: make([]byte, backupBuf)}
	for _, b := range snaps {
		for _, sf := range b.v.segs {
			c.total += backupSize(sf)
		}
	}
	if err := c.run(partial, snaps, &stats); err != nil {
		return fail(errors.Join(err, s.fs.RemoveAll(partial)))
	}
	if err := s.fs.Rename(partial, dest); err != nil {
		return fail(errors.Join(err, s.fs.RemoveAll(partial)))
	}
	if err := s.fs.SyncDir(filepath.Dir(dest)); err != nil {
		return fail(err)
	}
	stats.Duration = time.Since(start)
	return stats, nil
}

// checkBackupDest refuses a dest that exists, is the store or lies in
// its streams/ or staging/ (beside them is fine: a file the store does
// not read), or holds the store; it creates dest's parent.
func (s *Store) checkBackupDest(orig string) error {
	dest := orig
	store, err := filepath.Abs(s.dir)
	if err != nil {
		return err
	}
	if dest, err = filepath.Abs(dest); err != nil {
		return err
	}
	if dest == store {
		return errors.New("the backup directory is the store itself: choose a new directory")
	}
	for _, d := range []string{filepath.Join(store, "streams"), filepath.Join(store, "staging")} {
		if dest == d || strings.HasPrefix(dest, d+string(filepath.Separator)) {
			return fmt.Errorf("the backup directory lies inside the store's own files (%s): choose one outside them", d)
		}
	}
	if strings.HasPrefix(store, dest+string(filepath.Separator)) {
		return fmt.Errorf("the backup directory holds the store %s: choose a new directory", store)
	}
	if _, err := s.fs.Stat(orig); err == nil {
		return errors.New("it exists: a backup goes to a new directory")
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return s.fs.MkdirAll(filepath.Dir(orig), 0o755)
}

// backupSnapshots takes, stream by stream, the pass lock and the state
// and view to copy. A stream dropped since it was listed is left out,
// unless named (strict). The caller unlocks every returned snapshot,
// also on an error.
func (s *Store) backupSnapshots(names []string, strict bool) ([]*backupStream, error) {
	var out []*backupStream
	for _, name := range names {
		st, err := s.stream(name, false)
		if err != nil {
			if !strict && (errors.Is(err, ErrStreamNotFound) || errors.Is(err, errDropping)) {
				continue
			}
			return out, err
		}
		b := &backupStream{st: st, unlock: func() {}}
		if st.cmp != nil {
			st.cmp.pass.Lock()
			b.unlock = sync1(st.cmp.pass.Unlock)
		}
		out = append(out, b)
		if err := b.take(); err != nil {
			if !strict && st.dropped.Load() {
				b.unlock()
				out = out[:len(out)-1]
				continue
			}
			return out, err
		}
	}
	if s.o.ReadOnly {
		return out, nil
	}
	return out, takeViews(out)
}

// takeViews takes the views of a writable store's streams at one moment:
// every stream's lock is held while each writes out the rows it holds
// queued and its view is read, so that no append to any of them lands
// between two views (a record appended to one stream after a record
// appended to another is not in the backup without it).
func takeViews(bs []*backupStream) error {
	for _, b := range bs {
		b.st.mu.Lock()
	}
	defer func() {
		for _, b := range bs {
			b.st.mu.Unlock()
		}
	}()
	for _, b := range bs {
		st := b.st
		if st.closed {
			return streamErr(st.name, ErrClosed)
		}
		if err := st.writePending(); err != nil {
			return err
		}
		if b.v = st.view.Load(); b.v == nil {
			b.v = &view{}
		}
	}
	return nil
}

// sync1 returns f made safe to call more than once.
func sync1(f func()) func() {
	done := false
	return func() {
		if !done {
			done = true
			f()
		}
	}
}

// take reads the stream's watermark, journal, bitmaps and rule, in that
// order, and then, in a read-only store, its view (see the comment at
// the top; a writable store's views are taken by takeViews).
func (b *backupStream) take() error {
	st := b.st
	var err error
	if b.w, b.hasW, err = compact.LoadWatermark(st.s.fs, st.dir); err != nil {
		return streamErr(st.name, err)
	}
	if b.journal, _, _, err = readJournal(st.s.fs, st.dir); err != nil {
		return streamErr(st.name, err)
	}
	if !st.writable {
		if err := st.refreshSoft(); err != nil {
			return err
		}
	}
	b.deleted, b.tombstoned, b.rule = st.deletedSnapshot(), st.tombstonedSnapshot(), st.soft.rule.Load()
	b.retained = st.retainedSnapshot()
	if st.writable {
		return nil
	}
	b.v, err = st.snapshot()
	return err
}

// backupSize returns the bytes of sf a backup copies: the whole file of a
// sealed segment, the acknowledged frames of the active one.
func backupSize(sf *segFile) int64 {
	if !sf.sealed {
		if len(sf.blocks) == 0 {
			return 0
		}
		return sf.blocks[len(sf.blocks)-1].End()
	}
	if sf.r != nil {
		return sf.r.Size()
	}
	if fi, err := sf.f.Stat(); err == nil {
		return fi.Size()
	}
	return 0
}

// backupCopy is phase two: writing the snapshots under the partial
// directory.
type backupCopy struct {
	s           *Store
	ctx         context.Context
	progress    func(done, total int64)
	buf         []byte
	done, total int64
}

func (c *backupCopy) run(partial string, snaps []*backupStream, stats *BackupStats) error {
	fsys := c.s.fs
	streams := filepath.Join(partial, "streams")
	if err := fsys.MkdirAll(streams, 0o755); err != nil {
		return err
	}
	for _, b := range snaps {
		dir := filepath.Join(streams, b.st.name)
		if err := fsys.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for _, sf := range b.v.segs {
			rows, n, err := c.segment(sf, filepath.Join(dir, sf.name))
			if err != nil {
				return streamErr(b.st.name, err)
			}
			if n > 0 {
				stats.Segments++
				stats.Rows += rows
				stats.Bytes += n
			}
		}
		if err := b.writeState(dir); err != nil {
			return streamErr(b.st.name, err)
		}
		if err := fsys.SyncDir(dir); err != nil {
			return err
		}
		b.unlock() // this stream is copied: its passes may run
		stats.Streams++
	}
	for _, d := range []string{streams, partial} {
		if err := fsys.SyncDir(d); err != nil {
			return err
		}
	}
	return nil
}

// segment copies sf to path, seals it if it is the active segment, and
// checks every block of the copy. It returns the copy's rows and bytes;
// an active segment without frames is not copied (0 bytes).
func (c *backupCopy) segment(sf *segFile, path string) (rows, n int64, err error) {
	size := backupSize(sf)
	if size == 0 {
		return 0, 0, nil
	}
	var src io.ReaderAt = sf.f
	if sf.r != nil {
		src = sf.r
	}
	if err := c.copyFile(src, size, path); err != nil {
		return 0, 0, fmt.Errorf("copy %s: %w", sf.path, err)
	}
	if !sf.sealed {
		w, rec, err := seg.OpenWriter(c.s.fs, path)
		if err != nil {
			return 0, 0, fmt.Errorf("seal the copy of %s: %w", sf.path, err)
		}
		if rec.TruncatedBytes > 0 {
			return 0, 0, errors.Join(fmt.Errorf("the copy of %s: %w", sf.path, rec.Cause), w.Close())
		}
		if err := errors.Join(w.Seal(), w.Close()); err != nil {
			return 0, 0, fmt.Errorf("seal the copy of %s: %w", sf.path, err)
		}
	}
	r, err := seg.Open(c.s.fs, path)
	if err != nil {
		return 0, 0, fmt.Errorf("check the copy of %s: %w", sf.path, err)
	}
	defer r.Close()
	if err := r.Verify(); err != nil {
		return 0, 0, fmt.Errorf("check the copy of %s: %w", sf.path, err)
	}
	if len(r.Blocks()) != len(sf.blocks) || r.Rows() != sumRows(sf.blocks) {
		return 0, 0, fmt.Errorf("the copy of %s holds %d blocks, %d rows; the store's %d, %d",
			sf.path, len(r.Blocks()), r.Rows(), len(sf.blocks), sumRows(sf.blocks))
	}
	return r.Rows(), r.Size(), nil
}

// copyFile writes the first size bytes of src to the new file path and
// fsyncs it.
func (c *backupCopy) copyFile(src io.ReaderAt, size int64, path string) error {
	f, err := c.s.fs.CreateNew(path)
	if err != nil {
		return err
	}
	for off := int64(0); off < size; {
		if err := c.ctx.Err(); err != nil {
			return errors.Join(err, f.Close())
		}
		n := int(min(int64(len(c.buf)), size-off))
		if _, err := src.ReadAt(c.buf[:n], off); err != nil && !(errors.Is(err, io.EOF) && n > 0) {
			return errors.Join(err, f.Close())
		}
		if _, err := f.Write(c.buf[:n]); err != nil {
			return errors.Join(err, f.Close())
		}
		off += int64(n)
		c.done += int64(n)
		if c.progress != nil {
			c.progress(c.done, c.total)
		}
	}
	return errors.Join(f.Sync(), f.Close())
}

// writeState writes the stream's state files into dir: fresh files with
// write sequence 1, holding what take read.
func (b *backupStream) writeState(dir string) error {
	fsys := b.st.s.fs
	for _, bm := range []struct {
		kind index.Kind
		file string
		bm   *roaring64.Bitmap
	}{{index.KindDeleted, deletedFile, b.deleted}, {index.KindTombstoned, tombstonedFile, b.tombstoned},
		{index.KindRetained, retainedFile, b.retained}} {
		if bm.bm == nil || bm.bm.IsEmpty() {
			continue
		}
		if err := index.WriteBitmap(fsys, filepath.Join(dir, bm.file), bm.kind, 1, bm.bm, nil); err != nil {
			return err
		}
	}
	if b.rule != nil {
		if err := index.WriteRule(fsys, filepath.Join(dir, retentionFile), 1, b.rule, nil); err != nil {
			return err
		}
	}
	if b.hasW {
		if err := compact.StoreWatermark(fsys, dir, b.w); err != nil {
			return err
		}
	}
	if len(b.journal) > 0 {
		j := journalHeader()
		for i := range b.journal {
			j = appendJournalRecord(j, &b.journal[i])
		}
		f, err := fsys.CreateNew(filepath.Join(dir, journalName))
		if err != nil {
			return err
		}
		if _, err := f.Write(j); err != nil {
			return errors.Join(err, f.Close())
		}
		if err := errors.Join(f.Sync(), f.Close()); err != nil {
			return err
		}
	}
	return nil
}
