package query

import (
	"fmt"
	"slices"

	"github.com/tsqdb/tsq/chunk"
)

// Series returns up to limit distinct series of a source, sorted (limit
// <= 0: all). Only the series column of each block is decoded.
func Series(src Source, limit int) ([]string, error) {
	seen := map[string]struct{}{}
	var dec chunk.Decoder
	var c chunk.Column
	for _, sg := range src.Segments() {
		for i, m := range sg.Blocks() {
			if m.Rows == 0 {
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
					if _, ok := seen[string(c.Dict.At(j))]; !ok {
						seen[string(c.Dict.At(j))] = struct{}{}
					}
				}
			} else {
				for _, s := range c.Strs {
					seen[s] = struct{}{}
				}
			}
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
