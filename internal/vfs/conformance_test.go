package vfs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fileSystems are the FS implementations that must behave alike. Each
// constructor returns a fresh FS and an existing directory to work in.
var fileSystems = []struct {
	name string
	new  func(t *testing.T) (FS, string)
}{
	{"os", func(t *testing.T) (FS, string) { return Default, t.TempDir() }},
	{"mem", newMemTree},
	{"errorfs-os", func(t *testing.T) (FS, string) { return NewErrorFS(Default), t.TempDir() }},
	{"errorfs-mem", func(t *testing.T) (FS, string) {
		fsys, dir := newMemTree(t)
		return NewErrorFS(fsys), dir
	}},
	{"direct-os", func(t *testing.T) (FS, string) { return directNewFS{Default}, t.TempDir() }},
	{"uncached-os", func(t *testing.T) (FS, string) { return uncachedNewFS{Default}, t.TempDir() }},
	{"wrapfs-os", func(t *testing.T) (FS, string) {
		return WrapFS{FS: Default, File: func(f File) File { return passThrough{f} }}, t.TempDir()
	}},
}

// directNewFS creates its new files with CreateNewDirect.
type directNewFS struct{ FS }

func (d directNewFS) CreateNew(name string) (File, error) { return CreateNewDirect(d.FS, name) }

// uncachedNewFS creates its new files with CreateNewUncached.
type uncachedNewFS struct{ FS }

func (u uncachedNewFS) CreateNew(name string) (File, error) { return CreateNewUncached(u.FS, name) }

func newMemTree(t *testing.T) (FS, string) {
	m := NewMem()
	must(t, m.MkdirAll("/tsq", 0o755))
	return m, "/tsq"
}

// conformanceCases are run against every FS in fileSystems.
var conformanceCases = []struct {
	name string
	fn   func(t *testing.T, fsys FS, dir string)
}{
	{"create write read", func(t *testing.T, fsys FS, dir string) {
		name := filepath.Join(dir, "a")
		f, err := fsys.Create(name)
		must(t, err)
		if _, err := io.WriteString(f, "hello "); err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(f, "world"); err != nil {
			t.Fatal(err)
		}
		fi, err := f.Stat()
		must(t, err)
		if fi.Size() != 11 || fi.Name() != "a" || fi.IsDir() {
			t.Fatalf("Stat = size %d name %q dir %v", fi.Size(), fi.Name(), fi.IsDir())
		}
		// A read-write handle reads from its own offset, now at the end.
		if n, err := f.Read(make([]byte, 4)); n != 0 || err != io.EOF {
			t.Fatalf("Read at end = %d, %v; want 0, EOF", n, err)
		}
		must(t, f.Close())
		if got := readFile(t, fsys, name); got != "hello world" {
			t.Fatalf("content %q", got)
		}
	}},
	{"create truncates", func(t *testing.T, fsys FS, dir string) {
		name := filepath.Join(dir, "a")
		writeFile(t, fsys, name, "long old content")
		writeFile(t, fsys, name, "new")
		if got := readFile(t, fsys, name); got != "new" {
			t.Fatalf("content %q", got)
		}
	}},
	{"create new", func(t *testing.T, fsys FS, dir string) {
		name := filepath.Join(dir, "a")
		f, err := fsys.CreateNew(name)
		must(t, err)
		if _, err := io.WriteString(f, "first"); err != nil {
			t.Fatal(err)
		}
		must(t, f.Close())
		if _, err := fsys.CreateNew(name); !errors.Is(err, fs.ErrExist) {
			t.Fatalf("CreateNew of an existing file = %v, want ErrExist", err)
		}
		if got := readFile(t, fsys, name); got != "first" {
			t.Fatalf("content after a refused CreateNew: %q", got)
		}
		_, err = fsys.CreateNew(filepath.Join(dir, "nodir", "a"))
		mustNotExist(t, err)
	}},
	{"create in missing dir", func(t *testing.T, fsys FS, dir string) {
		_, err := fsys.Create(filepath.Join(dir, "nodir", "a"))
		mustNotExist(t, err)
	}},
	{"open missing", func(t *testing.T, fsys FS, dir string) {
		_, err := fsys.Open(filepath.Join(dir, "missing"))
		mustNotExist(t, err)
		_, err = fsys.OpenAppend(filepath.Join(dir, "missing"))
		mustNotExist(t, err)
	}},
	{"open is read-only", func(t *testing.T, fsys FS, dir string) {
		name := filepath.Join(dir, "a")
		writeFile(t, fsys, name, "abc")
		f, err := fsys.Open(name)
		must(t, err)
		defer f.Close()
		if _, err := f.Write([]byte("x")); err == nil {
			t.Fatal("Write on a read-only file succeeded")
		}
		if err := f.Truncate(0); err == nil {
			t.Fatal("Truncate on a read-only file succeeded")
		}
		must(t, f.Sync()) // fsync of a read-only fd is allowed
		if got := readFile(t, fsys, name); got != "abc" {
			t.Fatalf("content %q", got)
		}
	}},
	{"read and readat", func(t *testing.T, fsys FS, dir string) {
		name := filepath.Join(dir, "a")
		writeFile(t, fsys, name, "0123456789")
		f, err := fsys.Open(name)
		must(t, err)
		defer f.Close()
		buf := make([]byte, 4)
		for _, tc := range []struct {
			off     int64
			want    string
			wantErr error
		}{
			{0, "0123", nil},
			{6, "6789", nil},
			{8, "89", io.EOF},
			{10, "", io.EOF},
			{20, "", io.EOF},
		} {
			n, err := f.ReadAt(buf, tc.off)
			if string(buf[:n]) != tc.want || err != tc.wantErr {
				t.Errorf("ReadAt(%d) = %q, %v; want %q, %v", tc.off, buf[:n], err, tc.want, tc.wantErr)
			}
		}
		if _, err := f.ReadAt(buf, -1); err == nil {
			t.Error("ReadAt(-1) succeeded")
		}
		// ReadAt does not move the Read offset.
		var got []byte
		for {
			n, err := f.Read(buf[:3])
			got = append(got, buf[:n]...)
			if err == io.EOF {
				break
			}
			must(t, err)
		}
		if string(got) != "0123456789" {
			t.Fatalf("Read = %q", got)
		}
	}},
	{"append", func(t *testing.T, fsys FS, dir string) {
		name := filepath.Join(dir, "a")
		writeFile(t, fsys, name, "abc")
		f, err := fsys.OpenAppend(name)
		must(t, err)
		if _, err := io.WriteString(f, "de"); err != nil {
			t.Fatal(err)
		}
		// Writes go to the end even after the file shrinks or grows
		// behind the handle's back.
		must(t, f.Truncate(1))
		if _, err := io.WriteString(f, "X"); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 2)
		n, err := f.ReadAt(buf, 0)
		must(t, err)
		if string(buf[:n]) != "aX" {
			t.Fatalf("ReadAt = %q", buf[:n])
		}
		must(t, f.Sync())
		must(t, f.Close())
		if got := readFile(t, fsys, name); got != "aX" {
			t.Fatalf("content %q", got)
		}
	}},
	{"truncate", func(t *testing.T, fsys FS, dir string) {
		name := filepath.Join(dir, "a")
		f, err := fsys.Create(name)
		must(t, err)
		defer f.Close()
		if _, err := io.WriteString(f, "abcdef"); err != nil {
			t.Fatal(err)
		}
		must(t, f.Truncate(2))
		// The offset stays at 6: the next write leaves a hole of zeros.
		if _, err := io.WriteString(f, "X"); err != nil {
			t.Fatal(err)
		}
		if got := readFile(t, fsys, name); got != "ab\x00\x00\x00\x00X" {
			t.Fatalf("after shrink and write: %q", got)
		}
		must(t, f.Truncate(9))
		if got := readFile(t, fsys, name); got != "ab\x00\x00\x00\x00X\x00\x00" {
			t.Fatalf("after grow: %q", got)
		}
		if err := f.Truncate(-1); err == nil {
			t.Fatal("Truncate(-1) succeeded")
		}
	}},
	{"rename", func(t *testing.T, fsys FS, dir string) {
		oldname, newname := filepath.Join(dir, "tmp"), filepath.Join(dir, "final")
		writeFile(t, fsys, newname, "old")
		writeFile(t, fsys, oldname, "new")
		must(t, fsys.Rename(oldname, newname))
		if got := readFile(t, fsys, newname); got != "new" {
			t.Fatalf("content %q", got)
		}
		_, err := fsys.Stat(oldname)
		mustNotExist(t, err)
		mustNotExist(t, fsys.Rename(oldname, newname))
		var le *os.LinkError
		if err := fsys.Rename(oldname, newname); !errors.As(err, &le) {
			t.Fatalf("Rename error %T, want *os.LinkError", err)
		}
	}},
	{"rename directory", func(t *testing.T, fsys FS, dir string) {
		must(t, fsys.MkdirAll(filepath.Join(dir, "d1", "sub"), 0o755))
		writeFile(t, fsys, filepath.Join(dir, "d1", "sub", "f"), "x")
		must(t, fsys.Rename(filepath.Join(dir, "d1"), filepath.Join(dir, "d2")))
		if got := readFile(t, fsys, filepath.Join(dir, "d2", "sub", "f")); got != "x" {
			t.Fatalf("content %q", got)
		}
		if err := fsys.Rename(filepath.Join(dir, "d2"), filepath.Join(dir, "d2", "sub", "in")); err == nil {
			t.Fatal("renaming a directory into itself succeeded")
		}
		writeFile(t, fsys, filepath.Join(dir, "file"), "y")
		if err := fsys.Rename(filepath.Join(dir, "file"), filepath.Join(dir, "d2")); err == nil {
			t.Fatal("renaming a file over a directory succeeded")
		}
	}},
	{"open file survives remove and rename", func(t *testing.T, fsys FS, dir string) {
		name := filepath.Join(dir, "a")
		writeFile(t, fsys, name, "abc")
		f, err := fsys.Open(name)
		must(t, err)
		defer f.Close()
		writeFile(t, fsys, filepath.Join(dir, "b"), "other")
		must(t, fsys.Rename(filepath.Join(dir, "b"), name))
		buf := make([]byte, 3)
		if _, err := f.ReadAt(buf, 0); err != nil || string(buf) != "abc" {
			t.Fatalf("ReadAt = %q, %v", buf, err)
		}
		must(t, fsys.Remove(name))
		if _, err := f.ReadAt(buf, 0); err != nil || string(buf) != "abc" {
			t.Fatalf("ReadAt after Remove = %q, %v", buf, err)
		}
	}},
	{"remove", func(t *testing.T, fsys FS, dir string) {
		name := filepath.Join(dir, "a")
		writeFile(t, fsys, name, "abc")
		must(t, fsys.Remove(name))
		_, err := fsys.Stat(name)
		mustNotExist(t, err)
		mustNotExist(t, fsys.Remove(name))
		must(t, fsys.MkdirAll(filepath.Join(dir, "d", "e"), 0o755))
		if err := fsys.Remove(filepath.Join(dir, "d")); err == nil {
			t.Fatal("Remove of a non-empty directory succeeded")
		}
		must(t, fsys.Remove(filepath.Join(dir, "d", "e")))
		must(t, fsys.Remove(filepath.Join(dir, "d")))
	}},
	{"remove all", func(t *testing.T, fsys FS, dir string) {
		must(t, fsys.MkdirAll(filepath.Join(dir, "d", "e"), 0o755))
		writeFile(t, fsys, filepath.Join(dir, "d", "e", "f"), "x")
		writeFile(t, fsys, filepath.Join(dir, "d", "g"), "y")
		must(t, fsys.RemoveAll(filepath.Join(dir, "d")))
		_, err := fsys.Stat(filepath.Join(dir, "d"))
		mustNotExist(t, err)
		must(t, fsys.RemoveAll(filepath.Join(dir, "d")))
		must(t, fsys.RemoveAll(filepath.Join(dir, "missing", "deeper")))
	}},
	{"mkdir and readdir", func(t *testing.T, fsys FS, dir string) {
		must(t, fsys.MkdirAll(filepath.Join(dir, "c", "x", "y"), 0o755))
		must(t, fsys.MkdirAll(filepath.Join(dir, "c", "x"), 0o755)) // exists: fine
		writeFile(t, fsys, filepath.Join(dir, "b"), "")
		writeFile(t, fsys, filepath.Join(dir, "a"), "")
		names, err := fsys.ReadDir(dir)
		must(t, err)
		if want := []string{"a", "b", "c"}; !slices.Equal(names, want) {
			t.Fatalf("ReadDir = %q, want %q", names, want)
		}
		fi, err := fsys.Stat(filepath.Join(dir, "c", "x"))
		must(t, err)
		if !fi.IsDir() || fi.Name() != "x" {
			t.Fatalf("Stat dir = %q dir %v", fi.Name(), fi.IsDir())
		}
		names, err = fsys.ReadDir(filepath.Join(dir, "c", "x", "y"))
		if err != nil || len(names) != 0 {
			t.Fatalf("ReadDir(empty) = %q, %v", names, err)
		}
		_, err = fsys.ReadDir(filepath.Join(dir, "missing"))
		mustNotExist(t, err)
		if _, err := fsys.ReadDir(filepath.Join(dir, "a")); err == nil {
			t.Fatal("ReadDir of a file succeeded")
		}
		if err := fsys.MkdirAll(filepath.Join(dir, "a", "sub"), 0o755); err == nil {
			t.Fatal("MkdirAll below a file succeeded")
		}
	}},
	{"stat", func(t *testing.T, fsys FS, dir string) {
		name := filepath.Join(dir, "a")
		writeFile(t, fsys, name, "12345")
		fi, err := fsys.Stat(name)
		must(t, err)
		if fi.Size() != 5 || fi.Name() != "a" || fi.IsDir() || !fi.Mode().IsRegular() {
			t.Fatalf("Stat = size %d name %q mode %v", fi.Size(), fi.Name(), fi.Mode())
		}
		_, err = fsys.Stat(filepath.Join(dir, "missing"))
		mustNotExist(t, err)
		_, err = fsys.Stat(filepath.Join(dir, "missing", "deeper"))
		mustNotExist(t, err)
	}},
	{"names are cleaned", func(t *testing.T, fsys FS, dir string) {
		must(t, fsys.MkdirAll(filepath.Join(dir, "sub"), 0o755))
		f, err := fsys.Create(dir + "/sub/../x")
		must(t, err)
		if want := filepath.Join(dir, "x"); f.Name() != want {
			t.Errorf("Name = %q, want %q", f.Name(), want)
		}
		must(t, f.Close())
		if got := readFile(t, fsys, dir+"//./x"); got != "" {
			t.Fatalf("content %q", got)
		}
	}},
	{"closed file", func(t *testing.T, fsys FS, dir string) {
		f, err := fsys.Create(filepath.Join(dir, "a"))
		must(t, err)
		must(t, f.Close())
		for op, err := range map[string]error{
			"Close":    f.Close(),
			"Sync":     f.Sync(),
			"Truncate": f.Truncate(0),
			"Write":    second(f.Write([]byte("x"))),
			"Read":     second(f.Read(make([]byte, 1))),
			"ReadAt":   second(f.ReadAt(make([]byte, 1), 0)),
			"Stat":     second(f.Stat()),
		} {
			if !errors.Is(err, fs.ErrClosed) {
				t.Errorf("%s after Close = %v, want fs.ErrClosed", op, err)
			}
		}
	}},
	{"syncdir", func(t *testing.T, fsys FS, dir string) {
		writeFile(t, fsys, filepath.Join(dir, "a"), "x")
		must(t, fsys.SyncDir(dir))
		mustNotExist(t, fsys.SyncDir(filepath.Join(dir, "missing")))
	}},
	{"lock", func(t *testing.T, fsys FS, dir string) {
		name := filepath.Join(dir, "LOCK")
		l, err := fsys.Lock(name)
		if errors.Is(err, errors.ErrUnsupported) {
			t.Skip(err)
		}
		must(t, err)
		if got := readFile(t, fsys, name); got != fmt.Sprint(os.Getpid()) {
			t.Errorf("lock file holds %q, want our pid %d", got, os.Getpid())
		}
		_, err = fsys.Lock(name)
		checkLocked(t, err, name, os.Getpid())
		must(t, l.Close())
		l, err = fsys.Lock(name)
		must(t, err)
		must(t, l.Close())
		_, err = fsys.Lock(filepath.Join(dir, "missing", "LOCK"))
		mustNotExist(t, err)
	}},
}

// second returns the error of a two-value call.
func second[T any](_ T, err error) error { return err }

// checkLocked fails unless err is a *LockError for name held by pid.
func checkLocked(t *testing.T, err error, name string, pid int) {
	t.Helper()
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second Lock = %v, want ErrLocked", err)
	}
	var le *LockError
	if !errors.As(err, &le) || le.Path != name || le.PID != pid {
		t.Fatalf("lock error %#v, want path %q pid %d", err, name, pid)
	}
	if msg := err.Error(); !strings.Contains(msg, name) || !strings.Contains(msg, fmt.Sprintf("locked by pid %d", pid)) {
		t.Fatalf("lock error %q does not name %s and pid %d", msg, name, pid)
	}
}

func TestConformance(t *testing.T) {
	for _, fsys := range fileSystems {
		t.Run(fsys.name, func(t *testing.T) {
			for _, tc := range conformanceCases {
				t.Run(tc.name, func(t *testing.T) {
					f, dir := fsys.new(t)
					tc.fn(t, f, dir)
				})
			}
		})
	}
}

// TestConcurrentUse hammers one FS from several goroutines; run with -race.
func TestConcurrentUse(t *testing.T) {
	for _, fsys := range fileSystems {
		t.Run(fsys.name, func(t *testing.T) {
			f, dir := fsys.new(t)
			errs := make(chan error, 4)
			for g := range 4 {
				go func() { errs <- churn(f, filepath.Join(dir, fmt.Sprint("g", g))) }()
			}
			for range 4 {
				must(t, <-errs)
			}
		})
	}
}

// churn creates, writes, reads back, renames and removes files in dir.
func churn(fsys FS, dir string) error {
	if err := fsys.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	want := bytes.Repeat([]byte("x"), 100)
	for i := range 20 {
		name := filepath.Join(dir, fmt.Sprint(i))
		f, err := fsys.Create(name + ".tmp")
		if err != nil {
			return err
		}
		_, werr := f.Write(want)
		if err := errors.Join(werr, f.Sync(), f.Close(), fsys.Rename(name+".tmp", name), fsys.SyncDir(dir)); err != nil {
			return err
		}
		got, err := tryReadFile(fsys, name)
		if err != nil {
			return err
		}
		if got != string(want) {
			return fmt.Errorf("%s: read %q", name, got)
		}
		if i%2 == 0 {
			if err := fsys.Remove(name); err != nil {
				return err
			}
		}
	}
	return nil
}
