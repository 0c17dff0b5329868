package vfs

import "os"

// A wrapper of a File that adds nothing to its writes (the store's
// fsync counter) exposes the File it wraps by an Unwrap() File method,
// so that OSFile can reach the operating system's file below it.
// ErrorFS's files do not: every write must pass their faults.

// OSFile returns the *os.File f is, or wraps, if any.
func OSFile(f File) (*os.File, bool) {
	for {
		switch x := f.(type) {
		case *os.File:
			return x, true
		case interface{ Unwrap() File }:
			f = x.Unwrap()
		default:
			return nil, false
		}
	}
}

// StartWriteback asks the operating system to begin writing f's dirty
// pages in [off, off+n) to the device, without waiting for them: a
// later Sync of a file written in large amounts then has only the last
// part left to wait for. It is advice: it makes nothing durable, and it
// does nothing for files that are not OS files (OSFile) or on systems
// without it.
func StartWriteback(f File, off, n int64) {
	if osf, ok := OSFile(f); ok {
		if c, err := osf.SyscallConn(); err == nil {
			_ = c.Control(func(fd uintptr) { startWriteback(fd, off, n) })
		}
	}
}

// DropCache advises the operating system that f's pages in [off,
// off+n) will not be read soon: the clean ones leave the page cache
// (written pages whose writeback is done), and the memory goes to the
// next writes. Advice, as StartWriteback.
func DropCache(f File, off, n int64) {
	if osf, ok := OSFile(f); ok {
		if c, err := osf.SyscallConn(); err == nil {
			_ = c.Control(func(fd uintptr) { dropCache(fd, off, n) })
		}
	}
}
