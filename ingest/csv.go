package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// csvState holds the header and the field scratch of the CSV parser.
// Fields are split by hand (RFC 4180: quoted fields, "" escapes, quoted
// newlines) so a row costs no allocation and errors keep the raw line.
type csvState struct {
	header [][]byte
	fields [][]byte // spans of buf
	buf    []byte   // unquoted field bytes
	rec    []byte   // the raw record (several lines if a quote spans them)
	delim  byte     // the field separator, found in the header (0: not yet)
	num    []byte   // a decimal-comma number rewritten with a point
}

// csvDelimiter returns the field separator of a header line: a comma
// when it has one outside quotes, else a tab, else a semicolon (the
// separator of spreadsheets in locales with a decimal comma), else a
// comma (a single column).
func csvDelimiter(header []byte) byte {
	var n [256]int
	inQ := false
	for _, c := range header {
		if c == '"' {
			inQ = !inQ
		} else if !inQ {
			n[c]++
		}
	}
	for _, d := range []byte{',', '\t', ';'} {
		if n[d] > 0 {
			return d
		}
	}
	return ','
}

func (p *Parser) csvRows(b *Batch) error {
	cs := &p.csv
	if cs.header == nil {
		for {
			line, off, n, err := p.in.nextLine()
			if err == io.EOF {
				return io.EOF
			}
			if err != nil {
				return &Error{Format: CSV, Line: n, Offset: off, Snippet: snippet(line), Msg: "header: " + err.Error()}
			}
			if blank(line) {
				continue
			}
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
			rec, err := p.csvRecord(line)
			cs.delim = csvDelimiter(rec)
			if err != nil {
				return &Error{Format: CSV, Line: n, Offset: off, Snippet: snippet(line), Msg: "header: " + err.Error()}
			}
			if err := p.splitCSV(rec); err != nil {
				return &Error{Format: CSV, Line: n, Offset: off, Snippet: snippet(line), Msg: "header: " + err.Error()}
			}
			cs.header = headerNames(cs.header[:0], cs.fields)
			break
		}
	}
	p.rb.stableNames = true // the header's names: cloned, never modified
	return p.lineLoop(b, p.csvRow)
}

// headerNames appends to dst the column names of a CSV header's fields,
// copied: an empty name becomes "column<i>" (i from 0, as DuckDB names
// them: pandas writes its index column so) and a repeated one gets "_1",
// "_2"... (the first free), so that no row fails for its header.
func headerNames(dst [][]byte, fields [][]byte) [][]byte {
	seen := map[string]bool{}
	for i, f := range fields {
		name := string(f)
		if name == "" {
			name = fmt.Sprintf("column%d", i)
		}
		for k, base := 1, name; seen[name]; k++ {
			name = fmt.Sprintf("%s_%d", base, k)
		}
		seen[name] = true
		dst = append(dst, []byte(name))
	}
	return dst
}

// csvRecord completes a record whose quotes span lines.
func (p *Parser) csvRecord(line []byte) ([]byte, error) {
	if bytes.IndexByte(line, '"') < 0 || !openQuote(line) {
		return line, nil
	}
	cs := &p.csv
	cs.rec = append(cs.rec[:0], line...)
	// line aliases the read buffer, which reading more lines overwrites:
	// the record's bytes are cs.rec from here (see Parser.raw).
	p.raw, p.rawSet = cs.rec, true
	defer func() { p.raw = cs.rec }()
	for openQuote(cs.rec) {
		next, _, _, err := p.in.nextLine()
		if err != nil {
			if err == io.EOF {
				return nil, errors.New("unterminated quoted field")
			}
			return nil, err
		}
		if len(cs.rec)+len(next) > p.o.MaxLineBytes {
			return nil, errors.New("quoted field longer than the line limit")
		}
		cs.rec = append(append(cs.rec, '\n'), next...)
	}
	return cs.rec, nil
}

// openQuote reports whether p ends inside a quoted field.
func openQuote(p []byte) bool {
	return bytes.Count(p, []byte{'"'})%2 == 1
}

// splitPlain splits a record without quotes into cs.fields, slices of
// the record.
func (p *Parser) splitPlain(rec []byte) {
	cs := &p.csv
	cs.fields = cs.fields[:0]
	for {
		i := bytes.IndexByte(rec, cs.delim)
		if i < 0 {
			cs.fields = append(cs.fields, rec)
			return
		}
		cs.fields = append(cs.fields, rec[:i])
		rec = rec[i+1:]
	}
}

// splitCSV splits one record into cs.fields.
func (p *Parser) splitCSV(rec []byte) error {
	cs := &p.csv
	cs.fields, cs.buf = cs.fields[:0], cs.buf[:0]
	if bytes.IndexByte(rec, '"') < 0 {
		p.splitPlain(rec)
		return nil
	}
	type span struct{ a, b int }
	var spans [64]span
	sp := spans[:0]
	for i := 0; ; {
		start := len(cs.buf)
		if i < len(rec) && rec[i] == '"' {
			i++
			for {
				j := bytes.IndexByte(rec[i:], '"')
				if j < 0 {
					return errors.New("unterminated quoted field")
				}
				cs.buf = append(cs.buf, rec[i:i+j]...)
				i += j + 1
				if i < len(rec) && rec[i] == '"' {
					cs.buf = append(cs.buf, '"')
					i++
					continue
				}
				break
			}
			if i < len(rec) && rec[i] != cs.delim {
				return errors.New("text after a closing quote")
			}
		} else {
			j := bytes.IndexByte(rec[i:], cs.delim)
			if j < 0 {
				j = len(rec) - i
			}
			if bytes.IndexByte(rec[i:i+j], '"') >= 0 {
				return errors.New("quote inside an unquoted field")
			}
			cs.buf = append(cs.buf, rec[i:i+j]...)
			i += j
		}
		sp = append(sp, span{start, len(cs.buf)})
		if i >= len(rec) {
			break
		}
		i++ // the separator
		if i == len(rec) {
			sp = append(sp, span{len(cs.buf), len(cs.buf)})
			break
		}
	}
	for _, s := range sp {
		cs.fields = append(cs.fields, cs.buf[s.a:s.b])
	}
	return nil
}

func (p *Parser) csvRow(b *Batch, line []byte) error {
	cs := &p.csv
	if bytes.IndexByte(line, '"') < 0 {
		p.splitPlain(line) // one scan for quotes, not two
	} else {
		rec, err := p.csvRecord(line)
		if err != nil {
			return rowErr("%v", err)
		}
		if err := p.splitCSV(rec); err != nil {
			return rowErr("%v", err)
		}
	}
	if len(cs.fields) != len(cs.header) {
		return rowErr("%d fields, the header has %d", len(cs.fields), len(cs.header))
	}
	for i, f := range cs.fields {
		if len(f) == 0 {
			continue // empty cell: null
		}
		p.rb.nth = i // column i has cache entry i, whatever cells are empty
		if cs.delim == ';' && bytes.IndexByte(f, ',') > 0 {
			if n, ok := decimalComma(cs.num[:0], f); ok {
				cs.num, f = n, n
			}
		}
		if err := p.rb.set(cs.header[i], value{kind: vNum, text: f}); err != nil {
			return err
		}
	}
	return nil
}

// decimalComma appends to dst the number f writes with a decimal comma,
// as spreadsheets in such locales save semicolon-separated CSV: 1,5 and
// -1.234,5 (points grouping thousands) are 1.5 and -1234.5. ok is false
// for anything else ("1,5,6", "1,234.5", text).
func decimalComma(dst, f []byte) ([]byte, bool) {
	i := 0
	if f[0] == '-' || f[0] == '+' {
		dst, i = append(dst, f[0]), 1
	}
	comma := bytes.IndexByte(f, ',')
	whole, frac := f[i:comma], f[comma+1:]
	if len(whole) == 0 || len(frac) == 0 || !allDigits(frac) {
		return nil, false
	}
	if bytes.IndexByte(whole, '.') >= 0 { // 1.234.567: groups of three
		groups := bytes.Split(whole, []byte{'.'})
		if len(groups[0]) == 0 || len(groups[0]) > 3 {
			return nil, false
		}
		for k, g := range groups {
			if !allDigits(g) || k > 0 && len(g) != 3 {
				return nil, false
			}
			dst = append(dst, g...)
		}
	} else if allDigits(whole) {
		dst = append(dst, whole...)
	} else {
		return nil, false
	}
	return append(append(dst, '.'), frac...), true
}

func allDigits(p []byte) bool {
	for _, c := range p {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(p) > 0
}
