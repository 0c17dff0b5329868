package vfs

import (
	"os"
	"path/filepath"
)

// pendingFile is an OS file whose writer holds bytes not yet written
// (directFile, uncachedFile): ready writes them, so that what reads the
// file (Read, ReadAt, Stat, Truncate) sees every byte written. off is
// the file offset Read and Write share.
type pendingFile struct {
	f     *os.File
	off   int64
	ready func() error
}

func (p *pendingFile) Read(b []byte) (int, error) {
	if err := p.ready(); err != nil {
		return 0, err
	}
	n, err := p.f.ReadAt(b, p.off)
	p.off += int64(n)
	return n, err
}

func (p *pendingFile) ReadAt(b []byte, off int64) (int, error) {
	if err := p.ready(); err != nil {
		return 0, err
	}
	return p.f.ReadAt(b, off)
}

func (p *pendingFile) Stat() (os.FileInfo, error) {
	if err := p.ready(); err != nil {
		return nil, err
	}
	return p.f.Stat()
}

func (p *pendingFile) Truncate(size int64) error {
	if err := p.ready(); err != nil {
		return err
	}
	return p.f.Truncate(size)
}

func (p *pendingFile) Name() string { return filepath.Clean(p.f.Name()) }
