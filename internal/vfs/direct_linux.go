package vfs

import (
	"errors"
	"io"
	"os"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

const (
	// directAlign is the alignment of a direct write's memory, offset
	// and length: the page size, a multiple of every common logical
	// block size.
	directAlign = 4096
	// directBufLen is the size of a direct file's buffer and so of its
	// writes: large enough that a write's fixed cost is small.
	directBufLen = 1 << 20
)

// directBufs pools the aligned buffers of direct files: a compaction
// writes with the same few buffers pass after pass.
var directBufs = sync.Pool{New: func() any {
	b := make([]byte, directBufLen+directAlign)
	skip := (directAlign - int(uintptr(unsafe.Pointer(&b[0]))%directAlign)) % directAlign
	b = b[skip : skip+directBufLen : skip+directBufLen]
	return &b
}}

// createNewDirect creates name as CreateNew does, then asks for O_DIRECT
// (fcntl: a file system that cannot do it refuses there, and the file
// stays an ordinary one).
func (o osFS) createNewDirect(name string) (File, error) {
	f, err := o.CreateNew(name)
	if err != nil {
		return nil, err
	}
	osf := f.(*os.File)
	if !setDirect(osf, true) {
		return f, nil
	}
	d := &directFile{pendingFile: pendingFile{f: osf}, buf: directBufs.Get().(*[]byte)}
	d.ready = d.settle
	return d, nil
}

// setDirect sets or clears O_DIRECT on f and reports whether it could.
func setDirect(f *os.File, on bool) bool {
	c, err := f.SyscallConn()
	if err != nil {
		return false
	}
	ok := false
	_ = c.Control(func(fd uintptr) {
		fl, err := unix.FcntlInt(fd, unix.F_GETFL, 0)
		if err != nil {
			return
		}
		if on {
			fl |= unix.O_DIRECT
		} else {
			fl &^= unix.O_DIRECT
		}
		_, err = unix.FcntlInt(fd, unix.F_SETFL, fl)
		ok = err == nil
	})
	return ok
}

// directFile is an OS file opened with O_DIRECT, written through an
// aligned buffer: every write the device sees is a whole buffer at an
// aligned offset. The first call that needs the file's bytes complete
// (Sync, Close, a read, Stat, Truncate) settles it: it writes the
// buffer's aligned part directly, clears O_DIRECT, writes the unaligned
// tail through the page cache, and from then on the file is an ordinary
// one. Its offset is its own (every write is positioned), shared by Read
// and Write as an *os.File's is. Not safe for concurrent use.
type directFile struct {
	pendingFile         // f, and off: where the next byte written goes
	buf         *[]byte // pooled aligned buffer; nil once settled
	n           int     // bytes pending in *buf, at file offset off
	err         error   // first write failure; sticky
}

func (d *directFile) Write(p []byte) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	done := 0
	for done < len(p) {
		if d.buf == nil {
			n, err := d.f.WriteAt(p[done:], d.off)
			d.off += int64(n)
			return done + n, err
		}
		c := copy((*d.buf)[d.n:], p[done:])
		d.n += c
		done += c
		if d.n == len(*d.buf) {
			if err := d.flush(d.n); err != nil {
				return done - c, err
			}
		}
	}
	return done, nil
}

// ReadFrom fills the buffer from r directly (a copy of frames from
// another segment: no staging buffer between the two).
func (d *directFile) ReadFrom(r io.Reader) (int64, error) {
	if d.err != nil {
		return 0, d.err
	}
	var total int64
	for d.buf != nil {
		n, err := r.Read((*d.buf)[d.n:])
		d.n += n
		total += int64(n)
		if d.n == len(*d.buf) {
			if ferr := d.flush(d.n); ferr != nil {
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
	n, err := io.Copy(writerOnly{d}, r)
	return total + n, err
}

// writerOnly hides ReadFrom from io.Copy.
type writerOnly struct{ io.Writer }

// flush writes the buffer's first n bytes (a multiple of directAlign)
// directly at the buffer's offset and keeps the rest at its front. A
// device that refuses the write for its alignment (EINVAL) has the file
// settled instead: its bytes are written through the page cache.
func (d *directFile) flush(n int) error {
	buf := *d.buf
	w, err := d.f.WriteAt(buf[:n], d.off)
	if errors.Is(err, unix.EINVAL) && w == 0 {
		return d.settle()
	}
	d.off += int64(w)
	d.n = copy(buf, buf[w:d.n])
	if err != nil {
		d.err = err
	}
	return err
}

// settle writes what the buffer holds, clears O_DIRECT and returns the
// buffer to the pool; later writes go through the page cache.
func (d *directFile) settle() error {
	if d.buf == nil {
		return d.err
	}
	if d.err == nil {
		if aligned := d.n &^ (directAlign - 1); aligned > 0 {
			if w, err := d.f.WriteAt((*d.buf)[:aligned], d.off); err == nil {
				d.off += int64(w)
				d.n = copy(*d.buf, (*d.buf)[aligned:d.n])
			} else if !errors.Is(err, unix.EINVAL) || w != 0 {
				d.err = err
			}
		}
	}
	if d.err == nil && !setDirect(d.f, false) {
		d.err = errors.New("cannot clear O_DIRECT")
	}
	if d.err == nil && d.n > 0 {
		w, err := d.f.WriteAt((*d.buf)[:d.n], d.off)
		d.off += int64(w)
		d.err = err
	}
	directBufs.Put(d.buf)
	d.buf, d.n = nil, 0
	return d.err
}

func (d *directFile) Sync() error {
	if err := d.settle(); err != nil {
		return err
	}
	return d.f.Sync()
}

func (d *directFile) Close() error {
	return errors.Join(d.settle(), d.f.Close())
}
