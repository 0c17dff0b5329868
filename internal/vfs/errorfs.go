package vfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"
)

// OpKind classifies the operations ErrorFS counts and can fail.
type OpKind uint8

const (
	OpCreate   OpKind = iota // FS.Create
	OpOpen                   // FS.Open, FS.OpenAppend
	OpWrite                  // File.Write
	OpSync                   // File.Sync
	OpRename                 // FS.Rename
	OpRemove                 // FS.Remove, FS.RemoveAll
	OpSyncDir                // FS.SyncDir
	OpTruncate               // File.Truncate
	OpMkdir                  // FS.MkdirAll
	OpRead                   // File.Read, File.ReadAt
	OpLock                   // FS.Lock
	numOpKinds
)

var opNames = [numOpKinds]string{
	"create", "open", "write", "sync", "rename", "remove", "syncdir",
	"truncate", "mkdir", "read", "lock",
}

func (k OpKind) String() string {
	if k < numOpKinds {
		return opNames[k]
	}
	return fmt.Sprintf("OpKind(%d)", uint8(k))
}

// OpKinds returns every OpKind, for tests that loop over all of them.
func OpKinds() []OpKind {
	kinds := make([]OpKind, numOpKinds)
	for i := range kinds {
		kinds[i] = OpKind(i)
	}
	return kinds
}

// ErrInjected is matched (errors.Is) by every failure ErrorFS injects,
// alongside the error the test asked for.
var ErrInjected = errors.New("vfs: injected error")

// injectedError is an injected failure of an op: it matches ErrInjected and
// err.
type injectedError struct {
	kind OpKind
	err  error
}

func (e *injectedError) Error() string {
	return fmt.Sprintf("vfs: injected %s error: %v", e.kind, e.err)
}

func (e *injectedError) Unwrap() []error { return []error{ErrInjected, e.err} }

// FailOption modifies a FailAfter injection.
type FailOption uint8

const (
	// Sticky keeps failing every later operation of the kind, as a dead
	// disk does; without it only one operation fails.
	Sticky FailOption = 1 << iota
	// PartialWrite makes a failing OpWrite first write the first half of
	// its buffer and report that count, as a full disk does.
	PartialWrite
	// LoseUnsynced makes a failing OpSync of a MemFS file drop what was
	// appended since its last successful sync from the disk for good, as
	// Linux may after a failed fsync: the bytes still read back, but no
	// later sync writes them (until they are written again); a crash
	// image has zeros there.
	LoseUnsynced
)

// ErrorFS wraps an FS, counts its operations by kind and fails chosen ones.
// The Files it returns are wrapped too. An injected failure happens before
// the inner operation, which is then not performed (except the prefix of a
// PartialWrite). Safe for concurrent use.
type ErrorFS struct {
	inner FS

	mu     sync.Mutex
	ops    [numOpKinds]int      // operations seen, failed ones included
	fired  [numOpKinds]int      // failures injected
	faults [numOpKinds]*failure // armed injection per kind, nil if none
}

// failure is an armed injection: operation number at (counted by ops) and,
// if sticky, every one after it fails with err.
type failure struct {
	at   int
	err  error
	opts FailOption
}

// NewErrorFS wraps inner; nothing fails until FailAfter.
func NewErrorFS(inner FS) *ErrorFS { return &ErrorFS{inner: inner} }

// FailAfter makes the n-th future operation of kind fail (n <= 0: the next
// one), with an error matching both ErrInjected and err; a nil err means
// syscall.EIO (pass syscall.ENOSPC for a full disk). It replaces any
// injection armed for kind.
func (e *ErrorFS) FailAfter(kind OpKind, n int, err error, opts ...FailOption) {
	if err == nil {
		err = syscall.EIO
	}
	f := &failure{err: err}
	for _, o := range opts {
		f.opts |= o
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	f.at = e.ops[kind] + n
	e.faults[kind] = f
}

// Disarm removes every armed injection; counts are kept.
func (e *ErrorFS) Disarm() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.faults = [numOpKinds]*failure{}
}

// Ops returns the number of operations of kind seen so far, including
// failed ones.
func (e *ErrorFS) Ops(kind OpKind) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.ops[kind]
}

// Injected returns the number of failures of kind injected so far.
func (e *ErrorFS) Injected(kind OpKind) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.fired[kind]
}

// op counts an operation of kind and returns the failure to inject, if
// any, with its options.
func (e *ErrorFS) op(kind OpKind) (FailOption, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	i := e.ops[kind]
	e.ops[kind]++
	f := e.faults[kind]
	if f == nil || i < f.at {
		return 0, nil
	}
	if f.opts&Sticky == 0 {
		e.faults[kind] = nil
	}
	e.fired[kind]++
	return f.opts, &injectedError{kind: kind, err: f.err}
}

// pathOp counts an operation and returns its injected failure as a
// *fs.PathError, or nil.
func (e *ErrorFS) pathOp(kind OpKind, op, name string) error {
	if _, err := e.op(kind); err != nil {
		return &fs.PathError{Op: op, Path: name, Err: err}
	}
	return nil
}

// Create implements FS.
func (e *ErrorFS) Create(name string) (File, error) {
	if err := e.pathOp(OpCreate, "open", name); err != nil {
		return nil, err
	}
	return e.wrap(e.inner.Create(name))
}

// CreateNew implements FS.
func (e *ErrorFS) CreateNew(name string) (File, error) {
	if err := e.pathOp(OpCreate, "open", name); err != nil {
		return nil, err
	}
	return e.wrap(e.inner.CreateNew(name))
}

// Open implements FS.
func (e *ErrorFS) Open(name string) (File, error) {
	if err := e.pathOp(OpOpen, "open", name); err != nil {
		return nil, err
	}
	return e.wrap(e.inner.Open(name))
}

// OpenAppend implements FS.
func (e *ErrorFS) OpenAppend(name string) (File, error) {
	if err := e.pathOp(OpOpen, "open", name); err != nil {
		return nil, err
	}
	return e.wrap(e.inner.OpenAppend(name))
}

func (e *ErrorFS) wrap(f File, err error) (File, error) {
	if err != nil {
		return nil, err
	}
	return &errorFile{File: f, fs: e}, nil
}

// Remove implements FS.
func (e *ErrorFS) Remove(name string) error {
	if err := e.pathOp(OpRemove, "remove", name); err != nil {
		return err
	}
	return e.inner.Remove(name)
}

// RemoveAll implements FS.
func (e *ErrorFS) RemoveAll(dir string) error {
	if err := e.pathOp(OpRemove, "removeall", dir); err != nil {
		return err
	}
	return e.inner.RemoveAll(dir)
}

// Rename implements FS.
func (e *ErrorFS) Rename(oldname, newname string) error {
	if _, err := e.op(OpRename); err != nil {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: err}
	}
	return e.inner.Rename(oldname, newname)
}

// MkdirAll implements FS.
func (e *ErrorFS) MkdirAll(dir string, perm os.FileMode) error {
	if err := e.pathOp(OpMkdir, "mkdir", dir); err != nil {
		return err
	}
	return e.inner.MkdirAll(dir, perm)
}

// ReadDir implements FS; it is neither counted nor failed.
func (e *ErrorFS) ReadDir(dir string) ([]string, error) { return e.inner.ReadDir(dir) }

// Stat implements FS; it is neither counted nor failed.
func (e *ErrorFS) Stat(name string) (os.FileInfo, error) { return e.inner.Stat(name) }

// SyncDir implements FS.
func (e *ErrorFS) SyncDir(dir string) error {
	if err := e.pathOp(OpSyncDir, "sync", dir); err != nil {
		return err
	}
	return e.inner.SyncDir(dir)
}

// Lock implements FS.
func (e *ErrorFS) Lock(name string) (io.Closer, error) {
	if err := e.pathOp(OpLock, "lock", name); err != nil {
		return nil, err
	}
	return e.inner.Lock(name)
}

// errorFile is a File of an ErrorFS. Stat, Name and Close pass through.
type errorFile struct {
	File
	fs *ErrorFS
}

func (f *errorFile) Read(p []byte) (int, error) {
	if err := f.fs.pathOp(OpRead, "read", f.Name()); err != nil {
		return 0, err
	}
	return f.File.Read(p)
}

func (f *errorFile) ReadAt(p []byte, off int64) (int, error) {
	if err := f.fs.pathOp(OpRead, "read", f.Name()); err != nil {
		return 0, err
	}
	return f.File.ReadAt(p, off)
}

func (f *errorFile) Write(p []byte) (int, error) {
	opts, err := f.fs.op(OpWrite)
	if err == nil {
		return f.File.Write(p)
	}
	n := 0
	if opts&PartialWrite != 0 {
		var werr error
		if n, werr = f.File.Write(p[:len(p)/2]); werr != nil {
			return n, werr
		}
	}
	return n, &fs.PathError{Op: "write", Path: f.Name(), Err: err}
}

func (f *errorFile) Sync() error {
	opts, err := f.fs.op(OpSync)
	if err != nil {
		if l, ok := f.File.(interface{ loseUnsynced() }); ok && opts&LoseUnsynced != 0 {
			l.loseUnsynced()
		}
		return &fs.PathError{Op: "sync", Path: f.Name(), Err: err}
	}
	return f.File.Sync()
}

func (f *errorFile) Truncate(size int64) error {
	if err := f.fs.pathOp(OpTruncate, "truncate", f.Name()); err != nil {
		return err
	}
	return f.File.Truncate(size)
}
