package vfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// errorFSCases perform one operation of their kind per call to op; every
// call must succeed when nothing is injected. setup prepares the inner FS.
var errorFSCases = []struct {
	kind  OpKind
	setup func(t *testing.T, m *MemFS)
	op    func(e *ErrorFS, i int) error
	// undone reports whether the i-th operation left no trace in m.
	undone func(m *MemFS, i int) bool
}{
	{OpCreate, nil, func(e *ErrorFS, i int) error {
		return closeErr(e.Create(fmt.Sprint("c", i)))
	}, func(m *MemFS, i int) bool { return notExist(m, fmt.Sprint("c", i)) }},
	{OpOpen, nil, func(e *ErrorFS, i int) error {
		if i%2 == 0 {
			return closeErr(e.Open("f"))
		}
		return closeErr(e.OpenAppend("f"))
	}, nil},
	{OpWrite, nil, func(e *ErrorFS, i int) error {
		f, err := e.Create(fmt.Sprint("w", i))
		if err != nil {
			return err
		}
		_, err = f.Write([]byte("0123456789"))
		return errors.Join(err, f.Close())
	}, func(m *MemFS, i int) bool { return fileSize(m, fmt.Sprint("w", i)) == 0 }},
	{OpSync, nil, func(e *ErrorFS, i int) error { return withFile(e, File.Sync) }, nil},
	{OpTruncate, nil, func(e *ErrorFS, i int) error {
		f, err := e.Create(fmt.Sprint("t", i))
		if err != nil {
			return err
		}
		_, err = f.Write([]byte("abc"))
		return errors.Join(err, f.Truncate(1), f.Close())
	}, func(m *MemFS, i int) bool { return fileSize(m, fmt.Sprint("t", i)) == 3 }},
	{OpRead, nil, func(e *ErrorFS, i int) error {
		return withFile(e, func(f File) error {
			if i%2 == 0 {
				_, err := f.Read(make([]byte, 3))
				return err
			}
			_, err := f.ReadAt(make([]byte, 3), 0)
			return err
		})
	}, nil},
	{OpRename, func(t *testing.T, m *MemFS) {
		for i := range 20 {
			writeFile(t, m, fmt.Sprint("r", i), "")
		}
	}, func(e *ErrorFS, i int) error {
		return e.Rename(fmt.Sprint("r", i), fmt.Sprint("s", i))
	}, func(m *MemFS, i int) bool { return !notExist(m, fmt.Sprint("r", i)) }},
	{OpRemove, func(t *testing.T, m *MemFS) {
		for i := range 20 {
			writeFile(t, m, fmt.Sprint("x", i), "")
		}
	}, func(e *ErrorFS, i int) error {
		if i%2 == 0 {
			return e.Remove(fmt.Sprint("x", i))
		}
		return e.RemoveAll(fmt.Sprint("x", i))
	}, func(m *MemFS, i int) bool { return !notExist(m, fmt.Sprint("x", i)) }},
	{OpSyncDir, nil, func(e *ErrorFS, i int) error { return e.SyncDir("/") }, nil},
	{OpMkdir, nil, func(e *ErrorFS, i int) error {
		return e.MkdirAll(filepath.Join(fmt.Sprint("m", i), "sub"), 0o755)
	}, func(m *MemFS, i int) bool { return notExist(m, fmt.Sprint("m", i)) }},
	{OpLock, nil, func(e *ErrorFS, i int) error {
		l, err := e.Lock("LOCK")
		if err != nil {
			return err
		}
		return l.Close()
	}, nil},
}

// withFile runs fn on the existing file "f" opened read-write. The open
// is counted as an OpOpen, which the cases that use it do not arm.
func withFile(e *ErrorFS, fn func(File) error) error {
	f, err := e.OpenAppend("f")
	if err != nil {
		return err
	}
	return errors.Join(fn(f), f.Close())
}

// closeErr closes a freshly opened file.
func closeErr(f File, err error) error {
	if err != nil {
		return err
	}
	return f.Close()
}

func notExist(m *MemFS, name string) bool {
	_, err := m.Stat(name)
	return errors.Is(err, fs.ErrNotExist)
}

func fileSize(m *MemFS, name string) int64 {
	fi, err := m.Stat(name)
	if err != nil {
		return -1
	}
	return fi.Size()
}

func TestErrorFSInjection(t *testing.T) {
	for _, tc := range errorFSCases {
		t.Run(tc.kind.String(), func(t *testing.T) {
			m := NewMem()
			writeFile(t, m, "f", "abc")
			if tc.setup != nil {
				tc.setup(t, m)
			}
			e := NewErrorFS(m)
			i := 0
			// run performs the next operation and reports whether it
			// failed by injection.
			run := func(wantErr error) {
				t.Helper()
				before := e.Ops(tc.kind)
				err := tc.op(e, i)
				if got := e.Ops(tc.kind); got != before+1 {
					t.Fatalf("op %d: Ops(%s) went from %d to %d, want +1", i, tc.kind, before, got)
				}
				switch {
				case wantErr == nil && err != nil:
					t.Fatalf("op %d: unexpected error %v", i, err)
				case wantErr != nil && (!errors.Is(err, ErrInjected) || !errors.Is(err, wantErr)):
					t.Fatalf("op %d: error %v, want injected %v", i, err, wantErr)
				case wantErr != nil && !strings.Contains(err.Error(), "injected "+tc.kind.String()):
					t.Fatalf("op %d: error %q does not name the op", i, err)
				case wantErr != nil && tc.undone != nil && !tc.undone(m, i):
					t.Fatalf("op %d: failed operation was performed", i)
				}
				i++
			}

			run(nil)
			e.FailAfter(tc.kind, 0, syscall.ENOSPC)
			run(syscall.ENOSPC)
			run(nil) // not sticky: one failure only

			e.FailAfter(tc.kind, 2, nil) // nil means EIO
			run(nil)
			run(nil)
			run(syscall.EIO)
			run(nil)

			e.FailAfter(tc.kind, 1, syscall.EIO, Sticky)
			run(nil)
			run(syscall.EIO)
			run(syscall.EIO)
			run(syscall.EIO)
			e.Disarm()
			run(nil)

			if got := e.Injected(tc.kind); got != 5 {
				t.Errorf("Injected(%s) = %d, want 5", tc.kind, got)
			}
			for _, k := range OpKinds() {
				if k != tc.kind && e.Injected(k) != 0 {
					t.Errorf("Injected(%s) = %d, want 0", k, e.Injected(k))
				}
			}
		})
	}
}

func TestErrorFSPartialWrite(t *testing.T) {
	m := NewMem()
	e := NewErrorFS(m)
	f, err := e.Create("f")
	must(t, err)
	e.FailAfter(OpWrite, 0, syscall.ENOSPC, PartialWrite)
	n, err := f.Write([]byte("0123456789"))
	if n != 5 || !errors.Is(err, syscall.ENOSPC) || !errors.Is(err, ErrInjected) {
		t.Fatalf("Write = %d, %v; want 5, injected ENOSPC", n, err)
	}
	if got := readFile(t, m, "f"); got != "01234" {
		t.Fatalf("content %q, want the written half", got)
	}
}

func TestOpKindString(t *testing.T) {
	var names []string
	for _, k := range OpKinds() {
		names = append(names, k.String())
	}
	want := "create open write sync rename remove syncdir truncate mkdir read lock"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("OpKinds = %s, want %s", got, want)
	}
	if got := OpKind(200).String(); got != "OpKind(200)" {
		t.Errorf("unknown kind = %s", got)
	}
}

// writeAtomic is the crash-safe rewrite the package doc describes.
func writeAtomic(fsys FS, dir, name, content string) error {
	tmp := filepath.Join(dir, name+".tmp")
	f, err := fsys.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(f, content); err != nil {
		return errors.Join(err, f.Close())
	}
	if err := f.Sync(); err != nil {
		return errors.Join(err, f.Close())
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := fsys.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return err
	}
	return fsys.SyncDir(dir)
}

// TestErrorFSCrashLoop is the pattern for crash-safety tests: count the
// operations of each kind in a run, then fail each one in turn, crash, and
// check what survives. Here: an atomic rewrite leaves the old or the new
// content, never a mix or nothing, and the new one once it returned nil.
func TestErrorFSCrashLoop(t *testing.T) {
	fresh := func() (*MemFS, *ErrorFS) {
		m := NewMem()
		must(t, m.MkdirAll("d", 0o755))
		must(t, m.SyncDir("/"))
		writeFile(t, m, "d/seg", "old content")
		must(t, m.SyncDir("d"))
		return m, NewErrorFS(m)
	}
	_, counter := fresh()
	must(t, writeAtomic(counter, "d", "seg", "new content"))
	for _, kind := range OpKinds() {
		for i := range counter.Ops(kind) {
			m, e := fresh()
			e.FailAfter(kind, i, nil, Sticky)
			err := writeAtomic(e, "d", "seg", "new content")
			if err == nil || !errors.Is(err, ErrInjected) {
				t.Fatalf("%s #%d: writeAtomic = %v, want an injected error", kind, i, err)
			}
			got := readFile(t, m.CrashClone(), "d/seg")
			if got != "old content" && got != "new content" {
				t.Fatalf("%s #%d: after crash seg = %q", kind, i, got)
			}
		}
	}
	m, e := fresh()
	must(t, writeAtomic(e, "d", "seg", "new content"))
	if got := readFile(t, m.CrashClone(), "d/seg"); got != "new content" {
		t.Fatalf("after a successful rewrite and crash seg = %q", got)
	}
}

// TestErrorFSLoseUnsynced: the bytes of a failed fsync read back but stay
// zero in crash images, even after later fsyncs, until truncated away
// and written again.
func TestErrorFSLoseUnsynced(t *testing.T) {
	mem := NewMem()
	e := NewErrorFS(mem)
	f, err := e.Create("f")
	if err != nil {
		t.Fatal(err)
	}
	durable := func() string {
		t.Helper()
		g, err := mem.CrashClone().Open("f")
		if err != nil {
			t.Fatal(err)
		}
		defer g.Close()
		b, _ := io.ReadAll(g)
		return string(b)
	}
	f.Write([]byte("abc"))
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	mem.SyncDir(".")
	e.FailAfter(OpSync, 0, nil, LoseUnsynced)
	f.Write([]byte("def"))
	if err := f.Sync(); err == nil {
		t.Fatal("no injected failure")
	}
	b := make([]byte, 6)
	if _, err := f.ReadAt(b, 0); err != nil || string(b) != "abcdef" {
		t.Fatalf("read back %q %v", b, err)
	}
	f.Write([]byte("ghi"))
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if got := durable(); got != "abc\x00\x00\x00ghi" {
		t.Fatalf("durable %q", got)
	}
	f.Close()
	if f, err = e.OpenAppend("f"); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(3); err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("jkl")) // at the end: written again, no longer lost
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if got := durable(); got != "abcjkl" {
		t.Fatalf("durable after the cut %q", got)
	}
}
