package compact

import (
	"fmt"

	"github.com/tsqdb/tsq/chunk"
)

// Record column names every block carries (the root package's).
const (
	colSeq    = "seq"
	colTime   = "time"
	colSeries = "series"
	colKey    = "key"
	colOp     = "op"
)

// rows is the record columns of one block: what folding and deciding
// need, without the fields.
type rows struct {
	n              int
	seq, op        []int64
	series, key    []string // per row; shared strings per dictionary entry
	sc, kc, qc, oc chunk.Column
	pair           []byte   // scratch for snapshot lookups
	dict           []string // scratch for stringsOf
}

// decodeRows decodes the seq, series, key and op columns of block data
// (read by seg.Reader.ReadBlock, which checked its CRC),
// and fills r.series and r.key.
func decodeRows(dec *chunk.Decoder, data []byte, r *rows) error {
	if err := decodeColumns(dec, data, r); err != nil {
		return err
	}
	r.series = stringsOf(&r.sc, r.series, &r.dict)
	r.key = stringsOf(&r.kc, r.key, &r.dict)
	return nil
}

// decodeColumns decodes the seq, series, key and op columns of block
// data; r.series and r.key are left as they were (see seriesAt, keyAt).
func decodeColumns(dec *chunk.Decoder, data []byte, r *rows) error {
	if err := dec.ResetChecked(data); err != nil {
		return err
	}
	r.n = dec.Rows()
	for _, c := range []struct {
		name string
		typ  chunk.Type
		dst  *chunk.Column
	}{{colSeq, chunk.Int64, &r.qc}, {colSeries, chunk.String, &r.sc}, {colKey, chunk.String, &r.kc}, {colOp, chunk.Int64, &r.oc}} {
		k := dec.Find(c.name)
		if k < 0 || dec.Info(k).Type != c.typ {
			return fmt.Errorf("%w: no %v %s column", chunk.ErrCorrupt, c.typ, c.name)
		}
		if err := dec.Column(k, c.dst); err != nil {
			return err
		}
	}
	r.seq, r.op = r.qc.Ints, r.oc.Ints
	return nil
}

// seriesAt and keyAt return the series and key of row i from the
// decoded columns, without copying; nil for a null.
func (r *rows) seriesAt(i int) []byte { return valueAt(&r.sc, i) }
func (r *rows) keyAt(i int) []byte    { return valueAt(&r.kc, i) }

func valueAt(c *chunk.Column, i int) []byte {
	switch {
	case c.IsNull(i):
		return nil
	case c.Strs != nil:
		return []byte(c.Strs[i])
	}
	return c.Dict.At(int(c.Codes[i]))
}

// stringsOf returns the values of a string column, one per row: slices
// of one string copy of the dictionary's bytes (one allocation a column).
func stringsOf(c *chunk.Column, dst []string, scratch *[]string) []string {
	n := c.Len()
	dst = dst[:0]
	if c.Strs != nil {
		return append(dst, c.Strs...)
	}
	var all string
	if c.Dict.Len() > 0 {
		all = string(c.Dict.Data[:c.Dict.Offsets[c.Dict.Len()]])
	}
	dict := (*scratch)[:0]
	for i := range c.Dict.Len() {
		dict = append(dict, all[c.Dict.Offsets[i]:c.Dict.Offsets[i+1]])
	}
	*scratch = dict
	for i := range n {
		if c.IsNull(i) {
			dst = append(dst, "")
			continue
		}
		dst = append(dst, dict[c.Codes[i]])
	}
	return dst
}

// column returns the decoded record column named name, or nil.
func (r *rows) column(name string) *chunk.Column {
	switch name {
	case colSeq:
		return &r.qc
	case colSeries:
		return &r.sc
	case colKey:
		return &r.kc
	case colOp:
		return &r.oc
	}
	return nil
}
