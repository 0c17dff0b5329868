package ingest

import (
	"bytes"

	"github.com/valyala/fastjson"
)

type jsonState struct {
	p    fastjson.Parser
	name []byte // flattened name being built
	raw  []byte // scratch for raw number and JSON text
	fix  []byte // a line with its Infinity tokens as Inf
}

func (p *Parser) jsonLines(b *Batch) error {
	return p.lineLoop(b, p.jsonRow)
}

// jsonRow parses one JSON object into the row being built.
func (p *Parser) jsonRow(b *Batch, line []byte) error {
	js := &p.jsonState
	v, err := js.p.ParseBytes(line)
	if err != nil {
		// Python's json module writes infinite floats as Infinity and
		// -Infinity (and NaN, which the parser reads), the parser reads
		// Inf: try the line again so, and report the first error.
		var again bool
		if js.fix, again = infAsInf(js.fix[:0], line); again {
			var err2 error
			if v, err2 = js.p.ParseBytes(js.fix); err2 == nil {
				err = nil
			}
		}
		if err != nil {
			return rowErr("invalid JSON: %v", err)
		}
	}
	o, err := v.Object()
	if err != nil {
		return rowErr("not a JSON object")
	}
	js.name = js.name[:0]
	return p.jsonObject(o, 0)
}

// maxDepth bounds the nesting flattened.
const maxDepth = 64

func (p *Parser) jsonObject(o *fastjson.Object, depth int) error {
	if depth > maxDepth {
		return rowErr("objects nested deeper than %d", maxDepth)
	}
	js := &p.jsonState
	var err error
	o.Visit(func(key []byte, v *fastjson.Value) {
		if err != nil {
			return
		}
		base := len(js.name)
		if base > 0 {
			js.name = append(js.name, '.')
		}
		js.name = append(js.name, key...)
		err = p.jsonValue(js.name, v, depth)
		js.name = js.name[:base]
	})
	return err
}

func (p *Parser) jsonValue(name []byte, v *fastjson.Value, depth int) error {
	js := &p.jsonState
	switch v.Type() {
	case fastjson.TypeNull:
		return nil
	case fastjson.TypeString:
		s, _ := v.StringBytes()
		return p.rb.set(name, value{kind: vStr, text: s})
	case fastjson.TypeNumber:
		js.raw = v.MarshalTo(js.raw[:0])
		return p.rb.set(name, value{kind: vNum, text: js.raw})
	case fastjson.TypeTrue:
		return p.rb.set(name, value{kind: vBool, b: true})
	case fastjson.TypeFalse:
		return p.rb.set(name, value{kind: vBool, b: false})
	case fastjson.TypeObject:
		if p.rb.p.nested == NestedFlatten {
			o, _ := v.Object()
			return p.jsonObject(o, depth+1)
		}
	}
	js.raw = v.MarshalTo(js.raw[:0])
	return p.rb.set(name, value{kind: vRaw, text: js.raw})
}

// infAsInf appends line to dst with each Infinity outside strings written
// Inf, and reports whether there was one.
func infAsInf(dst, line []byte) ([]byte, bool) {
	const word = "Infinity"
	if !bytes.Contains(line, []byte(word)) {
		return dst, false
	}
	inStr, esc, found := false, false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case !inStr && bytes.HasPrefix(line[i:], []byte(word)):
			dst = append(dst, "Inf"...)
			i += len(word) - 1
			found = true
			continue
		}
		dst = append(dst, c)
	}
	return dst, found
}
