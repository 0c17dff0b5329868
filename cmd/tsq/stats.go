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
	"github.com/tsqdb/tsq/internal/check"
	"github.com/tsqdb/tsq/internal/termplot"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// sparkWidth is the characters of a stream's activity sparkline.
const sparkWidth = 32

// streamStats summarises one stream from its segments' block index,
// without decoding blocks.
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
		var metas []seg.BlockMeta
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
			for _, m := range r.Blocks() {
				if m.Rows == 0 {
					continue
				}
				metas = append(metas, m)
				ss.blocks++
				ss.stored += m.Rows
				ss.minTime, ss.maxTime = min(ss.minTime, m.MinTime), max(ss.maxTime, m.MaxTime)
			}
			r.Close()
		}
		ss.spark = activity(metas, ss.minTime, ss.maxTime)
		out = append(out, ss)
	}
	return out, nil
}

// activity spreads each block's rows evenly over its time range, shares
// going to the sparkWidth buckets by overlap, and draws them. A block
// within one bucket (the common case) adds all its rows to it, which also
// keeps float rounding of nanosecond spans out of the sums.
func activity(metas []seg.BlockMeta, tmin, tmax int64) string {
	if len(metas) == 0 {
		return ""
	}
	buckets := make([]float64, sparkWidth)
	span := float64(tmax-tmin) + 1
	width := span / sparkWidth
	at := func(t int64) int { return min(int(float64(t-tmin)/span*sparkWidth), sparkWidth-1) }
	for _, m := range metas {
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
