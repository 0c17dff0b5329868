// Package demodata holds the small real data set that `tsq demo` loads,
// embedded in the binary: four NAB CPU series (MIT) and a slice of an
// OpenStreetMap change file (ODbL); see README.md for origins and licences.
// TestGenerate remakes the files from the shared data set.
package demodata

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
)

// NABSeries are the NAB series kept, all from 2014-02-14 to 2014-02-28 at
// five-minute steps.
var NABSeries = []string{
	"nab/realAWSCloudwatch/ec2_cpu_utilization_24ae8d",
	"nab/realAWSCloudwatch/ec2_cpu_utilization_53ea38",
	"nab/realAWSCloudwatch/ec2_cpu_utilization_5f5533",
	"nab/realAWSCloudwatch/rds_cpu_utilization_cc0c53",
}

//go:embed nab.csv.gz
var nabGz []byte

//go:embed osm.jsonl.gz
var osmGz []byte

// maxRaw bounds what the embedded files may inflate to.
const maxRaw = 8 << 20

// NAB returns the metrics CSV (series,ts_ms,value).
func NAB() (io.Reader, error) { return gunzip("nab.csv.gz", nabGz) }

// OSM returns the OpenStreetMap change events, one JSON object per line.
func OSM() (io.Reader, error) { return gunzip("osm.jsonl.gz", osmGz) }

func gunzip(name string, b []byte) (io.Reader, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("demodata: %s: %w", name, err)
	}
	raw, err := io.ReadAll(io.LimitReader(zr, maxRaw+1))
	if err != nil {
		return nil, fmt.Errorf("demodata: %s: %w", name, err)
	}
	if len(raw) > maxRaw {
		return nil, fmt.Errorf("demodata: %s inflates beyond %d bytes", name, maxRaw)
	}
	return bufio.NewReader(bytes.NewReader(raw)), nil
}
