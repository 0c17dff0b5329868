package main

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// series is one time series: timestamps in unix milliseconds and the values
// at them, time ordered.
type series struct {
	name string
	ms   []int64
	vals []float64
}

// dataset is one input "file": a CSV file or a synthetic shape.
type dataset struct {
	name   string // base name of the file, or synth-*
	series []series
}

func (d *dataset) samples() int {
	n := 0
	for i := range d.series {
		n += len(d.series[i].ms)
	}
	return n
}

// loadCSVFile reads a CSV file with header "series,ts_ms,value".
func loadCSVFile(path string) (*dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := loadCSV(filepath.Base(path), bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// loadCSV parses CSV rows "series,ts_ms,value" (with that header line).
// Rows of one series normally come together; a series that reappears later
// is appended to. Timestamps must not decrease within a series.
func loadCSV(name string, r io.Reader) (*dataset, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 3
	cr.ReuseRecord = true
	hdr, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty file, want header series,ts_ms,value")
		}
		return nil, err
	}
	if hdr[0] != "series" || hdr[1] != "ts_ms" || hdr[2] != "value" {
		return nil, fmt.Errorf("header is %q, want series,ts_ms,value", hdr)
	}
	d := &dataset{name: name}
	index := map[string]int{}
	cur := -1
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		line, _ := cr.FieldPos(0)
		if cur < 0 || d.series[cur].name != rec[0] {
			i, ok := index[rec[0]]
			if !ok {
				i = len(d.series)
				index[rec[0]] = i
				d.series = append(d.series, series{name: rec[0]})
			}
			cur = i
		}
		ts, err := strconv.ParseInt(rec[1], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: ts_ms: %w", line, err)
		}
		v, err := strconv.ParseFloat(rec[2], 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: value: %w", line, err)
		}
		s := &d.series[cur]
		if n := len(s.ms); n > 0 && ts < s.ms[n-1] {
			return nil, fmt.Errorf("line %d: series %q goes back in time (%d after %d)", line, s.name, ts, s.ms[n-1])
		}
		s.ms = append(s.ms, ts)
		s.vals = append(s.vals, v)
	}
	if len(d.series) == 0 {
		return nil, errors.New("no rows")
	}
	return d, nil
}
