package query

import (
	"fmt"
	"slices"
	"sync"

	"github.com/tsqdb/tsq/chunk"
)

// segSeries caches the distinct series of the first n blocks of a
// segment, like schemaCache.
type segSeries struct {
	n       int
	lastCRC uint32
	names   map[string]struct{}
}

var seriesCache struct {
	sync.Mutex
	m map[string]*segSeries
}

// maxCachedSeries bounds the series cached for one segment; a segment
// with more is read again each time.
const maxCachedSeries = 1 << 16

// Series returns up to limit distinct series of a source, sorted (limit
// <= 0: all). Only the series column of each block is decoded, once per
// segment: the names are cached by Segment.Key.
func Series(src Source, limit int) ([]string, error) {
	seen := map[string]struct{}{}
	var dec chunk.Decoder
	var c chunk.Column
	for _, sg := range src.Segments() {
		blocks := sg.Blocks()
		key := sg.Key()
		seriesCache.Lock()
		cached := seriesCache.m[key]
		seriesCache.Unlock()
		start := 0
		names := map[string]struct{}{}
		if cached != nil && key != "" && cached.n > 0 && cached.n <= len(blocks) && blocks[cached.n-1].CRC == cached.lastCRC {
			start = cached.n
			for s := range cached.names {
				names[s] = struct{}{}
			}
		}
		for i := start; i < len(blocks); i++ {
			if blocks[i].Rows == 0 {
				continue
			}
			data, err := sg.ReadBlock(i)
			if err != nil {
				return nil, err
			}
			if err := dec.Reset(data); err != nil {
				return nil, fmt.Errorf("query: segment %s block %d: %w", sg.Name(), i, err)
			}
			k := dec.Find(ColSeries)
			if k < 0 {
				return nil, fmt.Errorf("query: segment %s block %d: %w: no series column", sg.Name(), i, chunk.ErrCorrupt)
			}
			if err := dec.Column(k, &c); err != nil {
				return nil, fmt.Errorf("query: segment %s block %d: %w", sg.Name(), i, err)
			}
			if c.Codes != nil {
				for j := range c.Dict.Len() {
					if _, ok := names[string(c.Dict.At(j))]; !ok {
						names[string(c.Dict.At(j))] = struct{}{}
					}
				}
			} else {
				for _, s := range c.Strs {
					names[s] = struct{}{}
				}
			}
		}
		if len(blocks) > 0 && len(names) <= maxCachedSeries && start < len(blocks) && key != "" {
			seriesCache.Lock()
			if seriesCache.m == nil || len(seriesCache.m) >= maxSchemaCache {
				seriesCache.m = map[string]*segSeries{}
			}
			seriesCache.m[key] = &segSeries{n: len(blocks), lastCRC: blocks[len(blocks)-1].CRC, names: names}
			seriesCache.Unlock()
		}
		for s := range names {
			seen[s] = struct{}{}
		}
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	slices.Sort(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
