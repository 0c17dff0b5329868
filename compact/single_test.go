package compact

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/tsqdb/tsq/internal/vfs"
)

// TestRunSingleMatchesChunked: the single-chunk pass (one read, newest
// row first, blocks of 2,048 rows decided in two parallel halves) and
// the chunked pass (fold, then decide) leave the same rows and report
// the same drops and removed seqs, over random keyed puts, samples,
// deletes, drops and soft deletes, from several watermarks.
func TestRunSingleMatchesChunked(t *testing.T) {
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 7))
		const blockRows, blocks, segs = 2048, 3, 4
		groups, seq := rowGroups(rng, segs, blocks, blockRows, func(r *row) {
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
		deleted := roaring64.New()
		for range 500 {
			deleted.Add(1 + rng.Uint64N(seq-1))
		}
		for _, w := range []uint64{0, 2 * blockRows * blocks, seq - 100} {
			var stats []Stats
			var files [][][]int64
			for _, chunked := range []bool{true, false} {
				fsys := vfs.NewMem()
				_ = fsys.MkdirAll("s", 0o755)
				var ss []Segment
				for i, sg := range groups {
					ss = append(ss, writeSeg(t, fsys, fmt.Sprintf("s/%02d.seg", i), sg...))
				}
				st, err := Run(context.Background(), Config{FS: fsys, Dir: "s", Segments: ss, Watermark: w,
					SoftDeleted: deleted, Workers: 2, Chunked: chunked})
				if err != nil {
					t.Fatal(err)
				}
				stats = append(stats, st)
				var all [][]int64
				for _, s := range ss {
					got, _ := seqsOf(t, fsys, s.Path)
					all = append(all, got...)
				}
				files = append(files, all)
			}
			c, s := stats[0], stats[1]
			if s.Chunks != 1 {
				t.Fatalf("seed %d W %d: the single-chunk pass ran %d chunks", seed, w, s.Chunks)
			}
			if !reflect.DeepEqual(files[0], files[1]) {
				for b := range files[0] {
					if !reflect.DeepEqual(files[0][b], files[1][b]) {
						a, c := map[int64]bool{}, map[int64]bool{}
						for _, q := range files[0][b] {
							a[q] = true
						}
						for _, q := range files[1][b] {
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
				t.Fatalf("seed %d W %d: the passes leave different rows", seed, w)
			}
			if c.RowsDropped != s.RowsDropped || c.Tombstones != s.Tombstones || c.SegmentsRewritten != s.SegmentsRewritten ||
				!c.GoneSoftDeleted.Equals(s.GoneSoftDeleted) || !c.GoneSuperseded.Equals(s.GoneSuperseded) {
				t.Fatalf("seed %d W %d: chunked %+v, single %+v", seed, w, c, s)
			}
			if w == 0 && s.RowsDropped[ReasonRecord]*s.RowsDropped[ReasonUpdate]*s.RowsDropped[ReasonSeries]*s.RowsDropped[ReasonSoftDelete] == 0 {
				t.Fatalf("seed %d: a reason never dropped: %v", seed, s.RowsDropped)
			}
		}
	}
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

// TestRunSingleHeldBytes: however few re-encoded blocks the pass may
// hold for their rewrite (none, a few, the default), it writes the same
// segment files, byte for byte; the blocks past the budget are read
// and re-encoded by the rewrite, and the bytes held never pass the
// budget.
func TestRunSingleHeldBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	const blockRows, blocks, segs = 2048, 4, 3
	groups, _ := rowGroups(rng, segs, blocks, blockRows, func(r *row) {
		r.key = fmt.Sprintf("k%d", rng.IntN(20000))
		if rng.IntN(10) == 0 {
			r.op = OpDelete
		}
	})
	// A few blocks: below what the default holds however the pass's
	// goroutines interleave (a segment's four re-encoded blocks, 48 KiB,
	// wait together for the first one, decided last; more when the
	// segment before is still being written, which is timing).
	const small = 32 << 10
	var want [][]byte
	var held []int64
	for _, budget := range []int64{0, small, -1} {
		fsys := vfs.NewMem()
		_ = fsys.MkdirAll("s", 0o755)
		var ss []Segment
		for i, sg := range groups {
			ss = append(ss, writeSeg(t, fsys, fmt.Sprintf("s/%02d.seg", i), sg...))
		}
		st, err := Run(context.Background(), Config{FS: fsys, Dir: "s", Segments: ss, Workers: 2, HeldBytes: budget})
		if err != nil {
			t.Fatal(err)
		}
		if st.Chunks != 1 || st.SegmentsRewritten != segs {
			t.Fatalf("budget %d: %d chunks, %d segments rewritten", budget, st.Chunks, st.SegmentsRewritten)
		}
		var files [][]byte
		for _, s := range ss {
			f, err := fsys.Open(s.Path)
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(f)
			_ = f.Close()
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, b)
		}
		if want == nil {
			want = files
		} else if !reflect.DeepEqual(files, want) {
			t.Fatalf("budget %d: the rewritten files differ from the default budget's", budget)
		}
		held = append(held, st.MaxHeldBytes)
	}
	if held[0] <= small || held[1] == 0 || held[1] > small || held[2] != 0 {
		t.Fatalf("bytes held at most: %d (default), %d (budget %d), %d (none)", held[0], held[1], small, held[2])
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
