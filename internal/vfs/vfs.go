package vfs

import (
	"io"
	"os"
)

// File is an open file. *os.File implements it.
type File interface {
	io.Reader
	io.ReaderAt
	io.Writer
	io.Closer

	// Sync makes the file's written content and size durable. It does not
	// make the file's directory entry durable; see FS.SyncDir.
	Sync() error
	// Stat describes the file.
	Stat() (os.FileInfo, error)
	// Truncate changes the file's size, zero-filling when it grows. The
	// offset used by Read and Write does not move.
	Truncate(size int64) error
	// Name returns the cleaned name the file was opened with.
	Name() string
}

// FS is a file system. Implementations are safe for concurrent use.
type FS interface {
	// Create creates name, or truncates it if it exists, and opens it
	// read-write.
	Create(name string) (File, error)
	// CreateNew creates name, which must not exist (an error matching
	// fs.ErrExist if it does), and opens it read-write: one step, where
	// Stat then Create would take two and race.
	CreateNew(name string) (File, error)
	// Open opens an existing file read-only.
	Open(name string) (File, error)
	// OpenAppend opens an existing file read-write; every Write goes to the
	// end of the file (O_APPEND). ReadAt reads anywhere.
	OpenAppend(name string) (File, error)
	// Remove removes a file or an empty directory.
	Remove(name string) error
	// RemoveAll removes dir and everything below it. A missing dir is not an
	// error.
	RemoveAll(dir string) error
	// Rename renames oldname to newname, atomically replacing a file at
	// newname.
	Rename(oldname, newname string) error
	// MkdirAll creates dir and any missing parents.
	MkdirAll(dir string, perm os.FileMode) error
	// ReadDir returns the base names of dir's entries, sorted.
	ReadDir(dir string) ([]string, error)
	// Stat describes the named file or directory.
	Stat(name string) (os.FileInfo, error)
	// SyncDir makes the creates, renames and removes of entries in dir
	// durable.
	SyncDir(dir string) error
	// Lock takes an exclusive advisory lock on the lock file name, creating
	// it if needed and writing the caller's pid into it. It fails at once
	// with a *LockError if the lock is held, by this process or another.
	// Closing the result releases the lock.
	Lock(name string) (io.Closer, error)
}
