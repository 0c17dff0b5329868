package query

import (
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Set operations, as SQL has them, on two SELECTs of as many columns of
// the same types (a union's rules: union.go):
//
//   - a UNION b (or UNION DISTINCT): each distinct row of a, then of b,
//     once;
//   - a INTERSECT b: each distinct row of a that b has; INTERSECT ALL as
//     many times as both have it;
//   - a EXCEPT b: each distinct row of a that b has not; EXCEPT ALL as
//     many times as a has it more than b.
//
// Rows are equal when every column is: NULL equals NULL, an integer a
// float of its value. The rows come in a's order (UNION: then b's),
// each at its first. b's rows (UNION: every distinct row) are held as
// keys, at most maxJoinRightRows of them and maxJoinRightBytes, as a
// join holds its right side; a streams.

// setOpWord names st's operation in errors and EXPLAIN.
func (st *Statement) setOpWord() string {
	if st.SetOp == "" {
		return "UNION ALL"
	}
	return strings.ToUpper(st.SetOp)
}

// setOpReader filters a two-SELECT union (unionReader, whose columns it
// keeps) down to a set operation's rows.
type setOpReader struct {
	refs atomic.Int64
	u    *unionReader
	op   string // union, intersect or except
	all  bool
	// probing: the SELECT read now is the one whose rows come out (for
	// INTERSECT and EXCEPT the second is read first, and held).
	probing bool
	// held: per key, the rows of the held SELECT not yet matched (ALL),
	// or 1: a row so keyed came out or must not (DISTINCT).
	held  map[string]int
	bytes int
	keyed int // the columns keyed: not the copies of a held union
	key   []byte
	sel   []int
	mem   memory.Allocator
	text  string
	pos   int
	word  string
	cur   arrow.RecordBatch
	err   error
}

func newSetOpReader(u *unionReader, st *Statement, text string) *setOpReader {
	op, all := strings.CutSuffix(st.SetOp, " all")
	s := &setOpReader{u: u, op: op, all: all, held: map[string]int{}, keyed: len(u.schema.Fields()) - len(u.copies),
		mem: u.mem, text: text, pos: st.unionPos[len(st.unionPos)-1], word: st.setOpWord()}
	s.refs.Store(1)
	if op == "union" {
		s.probing = true // both SELECTs' rows come out
	} else { // read the second first
		u.rs[0], u.rs[1] = u.rs[1], u.rs[0]
		u.casts[0], u.casts[1] = u.casts[1], u.casts[0]
	}
	return s
}

func (s *setOpReader) Retain() { s.refs.Add(1) }

func (s *setOpReader) Release() {
	if s.refs.Add(-1) != 0 {
		return
	}
	s.drop()
	s.u.Release()
	s.held = nil
}

func (s *setOpReader) drop() {
	if s.cur != nil {
		s.cur.Release()
		s.cur = nil
	}
}

func (s *setOpReader) Schema() *arrow.Schema { return s.u.schema }

func (s *setOpReader) RecordBatch() arrow.RecordBatch { return s.cur }

// Record is RecordBatch (the interface's deprecated name).
func (s *setOpReader) Record() arrow.RecordBatch { return s.cur }

func (s *setOpReader) Err() error { return s.err }

func (s *setOpReader) Next() bool {
	s.drop()
	for s.err == nil {
		if !s.u.Next() {
			s.err = s.u.Err()
			return false
		}
		rec := s.u.RecordBatch()
		// The union drops a SELECT read to its end: one left, the second.
		if !s.probing && len(s.u.rs) == 1 {
			s.probing = true
		}
		if s.sel, s.err = s.keep(rec, s.sel[:0]); s.err != nil || len(s.sel) == 0 {
			continue
		}
		if len(s.sel) == int(rec.NumRows()) {
			rec.Retain()
			s.cur = rec
			return true
		}
		if s.cur, s.err = takeRows(s.mem, rec, s.sel); s.err != nil {
			return false
		}
		return true
	}
	return false
}

// keep holds the keys of rec's rows (a SELECT held) or returns the rows
// that come out (one probing).
func (s *setOpReader) keep(rec arrow.RecordBatch, sel []int) ([]int, error) {
	cols := rec.Columns()[:s.keyed]
	for r := range int(rec.NumRows()) {
		var bad int
		if s.key, bad = appendRowKey(s.key[:0], cols, r); bad >= 0 {
			return nil, errAt(s.text, s.pos, "%s: column %d is %s, which rows cannot be compared by", s.word, bad+1, cols[bad].DataType())
		}
		n, seen := s.held[string(s.key)]
		switch {
		case !s.probing: // the second of INTERSECT, EXCEPT
			if s.all || !seen {
				if err := s.hold(n + 1); err != nil {
					return nil, err
				}
			}
		case s.op == "intersect":
			if n > 0 {
				sel = append(sel, r)
				if s.all {
					s.held[string(s.key)] = n - 1
				} else {
					s.held[string(s.key)] = 0
				}
			}
		case s.op == "except" && s.all:
			if n > 0 {
				s.held[string(s.key)] = n - 1
			} else {
				sel = append(sel, r)
			}
		default: // UNION, EXCEPT: a row not held comes out once
			if !seen {
				sel = append(sel, r)
				if err := s.hold(1); err != nil {
					return nil, err
				}
			}
		}
	}
	return sel, nil
}

// hold sets the count of the current key, within the bounds.
func (s *setOpReader) hold(n int) error {
	if _, ok := s.held[string(s.key)]; !ok {
		s.bytes += len(s.key) + 48 // the map's entry besides the key
		if len(s.held) >= maxJoinRightRows || s.bytes > maxJoinRightBytes {
			return errAt(s.text, s.pos, "%s holds the rows it has seen and passes %d rows or %d MiB: narrow the SELECTs (WHERE time ..., fewer columns)", s.word, maxJoinRightRows, maxJoinRightBytes>>20)
		}
	}
	s.held[string(s.key)] = n
	return nil
}

// appendRowKey appends the key of row r of cols: per column a NULL, a
// bool, or the key of its value (lookup.go: numbers of equal value have
// equal keys); bad is the column of a type no key takes, else -1.
func appendRowKey(dst []byte, cols []arrow.Array, r int) (key []byte, bad int) {
	for c, col := range cols {
		if col.IsNull(r) {
			dst = append(dst, 'z')
			continue
		}
		switch c := col.(type) {
		case *array.Boolean:
			dst = append(dst, 'b', map[bool]byte{false: 0, true: 1}[c.Value(r)])
			continue
		case *array.Binary:
			dst = textKey(dst, string(c.Value(r)))
			continue
		}
		var ok bool
		if dst, ok = cellKey(dst, col, r); !ok {
			return dst, c
		}
	}
	return dst, -1
}

// takeRows returns the rows sel (ascending) of rec: its columns cut
// into the runs of consecutive rows and put together again.
func takeRows(mem memory.Allocator, rec arrow.RecordBatch, sel []int) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, rec.NumCols())
	release := func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}
	defer release()
	var parts []arrow.Array
	for c := range cols {
		parts = parts[:0]
		for i := 0; i < len(sel); {
			j := i + 1
			for j < len(sel) && sel[j] == sel[j-1]+1 {
				j++
			}
			parts = append(parts, array.NewSlice(rec.Column(c), int64(sel[i]), int64(sel[j-1]+1)))
			i = j
		}
		col, err := array.Concatenate(parts, mem)
		for _, p := range parts {
			p.Release()
		}
		if err != nil {
			return nil, err
		}
		cols[c] = col
	}
	return array.NewRecordBatch(rec.Schema(), cols, int64(len(sel))), nil
}
