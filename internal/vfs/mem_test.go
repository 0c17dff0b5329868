package vfs

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestCrashClone runs a sequence of operations on a MemFS, crashes it and
// states what the clone must hold: want maps a name to its content, or to
// "<missing>".
func TestCrashClone(t *testing.T) {
	const missing = "<missing>"
	tests := []struct {
		name string
		ops  func(t *testing.T, m *MemFS)
		want map[string]string
	}{
		{"unsynced data is lost", func(t *testing.T, m *MemFS) {
			f, err := m.Create("d/a")
			must(t, err)
			must(t, m.SyncDir("d"))
			io.WriteString(f, "abc")
		}, map[string]string{"d/a": ""}},
		{"synced data survives, later writes do not", func(t *testing.T, m *MemFS) {
			f, err := m.Create("d/a")
			must(t, err)
			must(t, m.SyncDir("d"))
			io.WriteString(f, "abc")
			must(t, f.Sync())
			io.WriteString(f, "def")
		}, map[string]string{"d/a": "abc"}},
		{"file in an unsynced dir is gone", func(t *testing.T, m *MemFS) {
			writeFile(t, m, "d/a", "abc") // synced file, dir not synced
		}, map[string]string{"d/a": missing}},
		{"nested dirs need every parent synced", func(t *testing.T, m *MemFS) {
			must(t, m.MkdirAll("x/y", 0o755))
			writeFile(t, m, "x/y/a", "abc")
			writeFile(t, m, "d/b", "b")
			must(t, m.SyncDir("x/y"))
			must(t, m.SyncDir("d"))
		}, map[string]string{"x/y/a": missing, "d/b": "b"}},
		{"nested dirs all synced", func(t *testing.T, m *MemFS) {
			must(t, m.MkdirAll("x/y", 0o755))
			writeFile(t, m, "x/y/a", "abc")
			must(t, m.SyncDir("x/y"))
			must(t, m.SyncDir("x"))
			must(t, m.SyncDir("/"))
		}, map[string]string{"x/y/a": "abc"}},
		{"rename without syncdir is undone", func(t *testing.T, m *MemFS) {
			writeFile(t, m, "d/final", "old")
			writeFile(t, m, "d/tmp", "new")
			must(t, m.SyncDir("d"))
			must(t, m.Rename("d/tmp", "d/final"))
		}, map[string]string{"d/final": "old", "d/tmp": "new"}},
		{"rename with syncdir persists", func(t *testing.T, m *MemFS) {
			writeFile(t, m, "d/final", "old")
			must(t, m.SyncDir("d"))
			writeFile(t, m, "d/tmp", "new")
			must(t, m.Rename("d/tmp", "d/final"))
			must(t, m.SyncDir("d"))
		}, map[string]string{"d/final": "new", "d/tmp": missing}},
		{"rename of unsynced data persists the entry, not the data", func(t *testing.T, m *MemFS) {
			writeFile(t, m, "d/final", "old")
			f, err := m.Create("d/tmp")
			must(t, err)
			io.WriteString(f, "new") // no Sync: the classic bug
			must(t, f.Close())
			must(t, m.Rename("d/tmp", "d/final"))
			must(t, m.SyncDir("d"))
		}, map[string]string{"d/final": "", "d/tmp": missing}},
		{"rename across dirs synced at the target only", func(t *testing.T, m *MemFS) {
			must(t, m.MkdirAll("e", 0o755))
			must(t, m.SyncDir("/"))
			writeFile(t, m, "d/a", "abc")
			must(t, m.SyncDir("d"))
			must(t, m.Rename("d/a", "e/a"))
			must(t, m.SyncDir("e"))
		}, map[string]string{"d/a": "abc", "e/a": "abc"}},
		{"remove without syncdir is undone", func(t *testing.T, m *MemFS) {
			writeFile(t, m, "d/a", "abc")
			must(t, m.SyncDir("d"))
			must(t, m.Remove("d/a"))
		}, map[string]string{"d/a": "abc"}},
		{"remove with syncdir persists", func(t *testing.T, m *MemFS) {
			writeFile(t, m, "d/a", "abc")
			must(t, m.SyncDir("d"))
			must(t, m.RemoveAll("d/a"))
			must(t, m.SyncDir("d"))
		}, map[string]string{"d/a": missing}},
		{"create over a durable file truncates only on sync", func(t *testing.T, m *MemFS) {
			writeFile(t, m, "d/a", "old")
			must(t, m.SyncDir("d"))
			f, err := m.Create("d/a")
			must(t, err)
			io.WriteString(f, "x")
		}, map[string]string{"d/a": "old"}},
		{"truncate without sync is undone", func(t *testing.T, m *MemFS) {
			writeFile(t, m, "d/a", "abcdef")
			must(t, m.SyncDir("d"))
			f, err := m.OpenAppend("d/a")
			must(t, err)
			must(t, f.Truncate(2))
		}, map[string]string{"d/a": "abcdef"}},
		{"sync through a read-only handle", func(t *testing.T, m *MemFS) {
			f, err := m.Create("d/a")
			must(t, err)
			must(t, m.SyncDir("d"))
			io.WriteString(f, "abc")
			r, err := m.Open("d/a")
			must(t, err)
			must(t, r.Sync())
		}, map[string]string{"d/a": "abc"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := NewMem()
			must(t, m.MkdirAll("d", 0o755))
			must(t, m.SyncDir("/"))
			tc.ops(t, m)
			c := m.CrashClone()
			for name, want := range tc.want {
				got, err := tryReadFile(c, name)
				if want == missing {
					mustNotExist(t, err)
					continue
				}
				must(t, err)
				if got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
		})
	}
}

// TestCrashCloneState checks what else a clone holds: its own durable
// state, no locks, and independence from the original.
func TestCrashCloneState(t *testing.T) {
	m := NewMem()
	must(t, m.MkdirAll("d", 0o755))
	must(t, m.SyncDir("/"))
	writeFile(t, m, "d/a", "abc")
	must(t, m.SyncDir("d"))
	l, err := m.Lock("d/LOCK")
	must(t, err)
	defer l.Close()

	c := m.CrashClone()
	// A clone is durable as a whole: cloning it again loses nothing.
	if got := readFile(t, c.CrashClone(), "d/a"); got != "abc" {
		t.Fatalf("clone of clone: %q", got)
	}
	names, err := c.ReadDir("d")
	must(t, err)
	if !slices.Equal(names, []string{"a"}) { // LOCK was never made durable
		t.Fatalf("clone ReadDir = %q", names)
	}
	cl, err := c.Lock("d/LOCK")
	must(t, err)
	must(t, cl.Close())

	// Writes to one side never show on the other, though they share bytes.
	f, err := m.OpenAppend("d/a")
	must(t, err)
	must(t, f.Truncate(0))
	io.WriteString(f, "XY")
	must(t, f.Sync())
	g, err := c.OpenAppend("d/a")
	must(t, err)
	must(t, g.Truncate(1))
	io.WriteString(g, "Z")
	if got := readFile(t, m, "d/a"); got != "XY" {
		t.Errorf("original = %q", got)
	}
	if got := readFile(t, c, "d/a"); got != "aZ" {
		t.Errorf("clone = %q", got)
	}
}

var seedFlag = flag.Uint64("vfs.seed", 0, "seed for randomized tests; 0 picks one from the clock")

// TestCrashCloneModel applies random writes, truncates, syncs and crash
// clones to a file in a MemFS and in its clones, checking every copy
// against a model after each step. Clones share bytes with their origin
// until written, so this guards the copy-on-write in memNode.
func TestCrashCloneModel(t *testing.T) {
	seed := *seedFlag
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (replay with -vfs.seed=%[1]d)", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	for range 20 {
		testCrashCloneModel(t, rng, seed)
	}
}

// modelFile is one copy of the file under test and its expected state.
type modelFile struct {
	fs          *MemFS
	f           *memFile
	cur, synced []byte
}

func testCrashCloneModel(t *testing.T, rng *rand.Rand, seed uint64) {
	open := func(m *MemFS, content []byte) *modelFile {
		f, err := m.OpenAppend("f")
		must(t, err)
		return &modelFile{fs: m, f: f.(*memFile), cur: slices.Clone(content), synced: slices.Clone(content)}
	}
	m := NewMem()
	writeFile(t, m, "f", "")
	must(t, m.SyncDir("/"))
	files := []*modelFile{open(m, nil)}
	for step := range 200 {
		mf := files[rng.IntN(len(files))]
		switch op := rng.IntN(10); {
		case op < 4:
			off := rng.IntN(len(mf.cur) + 8)
			p := make([]byte, 1+rng.IntN(16))
			for i := range p {
				p[i] = byte('a' + rng.IntN(26))
			}
			if off+len(p) > len(mf.cur) {
				mf.cur = append(mf.cur, make([]byte, off+len(p)-len(mf.cur))...)
			}
			copy(mf.cur[off:], p)
			_, err := mf.f.writeAtForTest(p, int64(off))
			must(t, err)
		case op < 7:
			size := rng.IntN(len(mf.cur) + 8)
			mf.cur = append(mf.cur, make([]byte, max(0, size-len(mf.cur)))...)[:size]
			must(t, mf.f.Truncate(int64(size)))
		case op < 9:
			mf.synced = slices.Clone(mf.cur)
			must(t, mf.f.Sync())
		case len(files) < 8:
			files = append(files, open(mf.fs.CrashClone(), mf.synced))
		}
		for i, mf := range files {
			if got := readFile(t, mf.fs, "f"); got != string(mf.cur) {
				t.Fatalf("seed %d step %d: copy %d = %q, want %q", seed, step, i, got, mf.cur)
			}
			if got := readFile(t, mf.fs.CrashClone(), "f"); got != string(mf.synced) {
				t.Fatalf("seed %d step %d: copy %d synced %q, want %q", seed, step, i, got, mf.synced)
			}
		}
	}
}

// writeAtForTest writes p at off without moving the offset.
func (f *memFile) writeAtForTest(p []byte, off int64) (int, error) {
	if err := f.check("write", true); err != nil {
		return 0, err
	}
	defer f.fs.mu.Unlock()
	f.n.writeAt(p, off)
	return len(p), nil
}

func TestCrashCloneTorn(t *testing.T) {
	m := NewMem()
	must(t, m.MkdirAll("d", 0o755))
	must(t, m.SyncDir("/"))
	writeFile(t, m, "d/appended", "abc")
	writeFile(t, m, "d/rewritten", "abc")
	must(t, m.SyncDir("d"))
	f, err := m.OpenAppend("d/appended")
	must(t, err)
	io.WriteString(f, "defgh")
	g, err := m.OpenAppend("d/rewritten")
	must(t, err)
	must(t, g.Truncate(1))
	io.WriteString(g, "XYZW")

	seen := map[string]bool{}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		c := m.CrashCloneTorn(rng)
		got := readFile(t, c, "d/appended")
		if !strings.HasPrefix("abcdefgh", got) || len(got) < 3 {
			t.Fatalf("torn appended file %q is not synced content plus a prefix of the tail", got)
		}
		seen[got] = true
		if got := readFile(t, c, "d/rewritten"); got != "abc" {
			t.Fatalf("torn rewritten file %q, want its synced content", got)
		}
		if again := readFile(t, c.CrashClone(), "d/appended"); again != got {
			t.Fatalf("torn clone is not durable: %q then %q", got, again)
		}
	}
	if len(seen) != 6 { // "abc" .. "abcdefgh"
		t.Errorf("200 torn clones gave %d distinct tails, want all 6", len(seen))
	}
}

// TestMemConcurrentCrash clones while writers run; run with -race.
func TestMemConcurrentCrash(t *testing.T) {
	m := NewMem()
	done := make(chan error)
	for g := range 3 {
		go func() { done <- churn(m, filepath.Join("d", fmt.Sprint(g))) }()
	}
	for range 20 {
		c := m.CrashClone()
		c.CrashCloneTorn(rand.New(rand.NewPCG(0, 0)))
	}
	for range 3 {
		must(t, <-done)
	}
	// Everything churn kept was renamed into place after Sync and SyncDir
	// of its own dir; the dirs themselves were never synced into "d".
	c := m.CrashClone()
	if _, err := c.Stat("d"); err == nil {
		t.Fatal("unsynced dir d survived the crash")
	}
	if !bytes.Equal([]byte(readFile(t, m, "d/0/1")), bytes.Repeat([]byte("x"), 100)) {
		t.Fatal("original lost d/0/1")
	}
}
