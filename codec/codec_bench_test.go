package codec

// Codec benchmarks on real and synthetic shapes, in chunks of 8192 values:
//
//	go test ./codec -run '^$' -bench . -benchtime 20x
//
// TSQ_BENCH_CSV=file replaces the checked-in NAB sample by another CSV.
// bytes/sample is the encoded size of the timestamps or values alone.

import (
	"fmt"
	"math/rand/v2"
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

// BenchmarkStrings encodes and decodes 8192 strings of three shapes in
// the encoding AppendStrings chooses: sequential keys (front coded), 50
// series names repeating (dictionary), 48 random bytes (plain).
func BenchmarkStrings(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	shapes := map[string]func(i int) string{
		"keys":   func(i int) string { return fmt.Sprintf("obj%08d", 100_000+i) },
		"series": func(i int) string { return fmt.Sprintf("host%02d", i%50) },
		"bodies": func(int) string {
			p := make([]byte, 48)
			for k := range p {
				p[k] = byte(rng.Uint32())
			}
			return string(p)
		},
	}
	for _, name := range []string{"keys", "series", "bodies"} {
		src := make([]string, benchChunk)
		for i := range src {
			src[i] = shapes[name](i)
		}
		var enc Encoder
		buf := enc.AppendStrings(nil, src)
		b.Run(name+"/encode", func(b *testing.B) {
			for range b.N {
				buf = enc.AppendStrings(buf[:0], src)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(src)), "ns/value")
		})
		b.Run(name+"/decode", func(b *testing.B) {
			var dec Decoder
			var dict Strings
			var codes []int32
			for range b.N {
				var err error
				if codes, _, err = dec.DecodeStrings(&dict, codes, buf, len(src), 1<<30); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(src)), "ns/value")
		})
	}
}
