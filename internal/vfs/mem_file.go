package vfs

import (
	"io"
	"io/fs"
	"os"
	"syscall"
)

// memFile is an open MemFS file. Its fields other than fs, n and name are
// guarded by fs.mu. A file removed or replaced by Rename stays readable and
// writable through open handles, as on POSIX.
type memFile struct {
	fs     *MemFS
	n      *memNode
	name   string
	pos    int64 // offset of the next Read or Write
	write  bool  // opened for writing
	append bool  // every Write goes to the end
	closed bool
}

// check locks fs.mu and reports a closed file or a missing write mode. On a
// nil error the caller must unlock.
func (f *memFile) check(op string, write bool) error {
	f.fs.mu.Lock()
	var err error
	switch {
	case f.closed:
		err = fs.ErrClosed
	case write && !f.write:
		err = syscall.EBADF
		if op == "truncate" {
			err = syscall.EINVAL // as ftruncate(2) on a read-only fd
		}
	default:
		return nil
	}
	f.fs.mu.Unlock()
	return &fs.PathError{Op: op, Path: f.name, Err: err}
}

func (f *memFile) Read(p []byte) (int, error) {
	if err := f.check("read", false); err != nil {
		return 0, err
	}
	defer f.fs.mu.Unlock()
	if len(p) == 0 {
		return 0, nil
	}
	if f.pos >= int64(len(f.n.data)) {
		return 0, io.EOF
	}
	n := copy(p, f.n.data[f.pos:])
	f.pos += int64(n)
	return n, nil
}

func (f *memFile) ReadAt(p []byte, off int64) (int, error) {
	if err := f.check("read", false); err != nil {
		return 0, err
	}
	defer f.fs.mu.Unlock()
	if off < 0 {
		return 0, &fs.PathError{Op: "readat", Path: f.name, Err: syscall.EINVAL}
	}
	if off >= int64(len(f.n.data)) {
		if len(p) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	n := copy(p, f.n.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (f *memFile) Write(p []byte) (int, error) {
	if err := f.check("write", true); err != nil {
		return 0, err
	}
	defer f.fs.mu.Unlock()
	if f.append {
		f.pos = int64(len(f.n.data))
	}
	f.n.writeAt(p, f.pos)
	f.pos += int64(len(p))
	return len(p), nil
}

func (f *memFile) Truncate(size int64) error {
	if err := f.check("truncate", true); err != nil {
		return err
	}
	defer f.fs.mu.Unlock()
	if size < 0 {
		return &fs.PathError{Op: "truncate", Path: f.name, Err: syscall.EINVAL}
	}
	f.n.truncate(size)
	return nil
}

// loseUnsynced marks the bytes appended since the last Sync as never to
// reach the disk (ErrorFS's LoseUnsynced).
func (f *memFile) loseUnsynced() {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	f.n.loseUnsynced()
}

// Sync makes the content durable. As with fsync(2), a read-only handle may
// sync too.
func (f *memFile) Sync() error {
	if err := f.check("sync", false); err != nil {
		return err
	}
	defer f.fs.mu.Unlock()
	f.n.sync()
	return nil
}

func (f *memFile) Stat() (os.FileInfo, error) {
	if err := f.check("stat", false); err != nil {
		return nil, err
	}
	defer f.fs.mu.Unlock()
	return f.n.info(f.name), nil
}

func (f *memFile) Close() error {
	if err := f.check("close", false); err != nil {
		return err
	}
	defer f.fs.mu.Unlock()
	f.closed = true
	return nil
}

func (f *memFile) Name() string { return f.name }
