package query

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync/atomic"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/seg"
)

// trow is a generated record. Field values are int64, float64, string or
// bool; a missing field is null.
type trow struct {
	seq    uint64
	time   int64
	series string
	key    string
	op     int64
	f      map[string]any
}

// memSource is an in-memory Source: blocks encoded with chunk, grouped
// into segments, with exact series sets as "bloom filters" and each
// block's key span (seg.KeySpan), as a sealed segment has them.
type memSource struct {
	segs    []Segment
	deleted *roaring64.Bitmap
}

type memSeg struct {
	id     uint64 // unique in the process: the schema cache's key (an address may be reused once collected)
	name   string
	blocks []seg.BlockMeta
	data   [][]byte
	series map[string]bool
	keys   []seg.KeySpan
	sealed bool
	delay  func() // called on every block read (tests of cancellation)
}

func (m *memSource) Segments() []Segment        { return m.segs }
func (m *memSource) Deleted() *roaring64.Bitmap { return m.deleted }

func (s *memSeg) Name() string            { return s.name }
func (s *memSeg) Key() string             { return fmt.Sprintf("mem:%d", s.id) }
func (s *memSeg) Blocks() []seg.BlockMeta { return s.blocks }
func (s *memSeg) MayContainSeries(name string) bool {
	return !s.sealed || s.series[name]
}
func (s *memSeg) MayHoldKeys(i int, keys [][]byte) bool {
	return !s.sealed || s.keys[i].MayHoldAny(keys)
}
func (s *memSeg) MayHoldKeyRange(i int, lo, hi []byte) bool {
	return !s.sealed || s.keys[i].MayOverlap(lo, hi)
}
func (s *memSeg) ReadBlock(i int) ([]byte, error) {
	if s.delay != nil {
		s.delay()
	}
	return s.data[i], nil
}

// buildSource encodes rows (in seq order) into blocks of 1..maxBlock rows
// and segments of 1..4 blocks. Field "x" is stored as int64 in even
// blocks and float64 in odd ones when all its values there are whole.
// memSegIDs numbers memSegs.
var memSegIDs atomic.Uint64

func buildSource(rng *rand.Rand, rows []trow, maxBlock int) (*memSource, error) {
	src := &memSource{}
	var enc chunk.Encoder
	var cur *memSeg
	for start, bi := 0, 0; start < len(rows); bi++ {
		n := min(1+rng.IntN(maxBlock), len(rows)-start)
		blk := rows[start : start+n]
		start += n
		if cur == nil || len(cur.blocks) >= 1+rng.IntN(4) {
			cur = &memSeg{id: memSegIDs.Add(1), name: fmt.Sprintf("seg%03d", len(src.segs)), series: map[string]bool{}, sealed: rng.IntN(5) > 0}
			src.segs = append(src.segs, cur)
		}
		b := encodeRows(blk, bi%2 == 0)
		data, err := enc.Append(nil, b, nil)
		if err != nil {
			return nil, err
		}
		m := seg.BlockMeta{Rows: n, MinSeq: blk[0].seq, MaxSeq: blk[n-1].seq, MinTime: blk[0].time, MaxTime: blk[0].time,
			CRC: binary.LittleEndian.Uint32(data[len(data)-4:])}
		var span seg.KeySpan
		for _, r := range blk {
			m.MinTime, m.MaxTime = min(m.MinTime, r.time), max(m.MaxTime, r.time)
			cur.series[r.series] = true
			if r.key != "" {
				span.AddString(r.key)
			}
		}
		cur.blocks = append(cur.blocks, m)
		cur.keys = append(cur.keys, span)
		cur.data = append(cur.data, data)
	}
	return src, nil
}

func encodeRows(rows []trow, xInt bool) *chunk.Block {
	n := len(rows)
	b := &chunk.Block{Rows: n}
	seqs, times, ops := make([]int64, n), make([]int64, n), make([]int64, n)
	series, keys := make([]string, n), make([]string, n)
	names := map[string]bool{}
	for i, r := range rows {
		seqs[i], times[i], ops[i], series[i], keys[i] = int64(r.seq), r.time, r.op, r.series, r.key
		for k := range r.f {
			names[k] = true
		}
	}
	b.Columns = append(b.Columns,
		chunk.Column{Name: ColSeq, Type: chunk.Int64, Ints: seqs},
		chunk.Column{Name: ColTime, Type: chunk.Int64, Ints: times},
		chunk.Column{Name: ColSeries, Type: chunk.String, Strs: series},
		chunk.Column{Name: ColKey, Type: chunk.String, Strs: keys},
		chunk.Column{Name: ColOp, Type: chunk.Int64, Ints: ops})
	sorted := make([]string, 0, len(names))
	for k := range names {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, name := range sorted {
		c := chunk.Column{Name: name, Valid: make([]bool, n)}
		for i, r := range rows {
			v, ok := r.f[name]
			c.Valid[i] = ok
			if name == "x" && ok {
				if xInt {
					v = int64(v.(float64))
				}
			}
			switch v := v.(type) {
			case int64:
				c.Type = chunk.Int64
			case float64:
				c.Type = chunk.Float64
			case string:
				c.Type = chunk.String
			case bool:
				c.Type = chunk.Bool
			case nil:
			default:
				panic(fmt.Sprintf("field %s: %T", name, v))
			}
		}
		for i, r := range rows {
			v := r.f[name]
			if name == "x" && v != nil && xInt {
				v = int64(v.(float64))
			}
			switch c.Type {
			case chunk.Int64:
				c.Ints = append(c.Ints, anyInt(v))
			case chunk.Float64:
				c.Floats = append(c.Floats, anyFloat(v))
			case chunk.String:
				s, _ := v.(string)
				c.Strs = append(c.Strs, s)
			case chunk.Bool:
				bv, _ := v.(bool)
				c.Bools = append(c.Bools, bv)
			}
			_ = i
		}
		b.Columns = append(b.Columns, c)
	}
	return b
}

func anyInt(v any) int64 {
	i, _ := v.(int64)
	return i
}

func anyFloat(v any) float64 {
	switch v := v.(type) {
	case float64:
		return v
	case int64:
		return float64(v)
	}
	return 0
}

var testSeries = []string{`cpu{host="a"}`, `cpu{host="b",dc="x"}`, `mem{host="a"}`, `disk`, `nab/real/one`, `cpu{host="c"}`}

// genRows makes n records from t0: samples and keyed records of a few
// series, with puts, deletes, drops and nullable fields of every type.
func genRows(rng *rand.Rand, n int, t0 int64) []trow {
	rows := make([]trow, n)
	t := t0
	for i := range rows {
		t += int64(rng.IntN(20)) * 1e9
		r := trow{seq: uint64(i + 1), time: t, series: testSeries[rng.IntN(len(testSeries))], op: 1, f: map[string]any{}}
		if rng.IntN(10) == 0 {
			r.time -= int64(rng.IntN(120)) * 1e9 // out of order
		}
		if rng.IntN(3) == 0 {
			r.key = fmt.Sprintf("k%d", rng.IntN(8))
			switch rng.IntN(8) {
			case 0:
				r.op = 2
			}
		}
		if rng.IntN(60) == 0 {
			r.op, r.key = 3, ""
		}
		if r.op == 1 {
			if rng.IntN(10) > 0 {
				r.f["v"] = float64(rng.IntN(2000))/8 - 50
			}
			if rng.IntN(10) > 0 {
				r.f["n"] = int64(rng.IntN(100))
			}
			if rng.IntN(4) > 0 {
				r.f["s"] = []string{"alpha", "beta", "gamma", "Delta"}[rng.IntN(4)]
			}
			if rng.IntN(3) > 0 {
				r.f["b"] = rng.IntN(2) == 0
			}
			if rng.IntN(2) == 0 {
				r.f["x"] = float64(rng.IntN(50))
			}
		}
		rows[i] = r
	}
	return rows
}
