package ingest

import (
	"bytes"
	"io"
	"os"
	"testing"
)

func benchParse(b *testing.B, path string, kv ...string) {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skip(err)
	}
	var m Mapping
	for _, s := range kv {
		if err := m.Set(s); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var batch Batch
	for b.Loop() {
		p, err := NewParser(bytes.NewReader(data), Options{Mapping: m})
		if err != nil {
			b.Fatal(err)
		}
		for {
			if err := p.Fill(&batch); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseJSONL parses the OSM snapshot into batches (no encoding).
func BenchmarkParseJSONL(b *testing.B) {
	benchParse(b, "../../shared/data/json/osm_liechtenstein_2013-08-03.jsonl", "time=ts_ms", "series=type", "key=type,id", "op=action")
}

// BenchmarkParseCSV parses the NAB CSV into batches.
func BenchmarkParseCSV(b *testing.B) {
	benchParse(b, "../../shared/data/metrics/nab_real.csv", "time=ts_ms", "series=series", "type.value=float64")
}
