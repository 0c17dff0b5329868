package vfs

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// directFlag reports whether f's descriptor has O_DIRECT set.
func directFlag(t *testing.T, f *os.File) bool {
	t.Helper()
	c, err := f.SyscallConn()
	must(t, err)
	var fl int
	must(t, c.Control(func(fd uintptr) { fl, err = unix.FcntlInt(fd, unix.F_GETFL, 0) }))
	must(t, err)
	return fl&unix.O_DIRECT != 0
}

// newDirect creates a direct file in a fresh directory; it skips the
// test where the file system refuses O_DIRECT (CreateNewDirect then
// returns an ordinary file, which the conformance tests cover).
func newDirect(t *testing.T, fsys FS) (File, *directFile, string) {
	t.Helper()
	name := filepath.Join(t.TempDir(), "seg.tmp")
	f, err := CreateNewDirect(fsys, name)
	must(t, err)
	d, ok := Unwrapped(f).(*directFile)
	if !ok {
		_ = f.Close()
		t.Skipf("the file system of %s refuses O_DIRECT", name)
	}
	if !directFlag(t, d.f) {
		t.Fatal("a direct file's descriptor lacks O_DIRECT")
	}
	return f, d, name
}

// TestDirectFileContent: writes of every size around the alignment and
// the buffer, and copies in by ReadFrom, come out byte for byte, with
// only whole aligned pieces written directly until the file settles at
// Sync, where O_DIRECT is cleared and the tail written.
func TestDirectFileContent(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	sizes := []int{0, 1, 4095, 4096, 4097, directBufLen - 1, directBufLen, directBufLen + 1, 3*directBufLen + 5}
	for range 40 {
		sizes = append(sizes, rng.IntN(70_000))
	}
	f, d, name := newDirect(t, WrapFS{FS: Default, File: func(f File) File { return passThrough{f} }})
	want := writeSizes(t, f, d, rng, sizes, func(want []byte) {
		if d.off%directAlign != 0 || d.off+int64(d.n) != int64(len(want)) {
			t.Fatalf("after %d bytes: %d written directly, %d buffered", len(want), d.off, d.n)
		}
	})
	if !directFlag(t, d.f) {
		t.Fatal("O_DIRECT cleared before the file settled")
	}
	must(t, f.Sync())
	if directFlag(t, d.f) {
		t.Fatal("O_DIRECT still set after Sync")
	}
	// Settled, the file takes writes as an ordinary one.
	writeStatClose(t, f, name, want)
}

// TestDirectFileSettles: Close without Sync, and every call that needs
// the file whole, first write what the buffer holds (the file settles).
func TestDirectFileSettles(t *testing.T) {
	testBufferWritten(t, func(t *testing.T) (File, func() bool, string) {
		f, d, name := newDirect(t, Default)
		return f, func() bool { return d.buf != nil }, name
	})
}

// TestDirectFileFailure: a failed write is sticky, and Close still
// closes the file and returns the buffer.
func TestDirectFileFailure(t *testing.T) {
	f, d, _ := newDirect(t, Default)
	must(t, d.f.Close()) // every later write fails: the descriptor is gone
	testWriteFailure(t, f, directBufLen, func() bool { return d.buf == nil })
}
