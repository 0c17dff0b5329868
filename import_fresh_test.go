package tsq

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

// noStream fails unless stream name is absent: not listed, not
// readable, no directory, no marker, no staging.
func noStream(t *testing.T, s *Store, fsys vfs.FS, name string) {
	t.Helper()
	noStreamIn(t, s, fsys, "db", name)
}

func noStreamIn(t *testing.T, s *Store, fsys vfs.FS, dir, name string) {
	t.Helper()
	names, err := s.Streams()
	if err != nil || slices.Contains(names, name) {
		t.Fatalf("Streams: %v %v", names, err)
	}
	if _, err := s.Count(name); !errors.Is(err, ErrStreamNotFound) {
		t.Fatalf("Count: %v", err)
	}
	if _, err := s.Series(name, 10); !errors.Is(err, ErrStreamNotFound) {
		t.Fatalf("Series: %v", err)
	}
	for _, p := range []string{dir + "/streams/" + name, dir + "/streams/" + name + freshSuffix} {
		if _, err := fsys.Stat(p); err == nil {
			t.Fatalf("%s exists", p)
		}
	}
	stagingEmpty(t, fsys, dir)
}

// TestImportNewStreamFails: an import into a stream that did not exist
// fails (malformed input, cancelled context, a full disk while staging,
// a failure before the commit point) and leaves no stream behind, in
// this Store and after a reopen; a later import creates the stream.
func TestImportNewStreamFails(t *testing.T) {
	bad := `{"ts":1,"host":"a"}` + "\n" + `{"ts":2,"host":` + "\n"
	cases := []struct {
		name string
		run  func(t *testing.T, s *Store, efs *vfs.ErrorFS) error
	}{
		{"malformed", func(t *testing.T, s *Store, efs *vfs.ErrorFS) error {
			_, err := s.Import(ctx, "nw", strings.NewReader(bad), importOpts(t))
			return err
		}},
		{"cancelled-before", func(t *testing.T, s *Store, efs *vfs.ErrorFS) error {
			c, cancel := context.WithCancel(ctx)
			cancel()
			_, err := s.Import(c, "nw", &jsonGen{rows: 100}, importOpts(t))
			return err
		}},
		{"cancelled", func(t *testing.T, s *Store, efs *vfs.ErrorFS) error {
			c, cancel := context.WithCancel(ctx)
			g := &jsonGen{rows: 1 << 30}
			r := readerFunc(func(p []byte) (int, error) {
				if g.n > 1<<20 {
					// hidden while the import runs
					if names, _ := s.Streams(); slices.Contains(names, "nw") {
						t.Errorf("listed during the import: %v", names)
					}
					if _, err := s.Count("nw"); !errors.Is(err, ErrStreamNotFound) {
						t.Errorf("Count during the import: %v", err)
					}
					cancel()
				}
				return g.Read(p)
			})
			_, err := s.Import(c, "nw", r, importOpts(t))
			return err
		}},
		{"enospc-write", func(t *testing.T, s *Store, efs *vfs.ErrorFS) error {
			efs.FailAfter(vfs.OpWrite, 3, syscall.ENOSPC, vfs.PartialWrite)
			_, err := s.Import(ctx, "nw", &jsonGen{rows: 20000}, importOpts(t))
			return err
		}},
		{"enospc-create", func(t *testing.T, s *Store, efs *vfs.ErrorFS) error {
			efs.FailAfter(vfs.OpCreate, 2, syscall.ENOSPC)
			_, err := s.Import(ctx, "nw", &jsonGen{rows: 20000}, importOpts(t))
			return err
		}},
		{"eio-sync", func(t *testing.T, s *Store, efs *vfs.ErrorFS) error {
			efs.FailAfter(vfs.OpSync, 2, syscall.EIO)
			_, err := s.Import(ctx, "nw", &jsonGen{rows: 20000}, importOpts(t))
			return err
		}},
		{"journal", func(t *testing.T, s *Store, efs *vfs.ErrorFS) error {
			o := importOpts(t)
			o.hook = func(step string) error {
				if step == "journal" {
					return errors.New("injected at " + step)
				}
				return nil
			}
			_, err := s.Import(ctx, "nw", &jsonGen{rows: 3000}, o)
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := vfs.NewMem()
			efs := vfs.NewErrorFS(mem)
			s := openT(t, efs, Options{SegmentMaxBytes: 16 << 10, BlockRows: 1000})
			s.Append(ctx, "ev", rec(day0, "a", 1))
			err := tc.run(t, s, efs)
			efs.Disarm()
			if err == nil {
				t.Fatal("import did not fail")
			}
			t.Logf("error: %v", err)
			noStream(t, s, mem, "nw")
			if got := countT(t, s, "ev"); got != 1 {
				t.Fatalf("other stream: %d rows", got)
			}
			closeT(t, s)
			// reopened, and from the durable state only
			for i, c := range []*vfs.MemFS{mem, mem.CrashClone()} {
				s = openT(t, c, Options{})
				noStream(t, s, c, "nw")
				if i == 0 {
					st, err := s.Import(ctx, "nw", &jsonGen{rows: 100}, importOpts(t))
					if err != nil || st.Rows != 100 || countT(t, s, "nw") != 100 {
						t.Fatalf("import after: %+v %v", st, err)
					}
					if names, _ := s.Streams(); !slices.Equal(names, []string{"ev", "nw"}) {
						t.Fatalf("Streams %v", names)
					}
					if _, err := c.Stat("db/streams/nw" + freshSuffix); err == nil {
						t.Fatal("marker left after the commit")
					}
				}
				closeT(t, s)
			}
		})
	}
}

// TestImportNewStreamCrash crashes (a crash clone of the in-memory file
// system) while an import into a new stream stages and at each step of
// its commit: the reopened store has no trace of the stream, or holds it
// with every row.
func TestImportNewStreamCrash(t *testing.T) {
	const n = 20000
	mem := vfs.NewMem()
	s := openT(t, mem, Options{SegmentMaxBytes: 32 << 10})
	var clones []*vfs.MemFS
	var at []string
	o := importOpts(t)
	o.hook = func(step string) error {
		clones = append(clones, mem.CrashClone(), mem.CrashCloneTorn(rand.New(rand.NewPCG(uint64(len(clones)), 9))))
		at = append(at, step, step+" (torn)")
		return nil
	}
	g := &jsonGen{rows: n}
	r := readerFunc(func(p []byte) (int, error) {
		if len(clones) < 3 && g.n > int64(len(clones)+1)*256<<10 {
			clones = append(clones, mem.CrashClone())
			at = append(at, fmt.Sprintf("staging at %d bytes", g.n))
		}
		return g.Read(p)
	})
	if _, err := s.Import(ctx, "nw", r, o); err != nil {
		t.Fatal(err)
	}
	closeT(t, s)
	none, all := 0, 0
	for i, c := range clones {
		s := openT(t, c, Options{})
		names, _ := s.Streams()
		if slices.Contains(names, "nw") {
			if got := countT(t, s, "nw"); got != n {
				t.Fatalf("crash at %s: %d rows", at[i], got)
			}
			all++
		} else {
			noStream(t, s, c, "nw")
			none++
		}
		closeT(t, s)
		t.Logf("crash at %-28s: listed %v", at[i], names)
	}
	if none == 0 || all == 0 {
		t.Fatalf("crash points did not cover both outcomes: none %d all %d", none, all)
	}
}

// TestImportNewStreamShared: an append into the stream an import
// created keeps the stream when the import fails.
func TestImportNewStreamShared(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{})
	defer closeT(t, s)
	c, cancel := context.WithCancel(ctx)
	g := &jsonGen{rows: 1 << 30}
	appended := make(chan error, 1)
	r := readerFunc(func(p []byte) (int, error) {
		if g.n > 256<<10 && g.n-int64(len(p)) <= 256<<10 {
			go func() {
				_, err := s.Append(ctx, "nw", rec(day0, "a", 1))
				appended <- err
			}()
		}
		if g.n > 1<<20 {
			cancel()
		}
		return g.Read(p)
	})
	if _, err := s.Import(c, "nw", r, importOpts(t)); !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if err := <-appended; err != nil {
		t.Fatal(err)
	}
	if got := countT(t, s, "nw"); got != 1 {
		t.Fatalf("%d rows", got)
	}
	if names, _ := s.Streams(); !slices.Contains(names, "nw") {
		t.Fatalf("Streams %v", names)
	}
}

// TestImportNewStreamHiddenReadOnly: while an import creates a stream, a
// read-only Store on the same directory does not list it and cannot
// read it; once committed, it can.
func TestImportNewStreamHiddenReadOnly(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{})
	defer closeT(t, s)
	s.Append(ctx, "ev", rec(day0, "a", 1))
	ro := openT(t, mem, Options{ReadOnly: true})
	defer closeT(t, ro)
	g := &jsonGen{rows: 20000}
	checked := false
	r := readerFunc(func(p []byte) (int, error) {
		if g.n > 256<<10 && !checked {
			checked = true
			if names, err := ro.Streams(); err != nil || !slices.Equal(names, []string{"ev"}) {
				t.Errorf("read-only Streams during the import: %v %v", names, err)
			}
			if _, err := ro.Count("nw"); !errors.Is(err, ErrStreamNotFound) {
				t.Errorf("read-only Count during the import: %v", err)
			}
		}
		return g.Read(p)
	})
	if _, err := s.Import(ctx, "nw", r, importOpts(t)); err != nil {
		t.Fatal(err)
	}
	if !checked {
		t.Fatal("not checked during the import")
	}
	if names, _ := ro.Streams(); !slices.Equal(names, []string{"ev", "nw"}) {
		t.Fatalf("read-only Streams after: %v", names)
	}
	if n, err := ro.Count("nw"); err != nil || n != 20000 {
		t.Fatalf("read-only Count after: %d %v", n, err)
	}
}
