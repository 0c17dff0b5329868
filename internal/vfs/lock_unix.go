//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd || illumos

package vfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Lock takes flock(LOCK_EX|LOCK_NB) on the lock file. flock locks belong to
// the open file description, so two Locks in one process conflict as well
// as Locks in two processes (on local file systems; NFS may emulate flock
// with per-process locks). The file is truncated only once the lock is
// held, so a failed Lock can still read the holder's pid.
func (osFS) Lock(name string) (io.Closer, error) {
	name = filepath.Clean(name)
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &LockError{Path: name, PID: readPID(f)}
		}
		return nil, &fs.PathError{Op: "lock", Path: name, Err: err}
	}
	if err := writePID(f); err != nil {
		return nil, errors.Join(err, f.Close()) // closing releases the lock
	}
	return &osLock{f: f}, nil
}

// flock calls flock(2), retrying on EINTR.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}

// writePID replaces the lock file's content with the caller's pid.
func writePID(f *os.File) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt(pidContent(os.Getpid()), 0)
	return err
}

// readPID returns the pid in the lock file, 0 if unreadable.
func readPID(f *os.File) int {
	b := make([]byte, maxPIDLen)
	n, _ := f.ReadAt(b, 0)
	return parsePID(b[:n])
}

// osLock is a held flock; closing the file releases it.
type osLock struct{ f *os.File }

func (l *osLock) Close() error {
	return errors.Join(flock(l.f, syscall.LOCK_UN), l.f.Close())
}
