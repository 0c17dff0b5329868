package tsq

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Staging directory names: <store>/staging/<id>, where id is
// <stream>~<ns hex>-<random hex>. A directory being committed is renamed
// to <id>.commit first; one being removed by GC to <id>.expired.
const (
	commitSuffix  = ".commit"
	expiredSuffix = ".expired"
)

// liveImports holds the running imports of this process by staging
// directory, so that GC and recovery never remove a live one.
var liveImports sync.Map // string -> *importRun

func (s *Store) stagingDir() string { return filepath.Join(s.dir, "staging") }

// parseStagingName splits a staging directory name into the import id,
// its stream and its suffix ("", commitSuffix or expiredSuffix).
func parseStagingName(name string) (id, stream, suffix string, ok bool) {
	id = name
	for _, suf := range []string{commitSuffix, expiredSuffix} {
		if strings.HasSuffix(name, suf) {
			id, suffix = strings.TrimSuffix(name, suf), suf
		}
	}
	stream, _, ok = strings.Cut(id, "~")
	if !ok || ValidateStreamName(stream) != nil {
		return "", "", "", false
	}
	return id, stream, suffix, true
}

// step calls the test hook of a commit step.
func (run *importRun) step(name string) error {
	if run.o.hook != nil {
		return run.o.hook(name)
	}
	return nil
}

// commit publishes the staged segments as one revision of the stream:
//
//  1. claim: rename staging/<id> to staging/<id>.commit, fsync staging/;
//  2. journal: append the import's record to the stream's JOURNAL and
//     fsync it — the commit point;
//  3. publish: rename each staged segment into the stream directory,
//     fsync it;
//  4. cleanup: remove staging/<id>.commit, fsync staging/.
//
// A crash before 2 leaves a staging directory without a journal record:
// the next open removes it (roll back). A crash after 2 leaves a record:
// the next open moves the remaining segments in (roll forward). Commits
// of appends wait while this runs (the import holds the stream).
func (run *importRun) commit() error {
	t0 := time.Now()
	defer func() { run.stats.Commit = time.Since(t0) }()
	s, st, fsys := run.s, run.st, run.s.fs
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		run.abandon()
		return fmt.Errorf("stream %q: %w", st.name, ErrClosed)
	}
	cdir := run.dir + commitSuffix
	err := run.step("claim")
	if err == nil {
		if err = fsys.Rename(run.dir, cdir); errors.Is(err, fs.ErrNotExist) {
			err = errImportExpired
		}
	}
	if err == nil {
		err = fsys.SyncDir(s.stagingDir())
	}
	if err != nil {
		run.abandon()
		return fmt.Errorf("commit: %w", err)
	}
	rows := run.rows.Load()
	rec := JournalRecord{ID: run.stats.ID, Source: run.o.Source, Rows: rows, Bytes: run.stats.Bytes, Time: time.Now().UnixNano()}
	if rows > 0 {
		rec.FirstSeq, rec.LastSeq = run.base, run.base+uint64(rows)-1
	}
	for _, g := range run.staged {
		rec.Segments = append(rec.Segments, g.name)
	}
	if err := run.step("journal"); err != nil {
		return run.resolve(err)
	}
	if err := appendJournal(fsys, st.dir, &rec); err != nil {
		return run.resolve(err)
	}
	if err := run.step("publish"); err != nil {
		return run.resolve(err)
	}
	for _, g := range run.staged {
		if err := fsys.Rename(filepath.Join(cdir, g.name), filepath.Join(st.dir, g.name)); err != nil {
			return run.resolve(err)
		}
	}
	if err := fsys.SyncDir(st.dir); err != nil {
		return run.resolve(err)
	}
	if err := run.step("cleanup"); err != nil {
		return run.resolve(err)
	}
	if err := fsys.RemoveAll(cdir); err != nil {
		return run.resolve(err)
	}
	if err := fsys.SyncDir(s.stagingDir()); err != nil {
		return run.resolve(err)
	}
	// Readers see the import from here.
	st.applyMerges()
	for _, g := range run.staged {
		sf, err := st.newSegFile(g.name)
		if err != nil {
			return run.resolve(err)
		}
		sf.sealed, sf.blocks, sf.rows, sf.gen = true, g.blocks, g.rows, 1
		st.segs = append(st.segs, sf)
	}
	if rows > 0 {
		st.next = max(st.next, rec.LastSeq+1)
	}
	st.publish()
	if st.dur.hasMark && len(st.dur.pending) == 0 {
		// Every sealed segment is durable (prepareImport synced the
		// rolls'): a crash need not check the imported ones (durable.go).
		// Best effort: the next tick or Close retries.
		_ = st.advanceMark()
	}
	run.stats.FirstSeq, run.stats.LastSeq = rec.FirstSeq, rec.LastSeq
	return nil
}

// resolve settles a commit that failed at or after the journal step:
// the stream is reloaded from disk exactly as an open would, which rolls
// the import forward if its journal record is durable and back if not.
// The import succeeded if the journal holds its record. Caller holds mu.
func (run *importRun) resolve(cause error) error {
	st := run.st
	st.broken = cause
	liveImports.Delete(run.dir) // so that recovery settles its staging
	if err := st.recover(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	recs, _, _, err := readJournal(st.s.fs, st.dir)
	if err != nil {
		return fmt.Errorf("commit: %w (after: %w)", err, cause)
	}
	for _, r := range recs {
		if r.ID == run.stats.ID {
			run.stats.FirstSeq, run.stats.LastSeq = r.FirstSeq, r.LastSeq
			return nil
		}
	}
	return fmt.Errorf("commit: %w", cause)
}

// rollImports settles the staging directories of this stream left by
// imports that are not running: committed ones (a journal record) are
// rolled forward, the others removed. Caller holds mu and the stream's
// LOCK; called by load, before the segments are listed.
func (st *stream) rollImports() error {
	_, _, err := rollStaging(st.s, st.name, st.dir)
	if err != nil {
		return fmt.Errorf("tsq: stream %q: staging: %w", st.name, err)
	}
	return nil
}

// rollStaging settles the staging directories of stream (whose LOCK the
// caller holds) and returns how many it rolled forward and removed.
func rollStaging(s *Store, stream, dir string) (rolled, removed int, err error) {
	fsys := s.fs
	sdir := s.stagingDir()
	names, err := fsys.ReadDir(sdir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	var recs map[string]*JournalRecord
	for _, n := range names {
		id, name, suffix, ok := parseStagingName(n)
		if !ok || name != stream {
			continue
		}
		path := filepath.Join(sdir, n)
		if _, live := liveImports.Load(filepath.Join(sdir, id)); live {
			continue
		}
		if suffix == commitSuffix {
			if recs == nil {
				list, _, _, err := readJournal(fsys, dir)
				if err != nil {
					return rolled, removed, err
				}
				recs = map[string]*JournalRecord{}
				for i := range list {
					recs[list[i].ID] = &list[i]
				}
			}
			if r := recs[id]; r != nil {
				if err := rollForward(fsys, path, dir, r); err != nil {
					return rolled, removed, err
				}
				rolled++
			}
		}
		if err := fsys.RemoveAll(path); err != nil {
			return rolled, removed, err
		}
		removed++
	}
	if removed > 0 {
		err = fsys.SyncDir(sdir)
	}
	return rolled, removed, err
}

// rollForward moves the segments of a committed import that are still
// in its staging directory into the stream directory.
func rollForward(fsys interface {
	Stat(string) (fs.FileInfo, error)
	Rename(string, string) error
	SyncDir(string) error
}, from, dir string, r *JournalRecord) error {
	moved := false
	for _, name := range r.Segments {
		src, dst := filepath.Join(from, name), filepath.Join(dir, name)
		if _, err := fsys.Stat(src); err == nil {
			if err := fsys.Rename(src, dst); err != nil {
				return err
			}
			moved = true
		} else if _, err := fsys.Stat(dst); err != nil {
			return fmt.Errorf("import %s: committed segment %s is in neither %s nor %s", r.ID, name, from, dir)
		}
	}
	if moved {
		return fsys.SyncDir(dir)
	}
	return nil
}
