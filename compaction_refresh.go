package tsq

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/tsqdb/tsq/seg"
)

// reconcile compares each sealed segment's resident metadata with its
// file (generation and block CRCs) and reloads those that differ: the
// window where a rewrite was durable but its refresh failed.
func (st *stream) reconcile(segs []*segFile) (int, error) {
	n := 0
	for _, sf := range segs {
		r, err := seg.Open(st.s.fs, sf.path)
		if err != nil {
			return n, err
		}
		same := r.Header().Generation == sf.gen && slices.EqualFunc(r.Blocks(), sf.blocks,
			func(a, b seg.BlockMeta) bool { return a.CRC == b.CRC && a.Rows == b.Rows && a.Offset == b.Offset })
		if err := r.Close(); err != nil {
			return n, err
		}
		if !same {
			if err := st.reloadSegment(sf.path); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// reloadSegment is refreshSegment with the metadata read from the file.
func (st *stream) reloadSegment(path string) error {
	r, err := seg.Open(st.s.fs, path)
	if err != nil {
		return err
	}
	m := r.Meta()
	if err := r.Close(); err != nil {
		return err
	}
	return st.refreshSegment(path, m)
}

// refreshSegment publishes segment path as rewritten, m its metadata:
// new read handle, blocks and generation; the old generation's cached
// blocks become unreachable (a new generation or segment id) and are
// freed.
func (st *stream) refreshSegment(path string, m seg.Meta) error {
	f, err := st.s.fs.Open(path)
	if err != nil {
		return err
	}
	name := filepath.Base(path)
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		_ = f.Close()
		return fmt.Errorf("stream %q: %w", st.name, ErrClosed)
	}
	for k, sf := range st.segs {
		if sf.name != name {
			continue
		}
		out := *sf
		out.f, out.blocks, out.rows, out.sealed = f, m.Blocks, m.Rows, m.Sealed
		out.gen = m.Header.Generation
		if out.cacheID != 0 && (out.gen&cacheGenMask == sf.gen&cacheGenMask || out.gen&cacheGenMask == 0) {
			out.cacheID = st.newCacheID()
		}
		st.segs = slices.Clone(st.segs) // published views share the old array
		st.segs[k] = &out
		st.s.cache.forget(sf)
		if old := st.files[name]; old != nil {
			st.cmp.retire(old)
		}
		st.files[name] = f
		st.publish()
		return nil
	}
	_ = f.Close()
	return fmt.Errorf("stream %q: segment %s is not loaded", st.name, name)
}
