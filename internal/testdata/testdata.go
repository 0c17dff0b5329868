// Package testdata loads and generates time series for tsq's tests and
// benchmarks: the NAB sample kept in the repository's testdata/ directory,
// any CSV of the same shape, and synthetic shapes with fixed seeds.
package testdata

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
)

// Series is one named series: times in nanoseconds, values as float64.
type Series struct {
	Name   string
	Times  []int64
	Values []float64
}

// Samples counts the samples of all series.
func Samples(ss []Series) int {
	n := 0
	for _, s := range ss {
		n += len(s.Times)
	}
	return n
}

// NABSamplePath is the path of the repository's NAB sample CSV.
func NABSamplePath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "nab_sample.csv")
}

// LoadCSV reads a CSV with header series,ts_ms,value, rows grouped by
// series; ts_ms is unix milliseconds.
func LoadCSV(path string) ([]Series, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: header: %w", path, err)
	}
	if len(head) != 3 || head[0] != "series" || head[1] != "ts_ms" || head[2] != "value" {
		return nil, fmt.Errorf("%s: header %q, want series,ts_ms,value", path, head)
	}
	var out []Series
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		ms, err := strconv.ParseInt(rec[1], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: ts_ms: %w", path, line, err)
		}
		v, err := strconv.ParseFloat(rec[2], 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: value: %w", path, line, err)
		}
		if len(out) == 0 || out[len(out)-1].Name != rec[0] {
			out = append(out, Series{Name: rec[0]})
		}
		s := &out[len(out)-1]
		s.Times = append(s.Times, ms*1e6)
		s.Values = append(s.Values, v)
	}
}

// Shapes lists the synthetic shapes Synthetic generates.
var Shapes = []string{"counter", "gauge2", "randomwalk", "const"}

// Synthetic generates ten series of n samples of a shape, scraped every
// 15 s with a few milliseconds of jitter, from a fixed seed:
//
//	counter     node-exporter-like integer byte counters, rare resets
//	gauge2      gauges with two decimals (23.45)
//	randomwalk  full-precision float random walk
//	const       one value per series
func Synthetic(shape string, n int) []Series {
	r := rand.New(rand.NewPCG(42, uint64(len(shape))))
	out := make([]Series, 10)
	for k := range out {
		s := &out[k]
		s.Name = fmt.Sprintf("%s{instance=\"host-%d\"}", shape, k)
		s.Times = make([]int64, n)
		s.Values = make([]float64, n)
		t := int64(1_700_000_000_000) + int64(k)*1000
		c, g, w := float64(r.IntN(1<<30)), 20+float64(r.IntN(2000))/100, r.NormFloat64()
		for i := range n {
			s.Times[i] = (t + int64(i)*15000 + r.Int64N(4)) * 1e6
			switch shape {
			case "counter":
				if r.IntN(5000) == 0 {
					c = 0
				}
				c += float64(r.IntN(1 << 16))
				s.Values[i] = c
			case "gauge2":
				g = math.Round((g+r.NormFloat64()*0.3)*100) / 100
				s.Values[i] = g
			case "randomwalk":
				w += r.NormFloat64()
				s.Values[i] = w
			case "const":
				s.Values[i] = 42.5
			default:
				panic("testdata: unknown shape " + shape)
			}
		}
	}
	return out
}
