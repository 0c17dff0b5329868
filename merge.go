package tsq

import (
	"slices"
	"sync"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/seg"
)

// Merging at seal. Under group commit a segment fills with small frames,
// one per group. When a segment is sealed with frames averaging under
// half of BlockRows rows, a background goroutine rewrites it crash-safely
// (seg.Rewrite: temp file, fsync, rename, directory fsync) with runs of
// consecutive seqs merged into blocks of up to BlockRows rows. Readers
// that hold the old view keep reading the old file through its open
// handle; the writer publishes the new index and handle at its next
// commit. A failed merge leaves the sealed segment as it was.

// mergeState is a stream's merge bookkeeping.
type mergeState struct {
	wg      sync.WaitGroup // running merges
	mu      sync.Mutex     // guards done
	done    []*segFile     // finished merges, for the writer to publish
	retired []closer       // handles of replaced files, closed at Close
}

type closer interface{ Close() error }

// shouldMerge reports whether a sealed segment's frames are small enough
// to be worth merging.
func shouldMerge(blocks []seg.BlockMeta, blockRows int) bool {
	return len(blocks) > 1 && sumRows(blocks) < int64(len(blocks))*int64(blockRows)/2
}

// startMerge merges sealed segment sf in the background. Caller holds mu.
func (st *stream) startMerge(sf *segFile) {
	st.merge.wg.Add(1)
	go func() {
		defer st.merge.wg.Done()
		merged, err := st.mergeSegment(sf)
		if err != nil {
			st.s.m.mergeErrors.Add(1)
			return
		}
		st.merge.mu.Lock()
		st.merge.done = append(st.merge.done, merged)
		st.merge.mu.Unlock()
		st.s.m.merges.Add(1)
	}()
}

// mergeSegment rewrites sf with merged blocks and returns the new
// segment's description, with its own read handle.
func (st *stream) mergeSegment(sf *segFile) (*segFile, error) {
	fsys := st.s.fs
	m := merger{st: st, sf: sf}
	m.b.init(st.s.o.BlockRows)
	if err := seg.Rewrite(fsys, sf.path, m.run, nil); err != nil {
		return nil, err
	}
	f, err := fsys.Open(sf.path)
	if err != nil {
		return nil, err
	}
	r, err := seg.Open(fsys, sf.path)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	defer r.Close()
	out := *sf
	out.f, out.blocks, out.rows, out.sealed = f, r.Blocks(), r.Rows(), r.Sealed()
	// The block cache tells the new file from the old by the generation in
	// its keys. Should its low 16 bits not change (or wrap to 0), the new
	// file gets a fresh segment id instead.
	out.gen = r.Header().Generation
	if out.cacheID != 0 && (out.gen&cacheGenMask == sf.gen&cacheGenMask || out.gen&cacheGenMask == 0) {
		out.cacheID = st.newCacheID()
	}
	return &out, nil
}

// merger copies a segment's rows into bigger blocks.
type merger struct {
	st  *stream
	sf  *segFile
	w   *seg.Writer
	b   builder
	src mergeSrc // column-wise copying (merge_cols.go)
	enc chunk.Encoder
	buf []byte
}

func (m *merger) run(w *seg.Writer) error {
	m.w = w
	var last uint64
	for i := range m.sf.blocks {
		if m.sf.blocks[i].Rows == 0 {
			continue
		}
		blk, err := m.st.decodeBlockMode(m.sf, i, cacheLookup)
		if err != nil {
			return err
		}
		if m.src.prepare(blk) {
			if m.b.rows > 0 && (uint64(m.src.seq.Ints[0]) != last+1 || dayOf(m.src.time.Ints[0]) > m.b.day || m.b.srcConflicts(&m.src)) {
				if err := m.flush(); err != nil {
					return err
				}
			}
			for lo := 0; lo < blk.Rows; {
				n := m.b.take(&m.src, lo)
				if n == 0 {
					if err := m.flush(); err != nil {
						return err
					}
					continue
				}
				m.b.appendSrc(&m.src, lo, lo+n)
				lo += n
				if m.b.rows >= m.b.maxRows {
					if err := m.flush(); err != nil {
						return err
					}
				}
			}
			last = uint64(m.src.seq.Ints[blk.Rows-1])
			continue
		}
		for row := range blk.Rows {
			r := RecordAt(blk, row)
			day, size := dayOf(r.Time), recordSize(&r)
			if m.b.rows > 0 && (r.Seq != last+1 || m.b.full(day, size) || m.b.recordConflicts(&r)) {
				if err := m.flush(); err != nil {
					return err
				}
			}
			m.b.addRecord(r.Seq, &r, day, size)
			last = r.Seq
		}
	}
	return m.flush()
}

func (m *merger) flush() error {
	b := &m.b
	if b.rows == 0 {
		return nil
	}
	blk := b.block()
	var err error
	if m.buf, err = m.enc.Append(m.buf[:0], &blk, nil); err != nil {
		return err
	}
	meta := seg.BlockMeta{Rows: b.rows, MinSeq: uint64(b.seq[0]), MaxSeq: uint64(b.seq[b.rows-1]), MinTime: b.minTime, MaxTime: b.maxTime}
	if err := m.w.AppendChecked(m.buf, meta); err != nil {
		return err
	}
	for s := range b.seriesSet {
		m.w.AddSeries(s)
	}
	m.w.SetLastKeys(&b.keys)
	b.reset()
	return nil
}

// recordConflicts reports whether a field of r has another type in the
// frame being built.
func (b *builder) recordConflicts(r *Record) bool {
	for _, f := range r.Fields {
		if c := b.byName[f.Name]; c != nil && c.active && f.Value.kind != KindNull && c.typ != f.Value.kind.chunkType() {
			return true
		}
	}
	return false
}

// applyMerges publishes finished merges: the merged segment replaces the
// sealed one of the same name. Caller holds mu.
func (st *stream) applyMerges() bool {
	st.merge.mu.Lock()
	done := st.merge.done
	st.merge.done = nil
	st.merge.mu.Unlock()
	for _, nsf := range done {
		applied := false
		for k, sf := range st.segs {
			if sf.name == nsf.name && sf.sealed {
				st.segs = slices.Clone(st.segs) // published views share the old array
				st.segs[k] = nsf
				// Old generation's keys are unreachable now; free them.
				st.s.cache.forget(sf)
				st.merge.retired = append(st.merge.retired, st.files[nsf.name])
				st.files[nsf.name] = nsf.f
				applied = true
				break
			}
		}
		if !applied {
			_ = nsf.f.Close()
		}
	}
	return len(done) > 0
}

// waitMerges waits for running merges and drops their results: the
// caller reloads the segments from disk. Caller holds mu.
func (st *stream) waitMerges() {
	st.merge.wg.Wait()
	st.merge.mu.Lock()
	for _, nsf := range st.merge.done {
		st.merge.retired = append(st.merge.retired, nsf.f)
	}
	st.merge.done = nil
	st.merge.mu.Unlock()
}
