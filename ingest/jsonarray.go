package ingest

import (
	"bytes"
	"io"
)

// jarrState tracks the position in a JSON array: elements are cut out
// by a byte scanner (strings, escapes and nesting) and parsed one by one
// with fastjson, so the array is never held whole.
type jarrState struct {
	started bool // the '[' was read
	ended   bool // the ']' was read
	elem    []byte
}

// skipSpace skips whitespace, counting lines. It returns the next byte
// without consuming it, or false at the end of the input.
func (p *Parser) skipSpace() (byte, bool) {
	in := p.in
	for {
		for in.pos < in.end {
			c := in.buf[in.pos]
			switch c {
			case '\n':
				in.line++
			case ' ', '\t', '\r':
			default:
				return c, true
			}
			in.pos++
		}
		if !in.fill() {
			return 0, false
		}
	}
}

func (p *Parser) arrayErr(msg string) error {
	in := p.in
	end := min(in.end, in.pos+snippetLen)
	return &Error{Format: JSONArray, Line: in.line + 1, Offset: in.offset(), Snippet: snippet(in.buf[in.pos:end]), Msg: msg}
}

// nextElem cuts out the next element of the array. It returns io.EOF
// after the closing bracket.
func (p *Parser) nextElem() ([]byte, int64, int64, error) {
	js, in := &p.jarr, p.in
	if !js.started {
		if in.offset() == 0 {
			// A byte order mark is not data; taken a byte at a time, as
			// the buffer may hold fewer (its first byte cannot start
			// JSON: a partial mark fails as any other byte would).
			for _, b := range utf8BOM {
				if in.pos == in.end && !in.fill() || in.pos == in.end || in.buf[in.pos] != b {
					break
				}
				in.pos++
			}
		}
		c, ok := p.skipSpace()
		if !ok {
			if e := in.readErr(); e != nil {
				return nil, 0, 0, e
			}
			return nil, 0, 0, io.EOF // empty input
		}
		if c != '[' {
			return nil, 0, 0, p.arrayErr("JSON array: expected '['")
		}
		in.pos++
		js.started = true
		if c, ok := p.skipSpace(); ok && c == ']' {
			in.pos++
			js.ended = true
		}
	} else if !js.ended {
		c, ok := p.skipSpace()
		switch {
		case !ok:
			return nil, 0, 0, p.arrayErr("JSON array: unexpected end of input, expected ',' or ']'")
		case c == ']':
			in.pos++
			js.ended = true
		case c == ',':
			in.pos++
		default:
			return nil, 0, 0, p.arrayErr("JSON array: expected ',' or ']' after an element")
		}
	}
	if js.ended {
		if c, ok := p.skipSpace(); ok {
			_ = c
			return nil, 0, 0, p.arrayErr("JSON array: data after the closing ']'")
		}
		if e := in.readErr(); e != nil {
			return nil, 0, 0, e
		}
		return nil, 0, 0, io.EOF
	}
	if _, ok := p.skipSpace(); !ok {
		return nil, 0, 0, p.arrayErr("JSON array: unexpected end of input, expected an element")
	}
	start, line := in.offset(), in.line+1
	js.elem = js.elem[:0]
	depth, inStr, esc := 0, false, false
	for {
		i := in.pos
		done := false
		for ; i < in.end; i++ {
			c := in.buf[i]
			if inStr {
				switch {
				case esc:
					esc = false
				case c == '\\':
					esc = true
				case c == '"':
					inStr = false
				}
				continue
			}
			switch c {
			case '"':
				inStr = true
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			case ',':
				if depth == 0 {
					done = true
				}
			case '\n':
				in.line++
			}
			if done || depth < 0 {
				break
			}
			if depth == 0 && (c == '}' || c == ']') {
				i++
				done = true
				break
			}
		}
		if depth < 0 { // the array's closing bracket after a scalar
			done = true
		}
		seg := in.buf[in.pos:i]
		if len(js.elem)+len(seg) > p.o.MaxLineBytes {
			return nil, start, line, p.arrayErr("JSON array: element longer than the line limit")
		}
		js.elem = append(js.elem, seg...)
		in.pos = i
		if done {
			if depth < 0 {
				depth = 0
			}
			return bytes.TrimRight(js.elem, " \t\r\n"), start, line, nil
		}
		if !in.fill() {
			if e := in.readErr(); e != nil {
				return nil, start, line, e
			}
			return nil, start, line, p.arrayErr("JSON array: unexpected end of input inside an element")
		}
	}
}

func (p *Parser) jsonArray(b *Batch) error {
	if p.hasPend {
		p.hasPend = false
		p.rb.begin(b)
		err := p.jsonRow(b, p.pend)
		if err == nil {
			err = p.rb.finish()
		}
		if err := p.row(b, err, p.pend, p.pendOff, p.pendLine); err != nil && err != errTooManyCols {
			return err
		}
	}
	for !p.full(b) {
		elem, off, line, err := p.nextElem()
		if err != nil {
			return err
		}
		p.rb.begin(b)
		err = p.jsonRow(b, elem)
		if err == nil {
			err = p.rb.finish()
		}
		if err := p.row(b, err, elem, off, line); err != nil {
			if err == errTooManyCols {
				return nil
			}
			return err
		}
	}
	return nil
}
