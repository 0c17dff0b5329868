package query

import (
	"bytes"
	"math"
	"slices"

	"github.com/tsqdb/tsq/seg"
)

// task is one block to scan.
type task struct {
	sg     Segment
	blk    int
	meta   seg.BlockMeta
	inside bool // every row lies within the seq and time bounds
}

// scanRange is what a scan may skip by: inclusive seq and time bounds
// and the only series and keys that can match (nil: any).
type scanRange struct {
	slo, shi uint64
	tlo, thi int64
	series   []string
	keys     []string // none empty
	// keyLo, keyHi: the keys that can match lie between (inclusive, nil:
	// unbounded), when keyset (no empty key can match)
	keyLo, keyHi []byte
	keyset       bool
}

// pruneStats counts segments and blocks: total, scanned, and pruned by
// seq range, time range, series bloom filter and key span (a block of a
// pruned segment counts as pruned for the segment's reason).
type pruneStats struct {
	segs, segsScanned, segsSeq, segsTime, segsBloom, segsKeys             int
	blocks, blocksScanned, blocksSeq, blocksTime, blocksBloom, blocksKeys int
	rowsTotal, rowsScanned                                                int64
}

// KeySpanner is a Segment that knows the span of each block's keys
// (seg.KeySpan): a query for some keys skips the blocks that cannot
// hold them.
type KeySpanner interface {
	// MayHoldKeys reports whether block i may hold a row of one of keys
	// (sorted, none empty); false means it certainly does not.
	MayHoldKeys(i int, keys [][]byte) bool
	// MayHoldKeyRange is MayHoldKeys for the keys, none empty, between
	// lo and hi (inclusive; nil: unbounded).
	MayHoldKeyRange(i int, lo, hi []byte) bool
}

// empty reports whether no row can satisfy the range.
func (r *scanRange) empty() bool {
	return r.slo > r.shi || r.tlo > r.thi || r.series != nil && len(r.series) == 0 || r.keys != nil && len(r.keys) == 0
}

// prune lists the blocks of segs that may hold rows in r, in seq order.
func prune(segs []Segment, r scanRange) ([]task, pruneStats) {
	var ps pruneStats
	var tasks []task
	var keys [][]byte
	if r.keys != nil {
		for _, k := range r.keys {
			keys = append(keys, []byte(k))
		}
		slices.SortFunc(keys, bytes.Compare)
	}
	for _, sg := range segs {
		blocks := sg.Blocks()
		ps.segs++
		ps.blocks += len(blocks)
		var smin, smax uint64 = math.MaxUint64, 0
		var tmin, tmax int64 = math.MaxInt64, math.MinInt64
		for i := range blocks {
			m := &blocks[i]
			ps.rowsTotal += int64(m.Rows)
			if m.Rows == 0 {
				continue
			}
			smin, smax = min(smin, m.MinSeq), max(smax, m.MaxSeq)
			tmin, tmax = min(tmin, m.MinTime), max(tmax, m.MaxTime)
		}
		switch {
		case r.slo > r.shi || smin > r.shi || smax < r.slo:
			ps.segsSeq++
			ps.blocksSeq += len(blocks)
			continue
		case r.tlo > r.thi || tmin > r.thi || tmax < r.tlo:
			ps.segsTime++
			ps.blocksTime += len(blocks)
			continue
		case r.series != nil && !anySeries(sg, r.series):
			ps.segsBloom++
			ps.blocksBloom += len(blocks)
			continue
		}
		ks, _ := sg.(KeySpanner)
		if keys == nil && !r.keyset {
			ks = nil
		}
		var segTasks []task
		var segKeys int
		for i := range blocks {
			m := blocks[i]
			switch {
			case m.Rows == 0 || m.MinSeq > r.shi || m.MaxSeq < r.slo:
				ps.blocksSeq++
			case m.MinTime > r.thi || m.MaxTime < r.tlo:
				ps.blocksTime++
			case ks != nil && keys != nil && !ks.MayHoldKeys(i, keys),
				ks != nil && r.keyset && !ks.MayHoldKeyRange(i, r.keyLo, r.keyHi):
				segKeys++
			default:
				ps.blocksScanned++
				ps.rowsScanned += int64(m.Rows)
				inside := m.MinSeq >= r.slo && m.MaxSeq <= r.shi && m.MinTime >= r.tlo && m.MaxTime <= r.thi
				segTasks = append(segTasks, task{sg: sg, blk: i, meta: m, inside: inside})
			}
		}
		ps.blocksKeys += segKeys
		if len(segTasks) == 0 && segKeys > 0 { // no block may hold the keys
			ps.segsKeys++
			continue
		}
		ps.segsScanned++
		tasks = append(tasks, segTasks...)
	}
	return tasks, ps
}

func anySeries(sg Segment, names []string) bool {
	for _, n := range names {
		if sg.MayContainSeries(n) {
			return true
		}
	}
	return false
}
