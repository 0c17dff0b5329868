package ingest

import (
	"bytes"
	"strconv"
)

// promRows parses the Prometheus text exposition format and OpenMetrics
// text:
//
//	# HELP / # TYPE / # EOF lines and other comments are skipped
//	name{label="value",...} value [timestamp] [# exemplar]
//
// The series is the name and labels as written; each label is also
// stored as a string field, the value as the float64 field "value". A
// timestamp is in the mapping's time unit (default ms, as Prometheus
// writes it); one with a fraction is read as seconds (OpenMetrics).
// Without one the row gets the import's start time.
func (p *Parser) promRows(b *Batch) error {
	return p.lineLoop(b, p.promRow)
}

var promValueName = []byte("value")

func (p *Parser) promRow(b *Batch, line []byte) error {
	rb, js := &p.rb, &p.jsonState
	line = bytes.TrimLeft(line, " \t")
	if line[0] == '#' {
		rb.op = OpSkip
		return nil
	}
	// the series: name, then an optional {labels}
	end := bytes.IndexAny(line, " \t{")
	if end <= 0 {
		return rowErr("prometheus: no value")
	}
	if line[end] == '{' {
		close := promLabelsEnd(line, end)
		if close < 0 {
			return rowErr("prometheus: unterminated label set")
		}
		if err := p.promLabels(line[end+1 : close]); err != nil {
			return err
		}
		end = close + 1
	}
	rb.defSeries, rb.hasDef = append(rb.defSeries[:0], line[:end]...), true
	rest := bytes.TrimLeft(line[end:], " \t")
	if i := bytes.Index(rest, []byte(" # ")); i >= 0 {
		rest = rest[:i] // exemplar
	}
	f := bytes.Fields(rest)
	if len(f) == 0 || len(f) > 2 {
		return rowErr("prometheus: want a value and an optional timestamp")
	}
	v, err := strconv.ParseFloat(bstr(f[0]), 64)
	if err != nil {
		return rowErr("prometheus: bad value %q", f[0])
	}
	if err := rb.set(promValueName, value{kind: vFloat, f: v}); err != nil {
		return err
	}
	if len(f) == 2 && !rb.timeSet {
		ts := f[1]
		if bytes.IndexByte(ts, '.') >= 0 {
			sec, err := strconv.ParseFloat(bstr(ts), 64)
			if err != nil {
				return rowErr("prometheus: bad timestamp %q", ts)
			}
			rb.t, err = scaleFloat(sec, 1e9)
			if err != nil {
				return rowErr("prometheus: timestamp %q out of range", ts)
			}
		} else {
			i, err := strconv.ParseInt(bstr(ts), 10, 64)
			if err != nil {
				return rowErr("prometheus: bad timestamp %q", ts)
			}
			if rb.t, err = scaleInt(i, rb.p.unit); err != nil {
				return rowErr("prometheus: timestamp %q out of range", ts)
			}
		}
		rb.timeSet = true
	}
	_ = js
	return nil
}

// promLabelsEnd returns the index of the '}' closing the label set that
// opens at line[open], honouring quoted values.
func promLabelsEnd(line []byte, open int) int {
	inQ := false
	for i := open + 1; i < len(line); i++ {
		switch c := line[i]; {
		case inQ && c == '\\':
			i++
		case c == '"':
			inQ = !inQ
		case !inQ && c == '}':
			return i
		}
	}
	return -1
}

// promLabels stores each label="value" as a string field.
func (p *Parser) promLabels(s []byte) error {
	js := &p.jsonState
	for {
		s = bytes.TrimLeft(s, " \t,")
		if len(s) == 0 {
			return nil
		}
		eq := bytes.IndexByte(s, '=')
		if eq <= 0 || eq+1 >= len(s) || s[eq+1] != '"' {
			return rowErr("prometheus: label %q is not name=\"value\"", s)
		}
		js.name = append(js.name[:0], bytes.TrimSpace(s[:eq])...)
		js.raw = js.raw[:0]
		i := eq + 2
		for ; i < len(s) && s[i] != '"'; i++ {
			if s[i] == '\\' && i+1 < len(s) {
				i++
				switch s[i] {
				case 'n':
					js.raw = append(js.raw, '\n')
				default:
					js.raw = append(js.raw, s[i])
				}
				continue
			}
			js.raw = append(js.raw, s[i])
		}
		if i >= len(s) {
			return rowErr("prometheus: unterminated label value")
		}
		if err := p.rb.set(js.name, value{kind: vStr, text: js.raw}); err != nil {
			return err
		}
		s = s[i+1:]
	}
}
