package vfs

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

type passThrough struct{ File }

func (p passThrough) Unwrap() File { return p.File }

// TestOSFile: OSFile finds the *os.File below wrappers that unwrap, and
// not below an ErrorFS's files (their faults must see every write) or in
// memory.
func TestOSFile(t *testing.T) {
	dir := t.TempDir()
	f, err := Default.Create(filepath.Join(dir, "a"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, ok := OSFile(f); !ok || got != f {
		t.Fatal("an *os.File is not found")
	}
	if got, ok := OSFile(passThrough{passThrough{f}}); !ok || got != f {
		t.Fatal("the *os.File below two wrappers is not found")
	}
	ef, err := NewErrorFS(Default).Create(filepath.Join(dir, "b"))
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	if _, ok := OSFile(ef); ok {
		t.Fatal("an ErrorFS file was unwrapped")
	}
	mf, err := NewMem().Create("c")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := OSFile(passThrough{mf}); ok {
		t.Fatal("a file in memory was taken for an OS file")
	}
	StartWriteback(mf, 0, 1) // does nothing
}

// TestStartWriteback: starting the writeback of what was written, on an
// OS file and through a wrapper, changes nothing a read sees, and a
// Sync after it succeeds.
func TestStartWriteback(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w")
	f, err := Default.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte("tsq writeback "), 300_000) // 4.2 MB
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	StartWriteback(f, 0, 1<<20)
	StartWriteback(passThrough{f}, 1<<20, int64(len(data))-1<<20)
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read back %d bytes, err %v", len(got), err)
	}
}
