package query

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq/chunk"
)

// maxJoinRightRows and maxJoinRightBytes (of its Arrow batches) bound
// the right side of a join, held in memory.
var (
	maxJoinRightRows  = 1 << 22 // variables for tests
	maxJoinRightBytes = 1 << 30
)

// recordBytes is the size of rec's buffers.
func recordBytes(rec arrow.RecordBatch) int {
	n := 0
	for _, c := range rec.Columns() {
		n += dataBytes(c.Data())
	}
	return n
}

func dataBytes(d arrow.ArrayData) int {
	n := 0
	for _, b := range d.Buffers() {
		if b != nil {
			n += b.Len()
		}
	}
	for _, c := range d.Children() {
		n += dataBytes(c)
	}
	if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
		n += dataBytes(dict)
	}
	return n
}

// jcol is a column of a join side, decoded from Arrow.
type jcol struct {
	typ     chunk.Type
	instant bool // a timestamp
	span    bool // a duration
	ints    []int64
	floats  []float64
	strs    []string
	bools   []bool
	valid   []bool
}

// appendArrow appends the rows of a to c; ok is false for a type no
// stream holds.
func (c *jcol) appendArrow(a arrow.Array) error {
	n := a.Len()
	at := len(c.valid)
	c.valid = slices.Grow(c.valid, n)[:at+n]
	for r := range n {
		c.valid[at+r] = a.NullN() == 0 || a.IsValid(r)
	}
	switch a := a.(type) {
	case *array.Int64:
		c.ints = append(c.ints, a.Int64Values()...)
	case *array.Uint64:
		for _, v := range a.Uint64Values() {
			if v > math.MaxInt64 {
				return fmt.Errorf("holds %d, beyond int64", v)
			}
			c.ints = append(c.ints, int64(v))
		}
	case *array.Timestamp:
		at := len(c.ints)
		c.ints = slices.Grow(c.ints, n)[:at+n]
		for r, v := range a.TimestampValues() {
			c.ints[at+r] = int64(v)
		}
	case *array.Duration:
		at := len(c.ints)
		c.ints = slices.Grow(c.ints, n)[:at+n]
		for r, v := range a.DurationValues() {
			c.ints[at+r] = int64(v)
		}
	case *array.Float64:
		c.floats = append(c.floats, a.Float64Values()...)
	case *array.Boolean:
		for r := range n {
			c.bools = append(c.bools, a.Value(r))
		}
	case *array.Binary:
		data, offs := string(a.ValueBytes()), a.ValueOffsets() // one copy: the batch's buffers may be reused
		for r := range n {
			c.strs = append(c.strs, data[offs[r]-offs[0]:offs[r+1]-offs[0]])
		}
	case *array.String:
		data, offs := string(a.ValueBytes()), a.ValueOffsets()
		for r := range n {
			c.strs = append(c.strs, data[offs[r]-offs[0]:offs[r+1]-offs[0]])
		}
	case *array.Dictionary:
		d, ok := a.Dictionary().(*array.String)
		if !ok {
			return fmt.Errorf("is %s, which a stream cannot hold", a.DataType())
		}
		words := make([]string, d.Len()) // each copied once
		for r := range n {
			s := ""
			if a.IsValid(r) {
				i := a.GetValueIndex(r)
				if words[i] == "" {
					words[i] = strings.Clone(d.Value(i))
				}
				s = words[i]
			}
			c.strs = append(c.strs, s)
		}
	default:
		return fmt.Errorf("is %s, which a stream cannot hold", a.DataType())
	}
	return nil
}

// jcolType is the column type a stream holds for an Arrow type.
func jcolType(t arrow.DataType) (chunk.Type, bool) {
	switch t.ID() {
	case arrow.INT64, arrow.UINT64, arrow.TIMESTAMP, arrow.DURATION:
		return chunk.Int64, true
	case arrow.FLOAT64:
		return chunk.Float64, true
	case arrow.BOOL:
		return chunk.Bool, true
	case arrow.STRING, arrow.DICTIONARY:
		return chunk.String, true
	case arrow.BINARY:
		return chunk.Bytes, true
	}
	return 0, false
}

// joinSide is a side's columns, by name.
type joinSide struct {
	side  *JoinSide
	names []string
	cols  []*jcol
	rows  int
	// arrowCols: the columns of the side's result, first; computed ON
	// terms (joincompute.go) follow
	arrowCols int
	computed  []computed
}

func newJoinSide(s *JoinSide, sc *arrow.Schema, text string) (*joinSide, error) {
	js := &joinSide{side: s}
	for _, f := range sc.Fields() {
		t, ok := jcolType(f.Type)
		if !ok {
			return nil, errAt(text, s.Pos, "join: column %s of %s is %s, which a stream cannot hold", f.Name, s.Alias, f.Type)
		}
		if slices.Contains(js.names, f.Name) {
			return nil, errAt(text, s.Pos, "join: %s has two columns named %s: rename one (AS ...)", s.Alias, f.Name)
		}
		js.names = append(js.names, f.Name)
		js.cols = append(js.cols, &jcol{typ: t, instant: f.Type.ID() == arrow.TIMESTAMP, span: f.Type.ID() == arrow.DURATION})
	}
	js.arrowCols = len(js.cols)
	return js, nil
}

// load replaces (reset) or extends the side's rows with rec's.
func (js *joinSide) load(rec arrow.RecordBatch, reset bool, text string) error {
	for i, c := range js.cols[:js.arrowCols] {
		if reset {
			*c = jcol{typ: c.typ, instant: c.instant, span: c.span, ints: c.ints[:0], floats: c.floats[:0], strs: c.strs[:0], bools: c.bools[:0], valid: c.valid[:0]}
		}
		if err := c.appendArrow(rec.Column(i)); err != nil {
			return errAt(text, js.side.Pos, "join: column %s of %s %v", js.names[i], js.side.Alias, err)
		}
	}
	if reset {
		js.rows = 0
	}
	js.rows += int(rec.NumRows())
	js.recompute()
	return nil
}

func (js *joinSide) index(name string) int { return slices.Index(js.names, name) }

// checkBase checks the left side's time, series, key and op, the
// relation's own: a timestamp and text, as a subquery's result's are.
func (js *joinSide) checkBase(text string) error {
	for i, n := range js.names[:js.arrowCols] {
		c := js.cols[i]
		switch {
		case n == ColTime && !c.instant:
			return errAt(text, js.side.Pos, "join: column time of %s is %s, not a timestamp: it is the joined rows' time; rename it (AS ...)", js.side.Alias, jcolKind(c))
		case (n == ColSeries || n == ColKey || n == ColOp) && c.typ != chunk.String:
			return errAt(text, js.side.Pos, "join: column %s of %s is %s, not text: it is the joined rows' %s; rename it (AS ...)", n, js.side.Alias, jcolKind(c), n)
		}
	}
	return nil
}
