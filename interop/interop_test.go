// Package interop_test checks that third-party readers read tsq's exports:
// DuckDB (npm @duckdb/node-api) reads the Parquet file and the partitioned
// dataset, apache-arrow (npm) reads the Arrow IPC file and stream, and their
// row counts, schemas and per-series aggregates must equal the values Go
// computes from the same rows. The other way, tsq imports a Parquet file
// DuckDB writes and agrees with DuckDB's aggregates of it.
//
// The node packages are pinned in package-lock.json; install them with
// `(cd interop && npm ci)`. With TSQ_INTEROP=1 a missing node or
// node_modules fails the tests; without it they are skipped.
package interop_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Paths relative to this directory: the shared data sits beside the repo.
const (
	sharedNAB     = "../../shared/data/metrics/nab_real.csv"
	sampleNAB     = "../testdata/nab_sample.csv"
	sharedFlights = "../../shared/data/arrow/flights-200k.arrow"
)

// requireNode skips (or, with TSQ_INTEROP=1, fails) when node or the pinned
// node packages are missing.
func requireNode(t *testing.T) string {
	t.Helper()
	strict := os.Getenv("TSQ_INTEROP") == "1"
	miss := func(msg string) {
		msg += "; install node and run `(cd interop && npm ci)`"
		if strict {
			t.Fatalf("TSQ_INTEROP=1 but %s", msg)
		}
		t.Skipf("skipping interop test (set TSQ_INTEROP=1 to require it): %s", msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		miss("node is not on PATH")
	}
	for _, pkg := range []string{"@duckdb/node-api", "apache-arrow"} {
		if _, err := os.Stat(filepath.Join("node_modules", pkg, "package.json")); err != nil {
			miss(fmt.Sprintf("node package %s is not installed", pkg))
		}
	}
	return node
}

// runNode runs a script and decodes its JSON output.
func runNode(t *testing.T, node string, out any, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %v: %v\nstderr:\n%s", args, err, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		t.Fatalf("node %v printed %q: %v", args, stdout.String(), err)
	}
}

type sample struct {
	series string
	ms     int64
	value  float64
}

// loadNAB reads the canonical metric CSV (series,ts_ms,value): the shared
// file when present, else the sample in testdata.
func loadNAB(t *testing.T) ([]sample, string) {
	t.Helper()
	path := sharedNAB
	if _, err := os.Stat(path); err != nil {
		path = sampleNAB
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.ReuseRecord = true
	if _, err := r.Read(); err != nil {
		t.Fatalf("%s: header: %v", path, err)
	}
	var out []sample
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		ms, err1 := strconv.ParseInt(rec[1], 10, 64)
		v, err2 := strconv.ParseFloat(rec[2], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s line %d: bad row %q", path, len(out)+2, rec)
		}
		out = append(out, sample{rec[0], ms, v})
	}
	t.Logf("%s: %d samples", path, len(out))
	return out, path
}

// agg is what every reader reports per series.
type agg struct {
	Rows    int64    `json:"rows"`
	Count   int64    `json:"count"`
	Sum     float64  `json:"sum"`
	Avg     *float64 `json:"avg"`
	Min     *float64 `json:"min"`
	Max     *float64 `json:"max"`
	MinTime string   `json:"min_time"`
	MaxTime string   `json:"max_time"`
}

type field struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Nullable *bool  `json:"nullable"`
}

type report struct {
	Format     string         `json:"format"`
	Rows       int64          `json:"rows"`
	Batches    int            `json:"batches"`
	Schema     []field        `json:"schema"`
	Series     map[string]agg `json:"series"`
	Partitions map[string]struct {
		Rows       int64 `json:"rows"`
		DatesMatch bool  `json:"dates_match"`
	} `json:"partitions"`
}

// goAggregates computes per-series aggregates in Go from raw samples.
func goAggregates(samples []sample) map[string]agg {
	out := map[string]agg{}
	minT, maxT := map[string]int64{}, map[string]int64{}
	for _, s := range samples {
		a := out[s.series]
		ns := s.ms * 1e6
		if a.Rows == 0 {
			a.Min, a.Max = new(float64), new(float64)
			*a.Min, *a.Max = s.value, s.value
			minT[s.series], maxT[s.series] = ns, ns
		}
		a.Rows++
		a.Count++
		a.Sum += s.value
		*a.Min = math.Min(*a.Min, s.value)
		*a.Max = math.Max(*a.Max, s.value)
		minT[s.series] = min(minT[s.series], ns)
		maxT[s.series] = max(maxT[s.series], ns)
		out[s.series] = a
	}
	for k, a := range out {
		avg := a.Sum / float64(a.Count)
		a.Avg = &avg
		a.MinTime, a.MaxTime = strconv.FormatInt(minT[k], 10), strconv.FormatInt(maxT[k], 10)
		out[k] = a
	}
	return out
}

func closeTo(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// compareAggregates checks a reader's per-series values against Go's. Sums
// (and so averages) may differ in the last bits with the summation order;
// counts, minima, maxima and times must be exact.
func compareAggregates(t *testing.T, who string, got, want map[string]agg) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d series, want %d", who, len(got), len(want))
	}
	names := make([]string, 0, len(want))
	for k := range want {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		w, g := want[k], got[k]
		switch {
		case g.Rows != w.Rows || g.Count != w.Count:
			t.Errorf("%s %s: rows/count %d/%d, want %d/%d", who, k, g.Rows, g.Count, w.Rows, w.Count)
		case g.Min == nil || g.Max == nil || g.Avg == nil:
			t.Errorf("%s %s: missing min/max/avg: %+v", who, k, g)
		case *g.Min != *w.Min || *g.Max != *w.Max:
			t.Errorf("%s %s: min/max %v/%v, want %v/%v", who, k, *g.Min, *g.Max, *w.Min, *w.Max)
		case !closeTo(g.Sum, w.Sum) || !closeTo(*g.Avg, *w.Avg):
			t.Errorf("%s %s: sum/avg %v/%v, want %v/%v", who, k, g.Sum, *g.Avg, w.Sum, *w.Avg)
		case g.MinTime != w.MinTime || g.MaxTime != w.MaxTime:
			t.Errorf("%s %s: time range %s..%s, want %s..%s", who, k, g.MinTime, g.MaxTime, w.MinTime, w.MaxTime)
		}
	}
}

// schemaOf lists the export schema (seq,time,series,key,op,value).
func resultSchema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "seq", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "time", Type: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}},
		{Name: "series", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}},
		{Name: "key", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "op", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}},
		{Name: "value", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
}

// csvReader turns samples into batches of the query result schema, each
// batch with its own dictionaries, as the query engine's are.
func csvReader(t *testing.T, samples []sample, batch int) array.RecordReader {
	t.Helper()
	var recs []arrow.RecordBatch
	sc := resultSchema()
	for off := 0; off < len(samples); off += batch {
		b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
		for i, s := range samples[off:min(off+batch, len(samples))] {
			b.Field(0).(*array.Uint64Builder).Append(uint64(off + i + 1))
			b.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(s.ms * 1e6))
			b.Field(2).(*array.BinaryDictionaryBuilder).AppendString(s.series)
			b.Field(3).AppendNull()
			b.Field(4).(*array.BinaryDictionaryBuilder).AppendString("put")
			b.Field(5).(*array.Float64Builder).Append(s.value)
		}
		recs = append(recs, b.NewRecordBatch())
		b.Release()
	}
	rr, err := array.NewRecordReader(sc, recs)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		r.Release()
	}
	return rr
}
