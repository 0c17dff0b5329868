package vfs

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"testing"
)

// writeSizes writes random bytes of each of sizes to f, every third
// piece by rf's ReadFrom (a copy in), calling after with all written so
// far after each piece, and returns what it wrote.
func writeSizes(t *testing.T, f File, rf io.ReaderFrom, rng *rand.Rand, sizes []int, after func(want []byte)) []byte {
	t.Helper()
	var want []byte
	for i, n := range sizes {
		p := make([]byte, n)
		for k := range p {
			p[k] = byte(rng.Uint32())
		}
		want = append(want, p...)
		if i%3 == 2 {
			got, err := rf.ReadFrom(bytes.NewReader(p))
			if err != nil || got != int64(n) {
				t.Fatalf("ReadFrom of %d bytes = %d, %v", n, got, err)
			}
		} else if got, err := f.Write(p); err != nil || got != n {
			t.Fatalf("Write of %d bytes = %d, %v", n, got, err)
		}
		after(want)
	}
	return want
}

// writeStatClose writes a little more to f, synced before, then checks
// that Stat sees every byte (the buffer written first), closes f, and
// that the file at path holds want and the more.
func writeStatClose(t *testing.T, f File, path string, want []byte) {
	t.Helper()
	more := []byte("after the sync")
	want = append(want, more...)
	if _, err := f.Write(more); err != nil {
		t.Fatal(err)
	}
	fi, err := f.Stat()
	must(t, err)
	if fi.Size() != int64(len(want)) {
		t.Fatalf("Stat size %d, want %d", fi.Size(), len(want))
	}
	must(t, f.Close())
	got, err := os.ReadFile(path)
	must(t, err)
	if !bytes.Equal(got, want) {
		t.Fatalf("file of %d bytes differs from the %d written", len(got), len(want))
	}
}

// testBufferWritten checks a file that buffers its writes (a direct or
// an uncached one, from create, which also returns whether the buffer
// still holds bytes, and the file's path): Close without Sync, and
// every call that needs the file whole (ReadAt, Read, Stat, Truncate),
// first write what the buffer holds; a second Close, and a write after
// Close, fail.
func testBufferWritten(t *testing.T, create func(t *testing.T) (f File, pending func() bool, path string)) {
	body := bytes.Repeat([]byte("0123456789abcdef"), 1000) // 16,000 bytes: 3 aligned pages and a tail
	for _, c := range []struct {
		name string
		fn   func(t *testing.T, f File)
	}{
		{"close", func(t *testing.T, f File) {}},
		{"readat", func(t *testing.T, f File) {
			p := make([]byte, 10)
			_, err := f.ReadAt(p, int64(len(body)-10))
			must(t, err)
			if !bytes.Equal(p, body[len(body)-10:]) {
				t.Fatalf("ReadAt of the tail = %q", p)
			}
		}},
		{"read", func(t *testing.T, f File) {
			// The offset is shared with Write, as an *os.File's: at the end.
			if n, err := f.Read(make([]byte, 10)); n != 0 || err != io.EOF {
				t.Fatalf("Read at the end = %d, %v", n, err)
			}
		}},
		{"stat", func(t *testing.T, f File) {
			fi, err := f.Stat()
			must(t, err)
			if fi.Size() != int64(len(body)) {
				t.Fatalf("Stat size %d, want %d", fi.Size(), len(body))
			}
		}},
		{"truncate", func(t *testing.T, f File) {
			must(t, f.Truncate(int64(len(body))))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, pending, name := create(t)
			if _, err := f.Write(body); err != nil {
				t.Fatal(err)
			}
			c.fn(t, f)
			if c.name != "close" && pending() {
				t.Fatal("the buffer's bytes were not written")
			}
			must(t, f.Close())
			if err := f.Close(); err == nil {
				t.Fatal("a second Close succeeded")
			}
			if _, err := f.Write([]byte("x")); err == nil {
				t.Fatal("a write after Close succeeded")
			}
			got, err := os.ReadFile(name)
			must(t, err)
			if !bytes.Equal(got, body) {
				t.Fatalf("file holds %d bytes, want the %d written", len(got), len(body))
			}
		})
	}
}

// testWriteFailure checks a buffering file f whose descriptor has been
// closed under it, with a buffer of bufLen bytes: a failed write is
// sticky (later writes, Sync and Close fail too), and Close still
// returns the buffer (returned reports whether it did).
func testWriteFailure(t *testing.T, f File, bufLen int, returned func() bool) {
	t.Helper()
	if _, err := f.Write(make([]byte, bufLen)); err == nil {
		t.Fatal("a write to a closed descriptor succeeded")
	}
	if _, err := f.Write([]byte("x")); err == nil {
		t.Fatal("a write after a failed one succeeded")
	}
	if err := f.Sync(); err == nil {
		t.Fatal("Sync after a failed write succeeded")
	}
	if err := f.Close(); err == nil {
		t.Fatal("Close after a failed write succeeded")
	}
	if !returned() {
		t.Fatal("the buffer was not returned")
	}
}
