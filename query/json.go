package query

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tsqdb/tsq/internal/jsontext"
)

// JSON text: DuckDB's functions of JSON held as text (an imported
// field kept as JSON, an Arrow list or map), reading it (json_extract
// and ->, json_extract_string and ->>, json_exists, json_type,
// json_array_length, json_valid, json) and writing it (to_json,
// json_quote, json_object, json_array, and the aggregates
// json_group_array and json_group_object, jsonagg.go).
//
// A document is RFC 8259 JSON, at most jsonMaxDepth (300) arrays and
// objects deep, read in one pass that finds the path's value too
// (jsonscan.go); anything else (a trailing comma, NaN, bytes that are not UTF-8)
// is no document, and a function of it is NULL, as a failed CAST is:
// one bad row of a stream does not fail a query; json_valid tells.
//
// A value found is written as yyjson (DuckDB's JSON library) writes
// it: no spaces; strings with `"`, `\` and control characters escaped,
// everything else as it is; integers that fit 64 bits as written,
// other numbers as the float64 they read as (the fewest digits that
// read back; written out from 1e-6 up to 1e21, with `.0` when whole,
// else with an exponent: 100.0, 0.00003, 1e21, 1e-7), and integers
// past 64 bits and floats past float64's range as written.

// jsonStep is one step of a path: a key of an object, or an index of
// an array (from its end when fromEnd: [#-1] is the last); ptr: a JSON
// pointer's token, a key of an object or the index it spells of an
// array.
type jsonStep struct {
	key     string
	index   int
	fromEnd bool
	isIndex bool
	ptr     bool
}

// jsonPath is a parsed path: the steps from the document's root.
type jsonPath []jsonStep

// parseJSONPath reads a path as DuckDB takes one: "" and "$" are the
// root; "$..." is JSONPath (.key, ."quoted key", [n], [#-n]; wildcards
// and ".." give lists, which tsq has no type for); "/..." is a JSON
// pointer (RFC 6901: ~1 is /, ~0 is ~); anything else is one key.
func parseJSONPath(s string) (jsonPath, error) {
	switch {
	case s == "" || s == "$":
		return jsonPath{}, nil
	case s[0] == '/':
		var path jsonPath
		for _, tok := range strings.Split(s[1:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			path = append(path, jsonStep{key: tok, ptr: true})
		}
		return path, nil
	case s[0] != '$':
		return jsonPath{{key: s}}, nil
	}
	var path jsonPath
	i := 1
	for i < len(s) {
		switch s[i] {
		case '.':
			i++
			if i < len(s) && (s[i] == '.' || s[i] == '*') {
				return nil, fmt.Errorf("at character %d: wildcards and .. give lists, which tsq has no type for", i+1)
			}
			if i < len(s) && s[i] == '"' {
				end := strings.IndexByte(s[i+1:], '"')
				if end < 0 {
					return nil, fmt.Errorf("at character %d: the quoted key is not closed", i+1)
				}
				path = append(path, jsonStep{key: s[i+1 : i+1+end]})
				i += end + 2
				continue
			}
			start := i
			for i < len(s) && s[i] != '.' && s[i] != '[' {
				i++
			}
			if i == start {
				return nil, fmt.Errorf("at character %d: a key must follow the dot", i+1)
			}
			path = append(path, jsonStep{key: s[start:i]})
		case '[':
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("at character %d: the [ is not closed", i+1)
			}
			in := s[i+1 : i+end]
			st := jsonStep{isIndex: true}
			if strings.HasPrefix(in, "#") {
				st.fromEnd, in = true, in[1:]
				if in == "" {
					return nil, fmt.Errorf("at character %d: [#] is past the end; [#-1] is the last element", i+1)
				}
				if in[0] != '-' {
					return nil, fmt.Errorf("at character %d: want [#-n], counted from the end", i+1)
				}
				in = in[1:]
			}
			if in == "*" {
				return nil, fmt.Errorf("at character %d: wildcards give lists, which tsq has no type for", i+1)
			}
			n, err := strconv.Atoi(in)
			if err != nil || n < 0 || in[0] == '+' {
				return nil, fmt.Errorf("at character %d: want an index, [n] or [#-n], found [%s]", i+1, s[i+1:i+end])
			}
			st.index = n
			path = append(path, st)
			i += end + 1
		default:
			return nil, fmt.Errorf("at character %d: want . or [ after $, found %q", i+1, s[i])
		}
	}
	return path, nil
}

// indexPath is the path of an integer: that element of an array, from
// its end when negative (-1 the last).
func indexPath(n int64) jsonPath {
	if n < 0 {
		return jsonPath{{isIndex: true, fromEnd: true, index: int(min(-n, math.MaxInt32))}}
	}
	return jsonPath{{isIndex: true, index: int(min(n, math.MaxInt32))}}
}

// appendJSONString appends s as a JSON string (jsontext.AppendString:
// invalid UTF-8 becomes U+FFFD, so the text is always valid JSON).
func appendJSONString(dst []byte, s string) []byte { return jsontext.AppendString(dst, s) }

// appendJSONNumber appends a number written raw in a document.
func appendJSONNumber(dst []byte, raw string) []byte {
	if !strings.ContainsAny(raw, ".eE") {
		if _, err := strconv.ParseInt(raw, 10, 64); err == nil {
			return append(dst, raw...)
		}
		if _, err := strconv.ParseUint(raw, 10, 64); err == nil {
			return append(dst, raw...)
		}
		return append(dst, raw...) // past 64 bits: as written
	}
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsInf(f, 0) {
		return append(dst, raw...) // past float64's range: as written
	}
	return appendJSONFloat(dst, f)
}

// appendJSONFloat appends f as yyjson writes a double: the shortest
// digits that read back, written out when 1e-6 <= |f| < 1e21 (".0"
// when whole), else d[.ddd]e[-]x. NaN and infinities, which JSON
// cannot hold, are null.
func appendJSONFloat(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	if f == 0 {
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	e := strconv.AppendFloat(nil, f, 'e', -1, 64) // [-]d[.ddd]e±xx
	if e[0] == '-' {
		dst = append(dst, '-')
		e = e[1:]
	}
	mant, exp, _ := strings.Cut(string(e), "e")
	x, _ := strconv.Atoi(exp)
	digits := strings.Replace(mant, ".", "", 1)
	n := x + 1 // where the point goes, counted in digits
	switch {
	case n > 21 || n <= -6:
		dst = append(dst, mant...)
		dst = append(dst, 'e')
		return strconv.AppendInt(dst, int64(x), 10)
	case n <= 0:
		dst = append(dst, "0."...)
		dst = append(dst, strings.Repeat("0", -n)...)
		return append(dst, digits...)
	case n >= len(digits):
		dst = append(dst, digits...)
		dst = append(dst, strings.Repeat("0", n-len(digits))...)
		return append(dst, ".0"...)
	}
	dst = append(dst, digits[:n]...)
	dst = append(dst, '.')
	return append(dst, digits[n:]...)
}

// jsonReaders are the functions that read a document (its first
// argument), with the path argument they take.
var jsonReaders = map[string]bool{"json_extract": true, "json_extract_string": true, "json_exists": true,
	"json_type": true, "json_array_length": true, "json_valid": true, "json": true}

// jsonPathOf returns the path of a call's second argument: the one
// parsed when it was planned, else its value's; ok is false for a path
// that is none.
func jsonPathOf(args []*arithPlan, v []value) (jsonPath, bool) {
	if len(v) < 2 {
		return jsonPath{}, true
	}
	if p := args[1].jsonPath; p != nil {
		return *p, true
	}
	if args[1].kind == kInt {
		return indexPath(v[1].i), true
	}
	path, err := parseJSONPath(v[1].s)
	return path, err == nil
}

// jsonValue computes JSON function fn of v (none null but where
// to_json and json_array take a null as null); ok is false for a null
// result.
func jsonValue(fn string, args []*arithPlan, v []value) (value, bool) {
	if !jsonReaders[fn] {
		return jsonWrite(fn, args, v)
	}
	path, ok := jsonPathOf(args, v)
	if !ok {
		return nullValue, false
	}
	x, found, ok := scanJSON(v[0].s, path)
	switch {
	case fn == "json_valid":
		return bv(ok), true
	case !ok:
		return nullValue, false
	case fn == "json_exists":
		return bv(found), true
	case !found:
		return nullValue, false
	}
	switch fn {
	case "json_array_length":
		return value{i: jsonSpanLen(x)}, true
	case "json_type":
		return value{s: jsonSpanType(x)}, true
	case "json_extract_string":
		switch x[0] {
		case 'n':
			return nullValue, false
		case '"':
			return value{s: unescapeJSON(x[1 : len(x)-1])}, true
		}
	}
	return value{s: string(appendJSONSpan(nil, x))}, true // json_extract, json
}

// jsonWrite computes to_json, json_quote, json_object, json_array and
// the aggregates' parts (jsonagg.go) of v.
func jsonWrite(fn string, args []*arithPlan, v []value) (value, bool) {
	switch fn {
	case "to_json", "json_quote":
		return value{s: string(appendJSONValue(nil, args[0], v[0]))}, true
	case "json_array":
		b := []byte{'['}
		for i := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONValue(b, args[i], v[i])
		}
		return value{s: string(append(b, ']'))}, true
	case "json_object":
		b := []byte{'{'}
		for i := 0; i+1 < len(v); i += 2 {
			if v[i].null { // as DuckDB refuses a NULL key, the pair is left out
				continue
			}
			if len(b) > 1 {
				b = append(b, ',')
			}
			b = appendJSONString(b, v[i].s)
			b = append(b, ':')
			b = appendJSONValue(b, args[i+1], v[i+1])
		}
		return value{s: string(append(b, '}'))}, true
	}
	return jsonAggValue(fn, args, v)
}

// appendJSONValue appends x (of arg's kind) as JSON: NULL as null, a
// number as a number, a bool as one, an instant as the RFC 3339 text tsq
// writes it as, the JSON a JSON function gave as it is, any other text
// as a string.
func appendJSONValue(dst []byte, arg *arithPlan, x value) []byte {
	switch {
	case x.null:
		return append(dst, "null"...)
	case arg.json && arg.kind == kString:
		return append(dst, x.s...)
	}
	switch arg.kind {
	case kFloat:
		return appendJSONFloat(dst, x.fl())
	case kBool:
		if x.i != 0 {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case kInt, kSeq, kTime:
		if arg.dur && arg.kind == kInt { // as DuckDB writes an INTERVAL
			return appendJSONString(dst, durationText(x.i))
		}
		if arg.ts || arg.kind == kTime {
			return appendJSONString(dst, time.Unix(0, x.i).UTC().Format(time.RFC3339Nano))
		}
		if arg.kind == kSeq {
			return strconv.AppendUint(dst, uint64(x.i), 10)
		}
		return strconv.AppendInt(dst, x.i, 10)
	}
	return appendJSONString(dst, x.s)
}

// isJSONFunc reports whether fn is computed by jsonValue.
func isJSONFunc(fn string) bool {
	switch fn {
	case "to_json", "json_array", "json_object", jsonElementFunc, jsonMemberFunc, jsonArrayFunc, jsonObjectFunc:
		return true
	}
	return jsonReaders[fn]
}

// jsonWriters are the JSON functions whose text is JSON.
var jsonWriters = map[string]bool{"json_extract": true, "json": true, "to_json": true, "json_array": true,
	"json_object": true, jsonArrayFunc: true, jsonObjectFunc: true}

// jsonTakesNulls are the JSON functions that write a NULL argument as
// null (json_object leaves a NULL key's member out) instead of being
// NULL.
var jsonTakesNulls = map[string]bool{"json_array": true, "json_object": true, jsonElementFunc: true, jsonMemberFunc: true}

// compileJSON checks a JSON function's arguments once planned: a path is
// text or an integer, parsed now when it is a literal; json_object
// takes pairs of a text key and a value.
func (p *plan) compileJSON(a *Arith, ap *arithPlan) error {
	if a.Func == "json_object" {
		if len(a.Args)%2 != 0 {
			return p.errAt(a.Pos, "json_object() takes pairs of a key and a value, not %d arguments", len(a.Args))
		}
		for i := 0; i < len(a.Args); i += 2 {
			if x := ap.args[i]; x.kind != kString && !x.nullLit() {
				return p.errAt(a.Args[i].Pos, "type mismatch: json_object() wants text keys, %s is a %s", a.Args[i].String(), x.kind)
			}
		}
	}
	ap.json = jsonWriters[a.Func]
	if !jsonReaders[a.Func] || len(ap.args) < 2 {
		return nil
	}
	x, at := ap.args[1], a.Args[1]
	switch {
	case x.nullLit():
		return nil
	case x.kind != kString && x.kind != kInt || x.ts:
		return p.errAt(at.Pos, "type mismatch: %s() wants a path, text or an integer, %s is a %s", a.Func, at.String(), x.kind)
	case x.lit == nil:
		return nil // a path of each row's, read then (NULL if it is none)
	case x.kind == kInt:
		path := indexPath(x.lit.i)
		ap.jsonPath = &path
		return nil
	}
	path, err := parseJSONPath(x.lit.s)
	if err != nil {
		return p.errAt(at.Pos, "%s(): bad JSON path %s: %v", a.Func, at.String(), err)
	}
	ap.jsonPath = &path
	return nil
}
