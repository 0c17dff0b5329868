package ingest

import (
	"bytes"
	"strconv"
)

// lpRows parses InfluxDB line protocol:
//
//	measurement[,tag=value...] field=value[,field=value...] [timestamp]
//
// The series is the measurement and tags as written; each tag is also
// stored as a string field and each field as a typed field (1i int64,
// 1u int64, 1.5 float64, "s" string, t/f bool). The timestamp is read in
// the mapping's time unit (default ns); without one the row gets the
// import's start time. Mapping.Time, Series, Key and Op apply to tag and
// field names as to any other field. A backslash escapes the byte after
// it (in names and tag values: comma, equals, space, backslash; in
// string values: quote and backslash); a double quote outside a string
// value (in a measurement, a tag or a field key) is a literal byte.
func (p *Parser) lpRows(b *Batch) error {
	return p.lineLoop(b, p.lpRow)
}

// lpScan returns the index of the first unescaped byte c, or -1.
func lpScan(s []byte, c byte) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case c:
			return i
		}
	}
	return -1
}

// lpScanFields returns the index of the first unescaped byte c of a
// field set (key=value[,key=value...]) outside its string values, or
// -1. A double quote opens a string only where a value starts (right
// after its key's unescaped '='): in a field key it is a literal byte.
func lpScanFields(s []byte, c byte) int {
	inKey, inStr := true, false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\\':
			i++
		case inStr:
			inStr = ch != '"'
		case ch == c:
			return i
		case inKey && ch == '=':
			inKey = false
			inStr = i+1 < len(s) && s[i+1] == '"'
			i += b2i(inStr) // the opening quote
		case !inKey && ch == ',':
			inKey = true
		}
	}
	return -1
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func lpUnescape(dst, s []byte) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		dst = append(dst, s[i])
	}
	return dst
}

func (p *Parser) lpRow(b *Batch, line []byte) error {
	if line[0] == '#' {
		p.rb.op = OpSkip
		return nil
	}
	sp := lpScan(line, ' ')
	if sp <= 0 {
		return rowErr("line protocol: no fields")
	}
	key, rest := line[:sp], line[sp+1:]
	fsp := lpScanFields(rest, ' ')
	fields, ts := rest, []byte(nil)
	if fsp >= 0 {
		fields, ts = rest[:fsp], bytes.TrimSpace(rest[fsp+1:])
	}
	if len(fields) == 0 {
		return rowErr("line protocol: no fields")
	}
	rb := &p.rb
	rb.defSeries, rb.hasDef = append(rb.defSeries[:0], key...), true
	js := &p.jsonState
	// tags
	if c := lpScan(key, ','); c >= 0 {
		tags := key[c+1:]
		for len(tags) > 0 {
			e := lpScan(tags, ',')
			kv := tags
			if e >= 0 {
				kv, tags = tags[:e], tags[e+1:]
			} else {
				tags = nil
			}
			eq := lpScan(kv, '=')
			if eq <= 0 {
				return rowErr("line protocol: tag %q without '='", kv)
			}
			js.name = lpUnescape(js.name[:0], kv[:eq])
			js.raw = lpUnescape(js.raw[:0], kv[eq+1:])
			if err := rb.set(js.name, value{kind: vStr, text: js.raw}); err != nil {
				return err
			}
		}
	}
	for len(fields) > 0 {
		e := lpScanFields(fields, ',')
		kv := fields
		if e >= 0 {
			kv, fields = fields[:e], fields[e+1:]
		} else {
			fields = nil
		}
		eq := lpScan(kv, '=')
		if eq <= 0 || eq == len(kv)-1 {
			return rowErr("line protocol: field %q is not name=value", kv)
		}
		js.name = lpUnescape(js.name[:0], kv[:eq])
		v, err := lpValue(kv[eq+1:], &js.raw)
		if err != nil {
			return err
		}
		if err := rb.set(js.name, v); err != nil {
			return err
		}
	}
	if len(ts) > 0 && !rb.timeSet {
		i, err := strconv.ParseInt(bstr(ts), 10, 64)
		if err != nil {
			return rowErr("line protocol: timestamp %q is not an integer", ts)
		}
		if rb.t, err = scaleInt(i, rb.p.unit); err != nil {
			return rowErr("line protocol: timestamp %q out of range", ts)
		}
		rb.timeSet = true
	}
	return nil
}

func lpValue(s []byte, scratch *[]byte) (value, error) {
	switch c := s[len(s)-1]; {
	case s[0] == '"':
		if len(s) < 2 || c != '"' {
			return value{}, rowErr("line protocol: unterminated string %q", s)
		}
		*scratch = lpUnescape((*scratch)[:0], s[1:len(s)-1])
		return value{kind: vStr, text: *scratch}, nil
	case c == 'i' || c == 'u':
		i, err := strconv.ParseInt(bstr(s[:len(s)-1]), 10, 64)
		if err != nil {
			return value{}, rowErr("line protocol: bad integer %q", s)
		}
		return value{kind: vInt, i: i}, nil
	}
	switch bstr(s) {
	case "t", "T", "true", "True", "TRUE":
		return value{kind: vBool, b: true}, nil
	case "f", "F", "false", "False", "FALSE":
		return value{kind: vBool, b: false}, nil
	}
	f, err := strconv.ParseFloat(bstr(s), 64)
	if err != nil {
		return value{}, rowErr("line protocol: bad value %q", s)
	}
	return value{kind: vFloat, f: f}, nil
}
