package tsq

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/tsqdb/tsq/internal/vfs"
)

// A stream that an import creates is marked until the import commits:
// the empty file streams/<stream>~new is made durable before the
// stream's directory is created, and removed once the import's journal
// record is durable. A failed, aborted or cancelled import removes the
// stream it created (directory, then marker), so the store looks as if
// the import never ran; a killed one leaves the marker, and the next
// Open (GC) removes a marked stream that holds no segment and no
// journal record. While marked and empty, a stream is hidden: Streams
// omits it and reads give ErrStreamNotFound.
const freshSuffix = "~new"

// freshState is the in-process side of the marker. Guarded by Store.mu.
type freshState struct {
	marked  bool // streams/<name>~new exists: created by an import not yet committed
	imports int  // imports using the stream
	other   bool // another writer (an append, a retention setting) opened it since
}

func (s *Store) freshMarker(name string) string {
	return filepath.Join(s.streamsDir(), name+freshSuffix)
}

// importStream returns the stream an import writes into, creating it
// marked if it does not exist; with create, a stream that exists is
// ErrStreamExists.
func (s *Store) importStream(name string, create bool) (*stream, error) {
	if err := ValidateStreamName(name); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	if s.o.ReadOnly {
		return nil, streamErr(name, ErrReadOnly)
	}
	if s.dropping[name] {
		return nil, streamErr(name, errDropping)
	}
	if st := s.streams[name]; st != nil {
		if create {
			return nil, streamErr(name, ErrStreamExists)
		}
		if st.fresh.marked {
			st.fresh.imports++
		}
		return st, nil
	}
	dir := filepath.Join(s.streamsDir(), name)
	_, err := s.fs.Stat(dir)
	if err == nil && create {
		return nil, streamErr(name, ErrStreamExists)
	}
	if err == nil {
		return s.openStreamLocked(name, dir)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, streamErr(name, err)
	}
	// A new stream: the marker is durable before the directory exists.
	marker := s.freshMarker(name)
	f, err := s.fs.Create(marker)
	if err == nil {
		err = f.Close()
	}
	if err == nil {
		err = s.fs.SyncDir(s.streamsDir())
	}
	if err != nil {
		_ = s.fs.Remove(marker)
		return nil, fmt.Errorf("tsq: stream %q: create: %w", name, err)
	}
	st, err := s.openStreamLocked(name, dir)
	if err != nil {
		if !errors.Is(err, vfs.ErrLocked) { // else another process made it
			_ = s.fs.RemoveAll(dir)
		}
		_ = s.fs.Remove(marker)
		return nil, err
	}
	st.fresh = freshState{marked: true, imports: 1}
	return st, nil
}

// settleFresh ends an import's use of st. If st was created for imports
// and none committed, no other writer opened it and it is still empty,
// it is closed and removed from disk. committed says the import
// committed: the marker goes, the stream stays.
func (s *Store) settleFresh(st *stream, committed bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := &st.fresh
	if !f.marked {
		return nil
	}
	f.imports--
	if committed {
		// The journal record is durable: the marker has done its work.
		// If removing it fails, the next Open removes it.
		f.marked = false
		if err := s.fs.Remove(s.freshMarker(st.name)); err == nil {
			_ = s.fs.SyncDir(s.streamsDir())
		}
		return nil
	}
	if f.imports > 0 || f.other || s.closed || s.streams[st.name] != st {
		return nil // the last of them settles it; a killed process, the next Open
	}
	st.mu.Lock()
	empty := len(st.segs) == 0 && st.w == nil && st.b.rows == 0 && !st.rolling()
	st.mu.Unlock()
	if !empty {
		return nil
	}
	f.marked = false
	delete(s.streams, st.name)
	// Remove the directory while holding its LOCK, then the marker.
	err := s.fs.RemoveAll(st.dir)
	err = errors.Join(err, st.close())
	if err == nil {
		err = s.fs.SyncDir(s.streamsDir())
	}
	if err == nil {
		if err = s.fs.Remove(s.freshMarker(st.name)); err == nil {
			err = s.fs.SyncDir(s.streamsDir())
		}
	}
	if err != nil {
		return fmt.Errorf("tsq: stream %q: remove the stream the import created: %w", st.name, err)
	}
	return nil
}

// hiddenNew reports whether stream name, whose marker exists, is hidden:
// created by an import that has not committed, and empty.
func (s *Store) hiddenNew(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.streams[name]; st != nil {
		return st.fresh.marked && !st.fresh.other
	}
	return s.pendingNew(name)
}

// pendingNew reports whether stream name, not open in this Store, is
// marked and holds no segment and no journal record (on disk).
func (s *Store) pendingNew(name string) bool {
	if _, err := s.fs.Stat(s.freshMarker(name)); err != nil {
		return false
	}
	has, err := streamHasContent(s.fs, filepath.Join(s.streamsDir(), name))
	return err == nil && !has
}

// streamHasContent reports whether the stream directory dir holds a
// segment or a journal record.
func streamHasContent(fsys vfs.FS, dir string) (bool, error) {
	names, err := fsys.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	for _, n := range names {
		if _, _, ok := parseSegName(n); ok {
			return true, nil
		}
	}
	recs, _, _, err := readJournal(fsys, dir)
	if err != nil {
		return true, err // keep what cannot be read
	}
	return len(recs) > 0, nil
}

// gcFresh settles the markers of streams created by imports that did
// not end in this process: a marked stream with no segment and no
// journal record is removed (a killed import), the marker of any other
// goes. Streams another process holds are left alone.
func (s *Store) gcFresh(gs *GCStats) error {
	names, err := s.suffixed(freshSuffix)
	if err != nil {
		return err
	}
	var errs []error
	for _, name := range names {
		errs = append(errs, s.gcFreshOne(name, gs))
	}
	return errors.Join(errs...)
}

// suffixed returns the stream names of the entries of streams/ named
// <stream><suffix> (markers, dropped directories).
func (s *Store) suffixed(suffix string) ([]string, error) {
	names, err := s.fs.ReadDir(s.streamsDir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		if name, ok := strings.CutSuffix(n, suffix); ok && ValidateStreamName(name) == nil {
			out = append(out, name)
		}
	}
	return out, nil
}

func (s *Store) gcFreshOne(name string, gs *GCStats) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	marker, dir := s.freshMarker(name), filepath.Join(s.streamsDir(), name)
	dropMarker := func() error {
		if err := s.fs.Remove(marker); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return s.fs.SyncDir(s.streamsDir())
	}
	if st := s.streams[name]; st != nil {
		if st.fresh.marked {
			gs.Skipped++ // its import runs in this process and settles it
			return nil
		}
		return dropMarker()
	}
	if _, err := s.fs.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return dropMarker() // a crash before the directory was made, or after it was removed
	}
	lk, err := s.fs.Lock(filepath.Join(dir, "LOCK"))
	if errors.Is(err, vfs.ErrLocked) {
		gs.Skipped++ // an import in another process, or its stream in use
		return nil
	}
	if err != nil {
		return err
	}
	has, err := streamHasContent(s.fs, dir)
	if err == nil && !has {
		if err = s.fs.RemoveAll(dir); err == nil {
			err = s.fs.SyncDir(s.streamsDir())
			gs.RemovedStreams++
		}
	}
	err = errors.Join(err, lk.Close())
	if err != nil {
		return err
	}
	return dropMarker()
}
