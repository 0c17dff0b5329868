package tsq

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/tsqdb/tsq/seg"
)

// After a failed fsync the operating system may have dropped the bytes
// written since the last successful one while they still read back
// (Linux marks the pages clean: no later fsync writes them). Recovery
// must not build on them: frames appended after them, fsynced and
// acknowledged, would follow bytes that never reach the disk, and a
// crash would cut them with the torn tail. So a segment whose fsync
// failed is cut back to what its last successful fsync made durable
// before it is reopened (recover).

// unsyncedCut is a segment to cut back to its durable size.
type unsyncedCut struct {
	path string
	size int64
}

// noteUnsynced records w's durable size if an fsync of w failed, and
// reports the acknowledged rows the cut drops (only buffered policies
// acknowledge rows before their fsync). blocks are w's frames. Caller
// holds mu.
func (st *stream) noteUnsynced(w *seg.Writer, blocks []seg.BlockMeta) {
	if !w.SyncFailed() || st.cut.path != "" {
		return
	}
	st.cut = unsyncedCut{path: w.Path(), size: w.Synced()}
	if !st.buffered() {
		return // under SyncAlways no frame past the last fsync was acknowledged
	}
	var rows uint64
	for _, b := range blocks {
		if b.Offset+int64(b.Length) > w.Synced() && b.MinSeq < st.ackedNext {
			rows += min(b.MaxSeq+1, st.ackedNext) - b.MinSeq
		}
	}
	if rows > 0 {
		st.s.m.syncErrors.Add(1)
		if st.syncErr == nil {
			st.syncErr = fmt.Errorf("tsq: stream %q: %d acknowledged rows written after the last good fsync of %s were lost: the fsync failed", st.name, rows, w.Path())
		}
	}
}

// cutUnsynced cuts the segment noted by noteUnsynced back to its durable
// size and fsyncs it. Caller holds mu.
func (st *stream) cutUnsynced() error {
	c := st.cut
	if c.path == "" {
		return nil
	}
	f, err := st.s.fs.OpenAppend(c.path)
	if errors.Is(err, fs.ErrNotExist) {
		st.cut = unsyncedCut{}
		return nil
	}
	if err != nil {
		return fmt.Errorf("tsq: stream %q: cut %s after a failed fsync: %w", st.name, c.path, err)
	}
	err = f.Truncate(c.size)
	if err == nil {
		st.clipView(c.path, c.size) // readers must not reach past the cut
		err = f.Sync()
	}
	err = errors.Join(err, f.Close())
	if err != nil {
		return fmt.Errorf("tsq: stream %q: cut %s after a failed fsync: %w", st.name, c.path, err)
	}
	st.cut = unsyncedCut{}
	return nil
}

// clipView republishes the readers' view without the blocks of segment
// path that end past size. Caller holds mu.
func (st *stream) clipView(path string, size int64) {
	v := st.view.Load()
	if v == nil {
		return
	}
	segs := make([]*segFile, 0, len(v.segs))
	for _, sf := range v.segs {
		if sf.path == path {
			c := *sf
			c.sealed, c.blocks = false, nil
			for _, b := range sf.blocks {
				if b.Offset+int64(b.Length) <= size {
					c.blocks = append(c.blocks, b)
				}
			}
			c.rows = sumRows(c.blocks)
			sf = &c
		}
		segs = append(segs, sf)
	}
	st.view.Store(&view{segs: segs})
}
