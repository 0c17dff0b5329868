package tsq

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tsqdb/tsq/internal/vfs"
)

// Store is an open store directory. Its methods are safe for concurrent
// use. A writable Store opens a stream for writing (locking it and
// recovering its active segment) the first time any method touches it;
// a read-only Store never writes, locks or truncates.
type Store struct {
	dir string
	o   Options
	fs  vfs.FS

	mu       sync.Mutex // guards streams, dropping and closed
	streams  map[string]*stream
	dropping map[string]bool // streams a DropStream of this Store is removing (drop.go)
	closed   bool
	dropHook func(dropPoint) error // tests: stops a drop at a crash point

	m     metrics
	cache *blockCache // nil under NoCache
	cm    storeCompaction

	stopSync chan struct{} // closed by Close to stop the interval syncer
	syncDone chan struct{} // closed when the interval syncer has stopped

	now       func() time.Time // the clock of retention; tests replace it before use
	retention maintenance      // the retention loop (retention_loop.go)
}

// Open opens the store in dir, creating dir unless o.ReadOnly. A nil o
// means default Options.
func Open(dir string, o *Options) (*Store, error) {
	opts, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Store{dir: filepath.Clean(dir), o: opts, streams: map[string]*stream{}, now: time.Now}
	s.fs = newCountingFS(opts.FS, &s.m.fsyncsAll)
	if s.cache, err = newBlockCache(opts.CacheBytes, &s.m); err != nil {
		return nil, err
	}
	if opts.ReadOnly {
		fi, err := s.fs.Stat(s.dir)
		if err != nil {
			s.cache.close()
			return nil, fmt.Errorf("tsq: open %s read-only: %w", dir, err)
		}
		if !fi.IsDir() {
			s.cache.close()
			return nil, fmt.Errorf("tsq: open %s read-only: not a directory", dir)
		}
		return s, nil
	}
	if err := s.fs.MkdirAll(s.streamsDir(), 0o755); err != nil {
		s.cache.close()
		return nil, fmt.Errorf("tsq: open %s: %w", dir, err)
	}
	// Make the store and streams directories durable: a new stream's
	// directory entry is synced into streams/ when the stream is created.
	for _, d := range []string{s.dir, filepath.Dir(s.dir)} {
		if err := s.fs.SyncDir(d); err != nil {
			s.cache.close()
			return nil, fmt.Errorf("tsq: open %s: %w", dir, err)
		}
	}
	// Settle imports left by a crash (gc.go).
	if _, err := s.GC(context.Background()); err != nil {
		s.cache.close()
		return nil, fmt.Errorf("tsq: open %s: %w", dir, err)
	}
	if opts.Sync != SyncAlways && !opts.ReadOnly {
		s.stopSync, s.syncDone = make(chan struct{}), make(chan struct{})
		go s.syncLoop()
	}
	s.startRetention()
	s.startCompactor()
	return s, nil
}

func (s *Store) streamsDir() string { return filepath.Join(s.dir, "streams") }

// Dir returns the store directory.
func (s *Store) Dir() string { return s.dir }

// stream returns the named stream, opening it on first use. create says
// whether a missing stream is created (writable stores only); otherwise a
// missing stream gives ErrStreamNotFound.
func (s *Store) stream(name string, create bool) (*stream, error) {
	if err := ValidateStreamName(name); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	if create && s.o.ReadOnly {
		return nil, streamErr(name, ErrReadOnly)
	}
	if s.dropping[name] {
		return nil, streamErr(name, errDropping)
	}
	if st := s.streams[name]; st != nil {
		if st.fresh.marked && !st.fresh.other {
			if !create {
				// created by an import that has not committed yet
				return nil, streamErr(name, ErrStreamNotFound)
			}
			st.fresh.other = true // this writer would have created it too
		}
		return st, nil
	}
	dir := filepath.Join(s.streamsDir(), name)
	if _, err := s.fs.Stat(dir); errors.Is(err, fs.ErrNotExist) && !create {
		return nil, streamErr(name, ErrStreamNotFound)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, streamErr(name, err)
	}
	if !create && s.pendingNew(name) {
		return nil, streamErr(name, ErrStreamNotFound)
	}
	return s.openStreamLocked(name, dir)
}

// openStreamLocked opens stream name in dir and adds it to s.streams.
// Caller holds s.mu.
func (s *Store) openStreamLocked(name, dir string) (*stream, error) {
	st := &stream{s: s, name: name, dir: dir, writable: !s.o.ReadOnly, files: map[string]vfs.File{}}
	st.soft.init()
	var err error
	if st.writable {
		err = st.openWriter()
	} else {
		err = st.refresh()
	}
	if err != nil {
		return nil, errors.Join(err, st.close())
	}
	s.streams[name] = st
	return st, nil
}

// Recovered returns what opening the stream for writing found and
// repaired: the torn tail cut from its active segment, stale temp files
// and torn segment files removed. It opens the stream if this Store has
// not yet (a writable store only).
func (s *Store) Recovered(stream string) (Recovery, error) {
	if s.o.ReadOnly {
		return Recovery{}, fmt.Errorf("tsq: stream %q: recovery: %w", stream, ErrReadOnly)
	}
	st, err := s.stream(stream, false)
	if err != nil {
		return Recovery{}, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.rec, nil
}

// Streams lists the streams in the store directory.
func (s *Store) Streams() ([]string, error) {
	names, err := s.fs.ReadDir(s.streamsDir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("tsq: list streams: %w", err)
	}
	marked := map[string]bool{}
	for _, n := range names {
		if name, ok := strings.CutSuffix(n, freshSuffix); ok {
			marked[name] = true
		}
	}
	out := names[:0]
	for _, n := range names {
		if ValidateStreamName(n) != nil {
			continue
		}
		if marked[n] && s.hiddenNew(n) {
			continue // created by an import that has not committed
		}
		out = append(out, n)
	}
	return out, nil
}

// Close flushes and fsyncs every stream, closes its files and releases
// its lock. The Store cannot be used afterwards; Close again returns nil.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	streams := s.streams
	s.mu.Unlock()
	s.stopCompactor()
	if s.stopSync != nil {
		close(s.stopSync)
		<-s.syncDone
	}
	s.stopRetention()
	var errs []error
	for _, st := range streams {
		errs = append(errs, st.close())
	}
	s.cache.close()
	return errors.Join(errs...)
}

// syncLoop writes every stream's buffered frame and, under SyncInterval,
// fsyncs its active segment each SyncInterval.
func (s *Store) syncLoop() {
	defer close(s.syncDone)
	t := time.NewTicker(s.o.SyncInterval)
	defer t.Stop()
	for {
		select {
		case <-s.stopSync:
			return
		case <-t.C:
		}
		s.mu.Lock()
		streams := make([]*stream, 0, len(s.streams))
		for _, st := range s.streams {
			streams = append(streams, st)
		}
		s.mu.Unlock()
		for _, st := range streams {
			st.backgroundSync()
		}
	}
}
