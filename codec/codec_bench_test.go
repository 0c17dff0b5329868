package codec

// Codec benchmarks on real and synthetic shapes, in chunks of 8192 values:
//
//	go test ./codec -run '^$' -bench . -benchtime 20x
//
// bytes/sample is the encoded size of the timestamps or values alone.

import (
	"testing"

	"github.com/tsqdb/tsq/internal/testdata"
)

const benchChunk = 8192

type shape struct {
	name string
	ss   []testdata.Series
}

func benchShapes(b *testing.B) []shape {
	nab, err := testdata.LoadCSV(testdata.NABSamplePath())
	if err != nil {
		b.Fatal(err)
	}
	out := []shape{{"nab", nab}}
	for _, s := range testdata.Shapes {
		out = append(out, shape{s, testdata.Synthetic(s, 10000)})
	}
	return out
}

// chunks cuts every series into chunks of benchChunk.
func chunks[T any](ss []testdata.Series, col func(testdata.Series) []T) [][]T {
	var out [][]T
	for _, s := range ss {
		vals := col(s)
		for off := 0; off < len(vals); off += benchChunk {
			out = append(out, vals[off:min(off+benchChunk, len(vals))])
		}
	}
	return out
}

func report(b *testing.B, samples, bytes int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(samples), "ns/sample")
	b.ReportMetric(float64(bytes)/float64(samples), "bytes/sample")
	b.ReportMetric(0, "ns/op")
}

func BenchmarkInts(b *testing.B) {
	for _, sh := range benchShapes(b) {
		cs := chunks(sh.ss, func(s testdata.Series) []int64 { return s.Times })
		n := testdata.Samples(sh.ss)
		var c Encoder
		var d Decoder
		encoded := make([][]byte, len(cs))
		size := 0
		for i, ch := range cs {
			encoded[i] = c.AppendInts(nil, ch)
			size += len(encoded[i])
		}
		b.Run("encode/"+sh.name, func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				for _, ch := range cs {
					buf = c.AppendInts(buf[:0], ch)
				}
			}
			report(b, n, size)
		})
		b.Run("decode/"+sh.name, func(b *testing.B) {
			b.ReportAllocs()
			var out []int64
			for b.Loop() {
				for i, e := range encoded {
					var err error
					if out, _, err = d.DecodeInts(out, e, len(cs[i])); err != nil {
						b.Fatal(err)
					}
				}
			}
			report(b, n, size)
		})
	}
}

func BenchmarkFloats(b *testing.B) {
	for _, sh := range benchShapes(b) {
		cs := chunks(sh.ss, func(s testdata.Series) []float64 { return s.Values })
		n := testdata.Samples(sh.ss)
		var c Encoder
		var d Decoder
		encoded := make([][]byte, len(cs))
		size := 0
		for i, ch := range cs {
			encoded[i] = c.AppendFloats(nil, ch)
			size += len(encoded[i])
		}
		b.Run("encode/"+sh.name, func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				for _, ch := range cs {
					buf = c.AppendFloats(buf[:0], ch)
				}
			}
			report(b, n, size)
		})
		b.Run("decode/"+sh.name, func(b *testing.B) {
			b.ReportAllocs()
			var out []float64
			for b.Loop() {
				for i, e := range encoded {
					var err error
					if out, _, err = d.DecodeFloats(out, e, len(cs[i])); err != nil {
						b.Fatal(err)
					}
				}
			}
			report(b, n, size)
		})
	}
}
