package vfs

import (
	"errors"
	"io"
	"io/fs"
	"testing"
)

// writeFile creates name with content, syncs and closes it.
func writeFile(t *testing.T, fsys FS, name, content string) {
	t.Helper()
	f, err := fsys.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(f, content); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// readFile returns name's content, failing the test on error.
func readFile(t *testing.T, fsys FS, name string) string {
	t.Helper()
	s, err := tryReadFile(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tryReadFile returns name's content read through Open and Read.
func tryReadFile(fsys FS, name string) (string, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	return string(b), err
}

// must fails the test on err.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// mustNotExist fails unless err matches fs.ErrNotExist.
func mustNotExist(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("got %v, want an error matching fs.ErrNotExist", err)
	}
}
