package tsq

import (
	"sync/atomic"

	"github.com/tsqdb/tsq/internal/vfs"
)

// countingFS counts every successful fsync through the store's file
// system, of files and of directories, for Metrics.FsyncsMaintenance
// (all fsyncs less the data fsyncs counted in Metrics.Fsyncs).
type countingFS struct {
	vfs.FS
	n *atomic.Uint64
}

type countingFile struct {
	vfs.File
	n *atomic.Uint64
}

func (f countingFile) Sync() error {
	err := f.File.Sync()
	if err == nil {
		f.n.Add(1)
	}
	return err
}

// Unwrap returns the inner file (see vfs.StartWriteback).
func (f countingFile) Unwrap() vfs.File { return f.File }

func (c countingFS) wrap(f vfs.File, err error) (vfs.File, error) {
	if err != nil {
		return f, err
	}
	return countingFile{f, c.n}, nil
}

func (c countingFS) Create(name string) (vfs.File, error)     { return c.wrap(c.FS.Create(name)) }
func (c countingFS) CreateNew(name string) (vfs.File, error)  { return c.wrap(c.FS.CreateNew(name)) }
func (c countingFS) Open(name string) (vfs.File, error)       { return c.wrap(c.FS.Open(name)) }
func (c countingFS) OpenAppend(name string) (vfs.File, error) { return c.wrap(c.FS.OpenAppend(name)) }

func (c countingFS) SyncDir(dir string) error {
	err := c.FS.SyncDir(dir)
	if err == nil {
		c.n.Add(1)
	}
	return err
}
