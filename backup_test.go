package tsq

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/compact"
	"github.com/tsqdb/tsq/ingest"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// streamImage is everything a backup must carry of a stream, as text:
// the visible rows with their fields, the soft-delete and tombstoned
// bitmaps, the retention rule, the watermark and the committed imports.
func streamImage(t testing.TB, s *Store, stream string) string {
	t.Helper()
	var sb strings.Builder
	for b, err := range s.Scan(ctx, stream, ScanOptions{}) {
		if err != nil {
			t.Fatalf("scan %s: %v", stream, err)
		}
		for i := range b.Rows {
			fmt.Fprintf(&sb, "%+v\n", RecordAt(b, i))
		}
	}
	st, err := s.stream(stream, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, bm := range []string{"deleted", "tombstoned"} {
		snap := st.deletedSnapshot()
		if bm == "tombstoned" {
			snap = st.tombstonedSnapshot()
		}
		var seqs []uint64
		if snap != nil {
			seqs = snap.ToArray()
		}
		fmt.Fprintf(&sb, "%s %v\n", bm, seqs)
	}
	r, err := s.Retention(stream)
	if err != nil {
		t.Fatal(err)
	}
	w, ok, err := compact.LoadWatermark(s.fs, st.dir)
	if err != nil {
		t.Fatal(err)
	}
	imps, err := s.Imports(stream)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&sb, "retention %+v\nwatermark %d %v\nimports %+v\n", r, w, ok, imps)
	return sb.String()
}

// storeImage is streamImage of every stream of s.
func storeImage(t testing.TB, s *Store) map[string]string {
	t.Helper()
	names, err := s.Streams()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, n := range names {
		out[n] = streamImage(t, s, n)
	}
	return out
}

// fillBackupStore writes a store with what a backup must carry: keyed
// puts, deletes and drops, samples, soft deletes, a retention rule, a
// compaction pass (a watermark; rewritten segments), an import (its
// journal), several segments, and an active segment holding rows.
func fillBackupStore(t testing.TB, s *Store) {
	t.Helper()
	var recs []Record
	for i := range 300 {
		op := OpPut
		switch {
		case i%17 == 5:
			op = OpDelete
		case i == 200:
			op = OpDrop
		}
		recs = append(recs, Record{Time: day0 + int64(i)*int64(time.Hour)/4, Series: fmt.Sprintf("h%d", i%4), Key: fmt.Sprintf("k%d", i%40), Op: op,
			Fields: []Field{{"v", Float(float64(i) / 3)}, {"status", Str([]string{"open", "done"}[i%2])}}})
	}
	if _, err := s.Append(ctx, "ev", recs...); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "ev", 3, 4, 250); err != nil {
		t.Fatal(err)
	}
	if err := s.SetRetention("ev", Retention{MaxCount: 100_000, ProtectField: "status", ProtectValues: []string{"open"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Compact(ctx, "ev"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "ev", 290); err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		if _, err := s.Append(ctx, "ev", Record{Time: day0 + int64(300+i)*int64(time.Hour)/4, Series: "h9", Key: fmt.Sprintf("n%d", i), Fields: []Field{{"v", Int(int64(i))}}}); err != nil {
			t.Fatal(err)
		}
	}
	for k, series := range []string{"cpu", "mem"} {
		var times []int64
		var values []float64
		for i := range 250 {
			times, values = append(times, day0+int64(i)*int64(time.Minute)), append(values, float64(i*(k+1))*0.1)
		}
		if _, err := s.AppendSamples(ctx, "m", series, times, values); err != nil {
			t.Fatal(err)
		}
	}
	in := `{"time":"2026-12-01T00:00:00Z","series":"a","x":1}` + "\n" + `{"time":"2026-12-01T00:00:01Z","series":"b","x":2}` + "\n"
	if _, err := s.Import(ctx, "imp", strings.NewReader(in), &ImportOptions{Format: ingest.JSONLines}); err != nil {
		t.Fatal(err)
	}
}

// TestBackup: a backup opens as a store holding, for every stream, the
// same rows, soft deletes, tombstoned rows, retention rule, watermark and
// imports as the store at the time of the backup, under every sync
// policy; the store goes on, and changes after the backup do not reach
// it; the backup takes appends and compaction of its own.
func TestBackup(t *testing.T) {
	for _, sp := range []SyncPolicy{SyncAlways, SyncInterval, SyncNever} {
		t.Run(fmt.Sprint(sp), func(t *testing.T) {
			mem := vfs.NewMem()
			s := openT(t, mem, Options{Sync: sp, BlockRows: 32, SegmentMaxBytes: 4 << 10, RetentionInterval: NoRetentionLoop, CompactInterval: 0})
			fillBackupStore(t, s)
			want := storeImage(t, s)
			if len(want) != 3 {
				t.Fatalf("streams %v", want)
			}
			st, _ := s.stream("ev", false)
			if v := st.view.Load(); len(v.segs) < 3 || v.segs[len(v.segs)-1].sealed {
				t.Fatalf("the test wants sealed segments and an active one: %d segments", len(v.segs))
			}
			stats, err := s.Backup(ctx, "bak", nil)
			if err != nil {
				t.Fatal(err)
			}
			if stats.Streams != 3 || stats.Segments < 4 || stats.Rows < 600 || stats.Bytes == 0 || stats.Dir != "bak" {
				t.Fatalf("stats %+v", stats)
			}
			// The store goes on; the backup does not see it.
			if _, err := s.Append(ctx, "ev", Record{Time: day0, Series: "late", Fields: []Field{{"v", Int(1)}}}); err != nil {
				t.Fatal(err)
			}
			if err := s.Delete(ctx, "ev", 291); err != nil {
				t.Fatal(err)
			}
			b, err := Open("bak", &Options{FS: mem, ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			got := storeImage(t, b)
			for name, w := range want {
				if got[name] != w {
					t.Errorf("stream %s differs in the backup:\n got %.2000s\nwant %.2000s", name, got[name], w)
				}
			}
			closeT(t, b)
			if _, err := mem.Stat("bak" + backupPartialSuffix); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("partial directory left: %v", err)
			}
			// Opened for writing, the backup is a store of its own.
			b = openT2(t, mem, "bak")
			seqs, err := b.Append(ctx, "ev", Record{Time: day0, Series: "h0", Key: "k1", Fields: []Field{{"v", Int(7)}}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.Compact(ctx, "ev"); err != nil {
				t.Fatal(err)
			}
			if r, err := b.Get("ev", seqs[0]); err != nil || r.Key != "k1" {
				t.Fatalf("Get in the backup: %+v %v", r, err)
			}
			closeT(t, b)
			closeT(t, s)
		})
	}
}

// openT2 opens the store in dir on fsys for writing.
func openT2(t testing.TB, fsys vfs.FS, dir string) *Store {
	t.Helper()
	s, err := Open(dir, &Options{FS: fsys, RetentionInterval: NoRetentionLoop, CompactInterval: 0})
	if err != nil {
		t.Fatalf("Open %s: %v", dir, err)
	}
	return s
}

// TestBackupStreams: Streams picks streams; a named stream that does
// not exist, an invalid name, a destination that exists, lies inside
// the store or holds it are refused with a message saying so, and
// leave nothing behind.
func TestBackupStreams(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{RetentionInterval: NoRetentionLoop, CompactInterval: 0})
	defer closeT(t, s)
	fillBackupStore(t, s)
	want := streamImage(t, s, "m")
	if _, err := s.Backup(ctx, "only-m", &BackupOptions{Streams: []string{"m", "m"}}); err != nil {
		t.Fatal(err)
	}
	b, err := Open("only-m", &Options{FS: mem, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if names, _ := b.Streams(); !slices.Equal(names, []string{"m"}) {
		t.Fatalf("streams in the backup: %v", names)
	}
	if got := streamImage(t, b, "m"); got != want {
		t.Fatalf("stream m differs")
	}
	closeT(t, b)
	if err := mem.MkdirAll("exists", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dest    string
		streams []string
		want    string
	}{
		{"exists", nil, "exists: a backup goes to a new directory"},
		{"only-m", nil, "exists"},
		{"db/streams/bak", nil, "lies inside the store's own files"},
		{"db/staging", nil, "lies inside the store's own files"},
		{"db", nil, "is the store itself"},
		{"./db/", nil, "is the store itself"},
		{".", nil, "holds the store"},
		{"x1", []string{"nope"}, `stream "nope"`},
		{"x2", []string{"Bad Name"}, "Bad Name"},
	} {
		_, err := s.Backup(ctx, c.dest, &BackupOptions{Streams: c.streams})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "backup to") {
			t.Errorf("Backup(%q, %v): %v, want an error with %q", c.dest, c.streams, err, c.want)
		}
		for _, p := range []string{"x1", "x2", "x1" + backupPartialSuffix, "x2" + backupPartialSuffix, "db/streams/bak"} {
			if _, err := mem.Stat(p); err == nil {
				t.Errorf("Backup(%q) left %s", c.dest, p)
			}
		}
	}
}

// crashFS stops the world at its at-th mutating operation: it takes the
// crash image of mem then, and fails that operation and every later one,
// as a killed process does nothing more.
type crashFS struct {
	vfs.FS
	mem *vfs.MemFS

	mu  sync.Mutex
	n   int
	at  int
	img *vfs.MemFS
}

var errCrashed = errors.New("crashed")

func (c *crashFS) tick() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	if c.img == nil && c.at > 0 && c.n >= c.at {
		c.img = c.mem.CrashClone()
	}
	if c.img != nil {
		return errCrashed
	}
	return nil
}

func (c *crashFS) file(f vfs.File, err error) (vfs.File, error) {
	if err != nil {
		return nil, err
	}
	return crashFile{f, c}, nil
}

func (c *crashFS) Create(name string) (vfs.File, error) {
	if err := c.tick(); err != nil {
		return nil, err
	}
	return c.file(c.FS.Create(name))
}

func (c *crashFS) CreateNew(name string) (vfs.File, error) {
	if err := c.tick(); err != nil {
		return nil, err
	}
	return c.file(c.FS.CreateNew(name))
}

func (c *crashFS) Open(name string) (vfs.File, error) { return c.file(c.FS.Open(name)) }

func (c *crashFS) OpenAppend(name string) (vfs.File, error) { return c.file(c.FS.OpenAppend(name)) }

func (c *crashFS) Remove(name string) error {
	if err := c.tick(); err != nil {
		return err
	}
	return c.FS.Remove(name)
}

func (c *crashFS) RemoveAll(name string) error {
	if err := c.tick(); err != nil {
		return err
	}
	return c.FS.RemoveAll(name)
}

func (c *crashFS) Rename(a, b string) error {
	if err := c.tick(); err != nil {
		return err
	}
	return c.FS.Rename(a, b)
}

func (c *crashFS) MkdirAll(name string, perm os.FileMode) error {
	if err := c.tick(); err != nil {
		return err
	}
	return c.FS.MkdirAll(name, perm)
}

func (c *crashFS) SyncDir(name string) error {
	if err := c.tick(); err != nil {
		return err
	}
	return c.FS.SyncDir(name)
}

type crashFile struct {
	vfs.File
	c *crashFS
}

func (f crashFile) Write(p []byte) (int, error) {
	if err := f.c.tick(); err != nil {
		return 0, err
	}
	return f.File.Write(p)
}

func (f crashFile) Sync() error {
	if err := f.c.tick(); err != nil {
		return err
	}
	return f.File.Sync()
}

func (f crashFile) Truncate(n int64) error {
	if err := f.c.tick(); err != nil {
		return err
	}
	return f.File.Truncate(n)
}

// TestBackupCrash: a crash at every file system operation of a backup
// leaves a store that opens with everything it held, and either no
// backup or a whole one; the next backup to the same place succeeds and
// removes what the crash left.
func TestBackupCrash(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{BlockRows: 32, SegmentMaxBytes: 4 << 10, RetentionInterval: NoRetentionLoop, CompactInterval: 0})
	fillBackupStore(t, s)
	closeT(t, s)
	base := mem.CrashClone()
	var want map[string]string
	{
		s := openT(t, base.CrashClone(), Options{})
		want = storeImage(t, s)
		closeT(t, s)
	}
	// Count the operations of a whole backup.
	count := &crashFS{FS: base.CrashClone()}
	count.mem = count.FS.(*vfs.MemFS)
	{
		s := openT2(t, count, "db")
		count.n = 0
		if _, err := s.Backup(ctx, "bak", nil); err != nil {
			t.Fatal(err)
		}
		_ = s.Close()
	}
	ops := count.n
	if ops < 30 {
		t.Fatalf("a backup took only %d operations", ops)
	}
	whole, none := 0, 0
	for at := 1; at <= ops+1; at++ { // ops+1: a crash after the backup returned
		mem := base.CrashClone()
		cf := &crashFS{FS: mem, mem: mem}
		s := openT2(t, cf, "db")
		cf.mu.Lock()
		cf.at = cf.n + at
		cf.mu.Unlock()
		_, err := s.Backup(ctx, "bak", nil)
		_ = s.Close()
		switch {
		case at <= ops && (cf.img == nil || !errors.Is(err, errCrashed)):
			t.Fatalf("crash at %d: Backup returned %v", at, err)
		case at > ops && err != nil:
			t.Fatal(err)
		case at > ops:
			cf.img = mem.CrashClone() // the crash comes after the backup
		}
		img := cf.img
		src := openT2(t, img, "db")
		if got := storeImage(t, src); !maps.Equal(got, want) {
			t.Fatalf("crash at %d: the store changed", at)
		}
		if _, err := img.Stat("bak"); err == nil {
			whole++
			b, err := Open("bak", &Options{FS: img, ReadOnly: true})
			if err != nil {
				t.Fatalf("crash at %d: the backup does not open: %v", at, err)
			}
			if got := storeImage(t, b); !maps.Equal(got, want) {
				t.Fatalf("crash at %d: the backup differs", at)
			}
			closeT(t, b)
		} else {
			none++
			if _, err := src.Backup(ctx, "bak", nil); err != nil {
				t.Fatalf("crash at %d: the next backup: %v", at, err)
			}
			if _, err := img.Stat("bak" + backupPartialSuffix); err == nil {
				t.Fatalf("crash at %d: the next backup left the partial directory", at)
			}
			b, err := Open("bak", &Options{FS: img, ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := storeImage(t, b); !maps.Equal(got, want) {
				t.Fatalf("crash at %d: the next backup differs", at)
			}
			closeT(t, b)
		}
		closeT(t, src)
	}
	t.Logf("%d crash points: %d left a whole backup, %d none", ops, whole, none)
	if whole != 1 {
		t.Fatalf("a crash before Backup returned left a whole backup, or one after left none: %d whole", whole)
	}
}

// TestBackupENOSPC: a full disk at any write of a backup fails it with
// the disk's error, removes its partial directory and leaves the store
// as it was; the next backup succeeds.
func TestBackupENOSPC(t *testing.T) {
	mem := vfs.NewMem()
	efs := vfs.NewErrorFS(mem)
	s := openT(t, efs, Options{BlockRows: 32, SegmentMaxBytes: 4 << 10, RetentionInterval: NoRetentionLoop, CompactInterval: 0})
	defer closeT(t, s)
	fillBackupStore(t, s)
	settleBackground(t, s, "ev") // else a merge or roll late on a busy machine takes an injected failure
	want := storeImage(t, s)
	w0 := efs.Ops(vfs.OpWrite)
	if _, err := s.Backup(ctx, "probe", nil); err != nil {
		t.Fatal(err)
	}
	writes := efs.Ops(vfs.OpWrite) - w0
	for n := 0; n < writes; n += max(1, writes/25) {
		efs.FailAfter(vfs.OpWrite, n, syscall.ENOSPC, vfs.PartialWrite)
		_, err := s.Backup(ctx, "bak", nil)
		efs.Disarm()
		if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "backup to bak") {
			t.Fatalf("write %d failing: %v", n, err)
		}
		for _, p := range []string{"bak", "bak" + backupPartialSuffix} {
			if _, err := mem.Stat(p); err == nil {
				t.Fatalf("write %d failing left %s", n, p)
			}
		}
	}
	if got := storeImage(t, s); !maps.Equal(got, want) {
		t.Fatal("failed backups changed the store")
	}
	if _, err := s.Backup(ctx, "bak", nil); err != nil {
		t.Fatal(err)
	}
}

// TestBackupCorrupt: a block whose bytes changed on disk fails the
// backup with an error naming the file and block, and no backup is
// left.
func TestBackupCorrupt(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{BlockRows: 32, SegmentMaxBytes: 4 << 10, RetentionInterval: NoRetentionLoop, CompactInterval: 0})
	fillBackupStore(t, s)
	closeT(t, s)
	st := "db/streams/ev" // its first segment is sealed
	names, err := mem.ReadDir(st)
	if err != nil {
		t.Fatal(err)
	}
	path := st + "/" + names[0]
	r, err := seg.Open(mem, path)
	if err != nil {
		t.Fatal(err)
	}
	m := r.Blocks()[0]
	data := make([]byte, r.Size())
	if _, err := r.ReadAt(data, 0); err != nil {
		t.Fatal(err)
	}
	_ = r.Close()
	data[m.Offset+seg.FrameHeaderLen+int64(m.BlockLen()/2)] ^= 0x55
	f, err := mem.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	s = openT(t, mem, Options{RetentionInterval: NoRetentionLoop, CompactInterval: 0})
	defer closeT(t, s)
	_, err = s.Backup(ctx, "bak", nil)
	if !errors.Is(err, chunk.ErrCorrupt) || !strings.Contains(err.Error(), names[0]) || !strings.Contains(err.Error(), "block 0") {
		t.Fatalf("Backup of a corrupt store: %v", err)
	}
	for _, p := range []string{"bak", "bak" + backupPartialSuffix} {
		if _, err := mem.Stat(p); err == nil {
			t.Fatalf("a failed backup left %s", p)
		}
	}
}

// TestBackupConcurrent (run it with -race): backups taken from the
// writing store and from a read-only one beside it, while writers append
// keyed puts, a deleter soft-deletes and passes compact, each hold a
// consistent moment of every stream: every row appended before the
// backup began is there unless deleted or superseded; no row whose
// delete returned before it began is visible; every row is what was
// written at its seq; and the backup opens.
func TestBackupConcurrent(t *testing.T) {
	mem := vfs.NewMem()
	// SyncAlways: a read-only store sees every acknowledged row (under
	// the buffered policies, only those the writer has written out).
	s := openT(t, mem, Options{BlockRows: 64, SegmentMaxBytes: 8 << 10, RetentionInterval: NoRetentionLoop, CompactInterval: 0})
	streams := []string{"a", "b"}
	type written struct{ series, key, v string }
	var (
		mu      sync.Mutex
		wrote   = map[string]map[uint64]written{"a": {}, "b": {}}
		deleted = map[string]map[uint64]bool{"a": {}, "b": {}}
		stop    = make(chan struct{})
		wg      sync.WaitGroup
		errs    = make(chan error, 16)
	)
	for _, stream := range streams { // so that the first passes find them
		seqs, err := s.Append(ctx, stream, Record{Time: day0, Series: "first", Fields: []Field{{"v", Int(0)}}})
		if err != nil {
			t.Fatal(err)
		}
		wrote[stream][seqs[0]] = written{"first", "", "0"}
	}
	// put appends record i of series to stream under key and notes what
	// it wrote at which seq.
	put := func(stream, series, key string, i int) bool {
		r := Record{Time: day0 + int64(i), Series: series, Key: key, Fields: []Field{{"v", Int(int64(i))}}}
		seqs, err := s.Append(ctx, stream, r)
		if err != nil {
			errs <- err
			return false
		}
		mu.Lock()
		wrote[stream][seqs[0]] = written{r.Series, r.Key, fmt.Sprint(i)}
		mu.Unlock()
		return true
	}
	for w := range 3 {
		untilStopped(&wg, stop, func(i int) bool {
			return put(streams[(w+i)%2], fmt.Sprintf("w%d", w), fmt.Sprintf("k%d", i%400), i)
		})
	}
	untilStopped(&wg, stop, func(i int) bool { // a causal writer: record i to a, then to b
		return put("a", "c", fmt.Sprintf("c%d", i), i) && put("b", "c", fmt.Sprintf("c%d", i), i)
	})
	untilStopped(&wg, stop, func(i int) bool { // the deleter (of rows not the causal writer's)
		stream := streams[i%2]
		mu.Lock()
		var seq uint64
		for q, w := range wrote[stream] {
			if w.series == "c" {
				continue
			}
			seq = q
			break
		}
		mu.Unlock()
		if seq == 0 {
			return true
		}
		if err := s.Delete(ctx, stream, seq); err == nil {
			mu.Lock()
			deleted[stream][seq] = true
			mu.Unlock()
		} else if !errors.Is(err, ErrNotFound) {
			errs <- err
			return false
		}
		return true
	})
	untilStopped(&wg, stop, func(i int) bool { // the compactor
		if _, err := s.Compact(ctx, streams[i%2]); err != nil {
			errs <- err
			return false
		}
		return true
	})
	type taken struct {
		dir            string
		acked, deleted map[string]map[uint64]bool
		writable       bool // taken from the writing store: one moment for both streams
	}
	var backups []taken
	ro, err := Open("db", &Options{FS: mem, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for k := range 6 {
		time.Sleep(20 * time.Millisecond)
		tk := taken{dir: fmt.Sprintf("bak%d", k), acked: map[string]map[uint64]bool{}, deleted: map[string]map[uint64]bool{}}
		mu.Lock()
		for _, st := range streams {
			tk.acked[st], tk.deleted[st] = map[uint64]bool{}, maps.Clone(deleted[st])
			for q := range wrote[st] {
				tk.acked[st][q] = true
			}
		}
		mu.Unlock()
		from := s
		tk.writable = k%2 == 0
		if !tk.writable {
			from = ro // beside the writer, as tsq backup runs
		}
		if _, err := from.Backup(ctx, tk.dir, nil); err != nil {
			t.Fatalf("backup %d: %v", k, err)
		}
		backups = append(backups, tk)
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	closeT(t, ro)
	closeT(t, s)
	for _, tk := range backups {
		b, err := Open(tk.dir, &Options{FS: mem, ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		lastC := map[string]int64{} // the causal writer's last record, per stream
		for _, stream := range streams {
			var visible []rowInfo
			values := map[uint64]string{}
			for blk, err := range b.Scan(ctx, stream, ScanOptions{}) {
				if err != nil {
					t.Fatalf("%s: %v", tk.dir, err)
				}
				for i := range blk.Rows {
					r := RecordAt(blk, i)
					visible = append(visible, rowInfo{seq: r.Seq, series: r.Series, key: r.Key})
					values[r.Seq] = fmt.Sprint(r.Fields[0].Value.Int())
				}
			}
			// The last seq the backup holds, visible or not: emptied
			// blocks keep their seq range.
			st, err := b.stream(stream, false)
			if err != nil {
				t.Fatal(err)
			}
			v, err := st.snapshot()
			if err != nil {
				t.Fatal(err)
			}
			var last uint64
			for _, sf := range v.segs {
				for _, m := range sf.blocks {
					last = max(last, m.MaxSeq)
				}
			}
			seen := map[uint64]bool{}
			for _, r := range visible {
				seen[r.seq] = true
				w, ok := wrote[stream][r.seq]
				if !ok || w.series != r.series || w.key != r.key || w.v != values[r.seq] {
					t.Fatalf("%s/%s: seq %d holds %+v %s, written %+v", tk.dir, stream, r.seq, r, values[r.seq], w)
				}
				if tk.deleted[stream][r.seq] {
					t.Fatalf("%s/%s: seq %d visible, deleted before the backup began", tk.dir, stream, r.seq)
				}
				if r.series == "c" {
					i, _ := strconv.ParseInt(values[r.seq], 10, 64)
					lastC[stream] = max(lastC[stream], i)
				}
			}
			// Superseded: a later put of the key among the seqs the
			// backup holds (the acknowledged ones up to its last row).
			later := map[string]uint64{}
			for q, w := range wrote[stream] {
				if q <= last {
					later[w.series+"/"+w.key] = max(later[w.series+"/"+w.key], q)
				}
			}
			missing := 0
			for q := range tk.acked[stream] {
				if q > last {
					t.Fatalf("%s/%s: seq %d acknowledged before the backup began, the backup ends at %d", tk.dir, stream, q, last)
				}
				if seen[q] {
					continue
				}
				w := wrote[stream][q]
				if !deleted[stream][q] && later[w.series+"/"+w.key] <= q {
					t.Fatalf("%s/%s: seq %d missing: neither deleted nor superseded", tk.dir, stream, q)
				}
				missing++
			}
			t.Logf("%s/%s: %d rows up to seq %d; %d acknowledged before it began, %d of them deleted or compacted", tk.dir, stream, len(visible), last, len(tk.acked[stream]), missing)
		}
		// Record i went to a before b: b never holds one a lacks.
		if tk.writable && lastC["b"] > lastC["a"] {
			t.Fatalf("%s: stream b holds the causal writer's record %d, stream a only up to %d", tk.dir, lastC["b"], lastC["a"])
		}
		closeT(t, b)
	}
}

// TestBackupCancel: Progress reports the bytes copied up to the total;
// a context cancelled during the copy stops the backup with its error
// and leaves no directory behind.
func TestBackupCancel(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{BlockRows: 32, SegmentMaxBytes: 4 << 10, RetentionInterval: NoRetentionLoop, CompactInterval: 0})
	defer closeT(t, s)
	fillBackupStore(t, s)
	var calls int
	var done, total int64
	st, err := s.Backup(ctx, "whole", &BackupOptions{Progress: func(d, t int64) { calls, done, total = calls+1, d, t }})
	if err != nil {
		t.Fatal(err)
	}
	if calls < st.Segments || done != total || total < st.Bytes-int64(st.Segments)*4096 {
		t.Fatalf("progress: %d calls, %d of %d bytes; stats %+v", calls, done, total, st)
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	_, err = s.Backup(cctx, "bak", &BackupOptions{Progress: func(d, t int64) { cancel() }})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled backup: %v", err)
	}
	for _, p := range []string{"bak", "bak" + backupPartialSuffix} {
		if _, err := mem.Stat(p); err == nil {
			t.Fatalf("a cancelled backup left %s", p)
		}
	}
}
