package vfs

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// newUncachedFile creates an uncached file in a fresh directory, as on a
// file system that refuses RWF_DONTCACHE when refused.
func newUncachedFile(t *testing.T, refused bool) (File, *uncachedFile, string) {
	t.Helper()
	name := filepath.Join(t.TempDir(), "seg.tmp")
	f, err := newUncached(osFS{}, name, refused, 0)
	must(t, err)
	return f, f.(*uncachedFile), name
}

// TestUncachedFileContent: writes of every size around the buffer, and
// copies in by ReadFrom, come out byte for byte, with whole buffers
// written as they fill, writes of passLen or more passed to the system
// from where they lie (up to a page boundary), every write ending on a
// page boundary, and the rest at Sync; once synced, none of the
// file is left in the page cache (where the system says, see Resident),
// whether the file system takes RWF_DONTCACHE or refuses it (then each
// buffer is dropped a write behind and the whole file at Sync).
func TestUncachedFileContent(t *testing.T) {
	for _, refused := range []bool{false, true} {
		name := "dontcache"
		if refused {
			name = "refused"
		}
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 7))
			sizes := []int{0, 1, 4095, 4097, uncachedBufLen - 1, uncachedBufLen, uncachedBufLen + 1, 3*uncachedBufLen + 5,
				passLen - 1, passLen, passLen + 1, 2*passLen + pageLen - 1, 7}
			for range 40 {
				sizes = append(sizes, rng.IntN(70_000))
			}
			f, u, path := newUncachedFile(t, refused)
			i, prev := 0, 0
			want := writeSizes(t, f, u, rng, sizes, func(want []byte) {
				n, written := len(want)-prev, i%3 != 2 // by Write, not ReadFrom
				i, prev = i+1, len(want)
				switch {
				case u.off+int64(u.n) != int64(len(want)) || u.n >= uncachedBufLen:
					t.Fatalf("after %d bytes: %d written, %d buffered", len(want), u.off, u.n)
				case u.refused && u.off%uncachedBufLen != 0:
					t.Fatalf("after %d bytes: %d written, not whole buffers", len(want), u.off)
				case !u.refused && u.off%pageLen != 0:
					t.Fatalf("after %d bytes: %d written, ending inside a page", len(want), u.off)
				case !u.refused && written && n >= passLen && u.n >= pageLen:
					t.Fatalf("a write of %d bytes went through the buffer: %d bytes held", n, u.n)
				}
			})
			must(t, f.Sync())
			if u.n != 0 || u.off != int64(len(want)) {
				t.Fatalf("after Sync: %d written, %d buffered, of %d", u.off, u.n, len(want))
			}
			if frac, ok, err := Resident(path); err != nil {
				t.Fatal(err)
			} else if ok && frac > 0.02 {
				t.Fatalf("%.0f%% of the synced file is in the page cache", 100*frac)
			}
			switch {
			case refused && !u.refused:
				t.Fatal("wrote with RWF_DONTCACHE where it was refused")
			case u.refused != refused:
				t.Log("this file system refuses RWF_DONTCACHE: its writes went through the cache")
			}
			writeStatClose(t, f, path, want)
		})
	}
}

// TestUncachedFileFlushes: Close without Sync, and every call that
// needs the file whole, first write what the buffer holds.
func TestUncachedFileFlushes(t *testing.T) {
	testBufferWritten(t, func(t *testing.T) (File, func() bool, string) {
		f, u, name := newUncachedFile(t, false)
		return f, func() bool { return u.n != 0 }, name
	})
}

// TestUncachedFileFailure: a failed write is sticky, and Close still
// closes the file and returns the buffer, whether the failed write was
// of a whole buffer or passed the system the buffered bytes with it.
func TestUncachedFileFailure(t *testing.T) {
	for _, refused := range []bool{false, true} {
		for _, held := range []int{0, 100} {
			f, u, _ := newUncachedFile(t, refused)
			if _, err := f.Write(make([]byte, held)); err != nil {
				t.Fatal(err)
			}
			must(t, u.f.Close()) // every later write fails: the descriptor is gone
			testWriteFailure(t, f, uncachedBufLen, func() bool { return u.buf == nil })
			if u.off != 0 {
				t.Fatalf("refused %v, %d bytes held: %d counted written", refused, held, u.off)
			}
		}
	}
}

// TestDontcacheRefused: the errors of a first uncached write that send
// the file to plain writes, and not others (a full disk, a closed file).
func TestDontcacheRefused(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{unix.EOPNOTSUPP, true}, {unix.ENOSYS, true}, {unix.EPERM, true},
		{unix.ENOSPC, false}, {unix.EBADF, false}, {unix.EIO, false}, {nil, false},
	} {
		if got := dontcacheRefused(c.err); got != c.want {
			t.Errorf("dontcacheRefused(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

// TestUncachedReserve: a file created with a size reserved holds its
// bytes as written, and once synced no block past its end: the
// reservation it did not use is given back (where the file system
// reserves at all; one that cannot writes as without it).
func TestUncachedReserve(t *testing.T) {
	for _, refused := range []bool{false, true} {
		name := filepath.Join(t.TempDir(), "seg.tmp")
		f, err := newUncached(osFS{}, name, refused, 4<<20)
		must(t, err)
		u := f.(*uncachedFile)
		data := make([]byte, 300_001)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		_, err = f.Write(data)
		must(t, err)
		var st unix.Stat_t
		must(t, unix.Stat(name, &st))
		if u.reserved == 0 {
			t.Logf("the file system reserved nothing (refused %v)", refused)
		} else if st.Blocks*512 < 4<<20 {
			t.Fatalf("refused %v: %d bytes allocated before Sync, want the 4 MiB reserved", refused, st.Blocks*512)
		}
		must(t, f.Sync())
		must(t, unix.Stat(name, &st))
		if st.Size != int64(len(data)) || st.Blocks*512 > int64(len(data))+64<<10 {
			t.Fatalf("refused %v: synced file of %d bytes holds %d bytes of blocks, want at most its size and a little", refused, st.Size, st.Blocks*512)
		}
		must(t, f.Close())
		got, err := osFS{}.Open(name)
		must(t, err)
		back := make([]byte, len(data)+1)
		n, _ := got.ReadAt(back, 0)
		_ = got.Close()
		if n != len(data) || string(back[:n]) != string(data) {
			t.Fatalf("refused %v: read back %d bytes, differing", refused, n)
		}
	}
}
