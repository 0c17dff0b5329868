package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	tsq "github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/ingest"
	"github.com/tsqdb/tsq/query"
)

// Files a statement names in FROM (FROM 'x.csv', read_parquet('y.parquet'))
// are read as tsq import reads them: each into a temporary store of its
// own, bounded in memory as an import is. The process keeps them (a
// fileCache): a shell session queries a file again without reading it
// again, until the file changes (its size or modification time), and
// removes them when it ends.

// maxCachedFiles bounds the files kept; the least recently used one that
// no result reads goes first.
const maxCachedFiles = 16

// fileCache holds the files read, by format and path.
type fileCache struct {
	mu      sync.Mutex
	entries map[string]*cachedFile
	clock   int
}

// cachedFile is one file read into a temporary store.
type cachedFile struct {
	key   string
	size  int64
	mtime time.Time
	store *tsq.Store
	dir   string
	src   query.Source
	refs  int  // the statements reading it
	gone  bool // out of the cache: removed when refs reaches 0
	used  int  // the cache's clock when last taken
}

// remove closes the file's store and removes it.
func (c *cachedFile) remove() error {
	var err error
	if c.store != nil {
		err = c.store.Close()
	}
	return errors.Join(err, os.RemoveAll(c.dir))
}

// files returns the process's cache of files read.
func (e *env) files() *fileCache {
	if e.fileCache == nil {
		e.fileCache = &fileCache{entries: map[string]*cachedFile{}}
	}
	return e.fileCache
}

// take returns path read as format, from the cache when the file has not
// changed since, else read now; the caller gives it back with give.
func (fc *fileCache) take(ctx context.Context, e *env, f query.File) (*cachedFile, error) {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	abs, err := filepath.Abs(f.Path)
	if err != nil {
		abs = f.Path
	}
	key := query.FileStream(query.File{Path: abs, Format: f.Format, Mapping: f.Mapping}) // its path, format and mapping
	fi, statErr := os.Stat(f.Path)
	if c, ok := fc.entries[key]; ok {
		if statErr == nil && fi.Size() == c.size && fi.ModTime().Equal(c.mtime) {
			fc.clock++
			c.refs, c.used = c.refs+1, fc.clock
			return c, nil
		}
		fc.drop(c) // changed: read again
	}
	c, err := readFile(ctx, e, f)
	if err != nil {
		return nil, err
	}
	c.key, c.refs = key, 1
	if statErr == nil { // else (not a regular file) read for this statement only
		fc.clock++
		c.size, c.mtime, c.used = fi.Size(), fi.ModTime(), fc.clock
		fc.entries[key] = c
		fc.evict()
	} else {
		c.gone = true
	}
	return c, nil
}

// give returns c, taken for a statement now done.
func (fc *fileCache) give(c *cachedFile) error {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if c.refs--; c.refs == 0 && c.gone {
		return c.remove()
	}
	return nil
}

// drop takes c out of the cache, removing it once nothing reads it.
func (fc *fileCache) drop(c *cachedFile) {
	delete(fc.entries, c.key)
	c.gone = true
	if c.refs == 0 {
		_ = c.remove()
	}
}

// evict drops the least recently used files that no statement reads
// while more than maxCachedFiles are kept.
func (fc *fileCache) evict() {
	for len(fc.entries) > maxCachedFiles {
		var lru *cachedFile
		for _, c := range fc.entries {
			if c.refs == 0 && (lru == nil || c.used < lru.used) {
				lru = c
			}
		}
		if lru == nil {
			return
		}
		fc.drop(lru)
	}
}

// close removes every file kept; results reading them are done.
func (fc *fileCache) close() error {
	if fc == nil {
		return nil
	}
	fc.mu.Lock()
	defer fc.mu.Unlock()
	var errs []error
	for _, c := range fc.entries {
		delete(fc.entries, c.key)
		errs = append(errs, c.remove())
	}
	return errors.Join(errs...)
}

// readFile imports file f (in its format, or as tsq import guesses,
// with its mapping) into a temporary store.
func readFile(ctx context.Context, e *env, f query.File) (c *cachedFile, err error) {
	path := f.Path
	o := importOptions{guessTime: true}
	if f.Format != "" && f.Format != "parquet" {
		ff, err := ingest.ParseFormat(f.Format)
		if err != nil {
			return nil, err
		}
		o.format = ff
	}
	for _, m := range f.Mapping {
		if err := o.mapping.Set(m); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if strings.HasPrefix(m, "time=") {
			o.guessTime = false
		}
	}
	r, _, closeInput, err := importInput(ctx, e, path, &o)
	if err != nil {
		return nil, err
	}
	defer closeInput()
	dir, err := os.MkdirTemp("", "tsq-file-")
	if err != nil {
		return nil, err
	}
	c = &cachedFile{dir: dir}
	defer func() {
		if err != nil {
			_ = c.remove()
		}
	}()
	if c.store, err = tsq.Open(dir, &tsq.Options{Sync: tsq.SyncNever}); err != nil {
		return nil, err
	}
	name := cmp.Or(streamNameOf(path), "file") // the rows' series, as tsq import names it
	stats, err := importStream(ctx, c.store, name, r, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if stats.Rows == 0 {
		return nil, fmt.Errorf("%s holds no rows", path)
	}
	if c.src, err = c.store.QuerySource(name); err != nil {
		return nil, err
	}
	return c, nil
}

// queryFiles are the files one statement reads, taken from the cache.
type queryFiles struct {
	ctx   context.Context
	e     *env
	taken []*cachedFile
}

// open is query.Options.OpenFile.
func (f *queryFiles) open(file query.File) (query.Source, error) {
	file.Path = f.e.expandHome(file.Path)
	c, err := f.e.files().take(f.ctx, f.e, file)
	if err != nil {
		return nil, err
	}
	f.taken = append(f.taken, c)
	return c.src, nil
}

// close gives the files back.
func (f *queryFiles) close() error {
	var errs []error
	for _, c := range f.taken {
		errs = append(errs, f.e.files().give(c))
	}
	f.taken = nil
	return errors.Join(errs...)
}

// releasing is a result whose last Release calls done: the files it read
// stay until then.
type releasing struct {
	array.RecordReader
	refs atomic.Int64
	done func() error
}

func (r *releasing) Retain() {
	r.refs.Add(1)
	r.RecordReader.Retain()
}

func (r *releasing) Release() {
	r.RecordReader.Release()
	if r.refs.Add(-1) == 0 {
		_ = r.done()
	}
}

// withQueryFiles runs query with o reading the files a statement names;
// the result keeps them until it is released.
func withQueryFiles(ctx context.Context, e *env, o *query.Options, run func(*query.Options) (array.RecordReader, error)) (array.RecordReader, error) {
	files := &queryFiles{ctx: ctx, e: e}
	var opts query.Options
	if o != nil {
		opts = *o
	}
	opts.OpenFile = files.open
	rr, err := run(&opts)
	if err != nil {
		_ = files.close()
		return nil, err
	}
	r := &releasing{RecordReader: rr, done: files.close}
	r.refs.Store(1)
	return r, nil
}
