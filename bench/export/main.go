// Command export measures tsq's export path on a large synthetic result:
// the shared NAB metrics replicated until -rows rows (copy k of a series is
// named "<series>/r<k>"; times unchanged), streamed as query-schema batches
// into Parquet and Arrow IPC files; or, with -store, the result of a query
// on a tsq store (e.g. the store of tsq's query benchmarks). Each format runs in a child process so
// that its peak RSS (VmHWM) is its own.
//
//	go run ./bench/export -rows 20000000 -dir /tmp/tsqbench
//
// It prints one line per format: rows, seconds, rows/s, file size, peak RSS.
package main

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/export"
	_ "github.com/tsqdb/tsq/export/parquet"
	"github.com/tsqdb/tsq/query"
)

func main() {
	rows := flag.Int64("rows", 20_000_000, "rows to export")
	batch := flag.Int("batch", 8192, "rows per record batch")
	data := flag.String("data", "../shared/data/metrics/nab_real.csv", "canonical metric CSV (series,ts_ms,value)")
	dir := flag.String("dir", os.TempDir(), "output directory")
	formats := flag.String("formats", "parquet,arrow,arrows", "formats, comma-separated")
	child := flag.String("child", "", "internal: run one format in this process")
	keep := flag.Bool("keep", false, "keep the output files")
	rowGroup := flag.Int("rowgroup", 0, "Parquet rows per row group (0: export's default)")
	store := flag.String("store", "", "export the result of -query on this tsq store (opened read-only) instead of synthetic rows")
	queryText := flag.String("query", "SELECT * FROM nab", "query whose result -store exports")
	flag.Parse()
	if *child != "" {
		if err := runChild(*child, *data, *dir, *rows, *batch, *rowGroup, *keep, *store, *queryText); err != nil {
			fmt.Fprintln(os.Stderr, "bench/export:", err)
			os.Exit(1)
		}
		return
	}
	fmt.Printf("%-8s %12s %8s %12s %10s %10s\n", "format", "rows", "seconds", "rows/s", "MiB", "peakRSS")
	for _, f := range strings.Split(*formats, ",") {
		cmd := exec.Command(os.Args[0], "-child", f, "-rows", strconv.FormatInt(*rows, 10),
			"-batch", strconv.Itoa(*batch), "-data", *data, "-dir", *dir, "-keep="+strconv.FormatBool(*keep), "-rowgroup", strconv.Itoa(*rowGroup), "-store", *store, "-query", *queryText)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "bench/export: %s: %v\n", f, err)
			os.Exit(1)
		}
	}
}

func runChild(format, data, dir string, rows int64, batch, rowGroup int, keep bool, store, queryText string) error {
	f, err := export.ParseFormat(format)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "bench."+f.String())
	var rr array.RecordReader
	var start time.Time
	if store != "" {
		s, err := tsq.Open(store, &tsq.Options{ReadOnly: true})
		if err != nil {
			return err
		}
		defer s.Close()
		start = time.Now()
		if rr, err = s.Query(context.Background(), queryText, &query.Options{BatchRows: batch}); err != nil {
			return err
		}
	} else {
		samples, err := load(data)
		if err != nil {
			return err
		}
		rr = newSynth(samples, rows, batch)
		start = time.Now()
	}
	defer rr.Release()
	o := &export.Options{RowGroupRows: rowGroup}
	if p := os.Getenv("TSQ_BENCH_HEAPPROFILE"); p != "" { // heap in use half-way through
		o.Progress = func(n, _ int64) {
			if n >= rows/2 && p != "" {
				writeHeapProfile(p)
				p = ""
			}
		}
	}
	st, err := export.WriteFile(context.Background(), path, f, rr, o)
	if err != nil {
		return err
	}
	secs := time.Since(start).Seconds()

	if !keep {
		os.Remove(path)
	}
	fmt.Printf("%-8s %12d %8.2f %12.0f %10.1f %10s\n", f, st.Rows, secs, float64(st.Rows)/secs,
		float64(st.Bytes)/(1<<20), vmHWM())
	return nil
}

// vmHWM returns this process's peak resident set size.
func vmHWM() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return fmt.Sprintf("%.0fMiB", float64(kb)/1024)
		}
	}
	return "?"
}

type sample struct {
	series int32
	ms     int64
	value  float64
}

type corpus struct {
	names   []string
	samples []sample
}

func load(path string) (*corpus, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.ReuseRecord = true
	if _, err := r.Read(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c := &corpus{}
	ids := map[string]int32{}
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		ms, err1 := strconv.ParseInt(rec[1], 10, 64)
		v, err2 := strconv.ParseFloat(rec[2], 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s:%d: bad row %q", path, line, rec)
		}
		id, ok := ids[rec[0]]
		if !ok {
			id = int32(len(c.names))
			ids[rec[0]] = id
			c.names = append(c.names, rec[0])
		}
		c.samples = append(c.samples, sample{id, ms, v})
	}
	if len(c.samples) == 0 {
		return nil, fmt.Errorf("%s: no samples", path)
	}
	return c, nil
}

// synth is a RecordReader generating batches on the fly, so the input
// costs one batch of memory.
type synth struct {
	c          *corpus
	total, pos int64
	batch      int
	schema     *arrow.Schema
	b          *array.RecordBuilder
	cur        arrow.RecordBatch
}

func newSynth(c *corpus, total int64, batch int) *synth {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "seq", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "time", Type: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}},
		{Name: "series", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}},
		{Name: "key", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "op", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}},
		{Name: "value", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	return &synth{c: c, total: total, batch: batch, schema: schema, b: array.NewRecordBuilder(memory.DefaultAllocator, schema)}
}

func (s *synth) Retain()                        {}
func (s *synth) Schema() *arrow.Schema          { return s.schema }
func (s *synth) RecordBatch() arrow.RecordBatch { return s.cur }
func (s *synth) Record() arrow.RecordBatch      { return s.cur }
func (s *synth) Err() error                     { return nil }

func (s *synth) Release() {
	if s.cur != nil {
		s.cur.Release()
		s.cur = nil
	}
	s.b.Release()
}

func (s *synth) Next() bool {
	if s.cur != nil {
		s.cur.Release()
		s.cur = nil
	}
	if s.pos >= s.total {
		return false
	}
	n := int(min(int64(s.batch), s.total-s.pos))
	seq := s.b.Field(0).(*array.Uint64Builder)
	ts := s.b.Field(1).(*array.TimestampBuilder)
	ser := s.b.Field(2).(*array.BinaryDictionaryBuilder)
	key := s.b.Field(3).(*array.StringBuilder)
	op := s.b.Field(4).(*array.BinaryDictionaryBuilder)
	val := s.b.Field(5).(*array.Float64Builder)
	var name []byte
	for i := 0; i < n; i++ {
		p := s.pos + int64(i)
		copyN, j := p/int64(len(s.c.samples)), p%int64(len(s.c.samples))
		smp := s.c.samples[j]
		seq.Append(uint64(p + 1))
		ts.Append(arrow.Timestamp(smp.ms * 1e6))
		name = append(append(append(name[:0], s.c.names[smp.series]...), "/r"...), strconv.FormatInt(copyN, 10)...)
		ser.Append(name)
		key.AppendNull()
		op.AppendString("put")
		val.Append(smp.value)
	}
	s.pos += int64(n)
	s.cur = s.b.NewRecordBatch()
	return true
}
