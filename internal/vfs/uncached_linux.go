package vfs

import (
	"errors"
	"io"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// uncachedBufLen is the size of an uncached file's buffer and so of its
// writes.
const uncachedBufLen = 1 << 20

// uncachedBufs pools the buffers of uncached files.
var uncachedBufs = sync.Pool{New: func() any {
	b := make([]byte, uncachedBufLen)
	return &b
}}

func (o osFS) createNewUncached(name string, size int64) (File, error) {
	return newUncached(o, name, false, size)
}

// newUncached creates name in o as an uncachedFile reserving size bytes
// (CreateNewUncachedSize); with refused (tests) it writes as on a file
// system that refuses RWF_DONTCACHE.
func newUncached(o osFS, name string, refused bool, size int64) (File, error) {
	f, err := o.CreateNew(name)
	if err != nil {
		return nil, err
	}
	u := &uncachedFile{pendingFile: pendingFile{f: f.(*os.File)}, buf: uncachedBufs.Get().(*[]byte), refused: refused}
	u.ready = u.flush
	if size > 0 {
		u.reserve(size)
	}
	return u, nil
}

// reserve allocates the file's first size bytes without changing its
// size (fallocate FALLOC_FL_KEEP_SIZE). It is advice: a file system
// that cannot (EOPNOTSUPP, or a sandbox's ENOSYS, EPERM) reserves
// nothing; one short of room (ENOSPC: the writes will say so) may have
// reserved part, which Sync gives back as it would the rest.
func (u *uncachedFile) reserve(size int64) {
	c, err := u.f.SyscallConn()
	if err != nil {
		return
	}
	var ferr error
	if cerr := c.Control(func(fd uintptr) {
		for ferr = unix.Fallocate(int(fd), unix.FALLOC_FL_KEEP_SIZE, 0, size); ferr == unix.EINTR; {
			ferr = unix.Fallocate(int(fd), unix.FALLOC_FL_KEEP_SIZE, 0, size)
		}
	}); cerr == nil && (ferr == nil || ferr == unix.ENOSPC) {
		u.reserved = size
	}
}

// uncachedFile is an OS file written through a buffer, each full buffer
// (and the rest at the first call that needs the file's bytes: Sync,
// Close, a read, Stat, Truncate) in one positioned write with
// RWF_DONTCACHE. Where that is refused, the writes go through the page
// cache, each started writing back and the one before it dropped
// (refused). Its offset is its own, shared by Read and Write as an
// *os.File's is. Not safe for concurrent use.
type uncachedFile struct {
	pendingFile         // f, and off: where the next byte written goes
	buf         *[]byte // pooled; nil once closed
	n           int     // bytes pending in *buf, at file offset off
	refused     bool    // RWF_DONTCACHE refused: written through the cache
	reserved    int64   // bytes allocated at creation (reserve); Sync gives back the rest
	dropped     int64   // refused: pages before it were asked to leave the cache
	err         error   // first write failure; sticky
}

// passLen is the write size from which Write hands p to the system
// from where it lies, behind what the buffer holds, instead of copying it
// into the buffer first: a re-encoded block (hundreds of KiB) is written
// without the copy.
const passLen = 64 << 10

// pageLen is the page size writes end on: a write that ended inside a
// page would leave the page to be written again by the next, after its
// writeback may have dropped it from the cache (a read of it back).
const pageLen = 4096

func (u *uncachedFile) Write(p []byte) (int, error) {
	if u.err != nil {
		return 0, u.err
	}
	if u.buf == nil {
		return 0, os.ErrClosed
	}
	if len(p) >= passLen && !u.refused {
		if n, taken, err := u.writePast(p); taken {
			return n, err
		}
	}
	done := 0
	for done < len(p) {
		c := copy((*u.buf)[u.n:], p[done:])
		u.n += c
		done += c
		if u.n == len(*u.buf) {
			if err := u.flush(); err != nil {
				return done - c, err
			}
		}
	}
	return done, nil
}

// writePast writes what the buffer holds and p up to the last page
// boundary they reach in one pwritev2 with RWF_DONTCACHE, and buffers
// the rest of p (under a page). It reports false, having written
// nothing, when the system refuses the flag (u.refused is then set).
func (u *uncachedFile) writePast(p []byte) (n int, taken bool, err error) {
	end := (u.off + int64(u.n) + int64(len(p))) &^ (pageLen - 1)
	k := int(end - u.off - int64(u.n)) // of p, written now: more than 0 (len(p) > pageLen)
	held := u.n
	w, err := writeDontcache(u.f, u.off, (*u.buf)[:held], p[:k])
	if w == 0 && err != nil && dontcacheRefused(err) {
		u.refused = true
		return 0, false, nil
	}
	u.off += int64(w)
	if w < held { // failed within the buffered bytes
		u.n = copy(*u.buf, (*u.buf)[w:held])
		u.err = err
		return 0, true, err
	}
	u.n = 0
	if err != nil {
		u.err = err
		return w - held, true, err
	}
	u.n = copy(*u.buf, p[k:])
	return len(p), true, nil
}

// ReadFrom fills the buffer from r directly (a copy of frames from
// another segment: no staging buffer between the two).
func (u *uncachedFile) ReadFrom(r io.Reader) (int64, error) {
	if u.err != nil {
		return 0, u.err
	}
	if u.buf == nil {
		return 0, os.ErrClosed
	}
	var total int64
	for {
		n, err := r.Read((*u.buf)[u.n:])
		u.n += n
		total += int64(n)
		if u.n == len(*u.buf) {
			if ferr := u.flush(); ferr != nil {
				return total - int64(n), ferr
			}
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// flush writes what the buffer holds at off.
func (u *uncachedFile) flush() error {
	if u.err != nil || u.n == 0 {
		return u.err
	}
	b := (*u.buf)[:u.n]
	w, err := 0, error(nil)
	if !u.refused {
		w, err = writeDontcache(u.f, u.off, b, nil)
		if w == 0 && dontcacheRefused(err) {
			u.refused, err = true, nil
		}
	}
	if u.refused {
		w, err = u.f.WriteAt(b, u.off)
		if w > 0 {
			u.dropBehind(u.off, int64(w))
		}
	}
	u.off += int64(w)
	u.n = copy(*u.buf, b[w:])
	if err == nil && u.n > 0 {
		err = io.ErrShortWrite
	}
	if err != nil {
		u.err = err
	}
	return err
}

// dropBehind starts the writeback of the n bytes just written at off
// through the cache, and asks the pages written before them, whose
// writeback was started a write earlier, to leave the cache.
func (u *uncachedFile) dropBehind(off, n int64) {
	if c, err := u.f.SyscallConn(); err == nil {
		_ = c.Control(func(fd uintptr) {
			if off > u.dropped {
				dropCache(fd, u.dropped, off-u.dropped)
				u.dropped = off
			}
			startWriteback(fd, off, n)
		})
	}
}

// writeDontcache is pwritev2(RWF_DONTCACHE) of a then b at off,
// repeated until both are written; it returns the bytes written.
func writeDontcache(f *os.File, off int64, a, b []byte) (n int, err error) {
	c, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var iovs [2][]byte
	cerr := c.Control(func(fd uintptr) {
		for n < len(a)+len(b) {
			iov := iovs[:0]
			if n < len(a) {
				iov = append(iov, a[n:])
			}
			if len(b) > 0 {
				iov = append(iov, b[max(n-len(a), 0):])
			}
			k, werr := unix.Pwritev2(int(fd), iov, off+int64(n), unix.RWF_DONTCACHE)
			switch {
			case werr == unix.EINTR:
				continue
			case werr != nil:
				err = werr
				return
			case k == 0:
				err = io.ErrShortWrite
				return
			}
			n += k
		}
	})
	if err == nil {
		err = cerr
	}
	if err != nil && !dontcacheRefused(err) {
		err = &os.PathError{Op: "write", Path: f.Name(), Err: err}
	}
	return n, err
}

// dontcacheRefused reports whether err, from a first pwritev2 with
// RWF_DONTCACHE that wrote nothing, says the system will not take it:
// the flag unknown or refused by the file system (EOPNOTSUPP), or the
// call itself unknown or filtered out (ENOSYS, EPERM: a sandbox's system
// call filter). The file is then written without the flag, and a write
// that fails that way too reports its own error.
func dontcacheRefused(err error) bool {
	return errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM)
}

func (u *uncachedFile) Sync() error {
	if err := u.flush(); err != nil {
		return err
	}
	if u.reserved > u.off {
		// The blocks reserved past the end: a truncation to the size
		// the file has frees them (a file system keeps them otherwise).
		if err := u.f.Truncate(u.off); err != nil {
			return err
		}
		u.reserved = u.off
	}
	if err := u.f.Sync(); err != nil {
		return err
	}
	if u.refused && u.off > 0 {
		// Every page is written back now: none is left behind.
		DropCache(u.f, 0, u.off)
		u.dropped = u.off
	}
	return nil
}

func (u *uncachedFile) Close() error {
	err := u.flush()
	if u.buf != nil {
		uncachedBufs.Put(u.buf)
		u.buf, u.n = nil, 0
	}
	return errors.Join(err, u.f.Close())
}
