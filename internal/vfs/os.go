package vfs

import (
	"errors"
	"os"
	"path/filepath"
)

// Default is the operating system's file system, through package os. Its
// Files are *os.File.
var Default FS = osFS{}

type osFS struct{}

func (osFS) Create(name string) (File, error) {
	return openOS(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC)
}

func (osFS) CreateNew(name string) (File, error) {
	return openOS(name, os.O_RDWR|os.O_CREATE|os.O_EXCL)
}

func (osFS) Open(name string) (File, error) { return openOS(name, os.O_RDONLY) }

func (osFS) OpenAppend(name string) (File, error) {
	return openOS(name, os.O_RDWR|os.O_APPEND)
}

// openOS opens the cleaned name, returning a nil interface on error.
func openOS(name string, flag int) (File, error) {
	f, err := os.OpenFile(filepath.Clean(name), flag, 0o666)
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (osFS) Remove(name string) error { return os.Remove(filepath.Clean(name)) }

func (osFS) RemoveAll(dir string) error { return os.RemoveAll(filepath.Clean(dir)) }

func (osFS) Rename(oldname, newname string) error {
	return os.Rename(filepath.Clean(oldname), filepath.Clean(newname))
}

func (osFS) MkdirAll(dir string, perm os.FileMode) error {
	return os.MkdirAll(filepath.Clean(dir), perm)
}

func (osFS) ReadDir(dir string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Clean(dir)) // sorted by name
	if err != nil {
		return nil, err
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names, nil
}

func (osFS) Stat(name string) (os.FileInfo, error) { return os.Stat(filepath.Clean(name)) }

func (osFS) SyncDir(dir string) error {
	d, err := os.Open(filepath.Clean(dir))
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}
