package tsq

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"os"
	"testing"
	"time"
)

// reportCPU adds MB/cpu-s for n input bytes per op.
func reportCPU(b *testing.B, n int, cpu0 time.Duration) {
	if cpu := (cpuTime() - cpu0).Seconds(); cpu > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/cpu/1e6, "MB/cpu-s")
	}
}

// benchInput returns the real file name, or a generated stand-in when
// ../shared is absent.
func benchInput(b *testing.B, name string, gen func() []byte) []byte {
	data, err := os.ReadFile("../shared/data/" + name)
	if err != nil {
		return gen()
	}
	return data
}

func genJSONL() []byte {
	var buf bytes.Buffer
	io.Copy(&buf, &jsonGen{limit: 16 << 20})
	return buf.Bytes()
}

func genCSV() []byte {
	var buf bytes.Buffer
	buf.WriteString("series,ts_ms,value\n")
	for i := range 300000 {
		buf.WriteString("nab/x/s" + string(rune('a'+i%26)) + ",")
		buf.WriteString(itoa(1392388200000+int64(i)*300000) + "," + itoa(int64(i%1000)) + ".125\n")
	}
	return buf.Bytes()
}

func itoa(i int64) string { return string(appendInt(nil, i)) }
func appendInt(b []byte, i int64) []byte {
	var tmp [20]byte
	n := len(tmp)
	for {
		n--
		tmp[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			break
		}
	}
	return append(b, tmp[n:]...)
}

// BenchmarkImportJSONL: the full import (parse, encode, staged segment
// files on disk, commit) of the OSM Liechtenstein JSON lines.
func BenchmarkImportJSONL(b *testing.B) {
	data := benchInput(b, "json/osm_liechtenstein_2013-08-03.jsonl", genJSONL)
	benchImport(b, data, []string{"time=ts_ms", "series=type", "key=type,id", "op=action"})
}

// BenchmarkImportCSV: the full import of the NAB metrics CSV.
func BenchmarkImportCSV(b *testing.B) {
	data := benchInput(b, "metrics/nab_real.csv", genCSV)
	benchImport(b, data, []string{"time=ts_ms", "series=series", "type.value=float64"})
}

func benchImport(b *testing.B, data []byte, mapping []string) {
	dir := b.TempDir()
	s, err := Open(dir, &Options{CacheBytes: NoCache})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var rows int64
	cpu0 := cpuTime()
	defer func() { reportCPU(b, len(data), cpu0) }()
	for b.Loop() {
		o := &ImportOptions{}
		for _, kv := range mapping {
			if err := o.Mapping.Set(kv); err != nil {
				b.Fatal(err)
			}
		}
		st, err := s.Import(ctx, "bench", bytes.NewReader(data), o)
		if err != nil {
			b.Fatal(err)
		}
		rows += st.Rows
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkBaselineJSONMaps is the naive baseline: encoding/json decodes
// each line of the same bytes into a map and does nothing else.
func BenchmarkBaselineJSONMaps(b *testing.B) {
	data := benchInput(b, "json/osm_liechtenstein_2013-08-03.jsonl", genJSONL)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var rows int64
	cpu0 := cpuTime()
	defer func() { reportCPU(b, len(data), cpu0) }()
	for b.Loop() {
		dec := json.NewDecoder(bytes.NewReader(data))
		for {
			var m map[string]any
			if err := dec.Decode(&m); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
			rows++
		}
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkBaselineCSVMaps is the naive CSV baseline: encoding/csv reads
// each record into a map of header to cell and does nothing else.
func BenchmarkBaselineCSVMaps(b *testing.B) {
	data := benchInput(b, "metrics/nab_real.csv", genCSV)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var rows int64
	cpu0 := cpuTime()
	defer func() { reportCPU(b, len(data), cpu0) }()
	for b.Loop() {
		r := csv.NewReader(bufio.NewReader(bytes.NewReader(data)))
		head, err := r.Read()
		if err != nil {
			b.Fatal(err)
		}
		for {
			rec, err := r.Read()
			if err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
			m := make(map[string]string, len(head))
			for i, h := range head {
				m[h] = rec[i]
			}
			rows++
		}
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}
