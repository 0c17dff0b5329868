package seg

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

var errCrash = errors.New("simulated crash")

// rewriteSetup makes a durable sealed segment d/s.seg and returns the old
// and the new blocks.
func rewriteSetup(t *testing.T, fsys vfs.FS) (path string, old, repl []testBlock) {
	t.Helper()
	if err := fsys.MkdirAll("d", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := fsys.SyncDir("."); err != nil {
		t.Fatal(err)
	}
	path = filepath.Join("d", "s.seg")
	old = makeBlocks(t, 100, 4)
	writeSegment(t, fsys, path, old, true)
	// The rewrite keeps every other block, as compaction might.
	repl = []testBlock{old[0], old[2]}
	return path, old, repl
}

func appendFn(blocks []testBlock) func(w *Writer) error {
	return func(w *Writer) error {
		for _, b := range blocks {
			if err := w.Append(b.data, b.meta); err != nil {
				return err
			}
			for _, s := range b.series {
				w.AddSeries(s)
			}
		}
		return nil
	}
}

// checkOldOrNew opens path and returns "old" or "new" by generation,
// checking the blocks of either.
func checkOldOrNew(t *testing.T, fsys vfs.FS, path string, old, repl []testBlock) string {
	t.Helper()
	r, err := Open(fsys, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !r.Sealed() {
		t.Fatal("rewritten segment is not sealed")
	}
	h := r.Header()
	switch h.Generation {
	case 1:
		checkBlocks(t, r, old)
		return "old"
	case 2:
		if h.Stream != "cpu" || h.FirstSeq != 100 {
			t.Fatalf("rewritten header %+v", h)
		}
		checkBlocks(t, r, repl)
		return "new"
	}
	t.Fatalf("generation %d", h.Generation)
	return ""
}

// TestRewriteCrash stops Rewrite at each crash point and crashes: the
// segment is the old one before the directory sync and the new one after,
// and RemoveStaleTmp removes any leftover temp file. Each point is
// crashed twice: keeping only synced directory entries (the temp file's
// entry is never synced on its own, so it is gone), and keeping every
// entry with unsynced pages lost (the temp file is left, whole or torn;
// before the rename the segment is the old one either way).
func TestRewriteCrash(t *testing.T) {
	for _, tc := range []struct {
		point CrashPoint
		want  string
	}{
		{CrashTmpWritten, "old"},
		{CrashTmpSynced, "old"},
		{CrashRenamed, "old"},
		{CrashDirSynced, "new"},
	} {
		for _, kind := range []string{"synced entries", "every entry"} {
			t.Run(string(tc.point)+"/"+kind, func(t *testing.T) {
				mem := vfs.NewMem()
				path, old, repl := rewriteSetup(t, mem)
				var reached []CrashPoint
				hooks := &CrashHooks{At: func(p CrashPoint) error {
					reached = append(reached, p)
					if p == tc.point {
						return errCrash
					}
					return nil
				}}
				if err := Rewrite(mem, path, appendFn(repl), hooks); !errors.Is(err, errCrash) {
					t.Fatalf("Rewrite: %v", err)
				}
				all := CrashPoints()
				if want := all[:slices.Index(all, tc.point)+1]; !slices.Equal(reached, want) {
					t.Fatalf("reached %v, want %v", reached, want)
				}
				crashed, want, stale := mem.CrashClone(), tc.want, false
				if kind == "every entry" {
					crashed = mem.CrashCloneDisordered(rand.New(rand.NewPCG(1, uint64(len(reached)))))
					if tc.point == CrashRenamed { // the rename's entry is kept
						want = "new"
					}
					stale = tc.point == CrashTmpWritten || tc.point == CrashTmpSynced
				}
				if got := checkOldOrNew(t, crashed, path, old, repl); got != want {
					t.Fatalf("after a crash at %s: the %s segment, want the %s", tc.point, got, want)
				}
				removed, err := RemoveStaleTmp(crashed, "d")
				if err != nil {
					t.Fatal(err)
				}
				if stale != (len(removed) == 1 && removed[0] == path+TmpSuffix) || len(removed) > 1 {
					t.Fatalf("removed %v", removed)
				}
				if names, _ := crashed.ReadDir("d"); !slices.Equal(names, []string{"s.seg"}) {
					t.Fatalf("left %v", names)
				}
				// The removal is durable.
				if names, _ := crashed.CrashClone().ReadDir("d"); !slices.Equal(names, []string{"s.seg"}) {
					t.Fatalf("after another crash: %v", names)
				}
			})
		}
	}
}

func TestRewrite(t *testing.T) {
	mem := vfs.NewMem()
	path, old, repl := rewriteSetup(t, mem)
	if err := Rewrite(mem, path, appendFn(repl), nil); err != nil {
		t.Fatal(err)
	}
	if got := checkOldOrNew(t, mem.CrashClone(), path, old, repl); got != "new" {
		t.Fatalf("the %s segment after a finished rewrite", got)
	}
	if names, _ := mem.ReadDir("d"); !slices.Equal(names, []string{"s.seg"}) {
		t.Fatalf("left %v", names)
	}

	// fn failing leaves the old segment and no temp file.
	mem = vfs.NewMem()
	path, old, repl = rewriteSetup(t, mem)
	boom := errors.New("boom")
	if err := Rewrite(mem, path, func(*Writer) error { return boom }, nil); !errors.Is(err, boom) {
		t.Fatalf("Rewrite: %v", err)
	}
	if got := checkOldOrNew(t, mem, path, old, repl); got != "old" {
		t.Fatalf("the %s segment after a failed rewrite", got)
	}
	if names, _ := mem.ReadDir("d"); !slices.Equal(names, []string{"s.seg"}) {
		t.Fatalf("left %v", names)
	}
}

// TestRewriteErrorFS fails each operation of a Rewrite in turn: the
// segment is the old or the new one, as left and after a crash.
func TestRewriteErrorFS(t *testing.T) {
	counted := vfs.NewErrorFS(vfs.NewMem())
	path, old, repl := rewriteSetup(t, counted)
	before := make(map[vfs.OpKind]int)
	for _, k := range vfs.OpKinds() {
		before[k] = counted.Ops(k)
	}
	if err := Rewrite(counted, path, appendFn(repl), nil); err != nil {
		t.Fatal(err)
	}
	for _, kind := range vfs.OpKinds() {
		for i := range counted.Ops(kind) - before[kind] {
			name := fmt.Sprintf("%s #%d", kind, i)
			mem := vfs.NewMem()
			efs := vfs.NewErrorFS(mem)
			rewriteSetup(t, efs)
			efs.FailAfter(kind, i, nil)
			err := Rewrite(efs, path, appendFn(repl), nil)
			if err == nil {
				t.Fatalf("%s: Rewrite succeeded", name)
			}
			crashed := mem.CrashClone()
			checkOldOrNew(t, mem, path, old, repl)
			checkOldOrNew(t, crashed, path, old, repl)
			if _, err := RemoveStaleTmp(crashed, "d"); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
}

// TestRewriteWays: RewriteDirect and RewriteDropBehind write the same
// file as Rewrite, from frames appended and frames copied, over several
// of the direct file's buffers and the writer's writeback steps, on the
// OS file system (where the direct writes bypass the page cache when
// the file system allows). The file RewriteDropBehind wrote has left
// the page cache where the system says which pages are cached
// (vfs.Resident), while the one Rewrite wrote is there.
func TestRewriteWays(t *testing.T) {
	dir := t.TempDir()
	blocks := makeBlocks(t, 10, 12000)
	ways := []struct {
		name    string
		rewrite func(vfs.FS, string, func(*Writer) error, *CrashHooks) error
	}{{"buffered", Rewrite}, {"direct", RewriteDirect}, {"dropbehind", RewriteDropBehind}}
	var files [][]byte
	for _, way := range ways {
		p := filepath.Join(dir, way.name+".seg")
		w, err := Create(vfs.Default, p, "cpu", 1, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			if err := w.Append(b.data, b.meta); err != nil {
				t.Fatal(err)
			}
		}
		sealClose(t, w)
		r, err := Open(vfs.Default, p)
		if err != nil {
			t.Fatal(err)
		}
		var nw *Writer
		err = way.rewrite(vfs.Default, p, func(w *Writer) error {
			nw = w
			// Runs of frames appended and copied, a few dropped.
			for k := 0; k < len(blocks); k += 500 {
				if err := appendFn(blocks[k : k+100])(w); err != nil {
					return err
				}
				if err := w.CopyFrames(r, k+150, k+500); err != nil {
					return err
				}
			}
			return nil
		}, nil)
		_ = r.Close()
		if err != nil {
			t.Fatal(err)
		}
		// What the writer tells of the new file is what opening it loads.
		if r, err = Open(vfs.Default, p); err != nil {
			t.Fatal(err)
		}
		if got, want := nw.Meta(), r.Meta(); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the writer's Meta (%d blocks, %d rows, %d bytes, %+v) is not the file's (%d blocks, %d rows, %d bytes, %+v)",
				way.name, len(got.Blocks), got.Rows, got.Size, got.Header, len(want.Blocks), want.Rows, want.Size, want.Header)
		}
		_ = r.Close()
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) < 2<<20 {
			t.Fatalf("the rewritten segment has %d bytes: too few to span buffers", len(b))
		}
		if len(files) > 0 && !bytes.Equal(b, files[0]) {
			t.Fatalf("%s wrote %d bytes, Rewrite %d, not the same", way.name, len(b), len(files[0]))
		}
		files = append(files, b)
		if way.name == "buffered" || way.name == "dropbehind" {
			// os.ReadFile above cached what it read: rewrite again, then look.
			if err := way.rewrite(vfs.Default, p, func(w *Writer) error { return appendFn(blocks[:3000])(w) }, nil); err != nil {
				t.Fatal(err)
			}
			f, ok, err := vfs.Resident(p)
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				t.Logf("%s: %.0f%% of the file cached", way.name, 100*f)
				if way.name == "buffered" && f < 0.5 || way.name == "dropbehind" && f > 0.1 {
					t.Fatalf("%s: %.0f%% of the rewritten file is in the page cache", way.name, 100*f)
				}
			}
		}
	}
	if names, _ := os.ReadDir(dir); len(names) != len(ways) {
		t.Fatalf("left %d files", len(names))
	}
}
