package render

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq/query"
)

// Mode is an output format.
type Mode uint8

const (
	Table    Mode = iota // a boxed go-pretty table
	CSV                  // RFC 4180 with a header row
	JSON                 // a JSON array of objects, one per line
	Line                 // one "column = value" line per column, rows apart
	JSONL                // one JSON object per line, no array around them
	Logfmt               // one line of column=value pairs per row, NULLs left out
	Markdown             // a GitHub-flavoured Markdown table of every row
)

var modeNames = [...]string{Table: "table", CSV: "csv", JSON: "json", Line: "line", JSONL: "jsonl", Logfmt: "logfmt", Markdown: "markdown"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", m)
}

// ParseMode reads a mode name: table, csv, json, line, jsonl, logfmt or
// markdown.
func ParseMode(s string) (Mode, error) {
	for m, n := range modeNames {
		if strings.EqualFold(s, n) {
			return Mode(m), nil
		}
	}
	return 0, fmt.Errorf("unknown mode %q (want table, csv, json, line, jsonl, logfmt or markdown)", s)
}

// DefaultMaxRows is how many rows a table shows before it truncates.
const DefaultMaxRows = 40

// Options tune rendering. The zero value renders a plain table of up to
// DefaultMaxRows rows.
type Options struct {
	Mode    Mode
	MaxRows int  // table rows shown; 0: DefaultMaxRows; < 0: all
	Color   bool // dim NULLs and the type row (only on a terminal)
	// Zone shows timestamps on its clock, with their offset; nil: UTC.
	// Only the text changes: exports stay in UTC.
	Zone *time.Location
}

// Write renders every batch of rr to w and returns the rows read. It does
// not release rr.
func Write(w io.Writer, rr array.RecordReader, o Options) (int64, error) {
	loc := o.Zone
	if loc == nil {
		loc = time.UTC
	}
	switch o.Mode {
	case Table:
		if query.IsExplain(rr.Schema()) {
			return writePlan(w, rr)
		}
		o.Zone = loc
		return writeTable(w, rr, o)
	case CSV:
		return writeCSV(w, rr, loc)
	case JSON:
		return writeJSON(w, rr, loc)
	case Line:
		return writeLine(w, rr, loc)
	case JSONL:
		return writeJSONL(w, rr, loc)
	case Logfmt:
		return writeLogfmt(w, rr, loc)
	case Markdown:
		return writeMarkdown(w, rr, loc)
	}
	return 0, fmt.Errorf("render: unknown mode %v", o.Mode)
}

// each calls fn for every row of rr.
func each(rr array.RecordReader, fn func(cols []arrowArray, i int) error) (int64, error) {
	var n int64
	for rr.Next() {
		rec := rr.RecordBatch()
		cols := rec.Columns()
		for i := 0; i < int(rec.NumRows()); i++ {
			if err := fn(cols, i); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, rr.Err()
}
