package compact

import (
	"fmt"

	"github.com/tsqdb/tsq/chunk"
)

// Record column names every block carries (the root package's).
const (
	colSeq    = "seq"
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
	pair           []byte // scratch for snapshot lookups
}

// decodeRows decodes the seq, series, key and op columns of block data.
func decodeRows(dec *chunk.Decoder, data []byte, r *rows) error {
	if err := dec.Reset(data); err != nil {
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
	r.series = stringsOf(&r.sc, r.series)
	r.key = stringsOf(&r.kc, r.key)
	return nil
}

// stringsOf returns the values of a string column, one per row, building
// each dictionary entry's string once.
func stringsOf(c *chunk.Column, dst []string) []string {
	n := c.Len()
	dst = dst[:0]
	if c.Strs != nil {
		return append(dst, c.Strs...)
	}
	dict := make([]string, c.Dict.Len())
	for i := range dict {
		dict[i] = string(c.Dict.At(i))
	}
	for i := range n {
		if c.IsNull(i) {
			dst = append(dst, "")
			continue
		}
		dst = append(dst, dict[c.Codes[i]])
	}
	return dst
}
