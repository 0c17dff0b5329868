package seg

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

// writeHookFS calls after once each File.Write has returned.
type writeHookFS struct {
	vfs.FS
	after func()
}

func (h *writeHookFS) Create(name string) (vfs.File, error) { return h.wrap(h.FS.Create(name)) }
func (h *writeHookFS) CreateNew(name string) (vfs.File, error) {
	return h.wrap(h.FS.CreateNew(name))
}

func (h *writeHookFS) OpenAppend(name string) (vfs.File, error) {
	return h.wrap(h.FS.OpenAppend(name))
}

func (h *writeHookFS) wrap(f vfs.File, err error) (vfs.File, error) {
	if err != nil {
		return nil, err
	}
	return &writeHookFile{File: f, fs: h}, nil
}

type writeHookFile struct {
	vfs.File
	fs *writeHookFS
}

func (f *writeHookFile) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	f.fs.after()
	return n, err
}

// crashPlan is the segment the crash test writes and where its frames lie.
type crashPlan struct {
	blocks []testBlock
	syncAt map[int]bool // Sync after appending block i
	hdrLen int64
	ends   []int64 // ends[i]: end of frame i
	sealed int64   // size once sealed
	seen   map[string]int
}

func newCrashPlan(t *testing.T) *crashPlan {
	p := &crashPlan{blocks: makeBlocks(t, 100, 8), syncAt: map[int]bool{1: true, 2: true, 5: true}, seen: map[string]int{}}
	p.hdrLen = int64(len(appendHeader(nil, &Header{Stream: "cpu", Generation: 1, FirstSeq: 100})))
	end := p.hdrLen
	for _, b := range p.blocks {
		end += FrameHeaderLen + int64(len(b.data))
		p.ends = append(p.ends, end)
	}
	// A dry run gives the sealed size.
	dry := vfs.NewMem()
	writeSegment(t, dry, "c.seg", p.blocks, true)
	p.sealed = int64(len(fileBytes(t, dry, "c.seg")))
	return p
}

// start returns the offset of frame i.
func (p *crashPlan) start(i int) int64 {
	if i == 0 {
		return p.hdrLen
	}
	return p.ends[i-1]
}

// crashState is what the writer had acknowledged when a crash was taken.
type crashState struct {
	created bool // Create returned
	synced  int  // blocks made durable by a Sync that returned
	sealed  bool // Seal returned
}

// TestCrash takes a crash after every write of a segment's life, plain
// (only synced bytes survive) and torn (a random prefix of the unsynced
// bytes survives too), and reopens it with Open and OpenWriter: every
// synced frame survives intact, no partial frame is visible, and the
// Recovery counts are those of the cut bytes.
func TestCrash(t *testing.T) {
	p := newCrashPlan(t)
	mem := vfs.NewMem()
	var st crashState
	rng := rand.New(rand.NewPCG(1, 2))
	checkpoints := 0
	check := func() {
		checkpoints++
		p.checkClone(t, mem.CrashClone(), st, false)
		for i := range 40 {
			p.checkClone(t, mem.CrashCloneTorn(rng), st, i == 0)
		}
	}
	hooked := &writeHookFS{FS: mem, after: check}
	w, err := Create(hooked, "c.seg", "cpu", 1, 100)
	if err != nil {
		t.Fatal(err)
	}
	st.created = true
	for i, b := range p.blocks {
		if err := w.Append(b.data, b.meta); err != nil {
			t.Fatal(err)
		}
		for _, s := range b.series {
			w.AddSeries(s)
		}
		if p.syncAt[i] {
			if err := w.Sync(); err != nil {
				t.Fatal(err)
			}
			st.synced = i + 1
		}
	}
	if err := w.Seal(); err != nil {
		t.Fatal(err)
	}
	st.synced, st.sealed = len(p.blocks), true
	if w.Size() != p.sealed {
		t.Fatalf("sealed size %d, dry run %d", w.Size(), p.sealed)
	}
	check()
	t.Logf("outcomes: %v", p.seen)
	if want := 1 + 2*len(p.blocks) + 1 + 1; checkpoints != want {
		t.Fatalf("%d checkpoints, want %d", checkpoints, want)
	}
}

// checkClone checks one crashed file system; resume also appends a block
// after recovery and seals.
func (p *crashPlan) checkClone(t *testing.T, fsys *vfs.MemFS, st crashState, resume bool) {
	t.Helper()
	if !exists(t, fsys, "c.seg") {
		if st.created {
			t.Fatal("the segment vanished after Create returned")
		}
		return
	}
	fi, err := fsys.Stat("c.seg")
	if err != nil {
		t.Fatal(err)
	}
	size := fi.Size()
	if size == p.sealed {
		p.seen["sealed"]++
		r, err := Open(fsys, "c.seg")
		if err != nil {
			t.Fatal(err)
		}
		if !r.Sealed() {
			t.Fatal("a whole sealed file opened unsealed")
		}
		checkBlocks(t, r, p.blocks)
		r.Close()
		if _, _, err := OpenWriter(fsys, "c.seg"); !errors.Is(err, ErrSealed) {
			t.Fatalf("OpenWriter of a sealed file: %v", err)
		}
		return
	}
	// k: the frames wholly inside the file.
	k := 0
	for k < len(p.blocks) && p.ends[k] <= size {
		k++
	}
	if k < st.synced || (st.sealed && size < p.sealed && k < len(p.blocks)) {
		t.Fatalf("size %d keeps %d frames; %d were synced", size, k, st.synced)
	}
	want := Recovery{TruncatedBytes: size - p.start(k)}
	if k < len(p.blocks) && p.start(k)+FrameHeaderLen <= size {
		want.DroppedFrames = 1
	}

	switch {
	case want.TruncatedBytes == 0:
		p.seen["clean"]++
	case want.DroppedFrames == 1:
		p.seen["torn block"]++
	case k == len(p.blocks):
		p.seen["torn trailer"]++
	default:
		p.seen["torn frame header"]++
	}
	r, err := Open(fsys, "c.seg")
	if err != nil {
		t.Fatalf("Open at size %d: %v", size, err)
	}
	if r.Sealed() {
		t.Fatalf("size %d opened sealed", size)
	}
	checkBlocks(t, r, p.blocks[:k])
	r.Close()

	w, rec, err := OpenWriter(fsys, "c.seg")
	if err != nil {
		t.Fatalf("OpenWriter at size %d: %v", size, err)
	}
	if rec.TruncatedBytes != want.TruncatedBytes || rec.DroppedFrames != want.DroppedFrames || (rec.Cause == nil) != (want.TruncatedBytes == 0) {
		t.Fatalf("size %d: recovery %+v, want %+v", size, rec, want)
	}
	if w.Size() != p.start(k) || len(w.Blocks()) != k {
		t.Fatalf("size %d: writer at %d with %d blocks, want %d and %d", size, w.Size(), len(w.Blocks()), p.start(k), k)
	}
	if fi, _ := fsys.CrashClone().Stat("c.seg"); fi.Size() != p.start(k) {
		t.Fatalf("the truncation to %d is not durable: %d", p.start(k), fi.Size())
	}
	if resume {
		p.resume(t, fsys, w, k)
	}
	w.Close()
}

// resume appends the next block to a recovered writer, seals, and checks
// the result.
func (p *crashPlan) resume(t *testing.T, fsys vfs.FS, w *Writer, k int) {
	t.Helper()
	want := p.blocks[:k]
	if k < len(p.blocks) {
		want = p.blocks[:k+1]
		appendAll(t, w, p.blocks[k:k+1])
	}
	if err := w.Seal(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(fsys, "c.seg")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	checkBlocks(t, r, want)
	for _, b := range want {
		if !r.MayContainSeries(b.series[0]) {
			t.Fatalf("series %q lost in recovery", b.series[0])
		}
	}
}
