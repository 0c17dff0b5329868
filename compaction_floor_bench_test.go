package tsq

import (
	"fmt"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// BenchmarkCompactRewriteFloor measures, for each shape of
// BenchmarkCompactRewrite, the least CPU any rewrite of its segments in
// this format spends: decoding every block that loses rows and encoding
// the rows it keeps (chunk.Encoder.EncodeFiltered, as the pass encodes
// them), with no read, fold, write or fsync. The rows dropped are those
// a pass drops: the puts whose (series, key) a later delete names.
//
// It reports that CPU a row and per MB of segment, and floor-ratio: the
// ratio to the copy (copyFiles, in the same run) that a rewrite doing
// only this work on GOMAXPROCS cores, perfectly parallel, would reach.
// A shape whose floor-ratio is below a target cannot meet it by any
// change to the pass; only a cheaper encoding could.
func BenchmarkCompactRewriteFloor(b *testing.B) {
	for _, shape := range []string{"scattered", "runs", "osm"} {
		b.Run(shape, func(b *testing.B) {
			rows := benchRows(b, 400_000)
			for range b.N {
				b.StopTimer()
				dir := b.TempDir()
				s, err := Open(dir, &Options{Sync: SyncNever, SegmentMaxBytes: int64(benchEnvInt(b, "TSQ_COMPACT_BENCH_SEGMENT_MB", 8)) << 20, CompactInterval: 0})
				if err != nil {
					b.Fatal(err)
				}
				if shape == "osm" {
					rows = fillOSM(b, s, "ev")
				} else {
					fillStream(b, s, "ev", rows, shape == "runs")
				}
				sealForBench(b, s, "ev")
				files, size := segBytes(b, filepath.Join(dir, "streams", "ev"))
				blocks := readAllBlocks(b, files)
				keeps := droppedByDeletes(b, blocks)
				dropped := 0
				for i, keep := range keeps {
					if keep != nil {
						dropped += blockRows(b, blocks[i]) - len(keep)
					}
				}
				runtime.GC()
				b.StartTimer()
				// The least of three rounds: the machine is shared.
				var best time.Duration
				var out int64
				for range 3 {
					d, n := reencode(b, blocks, keeps)
					if best == 0 || d < best {
						best = d
					}
					out = n
				}
				b.StopTimer()
				syscall.Sync()
				copyDur := copyFiles(b, files, false)
				_ = s.Close()
				procs := runtime.GOMAXPROCS(0)
				copyMBs := float64(2*size) / 1e6 / copyDur.Seconds()
				floorMBs := float64(size+out) / 1e6 / (best.Seconds() / float64(procs))
				b.ReportMetric(float64(best.Nanoseconds())/float64(rows), "reencode-ns/row")
				b.ReportMetric(best.Seconds()*1e3/(float64(size)/1e6), "reencode-ms/MB")
				b.ReportMetric(copyMBs, "copy-MB/s")
				b.ReportMetric(floorMBs/copyMBs, "floor-ratio")
				b.Logf("%d rows, %d dropped, %.1f MB -> %.1f MB; re-encoding %v on one core (%.0f MB/s on %d), copy %v (%.0f MB/s): floor ratio %.2f",
					rows, dropped, float64(size)/1e6, float64(out)/1e6, best, floorMBs, procs, copyDur, copyMBs, floorMBs/copyMBs)
			}
		})
	}
}

// readAllBlocks returns the bytes of every block of files, in order.
func readAllBlocks(b *testing.B, files []string) [][]byte {
	b.Helper()
	var blocks [][]byte
	for _, p := range files {
		r, err := seg.Open(vfs.Default, p)
		if err != nil {
			b.Fatal(err)
		}
		for i := range r.Blocks() {
			buf, err := r.ReadBlock(i, nil)
			if err != nil {
				b.Fatal(err)
			}
			blocks = append(blocks, buf)
		}
		_ = r.Close()
	}
	return blocks
}

// droppedByDeletes returns, per block, the rows a pass keeps: all but the
// puts whose (series, key) some delete of the blocks names (nil: the
// block keeps every row). Every shape puts each key once, before it is
// deleted.
func droppedByDeletes(b *testing.B, blocks [][]byte) [][]int32 {
	b.Helper()
	type rec struct {
		ops          []int64
		series, keys []string
	}
	recs := make([]rec, len(blocks))
	deleted := map[string]bool{}
	var d chunk.Decoder
	for bi, buf := range blocks {
		if len(buf) == 0 {
			continue
		}
		if err := d.Reset(buf); err != nil {
			b.Fatal(err)
		}
		var op, series, key chunk.Column
		for _, c := range []struct {
			name string
			dst  *chunk.Column
		}{{colOp, &op}, {colSeries, &series}, {colKey, &key}} {
			i := d.Find(c.name)
			if i < 0 {
				b.Fatalf("block %d has no column %q", bi, c.name)
			}
			if err := d.Column(i, c.dst); err != nil {
				b.Fatal(err)
			}
		}
		r := rec{ops: op.Ints}
		for k := range d.Rows() {
			r.series = append(r.series, strAt(&series, k))
			r.keys = append(r.keys, strAt(&key, k))
			if op.Ints[k] == int64(OpDelete) {
				deleted[r.series[k]+"\x00"+r.keys[k]] = true
			}
		}
		recs[bi] = r
	}
	keeps := make([][]int32, len(blocks))
	for bi, r := range recs {
		keep := make([]int32, 0, len(r.ops)) // empty, not nil, for an emptied block
		for k, op := range r.ops {
			if op != int64(OpPut) || r.keys[k] == "" || !deleted[r.series[k]+"\x00"+r.keys[k]] {
				keep = append(keep, int32(k))
			}
		}
		if len(keep) < len(r.ops) {
			keeps[bi] = keep
		}
	}
	return keeps
}

// blockRows returns the rows of the block buf.
func blockRows(b *testing.B, buf []byte) int {
	var d chunk.Decoder
	if err := d.Reset(buf); err != nil {
		b.Fatal(err)
	}
	return d.Rows()
}

// strAt returns row k of a decoded String column ("" when null).
func strAt(c *chunk.Column, k int) string {
	if c.Valid != nil && !c.Valid[k] {
		return ""
	}
	if c.Strs != nil {
		return c.Strs[k]
	}
	return string(c.Dict.At(int(c.Codes[k])))
}

// reencode re-encodes each block with keeps[i] not nil to those rows, as
// a pass does (the fastest zstd level, fields left out that no kept row
// has), and returns the time it took and the bytes of every block after
// (those kept whole counted as they are).
func reencode(b *testing.B, blocks [][]byte, keeps [][]int32) (time.Duration, int64) {
	b.Helper()
	var d chunk.Decoder
	enc := chunk.Encoder{FastZstd: true, OmitNull: func(name string) bool {
		switch name {
		case colSeq, colTime, colSeries, colKey, colOp:
			return false
		}
		return true
	}}
	var out []byte
	var n int64
	t0 := time.Now()
	for i, buf := range blocks {
		keep := keeps[i]
		switch {
		case keep == nil:
			n += int64(len(buf))
			continue
		case len(keep) == 0: // emptied: a frame of 0 rows
			continue
		}
		if err := d.Reset(buf); err != nil {
			b.Fatal(err)
		}
		var err error
		if out, err = enc.EncodeFiltered(out[:0], &d, keep, nil); err != nil {
			b.Fatal(fmt.Errorf("block %d: %w", i, err))
		}
		n += int64(len(out))
	}
	return time.Since(t0), n
}
