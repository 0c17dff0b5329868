package compact

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// TestRunSingleMatchesChunked: the single-chunk pass, as one read
// (newest row first, blocks of 2,048 rows decided in two parallel
// halves) and in two phases (twophase.go), and the chunked pass (fold,
// then decide) leave the same rows and report the same drops and
// removed seqs, over random keyed puts, samples, deletes, drops and
// soft deletes, from several watermarks (one within a block). In the
// growing shape most blocks put or delete new keys above every older
// one (fresh: some shuffled, some putting a key twice, some holding a
// series drop) and the others delete or put again older keys; the
// sparse shape is growing without series drops and with soft deletes
// in its first blocks only, so that most blocks are untouched (see
// folder.lookupOnly).
func TestRunSingleMatchesChunked(t *testing.T) {
	for _, shape := range []string{"random", "growing", "sparse"} {
		for seed := range uint64(4) {
			rng := rand.New(rand.NewPCG(seed, 7))
			const blockRows, blocks, segs = 2048, 3, 4
			var groups [][][]row
			var seq uint64
			if shape == "random" {
				groups, seq = rowGroups(rng, segs, blocks, blockRows, func(r *row) {
					switch x := rng.IntN(100); {
					case x < 60:
						r.key = fmt.Sprintf("k%d", rng.IntN(3000))
					case x < 80: // sample
					case x < 99:
						r.op, r.key = OpDelete, fmt.Sprintf("k%d", rng.IntN(3000))
					default:
						r.op = OpDrop
					}
				})
			} else {
				groups, seq = growingGroups(rng, segs, blocks, blockRows, shape == "growing")
			}
			deleted := roaring64.New()
			for range 500 {
				if shape == "sparse" {
					deleted.Add(1 + rng.Uint64N(blockRows))
				} else {
					deleted.Add(1 + rng.Uint64N(seq-1))
				}
			}
			for _, w := range []uint64{0, blockRows*blocks + blockRows/2, 2 * blockRows * blocks, seq - 100} {
				var stats []Stats
				var files [][][]int64
				var raw [][][]byte // the files' bytes
				modes := []struct {
					chunked bool
					two     TwoPhaseMode
				}{{true, TwoPhaseAuto}, {false, TwoPhaseNever}, {false, TwoPhaseAlways}}
				for _, m := range modes {
					fsys := vfs.NewMem()
					_ = fsys.MkdirAll("s", 0o755)
					var ss []Segment
					for i, sg := range groups {
						ss = append(ss, writeSeg(t, fsys, fmt.Sprintf("s/%02d.seg", i), sg...))
					}
					st, err := Run(context.Background(), Config{FS: fsys, Dir: "s", Segments: ss, Watermark: w,
						SoftDeleted: deleted, Workers: 2, Chunked: m.chunked, TwoPhase: m.two})
					if err != nil {
						t.Fatal(err)
					}
					stats = append(stats, st)
					var all [][]int64
					var bs [][]byte
					for _, s := range ss {
						got, _ := seqsOf(t, fsys, s.Path)
						all = append(all, got...)
						bs = append(bs, fileBytes(t, fsys, s.Path))
					}
					files = append(files, all)
					raw = append(raw, bs)
				}
				for k := 1; k < len(modes); k++ {
					c, s := stats[0], stats[k]
					what := fmt.Sprintf("%s seed %d W %d two-phase %d", shape, seed, w, modes[k].two)
					if s.Chunks != 1 {
						t.Fatalf("%s: the single-chunk pass ran %d chunks", what, s.Chunks)
					}
					if !reflect.DeepEqual(files[0], files[k]) {
						logDiff(t, groups, deleted, files[0], files[k])
						t.Fatalf("%s: the passes leave different rows", what)
					}
					if k == 2 && !reflect.DeepEqual(raw[1], raw[2]) {
						t.Fatalf("%s: the fold and the two phases write different files", what)
					}
					if c.RowsDropped != s.RowsDropped || c.Tombstones != s.Tombstones || c.SegmentsRewritten != s.SegmentsRewritten ||
						!c.GoneSoftDeleted.Equals(s.GoneSoftDeleted) || !c.GoneSuperseded.Equals(s.GoneSuperseded) {
						t.Fatalf("%s: chunked %+v, single %+v", what, c, s)
					}
					if w == 0 && shape != "sparse" && s.RowsDropped[ReasonRecord]*s.RowsDropped[ReasonUpdate]*s.RowsDropped[ReasonSeries]*s.RowsDropped[ReasonSoftDelete] == 0 {
						t.Fatalf("%s: a reason never dropped: %v", what, s.RowsDropped)
					}
				}
			}
		}
	}
}

// logDiff logs the seqs that one pass kept and the other did not.
func logDiff(t *testing.T, groups [][][]row, deleted *roaring64.Bitmap, want, got [][]int64) {
	for b := range want {
		if reflect.DeepEqual(want[b], got[b]) {
			continue
		}
		a, c := map[int64]bool{}, map[int64]bool{}
		for _, q := range want[b] {
			a[q] = true
		}
		for _, q := range got[b] {
			c[q] = true
		}
		for q := range a {
			if !c[q] {
				t.Logf("block %d: seq %d kept by chunked only (%+v) deleted %v", b, q, rowOf(groups, uint64(q)), deleted.Contains(uint64(q)))
			}
		}
		for q := range c {
			if !a[q] {
				t.Logf("block %d: seq %d kept by single only (%+v) deleted %v", b, q, rowOf(groups, uint64(q)), deleted.Contains(uint64(q)))
			}
		}
	}
}

// growingGroups lays out segments as rowGroups does, with keys that
// mostly grow: 3 blocks in 5 put new keys or delete them before any put
// (each above every key before it: fresh blocks, so long as the key
// spans say so), of which some are
// shuffled, some put one of their keys twice and some (with drops) hold
// a series drop; the others mix new keys with deletes and puts of older
// ones.
func growingGroups(rng *rand.Rand, segs, blocks, n int, drops bool) ([][][]row, uint64) {
	next := 0 // keys k00000000.. put so far
	key := func(i int) string { return fmt.Sprintf("k%08d", i) }
	var groups [][][]row
	seq := uint64(1)
	for range segs {
		var sg [][]row
		for range blocks {
			g := make([]row, n)
			fresh := rng.IntN(5) < 3
			for k := range g {
				r := row{series: fmt.Sprintf("s%d", rng.IntN(5)), op: OpPut}
				switch x := rng.IntN(100); {
				case x < 5: // sample
				case fresh && x < 15: // a delete of a key never put
					r.op, r.key = OpDelete, key(next)
					next++
				case fresh || x < 50:
					r.key = key(next)
					next++
				case x < 80 && next > 0:
					r.op, r.key = OpDelete, key(rng.IntN(next))
				case next > 0:
					r.key = key(rng.IntN(next))
				}
				g[k] = r
			}
			if fresh {
				switch rng.IntN(4) {
				case 0:
					rng.Shuffle(n, func(a, b int) { g[a].key, g[b].key = g[b].key, g[a].key })
				case 1:
					g[n-1].key = g[n/2].key // put twice
				case 2:
					if drops {
						g[rng.IntN(n)] = row{series: fmt.Sprintf("s%d", rng.IntN(5)), op: OpDrop}
					}
				}
			}
			for k := range g {
				g[k].seq = seq
				seq++
			}
			sg = append(sg, g)
		}
		groups = append(groups, sg)
	}
	return groups, seq
}

func rowOf(groups [][][]row, q uint64) row {
	for _, sg := range groups {
		for _, g := range sg {
			for _, r := range g {
				if r.seq == q {
					return r
				}
			}
		}
	}
	return row{}
}

// TestRunLateWorkers: with prep workers that take their offers late,
// or on one thread, the fold preps most blocks and decides both halves
// of each itself, before the workers it offered them to run
// (folder.run, folder.block), and the workers then meet offers taken
// back, of tasks since offered again, perhaps as segment ends: the
// files written are those of a pass whose workers keep up.
func TestRunLateWorkers(t *testing.T) {
	for seed := range uint64(3) {
		rng := rand.New(rand.NewPCG(seed, 11))
		groups, _ := rowGroups(rng, 4, 3, 2048, func(r *row) {
			switch x := rng.IntN(100); {
			case x < 60:
				r.key = fmt.Sprintf("k%d", rng.IntN(3000))
			case x < 99:
				r.op, r.key = OpDelete, fmt.Sprintf("k%d", rng.IntN(3000))
			default:
				r.op = OpDrop
			}
		})
		pass := func(two TwoPhaseMode) [][]byte {
			fsys := vfs.NewMem()
			_ = fsys.MkdirAll("s", 0o755)
			var ss []Segment
			for i, sg := range groups {
				ss = append(ss, writeSeg(t, fsys, fmt.Sprintf("s/%02d.seg", i), sg...))
			}
			if _, err := Run(context.Background(), Config{FS: fsys, Dir: "s", Segments: ss, Workers: 2, TwoPhase: two}); err != nil {
				t.Fatal(err)
			}
			var bs [][]byte
			for _, s := range ss {
				bs = append(bs, fileBytes(t, fsys, s.Path))
			}
			return bs
		}
		want := pass(TwoPhaseNever)
		workerLate = func() { time.Sleep(100 * time.Microsecond) }
		for i := range 8 {
			two := []TwoPhaseMode{TwoPhaseNever, TwoPhaseAlways}[i%2]
			procs := runtime.GOMAXPROCS(0)
			if i >= 4 {
				runtime.GOMAXPROCS(1)
			}
			got := pass(two)
			runtime.GOMAXPROCS(procs)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d, pass %d (two-phase %d, one thread %v): the files differ", seed, i, two, i >= 4)
			}
		}
		workerLate = nil
	}
}

// TestRunSingleHeldBytes: however few re-encoded blocks the pass may
// hold for their rewrite (none, a few, the default), it writes the same
// segment files, byte for byte, as the fold or in two phases; the
// blocks past the budget are read and re-encoded by the rewrite, and
// the bytes held never pass the budget.
func TestRunSingleHeldBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	const blockRows, blocks, segs = 2048, 4, 3
	groups, _ := rowGroups(rng, segs, blocks, blockRows, func(r *row) {
		r.key = fmt.Sprintf("k%d", rng.IntN(20000))
		if rng.IntN(10) == 0 {
			r.op = OpDelete
		}
	})
	// A few blocks: below what the fold holds however the pass's
	// goroutines interleave (a segment's four re-encoded blocks, 48 KiB,
	// wait together for the first one, decided last; more when the
	// segment before is still being written, which is timing).
	const small = 32 << 10
	var want [][]byte
	for _, two := range []TwoPhaseMode{TwoPhaseNever, TwoPhaseAlways} {
		var held []int64
		for _, budget := range []int64{0, small, -1} {
			fsys := vfs.NewMem()
			_ = fsys.MkdirAll("s", 0o755)
			var ss []Segment
			for i, sg := range groups {
				ss = append(ss, writeSeg(t, fsys, fmt.Sprintf("s/%02d.seg", i), sg...))
			}
			st, err := Run(context.Background(), Config{FS: fsys, Dir: "s", Segments: ss, Workers: 2, HeldBytes: budget, TwoPhase: two})
			if err != nil {
				t.Fatal(err)
			}
			if st.Chunks != 1 || st.SegmentsRewritten != segs {
				t.Fatalf("two-phase %d, budget %d: %d chunks, %d segments rewritten", two, budget, st.Chunks, st.SegmentsRewritten)
			}
			files := segFiles(t, fsys, ss)
			if want == nil {
				want = files
			} else if !reflect.DeepEqual(files, want) {
				t.Fatalf("two-phase %d, budget %d: the rewritten files differ from the fold's with the default budget", two, budget)
			}
			held = append(held, st.MaxHeldBytes)
		}
		// The fold holds a segment's blocks until its first is decided;
		// in two phases they are written as they come, so that the
		// default budget need not hold more than the small one.
		if (two == TwoPhaseNever && held[0] <= small) || held[1] == 0 || held[1] > small || held[2] != 0 {
			t.Fatalf("two-phase %d: bytes held at most: %d (default), %d (budget %d), %d (none)", two, held[0], held[1], small, held[2])
		}
	}
}

// rowGroups lays out segs segments of blocks blocks of n rows each, seqs
// from 1 in order, each row a put of a series s0–s4 drawn from rng that
// fill may change; it returns them and the next seq.
func rowGroups(rng *rand.Rand, segs, blocks, n int, fill func(*row)) ([][][]row, uint64) {
	var groups [][][]row
	seq := uint64(1)
	for range segs {
		var sg [][]row
		for range blocks {
			var g []row
			for range n {
				r := row{seq: seq, series: fmt.Sprintf("s%d", rng.IntN(5)), op: OpPut}
				fill(&r)
				g = append(g, r)
				seq++
			}
			sg = append(sg, g)
		}
		groups = append(groups, sg)
	}
	return groups, seq
}

// segFiles returns the bytes of the segments ss.
func segFiles(t *testing.T, fsys vfs.FS, ss []Segment) [][]byte {
	t.Helper()
	var files [][]byte
	for _, s := range ss {
		files = append(files, fileBytes(t, fsys, s.Path))
	}
	return files
}

// fileBytes returns the bytes of the file path.
func fileBytes(t *testing.T, fsys vfs.FS, path string) []byte {
	t.Helper()
	f, err := fsys.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRunTwoPhaseFailure: a pass in two phases that fails while its
// segments are being decided and written (the refresh after the first
// rewrite fails) returns the error, leaves no temp file and no
// watermark, and the next pass leaves the same files as a pass that did
// not fail; in the fold too.
func TestRunTwoPhaseFailure(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const blockRows, blocks, segs = 2048, 3, 4
	groups, _ := growingGroups(rng, segs, blocks, blockRows, true)
	for _, two := range []TwoPhaseMode{TwoPhaseNever, TwoPhaseAlways} {
		var want [][]byte
		for _, fail := range []bool{false, true} {
			fsys := vfs.NewMem()
			_ = fsys.MkdirAll("s", 0o755)
			var ss []Segment
			for i, sg := range groups {
				ss = append(ss, writeSeg(t, fsys, fmt.Sprintf("s/%02d.seg", i), sg...))
			}
			cfg := Config{FS: fsys, Dir: "s", Segments: ss, Workers: 2, TwoPhase: two}
			if fail {
				boom := errors.New("refresh failed")
				failing := cfg
				failing.OnRewritten = func(string, seg.Meta) error { return boom }
				st, err := Run(context.Background(), failing)
				if !errors.Is(err, boom) || st.Watermark != 0 {
					t.Fatalf("two-phase %d: W %d, err %v", two, st.Watermark, err)
				}
				if _, ok, _ := LoadWatermark(fsys, "s"); ok {
					t.Fatalf("two-phase %d: watermark written by a failed pass", two)
				}
				names, _ := fsys.ReadDir("s")
				for _, n := range names {
					if strings.HasSuffix(n, ".tmp") {
						t.Fatalf("two-phase %d: temp file %s left", two, n)
					}
				}
			}
			if _, err := Run(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			files := segFiles(t, fsys, ss)
			if want == nil {
				want = files
			} else if !reflect.DeepEqual(files, want) {
				t.Fatalf("two-phase %d: after a failed pass the files differ", two)
			}
		}
	}
}

// TestRunTwoPhaseCorruptFresh: a fresh block whose op column is
// corrupt (phaseObserve reads that column alone, unchecked) fails the
// pass with ErrCorrupt naming the file and block, and W does not move:
// the unchecked read's verdict is never trusted past the block's CRC.
func TestRunTwoPhaseCorruptFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	groups, _ := growingGroups(rng, 2, 3, 2048, false)
	fsys := vfs.NewMem()
	_ = fsys.MkdirAll("s", 0o755)
	var ss []Segment
	for i, sg := range groups {
		ss = append(ss, writeSeg(t, fsys, fmt.Sprintf("s/%02d.seg", i), sg...))
	}
	// The op column of the oldest segment's first block: fresh (its keys
	// are the first ever put).
	path := ss[0].Path
	r, err := seg.Open(fsys, path)
	if err != nil {
		t.Fatal(err)
	}
	if k := r.BlockKeys(0); !k.Known() {
		t.Fatal("the block's key span is unknown: it cannot be fresh")
	}
	m := r.Blocks()[0]
	blk, err := r.ReadBlock(0, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = r.Close()
	var dec chunk.Decoder
	if err := dec.Reset(blk); err != nil {
		t.Fatal(err)
	}
	info := dec.Info(dec.Find(colOp))
	b := fileBytes(t, fsys, path)
	b[m.Offset+seg.FrameHeaderLen+int64(info.Offset+info.Stored/2)] ^= 0x5a
	f, err := fsys.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	st, err := Run(context.Background(), Config{FS: fsys, Dir: "s", Segments: ss, Workers: 2, TwoPhase: TwoPhaseAlways})
	if !errors.Is(err, chunk.ErrCorrupt) || !strings.Contains(err.Error(), "block 0 in "+path) || st.Watermark != 0 {
		t.Fatalf("W %d, err %v", st.Watermark, err)
	}
	if _, ok, _ := LoadWatermark(fsys, "s"); ok {
		t.Fatal("watermark written by a failed pass")
	}
}
