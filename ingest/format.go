package ingest

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Format is an input format. The zero Format means "guess".
type Format uint8

const (
	Guess Format = iota
	JSONLines
	JSONArray
	CSV
	LineProtocol
	Prometheus
	Arrow // an Arrow IPC file or stream
)

func (f Format) String() string {
	switch f {
	case Guess:
		return "guess"
	case JSONLines:
		return "jsonl"
	case JSONArray:
		return "json"
	case CSV:
		return "csv"
	case LineProtocol:
		return "lp"
	case Prometheus:
		return "prom"
	case Arrow:
		return "arrow"
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// ParseFormat parses a format name: jsonl (ndjson), json, csv, lp
// (influx, line), prom (prometheus, openmetrics), arrow (arrows, ipc,
// feather: an Arrow IPC file or stream), or "" / guess.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "", "guess", "auto":
		return Guess, nil
	case "jsonl", "ndjson", "jsonlines":
		return JSONLines, nil
	case "json", "jsonarray":
		return JSONArray, nil
	case "csv":
		return CSV, nil
	case "lp", "influx", "line", "lineprotocol":
		return LineProtocol, nil
	case "prom", "prometheus", "openmetrics", "om":
		return Prometheus, nil
	case "arrow", "arrows", "ipc", "feather":
		return Arrow, nil
	}
	return Guess, fmt.Errorf("ingest: unknown format %q: use jsonl, json, csv, lp, prom or arrow", s)
}

// FormatFromPath guesses the format from a file name's extension, past
// a compression's (data.csv.gz: CSV). It returns Guess when the
// extension says nothing.
func FormatFromPath(path string) Format {
	switch strings.ToLower(filepath.Ext(TrimCompressedExt(path))) {
	case ".jsonl", ".ndjson":
		return JSONLines
	case ".json":
		return JSONArray // a .json file holding lines is detected by content
	case ".csv", ".tsv":
		return CSV // its separator, comma, tab or semicolon, read from the header
	case ".lp", ".influx", ".line":
		return LineProtocol
	case ".prom", ".om", ".metrics":
		return Prometheus
	case ".arrow", ".arrows", ".ipc", ".feather":
		return Arrow
	}
	return Guess
}

// GuessContent guesses the format from the first bytes of the input.
func GuessContent(p []byte) Format {
	if IsArrow(p) {
		return Arrow
	}
	p = bytes.TrimLeft(p, " \t\r\n\ufeff")
	if len(p) == 0 {
		return JSONLines
	}
	switch p[0] {
	case '[':
		return JSONArray
	case '{':
		return JSONLines
	case '#':
		if bytes.HasPrefix(p, []byte("# HELP")) || bytes.HasPrefix(p, []byte("# TYPE")) || bytes.HasPrefix(p, []byte("# EOF")) {
			return Prometheus
		}
		// another comment: classify the next line
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			return GuessContent(p[i+1:])
		}
		return Prometheus
	}
	line := p
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = bytes.TrimRight(line, "\r")
	if i := bytes.IndexByte(line, '{'); i > 0 && bytes.IndexByte(line[:i], ',') < 0 && bytes.IndexByte(line[:i], ' ') < 0 {
		return Prometheus
	}
	if sp := lpScan(line, ' '); sp > 0 {
		rest := line[sp+1:]
		if e := lpScanFields(rest, ' '); e >= 0 {
			rest = rest[:e]
		}
		if bytes.IndexByte(rest, '=') > 0 {
			return LineProtocol
		}
	}
	fields := bytes.Fields(line)
	if len(fields) >= 2 && len(fields) <= 3 && bytes.IndexByte(fields[0], ',') < 0 {
		// "name value [timestamp]", the value a number; else a header
		// of tab- or space-separated names (CSV finds its separator)
		if _, err := strconv.ParseFloat(string(fields[1]), 64); err == nil {
			return Prometheus
		}
	}
	return CSV
}
