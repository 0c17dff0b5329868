package vfs

// Direct writes. A file written once, front to back, and then only read
// by others (a segment rewritten by compaction) need not pass through
// the page cache: written with O_DIRECT, its bytes go from the writer's
// buffer to the device, so the rewrite neither takes fresh memory for
// the cache (which, on machines whose free memory the host reclaims,
// costs more than the copy of the bytes) nor evicts what readers keep
// there. Its readers then read it from the device until it is cached
// again.

// directCreator is an FS that can create files whose writes bypass the
// page cache.
type directCreator interface {
	createNewDirect(name string) (File, error)
}

// CreateNewDirect is fsys.CreateNew for a file written front to back and
// synced before others read it: where the operating system's file
// system allows (O_DIRECT on Linux), its writes bypass the page cache,
// through an aligned buffer that writes whole aligned pieces and the
// tail at the first Sync or Close. Elsewhere, and on file systems or
// devices that refuse direct writes, it is CreateNew. The file behaves
// as one from CreateNew in every other respect: Sync makes everything
// written durable, and reading it (Read, ReadAt, Stat, Truncate) first
// writes what the buffer holds.
func CreateNewDirect(fsys FS, name string) (File, error) {
	if d, ok := fsys.(directCreator); ok {
		return d.createNewDirect(name)
	}
	return fsys.CreateNew(name)
}

func (w WrapFS) createNewDirect(name string) (File, error) {
	return w.wrap(CreateNewDirect(w.FS, name))
}

// Unwrapped returns the File below f's wrappers (Unwrap() File methods,
// see OSFile).
func Unwrapped(f File) File {
	for {
		u, ok := f.(interface{ Unwrap() File })
		if !ok {
			return f
		}
		f = u.Unwrap()
	}
}
