package tsq

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/tsqdb/tsq/internal/vfs"
)

// A dropped stream's directory is first renamed to streams/<name>~drop
// (not a stream name: no read sees it), and the rename made durable;
// that is the drop's commit point. The directory is removed afterwards;
// a crash before that leaves it to the next Open (GC), which removes
// every <name>~drop directory.
const dropSuffix = "~drop"

// errDropping: the stream is being dropped by this Store.
var errDropping = errors.New("being dropped")

// dropPoint names a step of DropStream a test may crash at.
type dropPoint string

const (
	dropRenamed dropPoint = "renamed" // renamed, the rename not yet synced
	dropSynced  dropPoint = "synced"  // the rename durable, the directory not yet removed
)

// DropStreamStats say what DropStream removed.
type DropStreamStats struct {
	Segments int   // segment files
	Bytes    int64 // bytes of every file of the stream directory
}

// DropStream removes a stream and everything it holds: records, soft
// deletes, retention rule, watermark and import journal. When it returns
// the drop is durable: the stream is gone from Streams and every read
// (ErrStreamNotFound), and a crash cannot bring it back. A stream of the
// same name made later starts afresh, at seq 1.
//
// The stream must not be in use by another process (the error names
// the lock holder) nor be created by an import that has not committed.
// Calls on the stream that run during the drop fail (ErrClosed; an
// import into it fails at commit and changes nothing); a compaction pass
// running on it is waited for.
func (s *Store) DropStream(ctx context.Context, name string) (DropStreamStats, error) {
	if err := ValidateStreamName(name); err != nil {
		return DropStreamStats{}, err
	}
	if s.o.ReadOnly {
		return DropStreamStats{}, streamErr(name, ErrReadOnly)
	}
	if err := ctx.Err(); err != nil {
		return DropStreamStats{}, err
	}
	st, err := s.startDrop(name)
	if err != nil {
		return DropStreamStats{}, err
	}
	defer func() {
		s.mu.Lock()
		delete(s.dropping, name)
		s.mu.Unlock()
	}()
	dir := filepath.Join(s.streamsDir(), name)
	var lock io.Closer
	if st != nil {
		// No pass runs on st from here on; later ones find it dropped.
		st.cmp.pass.Lock()
		defer st.cmp.pass.Unlock()
		st.mu.Lock()
		lock, st.lock = st.lock, nil // kept over the close: no other process may open it before the rename
		st.mu.Unlock()
		if lock == nil {
			lock = io.NopCloser(nil)
		}
		err = st.close()
		st.soft.mu.Lock() // soft-state writers check dropped under it
		st.dropped.Store(true)
		defer st.soft.mu.Unlock()
		if err != nil {
			return DropStreamStats{}, errors.Join(streamErr(name, fmt.Errorf("drop: %w", err)), lock.Close())
		}
	} else if lock, err = s.fs.Lock(filepath.Join(dir, "LOCK")); err != nil {
		return DropStreamStats{}, streamErr(name, fmt.Errorf("drop: %w", err))
	}
	stats, err := s.dropDir(name, dir, lock)
	if err != nil {
		return stats, streamErr(name, fmt.Errorf("drop: %w", err))
	}
	return stats, nil
}

// startDrop marks name as being dropped and takes its stream out of the
// Store (nil if this Store had not opened it).
func (s *Store) startDrop(name string) (*stream, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return nil, ErrClosed
	case s.dropping[name]:
		return nil, streamErr(name, errDropping)
	}
	st := s.streams[name]
	if st != nil && st.fresh.marked {
		return nil, streamErr(name, errors.New("drop: an import that creates it has not committed yet"))
	}
	if st == nil {
		if _, err := s.fs.Stat(filepath.Join(s.streamsDir(), name)); errors.Is(err, fs.ErrNotExist) || err == nil && s.pendingNew(name) {
			return nil, streamErr(name, ErrStreamNotFound)
		} else if err != nil {
			return nil, streamErr(name, err)
		}
	}
	if s.dropping == nil {
		s.dropping = map[string]bool{}
	}
	s.dropping[name] = true
	delete(s.streams, name)
	return st, nil
}

// dropDir renames dir to its ~drop name durably (the commit point),
// releases the stream's lock and removes the renamed directory.
func (s *Store) dropDir(name, dir string, lock io.Closer) (DropStreamStats, error) {
	var stats DropStreamStats
	trash := dir + dropSuffix
	if err := s.fs.RemoveAll(trash); err != nil { // an earlier drop's leftover
		return stats, errors.Join(err, lock.Close())
	}
	stats = dirStats(s.fs, dir)
	if err := s.fs.Rename(dir, trash); err != nil {
		return stats, errors.Join(err, lock.Close())
	}
	err := s.dropCrash(dropRenamed)
	if err == nil {
		err = s.fs.SyncDir(s.streamsDir())
	}
	if err == nil {
		err = s.dropCrash(dropSynced)
	}
	err = errors.Join(err, lock.Close())
	if err != nil {
		return stats, err
	}
	forgetBlooms(dir)
	// The drop is durable; what stays of the directory if this fails is
	// removed by the next Open.
	if err := s.fs.RemoveAll(trash); err != nil {
		return stats, fmt.Errorf("dropped, but removing its files failed (the next open retries): %w", err)
	}
	if err := s.fs.Remove(s.freshMarker(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return stats, err
	}
	return stats, s.fs.SyncDir(s.streamsDir())
}

func (s *Store) dropCrash(p dropPoint) error {
	if s.dropHook != nil {
		return s.dropHook(p)
	}
	return nil
}

// dirStats counts the segment files and bytes of a stream directory.
func dirStats(fsys vfs.FS, dir string) DropStreamStats {
	var st DropStreamStats
	names, _ := fsys.ReadDir(dir)
	for _, n := range names {
		if strings.HasSuffix(n, ".seg") {
			st.Segments++
		}
		if fi, err := fsys.Stat(filepath.Join(dir, n)); err == nil && !fi.IsDir() {
			st.Bytes += fi.Size()
		}
	}
	return st
}

// forgetBlooms drops the cached blooms and key spans of the segments of dir: a
// stream made again under its name may reuse the paths.
func forgetBlooms(dir string) {
	prefix := dir + string(filepath.Separator)
	metaCache.Lock()
	for k := range metaCache.m {
		if strings.HasPrefix(k, prefix) {
			delete(metaCache.m, k)
		}
	}
	metaCache.Unlock()
}

// gcDropped removes the directories of drops a crash interrupted.
func (s *Store) gcDropped(gs *GCStats) error {
	names, err := s.suffixed(dropSuffix)
	if err != nil {
		return err
	}
	var errs []error
	for _, name := range names {
		s.mu.Lock()
		busy := s.dropping[name]
		s.mu.Unlock()
		if busy {
			continue // a drop of this Store removes it
		}
		if err := s.fs.RemoveAll(filepath.Join(s.streamsDir(), name+dropSuffix)); err != nil {
			errs = append(errs, err)
			continue
		}
		gs.RemovedDropped++
	}
	if gs.RemovedDropped > 0 {
		errs = append(errs, s.fs.SyncDir(s.streamsDir()))
	}
	return errors.Join(errs...)
}
