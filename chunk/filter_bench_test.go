package chunk

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// filterBenchBlock is a block of keyed records as compaction's benchmark
// writes them: seq, time, series (50 distinct), key (sequential), op, a
// random float, a status (3 distinct) and a 48-byte opaque body.
func filterBenchBlock() *Block {
	const n = DefaultRows
	rng := rand.New(rand.NewPCG(1, 1))
	seq, ts, op := make([]int64, n), make([]int64, n), make([]int64, n)
	series, key, status, body := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	val := make([]float64, n)
	for i := range n {
		seq[i], ts[i], op[i] = int64(100_001+i), 1_700_000_000_000_000_000+int64(i)*1e6, 1
		series[i], key[i] = fmt.Sprintf("host%02d", i%50), fmt.Sprintf("obj%08d", 100_000+i)
		status[i], val[i] = []string{"ok", "warn", "fail"}[i%3], rng.NormFloat64()
		p := make([]byte, 48)
		for k := range p {
			p[k] = byte(rng.Uint32())
		}
		body[i] = string(p)
	}
	return &Block{Rows: n, Columns: []Column{
		{Name: "seq", Type: Int64, Ints: seq}, {Name: "time", Type: Int64, Ints: ts},
		{Name: "series", Type: String, Strs: series}, {Name: "key", Type: String, Strs: key},
		{Name: "op", Type: Int64, Ints: op}, {Name: "value", Type: Float64, Floats: val},
		{Name: "status", Type: String, Strs: status}, {Name: "body", Type: Bytes, Strs: body},
	}}
}

// BenchmarkEncodeFiltered re-encodes such a block without every tenth
// row, as a compaction does, from columns decoded beforehand (as the
// compactor has them): the whole block, then each column alone, in
// ns per kept row.
func BenchmarkEncodeFiltered(b *testing.B) {
	full := filterBenchBlock()
	var keep []int32
	for r := range full.Rows {
		if r%10 != 0 {
			keep = append(keep, int32(r))
		}
	}
	cases := []struct {
		name string
		cols []int
	}{{"block", []int{0, 1, 2, 3, 4, 5, 6, 7}}}
	for i, c := range full.Columns {
		cases = append(cases, struct {
			name string
			cols []int
		}{c.Name, []int{i}})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			blk := &Block{Rows: full.Rows}
			for _, i := range c.cols {
				blk.Columns = append(blk.Columns, full.Columns[i])
			}
			var enc Encoder
			_, dec := encodeFor(b, &enc, blk, nil)
			have := make([]*Column, len(blk.Columns))
			for i := range have {
				if t := blk.Columns[i].Type; t != String && t != Bytes || blk.Columns[i].Name != "body" {
					have[i] = new(Column)
					if err := dec.Column(i, have[i]); err != nil {
						b.Fatal(err)
					}
				}
			}
			enc.FastZstd = true
			var out []byte
			var err error
			for b.Loop() {
				if out, err = enc.EncodeFiltered(out[:0], dec, keep, have); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(keep)), "ns/row")
			b.ReportMetric(float64(len(out)), "bytes")
		})
	}
}
