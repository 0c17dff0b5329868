package vfs

import "golang.org/x/sys/unix"

// startWriteback is sync_file_range(SYNC_FILE_RANGE_WRITE): the range's
// dirty pages are queued for writing, not waited for.
func startWriteback(fd uintptr, off, n int64) {
	_ = unix.SyncFileRange(int(fd), off, n, unix.SYNC_FILE_RANGE_WRITE)
}

// dropCache is posix_fadvise(POSIX_FADV_DONTNEED).
func dropCache(fd uintptr, off, n int64) {
	_ = unix.Fadvise(int(fd), off, n, unix.FADV_DONTNEED)
}
