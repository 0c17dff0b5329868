package chunk

// Block benchmarks: a time and a value column per block of DefaultRows,
// as the store writes samples:
//
//	go test ./chunk -run '^$' -bench . -benchtime 20x
//
// TSQ_BENCH_CSV=file replaces the checked-in NAB sample by another CSV.
// bytes/sample counts the whole block: header, both columns and CRC.

import (
	"os"
	"testing"

	"github.com/tsqdb/tsq/internal/testdata"
)

func BenchmarkBlock(b *testing.B) {
	path := testdata.NABSamplePath()
	if p := os.Getenv("TSQ_BENCH_CSV"); p != "" { // e.g. the full nab_real.csv
		path = p
	}
	nab, err := testdata.LoadCSV(path)
	if err != nil {
		b.Fatal(err)
	}
	shapes := map[string][]testdata.Series{"nab": nab}
	names := []string{"nab"}
	for _, s := range testdata.Shapes {
		shapes[s] = testdata.Synthetic(s, 10000)
		names = append(names, s)
	}
	for _, name := range names {
		ss := shapes[name]
		var blocks []*Block
		for _, s := range ss {
			for off := 0; off < len(s.Times); off += DefaultRows {
				end := min(off+DefaultRows, len(s.Times))
				blocks = append(blocks, &Block{Rows: end - off, Columns: []Column{
					{Name: "time", Type: Int64, Ints: s.Times[off:end]},
					{Name: "value", Type: Float64, Floats: s.Values[off:end]},
				}})
			}
		}
		n := testdata.Samples(ss)
		var enc Encoder
		encoded := make([][]byte, len(blocks))
		size := 0
		for i, blk := range blocks {
			encoded[i], err = enc.Append(nil, blk, nil)
			if err != nil {
				b.Fatal(err)
			}
			size += len(encoded[i])
		}
		report := func(b *testing.B) {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/sample")
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "samples/s")
			b.ReportMetric(float64(size)/float64(n), "bytes/sample")
			b.ReportMetric(0, "ns/op")
		}
		b.Run("encode/"+name, func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				for _, blk := range blocks {
					if buf, err = enc.Append(buf[:0], blk, nil); err != nil {
						b.Fatal(err)
					}
				}
			}
			report(b)
		})
		b.Run("decode/"+name, func(b *testing.B) {
			b.ReportAllocs()
			var dec Decoder
			var t, v Column
			for b.Loop() {
				for _, e := range encoded {
					if err := dec.Reset(e); err != nil {
						b.Fatal(err)
					}
					if err := dec.Column(0, &t); err != nil {
						b.Fatal(err)
					}
					if err := dec.Column(1, &v); err != nil {
						b.Fatal(err)
					}
				}
			}
			report(b)
		})
	}
}
