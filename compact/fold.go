package compact

import (
	"context"
	"fmt"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// Fold builds the tombstone snapshot of the sealed rows in (lo, hi],
// reading segments in seq order, and returns it with the chunk's end:
// hi, or the max seq of the block at which the snapshot reached cap
// entries. Blocks are pruned by their seq bounds.
func Fold(ctx context.Context, fsys vfs.FS, segs []Segment, lo, hi uint64, cap int) (*Snapshot, uint64, error) {
	return fold(ctx, fsys, segs, lo, hi, cap, DefaultBloomCutoff)
}

// fold is Fold keeping up to nameLimit series names in the snapshot.
func fold(ctx context.Context, fsys vfs.FS, segs []Segment, lo, hi uint64, cap, nameLimit int) (*Snapshot, uint64, error) {
	snap := newSnapshot(nameLimit)
	snap.keys = &tombKeys{}
	var size tableSizer
	size.start(snap.recs, hi-lo, cap)
	var dec chunk.Decoder
	var rw rows
	var buf []byte
	for _, s := range segs {
		if s.MaxSeq <= lo || s.FirstSeq > hi {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		end, stop, err := foldSegment(fsys, s.Path, lo, hi, cap, snap, &size, &dec, &rw, &buf)
		if err != nil {
			return nil, 0, err
		}
		if stop {
			return snap, end, nil
		}
	}
	return snap, hi, nil
}

func foldSegment(fsys vfs.FS, path string, lo, hi uint64, cap int, snap *Snapshot, size *tableSizer, dec *chunk.Decoder, rw *rows, buf *[]byte) (end uint64, stop bool, err error) {
	r, err := seg.Open(fsys, path)
	if err != nil {
		return 0, false, err
	}
	defer r.Close()
	blocks := r.Blocks()
	for i := r.Find(lo + 1); i < len(blocks); i++ {
		m := &blocks[i]
		if m.MinSeq > hi {
			break
		}
		if m.Rows == 0 {
			continue
		}
		if *buf, err = r.ReadBlock(i, *buf); err != nil {
			return 0, false, err
		}
		if err := decodeRows(dec, *buf, rw); err != nil {
			return 0, false, fmt.Errorf("compact: fold %s block %d: %w", path, i, err)
		}
		size.before(snap.recs, rw.n)
		for k := range rw.n {
			if q := uint64(rw.seq[k]); q > lo && q <= hi {
				snap.Observe(q, rw.series[k], rw.key[k], uint8(rw.op[k]))
			}
		}
		if snap.Len() >= cap && m.MaxSeq < hi {
			return m.MaxSeq, true, nil
		}
	}
	return 0, false, nil
}
