package export

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tsqdb/tsq/internal/jsontext"
)

// CSV: a header of column names, then one line per row. Null is an empty
// field; an empty string is written quoted ("") so the two stay apart.
// Fields holding a comma, quote, CR or LF, or starting with a space, are
// quoted with quotes doubled (RFC 4180). Lines end in "\n".
type csvWriter struct {
	w      *bufio.Writer
	schema *arrow.Schema
	line   []byte
	scr    []byte
}

func newCSVWriter(w io.Writer, schema *arrow.Schema, _ *Options) (BatchWriter, error) {
	if err := checkSchema(schema); err != nil {
		return nil, err
	}
	c := &csvWriter{w: bufio.NewWriterSize(w, 256<<10), schema: schema}
	for i, f := range schema.Fields() {
		if i > 0 {
			c.line = append(c.line, ',')
		}
		c.line = appendCSVField(c.line, []byte(f.Name), true)
	}
	c.line = append(c.line, '\n')
	_, err := c.w.Write(c.line)
	return c, err
}

func (c *csvWriter) Write(rec arrow.RecordBatch) error {
	if int(rec.NumCols()) != c.schema.NumFields() {
		return fmt.Errorf("batch has %d columns, schema has %d", rec.NumCols(), c.schema.NumFields())
	}
	cells, err := rowCells(rec)
	if err != nil {
		return err
	}
	cols := rec.Columns()
	for r := 0; r < int(rec.NumRows()); r++ {
		c.line = c.line[:0]
		for j, col := range cols {
			if j > 0 {
				c.line = append(c.line, ',')
			}
			if col.IsNull(r) {
				continue
			}
			var text bool
			c.scr, text = cells[j](c.scr[:0], r)
			if !text {
				c.line = append(c.line, c.scr...)
				continue
			}
			c.line = appendCSVField(c.line, c.scr, true)
		}
		c.line = append(c.line, '\n')
		if _, err := c.w.Write(c.line); err != nil {
			return err
		}
	}
	return nil
}

func (c *csvWriter) Close() error { return c.w.Flush() }

func appendCSVField(dst, f []byte, text bool) []byte {
	need := text && (len(f) == 0 || f[0] == ' ' || bytes.ContainsAny(f, ",\"\r\n"))
	if !need {
		return append(dst, f...)
	}
	dst = append(dst, '"')
	for _, b := range f {
		if b == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, b)
	}
	return append(dst, '"')
}

// JSON lines: one object per row, keys in column order, null for nulls,
// numbers and booleans bare, everything else (including timestamps, binary
// as base64 and non-finite floats) a JSON string.
type jsonlWriter struct {
	w    *bufio.Writer
	keys [][]byte // `"name":` per column, escaped once
	line []byte
	scr  []byte
}

func newJSONLWriter(w io.Writer, schema *arrow.Schema, _ *Options) (BatchWriter, error) {
	if err := checkSchema(schema); err != nil {
		return nil, err
	}
	j := &jsonlWriter{w: bufio.NewWriterSize(w, 256<<10)}
	for _, f := range schema.Fields() {
		k := appendJSONString(nil, []byte(f.Name))
		j.keys = append(j.keys, append(k, ':'))
	}
	return j, nil
}

func (j *jsonlWriter) Write(rec arrow.RecordBatch) error {
	if int(rec.NumCols()) != len(j.keys) {
		return fmt.Errorf("batch has %d columns, schema has %d", rec.NumCols(), len(j.keys))
	}
	cells, err := rowCells(rec)
	if err != nil {
		return err
	}
	cols := rec.Columns()
	for r := 0; r < int(rec.NumRows()); r++ {
		j.line = append(j.line[:0], '{')
		for c, col := range cols {
			if c > 0 {
				j.line = append(j.line, ',')
			}
			j.line = append(j.line, j.keys[c]...)
			if col.IsNull(r) {
				j.line = append(j.line, "null"...)
				continue
			}
			var text bool
			j.scr, text = cells[c](j.scr[:0], r)
			if text {
				j.line = appendJSONString(j.line, j.scr)
			} else {
				j.line = append(j.line, j.scr...)
			}
		}
		j.line = append(j.line, '}', '\n')
		if _, err := j.w.Write(j.line); err != nil {
			return err
		}
	}
	return nil
}

func (j *jsonlWriter) Close() error { return j.w.Flush() }

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendJSONString(dst, s []byte) []byte { return jsontext.AppendString(dst, s) }
