package tsq

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/tsqdb/tsq/internal/vfs"
)

// GCStats reports what GC did to the staging area.
type GCStats struct {
	// Removed counts staging directories removed: abandoned (no running
	// import), rolled back (a commit that never reached its journal
	// record) or expired.
	Removed int
	// RolledForward counts committed imports whose segments GC moved
	// into their stream (a crash between the journal record and the end
	// of the commit).
	RolledForward int
	// Expired counts staging directories older than Options.StagingTTL
	// removed (or, for an import of this Store, cancelled).
	Expired int
	// Skipped counts directories left alone: running imports, and
	// streams another process holds.
	Skipped int
	// RemovedStreams counts streams removed because an import created
	// them and never committed (import_fresh.go).
	RemovedStreams int
	// RemovedDropped counts the directories of dropped streams removed
	// (a drop a crash interrupted; drop.go).
	RemovedDropped int
}

// GC settles the store's staging area (<store>/staging): the staging
// directory of an import that is not running is removed, or rolled
// forward into its stream if its commit reached the journal; one older
// than Options.StagingTTL is removed even if its import still runs
// (an import of this Store is cancelled; one in another process finds
// its staging gone and fails at commit). A stream held by another
// process is left to that process, but for expired staging. Then it
// removes the streams that imports created and never committed (a
// killed import). Open runs GC; call it again at any time.
func (s *Store) GC(ctx context.Context) (GCStats, error) {
	var gs GCStats
	if s.o.ReadOnly {
		return gs, fmt.Errorf("tsq: gc: %w", ErrReadOnly)
	}
	fsys, sdir := s.fs, s.stagingDir()
	names, err := fsys.ReadDir(sdir)
	if errors.Is(err, fs.ErrNotExist) {
		names, err = nil, nil
	}
	if err != nil {
		return gs, fmt.Errorf("tsq: gc: %w", err)
	}
	done := map[string]bool{} // streams settled
	var errs []error
	for _, n := range names {
		if err := ctx.Err(); err != nil {
			return gs, err
		}
		path := filepath.Join(sdir, n)
		id, stream, suffix, ok := parseStagingName(n)
		if !ok {
			continue // not ours
		}
		if suffix == expiredSuffix { // an interrupted expiry
			errs = append(errs, s.gcRemove(path, &gs))
			continue
		}
		expired := s.expired(path)
		if v, live := liveImports.Load(filepath.Join(sdir, id)); live {
			if run := v.(*importRun); expired && run.s == s && suffix == "" {
				run.expire()
				gs.Expired++
			} else {
				gs.Skipped++
			}
			continue
		}
		if done[stream] {
			continue
		}
		settled, err := s.gcStream(stream, &gs)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if settled {
			done[stream] = true
			continue
		}
		// Another process holds the stream: only expired staging goes.
		if expired && suffix == "" {
			// Rename first: the owner's commit claims by renaming too, so
			// exactly one of the two wins.
			if err := fsys.Rename(path, path+expiredSuffix); err == nil {
				gs.Expired++
				errs = append(errs, s.gcRemove(path+expiredSuffix, &gs))
			}
			continue
		}
		gs.Skipped++
	}
	// Then the streams imports created: their staging is settled now.
	errs = append(errs, s.gcFresh(&gs), s.gcDropped(&gs))
	if err := errors.Join(errs...); err != nil {
		return gs, fmt.Errorf("tsq: gc: %w", err)
	}
	return gs, nil
}

func (s *Store) expired(path string) bool {
	fi, err := s.fs.Stat(path)
	return err == nil && time.Since(fi.ModTime()) > s.o.StagingTTL
}

func (s *Store) gcRemove(path string, gs *GCStats) error {
	if err := s.fs.RemoveAll(path); err != nil {
		return err
	}
	gs.Removed++
	return s.fs.SyncDir(filepath.Dir(path))
}

// gcStream settles the staging of stream if this process can: through
// the open stream of this Store, or under a short-lived lock of the
// stream. It reports false if another process holds the stream.
func (s *Store) gcStream(stream string, gs *GCStats) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false, ErrClosed
	}
	if st := s.streams[stream]; st != nil {
		st.mu.Lock()
		defer st.mu.Unlock()
		if st.imp.active {
			gs.Skipped++ // its import's own staging is live; the rest waits
			return true, nil
		}
		rolled, removed, err := rollStaging(s, st.name, st.dir)
		gs.RolledForward += rolled
		gs.Removed += removed
		if err == nil && rolled > 0 {
			// segments appeared under the open stream: reload it
			st.broken = errors.New("import rolled forward by gc")
			err = st.recover()
		}
		return true, err
	}
	dir := filepath.Join(s.streamsDir(), stream)
	if _, err := s.fs.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		// no stream: nothing can be committed into it
		rolled, removed, err := rollStaging(s, stream, dir)
		gs.RolledForward += rolled
		gs.Removed += removed
		return true, err
	}
	lk, err := s.fs.Lock(filepath.Join(dir, "LOCK"))
	if errors.Is(err, vfs.ErrLocked) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer lk.Close()
	rolled, removed, err := rollStaging(s, stream, dir)
	gs.RolledForward += rolled
	gs.Removed += removed
	return true, err
}

// expire cancels a running import whose staging outlived the TTL.
func (run *importRun) expire() {
	run.expiredByGC.Store(true)
	run.cancel()
}
