package vfs

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Resident returns the fraction of the OS file path's pages in the page
// cache (mincore of a mapping of it), and false where that says nothing
// of the cache: an empty file, or a tmpfs one, which is memory whatever
// the advice. What the writes of a rewrite leave cached is checked
// with it.
func Resident(path string) (float64, bool, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return 0, false, &os.PathError{Op: "statfs", Path: path, Err: err}
	}
	if st.Type == unix.TMPFS_MAGIC {
		return 0, false, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return 0, false, err
	}
	m, err := unix.Mmap(int(f.Fd()), 0, int(fi.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return 0, false, &os.PathError{Op: "mmap", Path: path, Err: err}
	}
	defer unix.Munmap(m)
	vec := make([]byte, (len(m)+os.Getpagesize()-1)/os.Getpagesize())
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		return 0, false, &os.PathError{Op: "mincore", Path: path, Err: e}
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return float64(n) / float64(len(vec)), true, nil
}
