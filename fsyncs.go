package tsq

import (
	"sync/atomic"

	"github.com/tsqdb/tsq/internal/vfs"
)

// countingFS counts every successful fsync through the store's file
// system, of files and of directories, for Metrics.FsyncsMaintenance
// (all fsyncs less the data fsyncs counted in Metrics.Fsyncs).
type countingFS struct {
	vfs.WrapFS
	n *atomic.Uint64
}

func newCountingFS(inner vfs.FS, n *atomic.Uint64) countingFS {
	return countingFS{vfs.WrapFS{FS: inner, File: func(f vfs.File) vfs.File { return countingFile{f, n} }}, n}
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

// Unwrap returns the inner file (see vfs.OSFile).
func (f countingFile) Unwrap() vfs.File { return f.File }

func (c countingFS) SyncDir(dir string) error {
	err := c.FS.SyncDir(dir)
	if err == nil {
		c.n.Add(1)
	}
	return err
}
