package tsq

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq/query"
	"github.com/tsqdb/tsq/seg"
)

// Query runs a query (docs/QUERY.md) and returns its result as Arrow
// record batches. EXPLAIN statements return one utf8 column "plan", one
// row per line. A DELETE statement soft-deletes the put rows of the raw
// view that match it, as Delete does (durably, before Query returns),
// and returns one uint64 column "deleted": the rows it deleted. An
// INSERT appends its rows as one Append and returns one row: inserted,
// first_seq, last_seq; CREATE TABLE name AS SELECT ... does the same
// into a stream it creates (ErrStreamExists if there is one), and DROP
// TABLE removes streams as DropStream does, a row each (DroppedSchema).
// The caller must Release the reader. Parse and planning errors are
// *query.Error, with the position of the offending token.
func (s *Store) Query(ctx context.Context, text string, o *query.Options) (array.RecordReader, error) {
	st, err := query.Parse(text)
	if err != nil {
		return nil, err
	}
	if st.Delete && !st.Explain {
		return s.deleteMatching(ctx, st, text, o)
	}
	if st.Insert != nil {
		return s.insert(ctx, st, text, o)
	}
	if st.Create != nil {
		return s.createTable(ctx, st, text, o)
	}
	if st.Drop != nil {
		return s.dropTables(ctx, st, text)
	}
	if st.Show == query.ShowStreams {
		return s.showStreams(o)
	}
	return query.Exec(ctx, st, text, s.opener, o)
}

// showStreams answers SHOW STREAMS: each stream and its rows.
func (s *Store) showStreams(o *query.Options) (array.RecordReader, error) {
	names, err := s.Streams()
	if err != nil {
		return nil, err
	}
	rows := make([]int64, len(names))
	for i, n := range names {
		c, err := s.Count(n)
		if err != nil && !errors.Is(err, ErrStreamNotFound) { // dropped meanwhile: 0
			return nil, err
		}
		rows[i] = int64(c)
	}
	return query.StreamList(names, rows, o), nil
}

// opener opens a stream for a query; a stream not found is said with
// the streams there are.
func (s *Store) opener(stream string) (query.Source, error) {
	src, err := s.querySource(stream)
	if errors.Is(err, ErrStreamNotFound) {
		names, _ := s.Streams()
		err = fmt.Errorf("%w (%s)", err, streamList(names))
	}
	if err != nil {
		return nil, err
	}
	return src, nil
}

// QuerySource returns stream as a query source (a snapshot of it), for a
// query.Options.OpenFile that reads files through a store of their own.
func (s *Store) QuerySource(stream string) (query.Source, error) { return s.opener(stream) }

// Schema returns the Arrow schema of a stream's raw view: seq, time,
// series, key, op, then its fields in order of first appearance.
func (s *Store) Schema(stream string) (*arrow.Schema, error) {
	src, err := s.querySource(stream)
	if err != nil {
		return nil, err
	}
	return query.RawSchema(src)
}

// Series returns up to limit series names of a stream, sorted (limit
// <= 0: all): those with a put after their latest drop that is not
// soft-deleted (query.Series). It decodes only the series, seq and op
// columns.
func (s *Store) Series(stream string, limit int) ([]string, error) {
	src, err := s.querySource(stream)
	if err != nil {
		return nil, err
	}
	return query.Series(src, limit)
}

// querySource is a snapshot of a stream for a query.
func (s *Store) querySource(stream string) (*querySource, error) {
	// readState takes the soft-deleted seqs before the view and reloads
	// a read-only stream's state files, as every other read does.
	st, v, del, err := s.readState(stream)
	if err != nil {
		return nil, err
	}
	qs := &querySource{deleted: del}
	for _, sf := range v.segs {
		qs.segs = append(qs.segs, &querySeg{st: st, sf: sf})
	}
	return qs, nil
}

type querySource struct {
	segs    []query.Segment
	deleted *roaring64.Bitmap
}

func (q *querySource) Segments() []query.Segment  { return q.segs }
func (q *querySource) Deleted() *roaring64.Bitmap { return q.deleted }

// querySeg is one segment of a view as a query.Segment.
type querySeg struct {
	st   *stream
	sf   *segFile
	once sync.Once
	meta *sealedMeta // nil: none (unsealed, or unreadable)
}

// sealedMeta is what a sealed segment's trailer says beyond its index:
// the series bloom and each block's key span.
type sealedMeta struct {
	bloom func(string) bool
	keys  []seg.KeySpan // a block
}

func (q *querySeg) Name() string                    { return q.sf.name }
func (q *querySeg) Key() string                     { return fmt.Sprintf("%s#%d", q.sf.path, q.sf.gen) }
func (q *querySeg) Blocks() []seg.BlockMeta         { return q.sf.blocks }
func (q *querySeg) ReadBlock(i int) ([]byte, error) { return q.st.readBlock(q.sf, i, cacheFill) }

// MayContainSeries consults a sealed segment's bloom filter, read once
// per segment file and kept in metaCache. A merged or compacted rewrite
// holds a subset of the rows, so an older filter never gives a false
// negative.
func (q *querySeg) MayContainSeries(series string) bool {
	if !q.sf.sealed || len(q.sf.blocks) == 0 {
		return true
	}
	m := q.loadOnce()
	return m == nil || m.bloom(series)
}

// MayHoldKeys consults block i's key span (seg.KeySpan), read with the
// bloom filter.
func (q *querySeg) MayHoldKeys(i int, keys [][]byte) bool {
	if !q.sf.sealed || len(q.sf.blocks) == 0 {
		return true
	}
	m := q.loadOnce()
	if m == nil || i >= len(m.keys) {
		return true
	}
	return m.keys[i].MayHoldAny(keys)
}

// MayHoldKeyRange consults block i's key span for keys in [lo, hi].
func (q *querySeg) MayHoldKeyRange(i int, lo, hi []byte) bool {
	if !q.sf.sealed || len(q.sf.blocks) == 0 {
		return true
	}
	m := q.loadOnce()
	if m == nil || i >= len(m.keys) {
		return true
	}
	return m.keys[i].MayOverlap(lo, hi)
}

func (q *querySeg) loadOnce() *sealedMeta {
	q.once.Do(func() { q.meta = q.load() })
	return q.meta
}

// metaCache maps a sealed segment file (path, generation, block count
// and last block CRC) to its sealedMeta.
var metaCache struct {
	sync.Mutex
	m map[string]*sealedMeta
}

// metaOf takes a sealed segment's bloom and key spans from r.
func metaOf(r *seg.Reader) *sealedMeta {
	m := &sealedMeta{bloom: r.MayContainSeries, keys: make([]seg.KeySpan, len(r.Blocks()))}
	for i := range m.keys {
		m.keys[i] = r.BlockKeys(i) // unknown for a version 1 segment
	}
	return m
}

func (q *querySeg) load() *sealedMeta {
	sf := q.sf
	if sf.r != nil {
		return metaOf(sf.r)
	}
	last := sf.blocks[len(sf.blocks)-1]
	key := fmt.Sprintf("%s#%d#%d#%08x", sf.path, sf.gen, len(sf.blocks), last.CRC)
	metaCache.Lock()
	m, ok := metaCache.m[key]
	metaCache.Unlock()
	if ok {
		return m
	}
	r, err := seg.Open(q.st.s.fs, sf.path)
	if err != nil {
		return nil // no pruning; the scan reports real read errors
	}
	m = metaOf(r)
	_ = r.Close()
	metaCache.Lock()
	if metaCache.m == nil || len(metaCache.m) >= 1<<14 {
		metaCache.m = map[string]*sealedMeta{}
	}
	metaCache.m[key] = m
	metaCache.Unlock()
	return m
}

// streamList says which streams there are, the first 12 by name.
func streamList(names []string) string {
	switch {
	case len(names) == 0:
		return "the store has no stream yet"
	case len(names) <= 12:
		return "streams: " + strings.Join(names, ", ")
	}
	return fmt.Sprintf("streams: %s and %d more", strings.Join(names[:12], ", "), len(names)-12)
}
