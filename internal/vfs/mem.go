package vfs

import (
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// MemFS is an in-memory FS that simulates power loss. Besides the current
// tree it tracks, per file, the content as of its last File.Sync and, per
// directory, the entries as of its last SyncDir; CrashClone returns only
// that durable state. It is safe for concurrent use; one mutex serializes
// every operation, including those on its Files.
//
// MemFS ignores permissions, has no current directory (relative and
// absolute names are the same, rooted at the MemFS root), and cannot Open a
// directory. The root directory always exists and is always durable.
type MemFS struct {
	mu    sync.Mutex
	root  *memNode
	locks map[string]bool // cleaned names of held locks
}

// NewMem returns an empty MemFS.
func NewMem() *MemFS {
	return &MemFS{root: newMemDir(0o755), locks: map[string]bool{}}
}

// splitPath turns a name into its components below the root, nil for the
// root itself. ".." at the root stays at the root.
func splitPath(name string) []string {
	sep := string(filepath.Separator)
	p := strings.TrimPrefix(filepath.Clean(sep+name), sep)
	if p == "" {
		return nil
	}
	return strings.Split(p, sep)
}

// lookupDir walks to the directory holding name's last component and
// returns it with that component, or a nil dir if name is the root. Caller
// holds mu.
func (m *MemFS) lookupDir(op, name string) (*memNode, string, error) {
	parts := splitPath(name)
	if len(parts) == 0 {
		return nil, "", nil
	}
	dir := m.root
	for _, p := range parts[:len(parts)-1] {
		next, ok := dir.children[p]
		switch {
		case !ok:
			return nil, "", &fs.PathError{Op: op, Path: name, Err: syscall.ENOENT}
		case !next.dir:
			return nil, "", &fs.PathError{Op: op, Path: name, Err: syscall.ENOTDIR}
		}
		dir = next
	}
	return dir, parts[len(parts)-1], nil
}

// lookup returns the node at name. Caller holds mu.
func (m *MemFS) lookup(op, name string) (*memNode, error) {
	dir, base, err := m.lookupDir(op, name)
	if err != nil {
		return nil, err
	}
	if dir == nil {
		return m.root, nil
	}
	n, ok := dir.children[base]
	if !ok {
		return nil, &fs.PathError{Op: op, Path: name, Err: syscall.ENOENT}
	}
	return n, nil
}

// Create implements FS.
func (m *MemFS) Create(name string) (File, error) {
	name = filepath.Clean(name)
	m.mu.Lock()
	defer m.mu.Unlock()
	n, err := m.create("open", name)
	if err != nil {
		return nil, err
	}
	return &memFile{fs: m, n: n, name: name, write: true}, nil
}

// CreateNew implements FS.
func (m *MemFS) CreateNew(name string) (File, error) {
	name = filepath.Clean(name)
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, err := m.lookup("open", name); err == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrExist}
	}
	n, err := m.create("open", name)
	if err != nil {
		return nil, err
	}
	return &memFile{fs: m, n: n, name: name, write: true}, nil
}

// create creates or truncates the file name. Caller holds mu.
func (m *MemFS) create(op, name string) (*memNode, error) {
	dir, base, err := m.lookupDir(op, name)
	if err != nil {
		return nil, err
	}
	if dir == nil {
		return nil, &fs.PathError{Op: op, Path: name, Err: syscall.EISDIR}
	}
	n, ok := dir.children[base]
	switch {
	case !ok:
		n = newMemFile()
		dir.children[base] = n
		dir.modTime = n.modTime
	case n.dir:
		return nil, &fs.PathError{Op: op, Path: name, Err: syscall.EISDIR}
	default:
		n.truncate(0)
	}
	return n, nil
}

// Open implements FS.
func (m *MemFS) Open(name string) (File, error) { return m.open(name, false) }

// OpenAppend implements FS.
func (m *MemFS) OpenAppend(name string) (File, error) { return m.open(name, true) }

func (m *MemFS) open(name string, appendOnly bool) (File, error) {
	name = filepath.Clean(name)
	m.mu.Lock()
	defer m.mu.Unlock()
	n, err := m.lookup("open", name)
	if err != nil {
		return nil, err
	}
	if n.dir {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EISDIR}
	}
	return &memFile{fs: m, n: n, name: name, write: appendOnly, append: appendOnly}, nil
}

// Remove implements FS.
func (m *MemFS) Remove(name string) error {
	name = filepath.Clean(name)
	m.mu.Lock()
	defer m.mu.Unlock()
	dir, base, err := m.lookupDir("remove", name)
	if err != nil {
		return err
	}
	if dir == nil {
		return &fs.PathError{Op: "remove", Path: name, Err: syscall.EBUSY}
	}
	n, ok := dir.children[base]
	switch {
	case !ok:
		return &fs.PathError{Op: "remove", Path: name, Err: syscall.ENOENT}
	case n.dir && len(n.children) > 0:
		return &fs.PathError{Op: "remove", Path: name, Err: syscall.ENOTEMPTY}
	}
	delete(dir.children, base)
	return nil
}

// RemoveAll implements FS.
func (m *MemFS) RemoveAll(dir string) error {
	dir = filepath.Clean(dir)
	m.mu.Lock()
	defer m.mu.Unlock()
	parent, base, err := m.lookupDir("removeall", dir)
	switch {
	case err != nil:
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	case parent == nil:
		return &fs.PathError{Op: "removeall", Path: dir, Err: syscall.EINVAL}
	}
	delete(parent.children, base)
	return nil
}

// Rename implements FS. Renaming a directory is allowed onto a missing name
// or an empty directory, never into itself.
func (m *MemFS) Rename(oldname, newname string) error {
	oldname, newname = filepath.Clean(oldname), filepath.Clean(newname)
	m.mu.Lock()
	defer m.mu.Unlock()
	linkErr := func(err error) error {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: err}
	}
	odir, obase, err := m.lookupDir("rename", oldname)
	if err != nil {
		return linkErr(errors.Unwrap(err))
	}
	ndir, nbase, err := m.lookupDir("rename", newname)
	if err != nil {
		return linkErr(errors.Unwrap(err))
	}
	if odir == nil || ndir == nil {
		return linkErr(syscall.EBUSY) // the root
	}
	n, ok := odir.children[obase]
	if !ok {
		return linkErr(syscall.ENOENT)
	}
	if target, ok := ndir.children[nbase]; ok {
		switch {
		case target == n:
			return nil
		case !n.dir && target.dir:
			return linkErr(syscall.EISDIR)
		case n.dir && !target.dir:
			return linkErr(syscall.ENOTDIR)
		case target.dir && len(target.children) > 0:
			return linkErr(syscall.ENOTEMPTY)
		}
	}
	if n.dir && isWithin(splitPath(newname), splitPath(oldname)) {
		return linkErr(syscall.EINVAL)
	}
	delete(odir.children, obase)
	ndir.children[nbase] = n
	return nil
}

// isWithin reports whether path lies strictly below dir.
func isWithin(path, dir []string) bool {
	return len(path) > len(dir) && slices.Equal(path[:len(dir)], dir)
}

// MkdirAll implements FS.
func (m *MemFS) MkdirAll(dir string, perm os.FileMode) error {
	dir = filepath.Clean(dir)
	m.mu.Lock()
	defer m.mu.Unlock()
	n := m.root
	for _, p := range splitPath(dir) {
		next, ok := n.children[p]
		switch {
		case !ok:
			next = newMemDir(perm)
			n.children[p] = next
		case !next.dir:
			return &fs.PathError{Op: "mkdir", Path: dir, Err: syscall.ENOTDIR}
		}
		n = next
	}
	return nil
}

// ReadDir implements FS.
func (m *MemFS) ReadDir(dir string) ([]string, error) {
	dir = filepath.Clean(dir)
	m.mu.Lock()
	defer m.mu.Unlock()
	n, err := m.lookupDirNode("readdir", dir)
	if err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(n.children)), nil
}

// lookupDirNode returns the directory at name. Caller holds mu.
func (m *MemFS) lookupDirNode(op, name string) (*memNode, error) {
	n, err := m.lookup(op, name)
	if err != nil {
		return nil, err
	}
	if !n.dir {
		return nil, &fs.PathError{Op: op, Path: name, Err: syscall.ENOTDIR}
	}
	return n, nil
}

// Stat implements FS.
func (m *MemFS) Stat(name string) (os.FileInfo, error) {
	name = filepath.Clean(name)
	m.mu.Lock()
	defer m.mu.Unlock()
	n, err := m.lookup("stat", name)
	if err != nil {
		return nil, err
	}
	return n.info(name), nil
}

// SyncDir implements FS: dir's current entries become durable.
func (m *MemFS) SyncDir(dir string) error {
	dir = filepath.Clean(dir)
	m.mu.Lock()
	defer m.mu.Unlock()
	n, err := m.lookupDirNode("sync", dir)
	if err != nil {
		return err
	}
	n.syncDir()
	return nil
}

// Lock implements FS. Locks conflict within this MemFS only; the lock file
// gets the current process's pid, which a *LockError reports. Locks are not
// carried into a CrashClone.
func (m *MemFS) Lock(name string) (io.Closer, error) {
	name = filepath.Clean(name)
	m.mu.Lock()
	defer m.mu.Unlock()
	key := filepath.Join(splitPath(name)...)
	if m.locks[key] {
		return nil, &LockError{Path: name, PID: os.Getpid()}
	}
	n, err := m.create("open", name)
	if err != nil {
		return nil, err
	}
	n.writeAt(pidContent(os.Getpid()), 0)
	m.locks[key] = true
	return &memLock{fs: m, key: key}, nil
}

// memLock is a held MemFS lock.
type memLock struct {
	fs   *MemFS
	key  string
	once sync.Once
}

// Close releases the lock; later calls do nothing.
func (l *memLock) Close() error {
	l.once.Do(func() {
		l.fs.mu.Lock()
		defer l.fs.mu.Unlock()
		delete(l.fs.locks, l.key)
	})
	return nil
}
