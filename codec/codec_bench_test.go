package codec

// Codec benchmarks on real and synthetic shapes, in chunks of 8192 values:
//
//	go test ./codec -run '^$' -bench . -benchtime 20x
//
// TSQ_BENCH_CSV=file replaces the checked-in NAB sample by another CSV.
// bytes/sample is the encoded size of the timestamps or values alone.

import (
	"os"
	"testing"

	"github.com/tsqdb/tsq/internal/testdata"
)

const benchChunk = 8192

type shape struct {
	name string
	ss   []testdata.Series
}

func benchShapes(b *testing.B) []shape {
	path := testdata.NABSamplePath()
	if p := os.Getenv("TSQ_BENCH_CSV"); p != "" { // e.g. the full nab_real.csv
		path = p
	}
	nab, err := testdata.LoadCSV(path)
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

// benchColumn benchmarks one column type's auto encoder and decoder.
func benchColumn[T any](b *testing.B, col func(testdata.Series) []T,
	enc func(*Encoder, []byte, []T) []byte,
	dec func(*Decoder, []T, []byte, int) ([]T, int, error)) {
	for _, sh := range benchShapes(b) {
		cs := chunks(sh.ss, col)
		n := testdata.Samples(sh.ss)
		var c Encoder
		var d Decoder
		encoded := make([][]byte, len(cs))
		size := 0
		for i, ch := range cs {
			encoded[i] = enc(&c, nil, ch)
			size += len(encoded[i])
		}
		b.Run("encode/"+sh.name, func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				for _, ch := range cs {
					buf = enc(&c, buf[:0], ch)
				}
			}
			report(b, n, size)
		})
		b.Run("decode/"+sh.name, func(b *testing.B) {
			b.ReportAllocs()
			var out []T
			for b.Loop() {
				for i, e := range encoded {
					var err error
					if out, _, err = dec(&d, out, e, len(cs[i])); err != nil {
						b.Fatal(err)
					}
				}
			}
			report(b, n, size)
		})
	}
}

func BenchmarkInts(b *testing.B) {
	benchColumn(b, func(s testdata.Series) []int64 { return s.Times }, (*Encoder).AppendInts, (*Decoder).DecodeInts)
}

func BenchmarkFloats(b *testing.B) {
	benchColumn(b, func(s testdata.Series) []float64 { return s.Values }, (*Encoder).AppendFloats, (*Decoder).DecodeFloats)
}
