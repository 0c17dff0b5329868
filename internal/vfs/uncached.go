package vfs

// Uncached writes. A file written once, front to back, whose bytes are
// not about to be read (a segment rewritten by compaction) is written
// through the page cache with each write's writeback started at once and
// its pages leaving the cache once written back (RWF_DONTCACHE): the
// writer copies into the cache and goes on, as with any buffered write,
// but holds no more of the cache than the device has yet to take, evicts
// nothing readers keep there, and needs neither advice calls
// (StartWriteback, DropCache) nor the cross-CPU work each costs.

// uncachedCreator is an FS that can create files written uncached,
// reserving size bytes (0: none).
type uncachedCreator interface {
	createNewUncached(name string, size int64) (File, error)
}

// CreateNewUncached is fsys.CreateNew for a file written front to back
// whose bytes are not about to be read: where the operating system can
// (Linux 6.14 on, on file systems that have RWF_DONTCACHE), its writes
// leave the page cache as they are written back, through a buffer of
// 1 MiB, or from the caller's bytes for a write of 64 KiB or more, each
// write ending on a page boundary but at the file's end. Where the file
// system refuses the flag (or a sandbox the call), each
// buffer is written through the cache and dropped from it a write
// later and once synced (StartWriteback, DropCache). Elsewhere it is CreateNew. The file
// behaves as one from CreateNew in every other respect: Sync makes
// everything written durable, and reading it (Read, ReadAt, Stat,
// Truncate) first writes what the buffer holds.
func CreateNewUncached(fsys FS, name string) (File, error) {
	return CreateNewUncachedSize(fsys, name, 0)
}

// CreateNewUncachedSize is CreateNewUncached for a file that will hold
// about size bytes (at most a little more). Where the file system can
// (fallocate), the file's blocks are reserved at once, beyond its end:
// its writes then allocate nothing, where on ext4 each write would wait
// for the inode's block map while the writeback of the write before
// holds it. Sync gives back what the file did not use, so that a file
// synced holds no block past its end.
func CreateNewUncachedSize(fsys FS, name string, size int64) (File, error) {
	if u, ok := fsys.(uncachedCreator); ok {
		return u.createNewUncached(name, size)
	}
	return fsys.CreateNew(name)
}

func (w WrapFS) createNewUncached(name string, size int64) (File, error) {
	return w.wrap(CreateNewUncachedSize(w.FS, name, size))
}
