package render

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

type arrowArray = arrow.Array

func writeCSV(w io.Writer, rr array.RecordReader, loc *time.Location) (int64, error) {
	cw := csv.NewWriter(w)
	fields := rr.Schema().Fields()
	head := make([]string, len(fields))
	for i, f := range fields {
		head[i] = f.Name
	}
	if err := cw.Write(head); err != nil {
		return 0, err
	}
	row := make([]string, len(fields))
	n, err := each(rr, func(cols []arrow.Array, i int) error {
		for j, c := range cols {
			v := format(c, i, loc)
			if v.null {
				row[j] = "" // CSV's NULL is the empty field
			} else {
				row[j] = v.text
			}
		}
		return cw.Write(row)
	})
	cw.Flush()
	if err == nil {
		err = cw.Error()
	}
	return n, err
}

func writeJSON(w io.Writer, rr array.RecordReader, loc *time.Location) (int64, error) {
	bw := bufio.NewWriter(w)
	keys := jsonKeys(rr.Schema())
	bw.WriteString("[")
	first := true
	n, err := each(rr, func(cols []arrow.Array, i int) error {
		if !first {
			bw.WriteString(",")
		}
		first = false
		bw.WriteString("\n")
		return writeJSONRow(bw, keys, cols, i, loc)
	})
	if n > 0 {
		bw.WriteString("\n")
	}
	bw.WriteString("]\n")
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return n, err
}

// jsonKeys returns the schema's column names as JSON strings.
func jsonKeys(s *arrow.Schema) [][]byte {
	keys := make([][]byte, s.NumFields())
	for i, f := range s.Fields() {
		keys[i], _ = json.Marshal(f.Name)
	}
	return keys
}

// writeJSONRow writes row i as a JSON object.
func writeJSONRow(bw *bufio.Writer, keys [][]byte, cols []arrow.Array, i int, loc *time.Location) error {
	bw.WriteString("{")
	for j, c := range cols {
		if j > 0 {
			bw.WriteString(",")
		}
		bw.Write(keys[j])
		bw.WriteString(":")
		v, err := json.Marshal(format(c, i, loc).raw)
		if err != nil {
			return err
		}
		bw.Write(v)
	}
	bw.WriteString("}")
	return nil
}

func writeJSONL(w io.Writer, rr array.RecordReader, loc *time.Location) (int64, error) {
	bw := bufio.NewWriter(w)
	keys := jsonKeys(rr.Schema())
	n, err := each(rr, func(cols []arrow.Array, i int) error {
		if err := writeJSONRow(bw, keys, cols, i, loc); err != nil {
			return err
		}
		bw.WriteString("\n")
		return nil
	})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return n, err
}

// writeLogfmt writes a line of name=value pairs per row: a value with a
// space, a quote, an = or a control character, or empty, is quoted as a
// Go string; NULLs are left out.
func writeLogfmt(w io.Writer, rr array.RecordReader, loc *time.Location) (int64, error) {
	bw := bufio.NewWriter(w)
	fields := rr.Schema().Fields()
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = logfmtValue(f.Name)
	}
	n, err := each(rr, func(cols []arrow.Array, i int) error {
		first := true
		for j, c := range cols {
			if c.IsNull(i) {
				continue
			}
			if !first {
				bw.WriteByte(' ')
			}
			first = false
			bw.WriteString(names[j])
			bw.WriteByte('=')
			bw.WriteString(logfmtValue(format(c, i, loc).text))
		}
		bw.WriteByte('\n')
		return nil
	})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return n, err
}

func logfmtValue(s string) string {
	if s == "" || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == '"' || r == '=' || r == 0x7f || !unicode.IsPrint(r) }) {
		return strconv.Quote(s)
	}
	return s
}

func writeLine(w io.Writer, rr array.RecordReader, loc *time.Location) (int64, error) {
	bw := bufio.NewWriter(w)
	fields := rr.Schema().Fields()
	width := 0
	for _, f := range fields {
		width = max(width, len(f.Name))
	}
	first := true
	n, err := each(rr, func(cols []arrow.Array, i int) error {
		if !first {
			bw.WriteString("\n")
		}
		first = false
		for j, c := range cols {
			fmt.Fprintf(bw, "%*s = %s\n", width, fields[j].Name, strings.ReplaceAll(format(c, i, loc).text, "\n", "\\n"))
		}
		return nil
	})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return n, err
}
