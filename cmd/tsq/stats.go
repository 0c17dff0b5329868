package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"text/tabwriter"
	"time"

	tsq "github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/check"
	"github.com/tsqdb/tsq/internal/termplot"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// sparkWidth is the characters of a stream's activity sparkline.
const sparkWidth = 32

// streamStats summarises one stream from its segments' block index,
// decoding only the times of the few blocks whose rows span more of the
// sparkline than one character (exactTimes).
type streamStats struct {
	name             string
	rows             int
	segments         int
	blocks           int // holding rows
	stored           int // rows in blocks (soft-deleted ones too)
	bytes            int64
	minTime, maxTime int64
	spark            string // rows over time
}

// collectStats reads the block index of every segment of the store.
func collectStats(ctx context.Context, st *tsq.Store, only []string) ([]streamStats, error) {
	names, err := st.Streams()
	if err != nil {
		return nil, err
	}
	if len(only) > 0 {
		for _, n := range only {
			if !slices.Contains(names, n) {
				return nil, fmt.Errorf("stats: no stream %q (tsq stats lists them all)", n)
			}
		}
		names = only
	}
	segs, err := check.Segments(vfs.Default, st.Dir())
	if err != nil {
		return nil, err
	}
	var out []streamStats
	for _, n := range names {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ss := streamStats{name: n, minTime: math.MaxInt64, maxTime: math.MinInt64}
		if ss.rows, err = st.Count(n); err != nil {
			return nil, err
		}
		var blocks []statBlock
		for _, sf := range segs {
			if sf.Stream != n {
				continue
			}
			ss.segments++
			ss.bytes += sf.Size
			r, err := seg.Open(vfs.Default, sf.Path)
			if err != nil {
				return nil, fmt.Errorf("stats: %w", err)
			}
			for i, m := range r.Blocks() {
				if m.Rows == 0 {
					continue
				}
				blocks = append(blocks, statBlock{meta: m, path: sf.Path, i: i})
				ss.blocks++
				ss.stored += m.Rows
				ss.minTime, ss.maxTime = min(ss.minTime, m.MinTime), max(ss.maxTime, m.MaxTime)
			}
			r.Close()
		}
		exactTimes(blocks, ss.minTime, ss.maxTime)
		ss.spark = activity(blocks, ss.minTime, ss.maxTime)
		out = append(out, ss)
	}
	return out, nil
}

// statBlock is a block of a stream holding rows.
type statBlock struct {
	meta  seg.BlockMeta
	path  string // its segment
	i     int    // its index there
	times []int64
}

// sparkBucket returns the sparkline character time t falls in, of
// tmin..tmax.
func sparkBucket(t, tmin, tmax int64) int {
	span := float64(tmax-tmin) + 1
	return max(0, min(int(float64(t-tmin)/span*sparkWidth), sparkWidth-1))
}

// exactBytes bounds the bytes of blocks exactTimes reads per stream:
// stats reads block indexes, and only a little more.
var exactBytes = 32 << 20 // a variable for tests

// exactTimes decodes the times of the blocks whose time range spans more
// than one character of tmin..tmax (an import of rows out of time order,
// a backfill), up to exactBytes of blocks in all, so that their rows are
// drawn where they fall rather than spread evenly; a block past the
// budget, or that cannot be read, is spread evenly.
func exactTimes(blocks []statBlock, tmin, tmax int64) {
	budget := exactBytes
	var (
		r    *seg.Reader
		path string
		buf  []byte
		dec  chunk.Decoder
		col  chunk.Column
	)
	defer func() {
		if r != nil {
			r.Close()
		}
	}()
	for k := range blocks {
		b := &blocks[k]
		m := &b.meta
		if sparkBucket(m.MinTime, tmin, tmax) == sparkBucket(m.MaxTime, tmin, tmax) || m.Length > budget {
			continue
		}
		if b.path != path {
			if r != nil {
				r.Close()
			}
			var err error
			if r, err = seg.Open(vfs.Default, b.path); err != nil {
				r, path = nil, ""
				continue
			}
			path = b.path
		}
		var err error
		if buf, err = r.ReadBlock(b.i, buf); err != nil || dec.Reset(buf) != nil {
			continue
		}
		if c := dec.Find("time"); c < 0 || dec.Info(c).Type != chunk.Int64 || dec.Column(c, &col) != nil || len(col.Ints) != m.Rows {
			continue
		}
		b.times = slices.Clone(col.Ints)
		budget -= m.Length
	}
}

// activity counts each block's rows in the sparkWidth buckets of tmin..tmax
// and draws them: by their times when known (exactTimes), else spread
// evenly over the block's time range, shares going to the buckets by
// overlap. A block within one bucket (the common case) adds all its rows
// to it, which also keeps float rounding of nanosecond spans out of the
// sums. A bucket without rows is blank.
func activity(blocks []statBlock, tmin, tmax int64) string {
	if len(blocks) == 0 {
		return ""
	}
	buckets := make([]float64, sparkWidth)
	span := float64(tmax-tmin) + 1
	width := span / sparkWidth
	at := func(t int64) int { return sparkBucket(t, tmin, tmax) }
	for _, b := range blocks {
		m := b.meta
		if b.times != nil {
			for _, t := range b.times {
				buckets[at(t)]++
			}
			continue
		}
		bl, bh := at(m.MinTime), at(m.MaxTime)
		if bl >= bh {
			buckets[bl] += float64(m.Rows)
			continue
		}
		lo, hi := float64(m.MinTime-tmin), float64(m.MaxTime-tmin)+1
		blockSpan := float64(m.MaxTime-m.MinTime) + 1
		for b := bl; b <= bh; b++ {
			from, to := max(lo, float64(b)*width), min(hi, float64(b+1)*width)
			buckets[b] += float64(m.Rows) * max(to-from, 0) / blockSpan
		}
	}
	for b, n := range buckets {
		if n == 0 {
			buckets[b] = math.NaN() // drawn blank: no rows then
		}
	}
	return termplot.SparklineFromZero(buckets, sparkWidth)
}

// writeStats prints one line per stream.
func writeStats(ctx context.Context, w io.Writer, st *tsq.Store, only ...string) error {
	stats, err := collectStats(ctx, st, only)
	if err != nil {
		return err
	}
	if len(stats) == 0 {
		fmt.Fprintln(w, "no streams")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	// rows/block, the stored rows a block holds on average, shows the
	// frames' health: small ones (wide imported rows, fields whose type
	// changes between appends) make reads and compaction slower.
	// deleted: soft-deleted rows still on disk, which compaction frees.
	fmt.Fprintln(tw, "stream\trows\tdeleted\tsegments\tblocks\trows/block\tbytes\tfrom\tto\trows over time")
	for _, s := range stats {
		from, to, per := "-", "-", "-"
		if s.minTime <= s.maxTime {
			from = time.Unix(0, s.minTime).UTC().Format(time.RFC3339)
			to = time.Unix(0, s.maxTime).UTC().Format(time.RFC3339)
		}
		if s.blocks > 0 {
			per = fmt.Sprint(s.stored / s.blocks)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", s.name, s.rows, max(s.stored-s.rows, 0), s.segments, s.blocks, per, humanBytes(s.bytes), from, to, s.spark)
	}
	return tw.Flush()
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// countOf writes n things, in the plural unless n is 1.
func countOf[N int | int64](n N, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
