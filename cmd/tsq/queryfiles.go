package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/array"
	tsq "github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/ingest"
	"github.com/tsqdb/tsq/query"
)

// queryFiles reads the files a statement names in FROM (FROM 'x.csv',
// read_parquet('y.parquet')) as tsq import reads them: each into a
// temporary store of its own, bounded in memory as an import is, which
// close removes. A file named twice is read once.
type queryFiles struct {
	ctx     context.Context
	e       *env
	sources map[string]query.Source
	stores  []*tsq.Store
	dirs    []string
}

// open is query.Options.OpenFile.
func (f *queryFiles) open(path, format string) (query.Source, error) {
	path = f.e.expandHome(path)
	key := format + ":" + path
	if src, ok := f.sources[key]; ok {
		return src, nil
	}
	o := importOptions{guessTime: true}
	if format != "" && format != "parquet" {
		ff, err := ingest.ParseFormat(format)
		if err != nil {
			return nil, err
		}
		o.format = ff
	}
	r, _, closeInput, err := importInput(f.ctx, f.e, path, &o)
	if err != nil {
		return nil, err
	}
	defer closeInput()
	dir, err := os.MkdirTemp("", "tsq-file-")
	if err != nil {
		return nil, err
	}
	f.dirs = append(f.dirs, dir)
	st, err := tsq.Open(dir, &tsq.Options{Sync: tsq.SyncNever})
	if err != nil {
		return nil, err
	}
	f.stores = append(f.stores, st)
	name := cmp.Or(streamNameOf(path), "file") // the rows' series, as tsq import names it
	stats, err := importStream(f.ctx, st, name, r, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if stats.Rows == 0 {
		return nil, fmt.Errorf("%s holds no rows", path)
	}
	src, err := st.QuerySource(name)
	if err != nil {
		return nil, err
	}
	if f.sources == nil {
		f.sources = map[string]query.Source{}
	}
	f.sources[key] = src
	return src, nil
}

// close closes the temporary stores and removes them.
func (f *queryFiles) close() error {
	var errs []error
	for _, st := range f.stores {
		errs = append(errs, st.Close())
	}
	for _, d := range f.dirs {
		errs = append(errs, os.RemoveAll(d))
	}
	f.stores, f.dirs, f.sources = nil, nil, nil
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
