package query

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/valyala/fastjson"
)

// TestJSONFunctions checks each JSON function against the answers
// DuckDB 1.5 gives for the same calls (where tsq differs, the case says
// why).
func TestJSONFunctions(t *testing.T) {
	open := openOnly(nil)
	cases := []struct {
		q    string
		want any // nil: NULL
	}{
		{`SELECT json_extract('{"a":1}', '$.a')`, "1"},
		{`SELECT '{"a":1}'->>'a'`, "1"},
		{`SELECT '{"a":1}'->'a'`, "1"},
		{`SELECT json_extract_string('{"a":[1,2]}', '$.a[1]')`, "2"},
		{`SELECT json_extract_string('{"a":"x"}', '$.a')`, "x"},
		{`SELECT json_extract('{"a":"x"}', '$.a')`, `"x"`},
		{`SELECT json_extract('{"a":"x"}', '$.b')`, nil},
		{`SELECT json_extract('{"a":null}', '$.a')`, "null"},
		{`SELECT json_extract_string('{"a":null}', '$.a')`, nil},
		{`SELECT '[1,2,3]'->>1`, "2"},
		{`SELECT '[1,2,3]'->>-1`, "3"},
		{`SELECT '[1,2,3]'->'$[#-1]'`, "3"},
		{`SELECT '[1,2,3]'->'$[#-4]'`, nil},
		{`SELECT '[1,2,3]'->>3`, nil},
		{`SELECT '{"a":{"b":2}}'->'/a/b'`, "2"},
		{`SELECT '{"a":{"b":2}}'->'$.a.b'`, "2"},
		{`SELECT '{"a":{"b":2}}'->'a'`, `{"b":2}`},
		{`SELECT json_extract('{"a":{"b":1}}', 'a.b')`, nil}, // a bare key, not a path
		{`SELECT json_extract('{"a.b":1}', 'a.b')`, "1"},
		{`SELECT json_extract('{"a b":1}', '$."a b"')`, "1"},
		{`SELECT json_extract('{"a":[1,[2,3]]}', '$.a[1][0]')`, "2"},
		{`SELECT json_extract('{"a":1}', 0)`, nil},
		{`SELECT json_extract('[5,6]', 1)`, "6"},
		{`SELECT json_extract('{"~a/b":1}', '/~0a~1b')`, "1"},
		{`SELECT json_extract('[5,6]', '/1')`, "6"},
		{`SELECT json_extract('[5,6]', '/01')`, nil},
		{`SELECT json_extract('{"a":1}', '')`, `{"a":1}`},
		{`SELECT json_extract('{ "a" : { "b" : [ 1 , 2 ] } }', '$.a')`, `{"b":[1,2]}`},
		{`SELECT json_extract('{"a":1,"a":2}', '$.a')`, "1"}, // the first of a repeated key
		{`SELECT json_extract('{"a":1}', NULL)`, nil},
		{`SELECT json_extract(NULL, '$')`, nil},
		{`SELECT json_extract_string('["a",1,true,null,{"x":[1]}]', '$[4]')`, `{"x":[1]}`},
		{`SELECT json_extract_string('[true]', '$[0]')`, "true"},
		// tsq's string literals read \\ as \ (and \n, \t, \', \"): a JSON
		// escape in a literal doubles its backslash
		{`SELECT json_extract_string('{"a":"x\\ty\\u00e9\\"\\\\"}', '$.a')`, "x\ty\u00e9\"\\"},
		{`SELECT json_extract('{"a":"x\\ty\\u00e9/\\u0001"}', '$.a')`, `"x\tyé/\u0001"`},
		{`SELECT json_extract('{"a":"x\ty"}', '$.a')`, nil}, // \t a tab: a control character in a string
		{`SELECT json('{ "a" : 1 }')`, `{"a":1}`},
		{`SELECT json_extract('{"a":1e3}', '$.a')`, "1000.0"},
		{`SELECT json_extract('{"a":1.50}', '$.a')`, "1.5"},
		{`SELECT json_extract('[1e-7, 1.5e300, 123456789012345678901234567890, -0.0, 1E+2, 0.1, 100.0, 1e21, 1e22, 3.0e-5, 9007199254740993, -9223372036854775808, 18446744073709551615, 18446744073709551616, 1e400, 0.000001, 123456.789e3]', '$')`,
			"[1e-7,1.5e300,123456789012345678901234567890,-0.0,100.0,0.1,100.0,1e21,1e22,0.00003,9007199254740993,-9223372036854775808,18446744073709551615,18446744073709551616,1e400,0.000001,123456789.0]"},
		{`SELECT json_valid('nope')`, false},
		{`SELECT json_valid('{}')`, true},
		{`SELECT json_valid('01')`, false},
		{`SELECT json_valid('')`, false},
		{`SELECT json_valid('  ')`, false},
		{`SELECT json_valid(NULL)`, nil},
		{`SELECT json_valid('[1,]')`, false}, // DuckDB reads a trailing comma; tsq is strict
		{`SELECT json_valid('NaN')`, false},  // and NaN
		{`SELECT json_valid('"a` + "\x01" + `"')`, false},
		{`SELECT json_type('{"a":1.5}', '$.a')`, "DOUBLE"},
		{`SELECT json_type('[1]')`, "ARRAY"},
		{`SELECT json_type('{}')`, "OBJECT"},
		{`SELECT json_type('"s"')`, "VARCHAR"},
		{`SELECT json_type('true')`, "BOOLEAN"},
		{`SELECT json_type('null')`, "NULL"},
		{`SELECT json_type('-3')`, "BIGINT"},
		{`SELECT json_type('18446744073709551615')`, "UBIGINT"},
		{`SELECT json_type('1e2')`, "DOUBLE"},
		{`SELECT json_type('{"a":1}', '$.b')`, nil},
		{`SELECT json_array_length('[1,2,3]')`, int64(3)},
		{`SELECT json_array_length('{"a":[1]}', '$.a')`, int64(1)},
		{`SELECT json_array_length('{}')`, int64(0)},
		{`SELECT json_array_length('[1,2]', '$[0]')`, int64(0)},
		{`SELECT json_array_length('[1]', '$.x')`, nil},
		{`SELECT json_exists('{"a":1}', '$.a')`, true},
		{`SELECT json_exists('{"a":1}', '$.b')`, false},
		{`SELECT json_exists('{"a":null}', '$.a')`, true},
		{`SELECT to_json(1.5)`, "1.5"},
		{`SELECT to_json('x')`, `"x"`},
		{`SELECT to_json(NULL)`, nil},
		{`SELECT to_json(2.0)`, "2.0"},
		{`SELECT to_json(1e20)`, "100000000000000000000.0"},
		{`SELECT to_json(1.0 / 3)`, "0.3333333333333333"},
		{`SELECT to_json(true)`, "true"},
		{`SELECT to_json(TIMESTAMP '2024-01-01 10:00:00')`, `"2024-01-01 10:00:00"`}, // the literal's text
		{`SELECT to_json(to_timestamp(1.5))`, `"1970-01-01T00:00:01.5Z"`},            // an instant as tsq writes it; DuckDB: "1970-01-01 00:00:01.5+00"
		{`SELECT json_quote('a"b')`, `"a\"b"`},
		{`SELECT json_object('a', 1, 'b', 'x')`, `{"a":1,"b":"x"}`},
		{`SELECT json_object('a', NULL)`, `{"a":null}`},
		{`SELECT json_object(NULL, 1, 'b', 2)`, `{"b":2}`}, // DuckDB refuses a NULL key
		{`SELECT json_object()`, "{}"},
		{`SELECT json_array()`, "[]"},
		{`SELECT json_array(1, 'a', NULL, true)`, `[1,"a",null,true]`},
		{`SELECT json_object('a', json_array(1, 2), 'b', '[1]', 'c', json('[1]'), 'd', '{"x":[3]}'->'x')`, `{"a":[1,2],"b":"[1]","c":[1],"d":[3]}`},
		// -> and ->> are at ||'s level, from the left, as in DuckDB
		{`SELECT '{"a":"b"}'->>'a' || 'x'`, "bx"},
		{`SELECT '[1,2]'->>0 + 1`, "2"},
		{`SELECT '[1,2]'->>1 = '2'`, true},
		{`SELECT '{"a":{"b":1}}'->'a'->>'b'`, "1"},
		{`SELECT 'x' || '{"a":"b"}'->>'a'`, nil}, // ('x' || ...) is no document: NULL, where DuckDB fails
		{`SELECT json_extract('[1,2]', '$[1]')::int + 1`, int64(3)},
		// what is no document is NULL, as a failed CAST is
		{`SELECT json_extract('nope', '$.a')`, nil},
		{`SELECT json_extract('[1] x', '$')`, nil},
		{`SELECT json_extract(strpos('a', 'a')::varchar || ' ', '$')`, "1"},
	}
	for _, c := range cases {
		got := mustRun(t, open, c.q)
		if len(got) != 1 || len(got[0]) != 1 {
			t.Errorf("%s: %v, want one value", c.q, got)
			continue
		}
		if got[0][0] != c.want {
			t.Errorf("%s = %#v, want %#v", c.q, got[0][0], c.want)
		}
	}
}

// TestJSONNames: a column is named by its call as written, the arrows
// as operators.
func TestJSONNames(t *testing.T) {
	for q, want := range map[string][]string{
		`SELECT '{"a":1}'->>'a', j -> 'a' ->> 'b', json_object(), j->>'a' || 'x' FROM (VALUES ('{}', 'k', 1)) t(j, k, v)`: {
			`'{"a":1}' ->> 'a'`, `(j -> 'a') ->> 'b'`, "json_object()", `(j ->> 'a') || 'x'`},
		`SELECT json_group_array(v ORDER BY v DESC), json_group_object(k, v) FILTER (WHERE v > 1) FROM (VALUES ('{}', 'k', 1)) t(j, k, v)`: {
			"json_group_array(v ORDER BY v DESC)", "json_group_object(k, v) FILTER (WHERE v > 1)"},
	} {
		rr, err := Run(context.Background(), q, openOnly(nil), nil)
		if err != nil {
			t.Fatal(err)
		}
		var cols []string
		for _, f := range rr.Schema().Fields() {
			cols = append(cols, f.Name)
		}
		rr.Release()
		if strings.Join(cols, "|") != strings.Join(want, "|") {
			t.Errorf("columns %q, want %q", cols, want)
		}
	}
}

// TestJSONAggregates: json_group_array and json_group_object in
// groups, ordered, filtered, with NULLs, and over no row.
func TestJSONAggregates(t *testing.T) {
	open := openOnly(nil)
	src := `(VALUES ('a', 1, 'x'), ('a', 3, NULL), ('b', 2, 'y'), ('a', 2, 'z')) t(g, v, s)`
	got := mustRun(t, open, `SELECT g, json_group_array(v ORDER BY v DESC), json_group_object(s, v ORDER BY v), json_group_array(s ORDER BY v) FILTER (WHERE v > 1) FROM `+src+` GROUP BY g ORDER BY g`)
	want := [][]any{
		{"a", "[3,2,1]", `{"x":1,"z":2}`, `[null,"z"]` /* v 3's s is NULL */},
		{"b", "[2]", `{"y":2}`, `["y"]`},
	}
	for i := range want {
		if i >= len(got) || len(got[i]) != len(want[i]) {
			t.Fatalf("got %v, want %v", got, want)
		}
		for k := range want[i] {
			if k == 3 && i == 0 {
				want[i][k] = `["z",null]` // ORDER BY v: 2 then 3
			}
			if got[i][k] != want[i][k] {
				t.Errorf("row %d column %d = %v, want %v", i, k, got[i][k], want[i][k])
			}
		}
	}
	none := mustRun(t, open, `SELECT json_group_array(v) FROM `+src+` WHERE v > 10`)
	if len(none) != 1 || none[0][0] != nil {
		t.Errorf("over no row: %v, want NULL", none)
	}
	nested := mustRun(t, open, `SELECT json_group_array(json_object('g', g, 'v', v) ORDER BY v, g) FROM `+src)
	if w := `[{"g":"a","v":1},{"g":"a","v":2},{"g":"b","v":2},{"g":"a","v":3}]`; len(nested) != 1 || nested[0][0] != w {
		t.Errorf("nested: %v, want %s", nested, w)
	}
}

// TestJSONErrors: a literal path is read when the query is planned;
// errors point at what is wrong.
func TestJSONErrors(t *testing.T) {
	wantErrors(t, openOnly(nil), []errCase{
		{`SELECT json_extract('{}', '$[')`, "the [ is not closed", `'$['`},
		{`SELECT json_extract('{}', '$.*')`, "wildcards", `'$.*'`},
		{`SELECT json_extract('{}', '$[*]')`, "wildcards", `'$[*]'`},
		{`SELECT json_extract('{}', '$..a')`, "wildcards", `'$..a'`},
		{`SELECT json_extract('{}', '$[#]')`, "past the end", `'$[#]'`},
		{`SELECT json_extract('{}', '$[x]')`, "want an index", `'$[x]'`},
		{`SELECT json_extract('{}', '$a')`, "want . or [", `'$a'`},
		{`SELECT json_extract('{}', '$.')`, "a key must follow", `'$.'`},
		{`SELECT json_extract('{}', '$."a')`, "not closed", `'$."a'`},
		{`SELECT json_extract('{}', 1.5)`, "wants a path, text or an integer", "1.5"},
		{`SELECT json_extract(1, '$')`, "wants text", "1,"},
		{`SELECT json_object('a')`, "pairs of a key and a value", "json_object"},
		{`SELECT json_object(1, 2)`, "wants text keys", "1,"},
		{`SELECT json_group_object(1)`, "a key and a value", ")"},
		{`SELECT json_group_array(DISTINCT 1)`, "DISTINCT", "DISTINCT"},
	})
}

// TestJSONMalformed: what is no document, however made, is NULL and
// costs no more than its bytes: nesting past jsonMaxDepth, bytes that
// are not UTF-8, a lone surrogate, a document cut short.
func TestJSONMalformed(t *testing.T) {
	deep := strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20)
	ok := strings.Repeat("[", jsonMaxDepth) + "7" + strings.Repeat("]", jsonMaxDepth)
	over := "[" + ok + "]"
	for _, c := range []struct {
		doc   string
		valid bool
	}{
		{deep, false},
		{ok, true},
		{over, false},
		{`{"a":` + over + `}`, false},
		{`"` + "\xff" + `"`, false},
		{`{"a":[1,2`, false},
		{`{"a" 1}`, false},
		{`[1] [2]`, false},
		{`{"a":"\x"}`, false},
		{`"\ud800"`, false},
		{`"\udc00\ud800"`, false},
		{`"\ud800\udc00"`, true},
		{`"\u00e"`, false},
		{`[1.]`, false},
		{`[01]`, false},
		{`[-]`, false},
		{`[-0, 1e5, 1E-2, 0.5e+3]`, true},
		{` {"a":[]} `, true},
		{``, false},
		{`tru`, false},
	} {
		_, _, valid := scanJSON(c.doc, nil)
		if valid != c.valid {
			t.Errorf("%.40q: valid %v, want %v", c.doc, valid, c.valid)
		}
		v, okv := jsonValue("json_extract", []*arithPlan{{kind: kString}, {kind: kString}}, []value{{s: c.doc}, {s: "$"}})
		if okv != c.valid || (!c.valid && !v.null) {
			t.Errorf("%.40q: json_extract %v %v", c.doc, v, okv)
		}
	}
	v, _ := jsonValue("json_extract", []*arithPlan{{kind: kString}, {kind: kInt}}, []value{{s: ok}, {i: 0}})
	if want := ok[1 : len(ok)-1]; v.s != want {
		t.Errorf("the deepest document's first element: %.20s..., want %.20s...", v.s, want)
	}
	v, _ = jsonValue("json_extract", []*arithPlan{{kind: kString}, {kind: kInt}}, []value{{s: ok}, {i: -1}})
	if want := ok[1 : len(ok)-1]; v.s != want {
		t.Errorf("the deepest document's last element: %.20s..., want %.20s...", v.s, want)
	}
}

// TestJSONWritesValidText: text holding invalid UTF-8 or control
// characters becomes valid JSON (the invalid bytes as U+FFFD).
func TestJSONWritesValidText(t *testing.T) {
	for _, fn := range []string{"to_json", "json_quote"} {
		v, ok := jsonValue(fn, []*arithPlan{{kind: kString}}, []value{{s: "a\xffb\b\x01"}})
		if !ok || v.s != `"a\ufffdb\b\u0001"` {
			t.Errorf("%s: %q %v", fn, v.s, ok)
		}
		if _, _, valid := scanJSON(v.s, nil); !valid {
			t.Errorf("%s wrote invalid JSON %q", fn, v.s)
		}
	}
}

// TestJSONFloat: numbers are written as yyjson writes a double.
func TestJSONFloat(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0.0"}, {math.Copysign(0, -1), "-0.0"}, {1, "1.0"}, {-2.5, "-2.5"}, {0.1, "0.1"},
		{1e20, "100000000000000000000.0"}, {1e21, "1e21"}, {1.5e300, "1.5e300"}, {1e-6, "0.000001"},
		{1e-7, "1e-7"}, {-1.25e-9, "-1.25e-9"}, {123456.789, "123456.789"}, {5e-324, "5e-324"},
		{math.MaxFloat64, "1.7976931348623157e308"}, {math.NaN(), "null"}, {math.Inf(1), "null"},
	} {
		if got := string(appendJSONFloat(nil, c.f)); got != c.want {
			t.Errorf("%v: %s, want %s", c.f, got, c.want)
		}
	}
}

// FuzzJSON holds the one-pass scan against fastjson (a tree parser,
// refDoc below): whether a document is one (fastjson accepts lone
// surrogates, which the scan refuses as DuckDB does, and misses a raw
// control character before an escape: refStrings), what a path finds
// and how it is written, its type and length; and what is written reads
// back the same.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":"x"}]}`, `[1e400, -0.0, "\u00e9"]`, `{"a":1,"a":2}`, `"\ud800"`, `[[[[]]]]`, `nope`,
		`{"a\u0062":{"c":[true,null,"\ud83d\ude00"]}}`, ` [ 1 , [ 2 , 3 ] , { } ] `} {
		f.Add(s, "$.a[2].b")
		f.Add(s, "/a/0")
		f.Add(s, "$[#-1]")
		f.Add(s, "$.ab.c[#-1]")
	}
	f.Fuzz(func(t *testing.T, doc, pathText string) {
		path, err := parseJSONPath(pathText)
		if err != nil {
			return
		}
		x, found, ok := scanJSON(doc, path)
		var p fastjson.Parser
		v, refOK := refDoc(&p, doc)
		if refOK && !refStrings(doc) {
			refOK = false
		}
		if ok != refOK {
			t.Fatalf("%q: the scan says valid %v, fastjson %v", doc, ok, refOK)
		}
		if !ok {
			return
		}
		ref := refFind(path, v)
		if found != (ref != nil) {
			t.Fatalf("%q at %q: the scan found %v, fastjson %v", doc, pathText, found, ref != nil)
		}
		if !found {
			return
		}
		out := appendJSONSpan(nil, x)
		if want := refAppend(nil, ref); string(out) != string(want) {
			t.Fatalf("%q at %q: %q, fastjson %q", doc, pathText, out, want)
		}
		if a, b := jsonSpanType(x), refType(ref); a != b {
			t.Fatalf("%q at %q: type %s, fastjson %s", doc, pathText, a, b)
		}
		arr, _ := ref.Array()
		if n := jsonSpanLen(x); n != int64(len(arr)) {
			t.Fatalf("%q at %q: %d elements, fastjson %d", doc, pathText, n, len(arr))
		}
		if x[0] == '"' {
			if s, want := unescapeJSON(x[1:len(x)-1]), string(ref.GetStringBytes()); s != want {
				t.Fatalf("%q at %q: text %q, fastjson %q", doc, pathText, s, want)
			}
		}
		again, _, ok := scanJSON(string(out), nil)
		if !ok || string(appendJSONSpan(nil, again)) != string(out) {
			t.Fatalf("%q written again is not itself", out)
		}
	})
}

// refStrings reports whether the strings of document s (fastjson-valid)
// hold no raw control character and no \u escape of a surrogate that
// is not one of a pair.
func refStrings(s string) bool {
	in := false
	for i := 0; i < len(s); i++ {
		switch {
		case !in:
			in = s[i] == '"'
		case s[i] == '"':
			in = false
		case s[i] < 0x20:
			return false
		case s[i] == '\\' && s[i+1] == 'u':
			r, _ := hex4(s, i+2)
			i += 5
			switch {
			case r >= 0xdc00 && r < 0xe000:
				return false
			case r >= 0xd800 && r < 0xdc00:
				lo, ok := rune(0), false
				if i+2 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
					lo, ok = hex4(s, i+3)
				}
				if !ok || lo < 0xdc00 || lo >= 0xe000 {
					return false
				}
				i += 6
			}
		case s[i] == '\\':
			i++
		}
	}
	return true
}

// refDoc parses text s with fastjson, the reference the one-pass scan
// (jsonscan.go) is held against; ok is false when it is no document.
func refDoc(p *fastjson.Parser, s string) (*fastjson.Value, bool) {
	// Parse bounds the depth (Validate, strict about the rest, recurses
	// without a bound, so it runs only on what Parse took).
	v, err := p.Parse(s)
	if err != nil || !utf8.ValidString(s) || fastjson.Validate(s) != nil {
		return nil, false
	}
	return v, true
}

// refFind walks path from v; nil when a step finds nothing.
func refFind(path jsonPath, v *fastjson.Value) *fastjson.Value {
	for _, st := range path {
		switch v.Type() {
		case fastjson.TypeObject:
			if st.isIndex {
				return nil
			}
			o, _ := v.Object()
			if v = o.Get(st.key); v == nil {
				return nil
			}
		case fastjson.TypeArray:
			a, _ := v.Array()
			i := st.index
			switch {
			case st.ptr:
				n, err := strconv.Atoi(st.key)
				if err != nil || n < 0 || st.key != strconv.Itoa(n) {
					return nil
				}
				i = n
			case !st.isIndex:
				return nil
			case st.fromEnd:
				i = len(a) - st.index
			}
			if i < 0 || i >= len(a) {
				return nil
			}
			v = a[i]
		default:
			return nil
		}
	}
	return v
}

// refAppend appends v as appendJSONSpan writes a value.
func refAppend(dst []byte, v *fastjson.Value) []byte {
	switch v.Type() {
	case fastjson.TypeObject:
		o, _ := v.Object()
		dst = append(dst, '{')
		n := 0
		o.Visit(func(k []byte, x *fastjson.Value) {
			if n++; n > 1 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, string(k))
			dst = append(dst, ':')
			dst = refAppend(dst, x)
		})
		return append(dst, '}')
	case fastjson.TypeArray:
		a, _ := v.Array()
		dst = append(dst, '[')
		for i, x := range a {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = refAppend(dst, x)
		}
		return append(dst, ']')
	case fastjson.TypeString:
		return appendJSONString(dst, string(v.GetStringBytes()))
	case fastjson.TypeNumber:
		return appendJSONNumber(dst, string(v.MarshalTo(nil)))
	case fastjson.TypeTrue:
		return append(dst, "true"...)
	case fastjson.TypeFalse:
		return append(dst, "false"...)
	}
	return append(dst, "null"...)
}

// refType is json_type's name of v's type, as DuckDB names them.
func refType(v *fastjson.Value) string {
	switch v.Type() {
	case fastjson.TypeObject:
		return "OBJECT"
	case fastjson.TypeArray:
		return "ARRAY"
	case fastjson.TypeString:
		return "VARCHAR"
	case fastjson.TypeTrue, fastjson.TypeFalse:
		return "BOOLEAN"
	case fastjson.TypeNumber:
		return jsonNumberType(string(v.MarshalTo(nil)))
	}
	return "NULL"
}

// BenchmarkJSONExtract measures tags->>'highway' on OSM-like tag
// objects (eight string members each), in MB/s of documents read, with
// the one-pass scan and, for comparison, with fastjson (parse, then
// validate, as the functions first did).
func BenchmarkJSONExtract(b *testing.B) {
	var docs []string
	total := 0
	for i := range 4096 {
		d := `{"addr:city":"Vaduz","addr:housenumber":"` + strings.Repeat("1", 1+i%3) + `","addr:postcode":"9490","addr:street":"Äulestrasse","building":"yes","highway":"residential","name":"Haus ` +
			strings.Repeat("x", i%17) + `","source":"survey"}`
		docs = append(docs, d)
		total += len(d)
	}
	path := jsonPath{{key: "highway"}}
	b.Run("scan", func(b *testing.B) {
		args := []*arithPlan{{kind: kString}, {kind: kString, jsonPath: &path}}
		b.SetBytes(int64(total))
		for range b.N {
			for _, d := range docs {
				if v, ok := jsonValue("json_extract_string", args, []value{{s: d}, {}}); !ok || v.s != "residential" {
					b.Fatalf("%s: %v", d, v)
				}
			}
		}
	})
	b.Run("fastjson", func(b *testing.B) {
		var p fastjson.Parser
		b.SetBytes(int64(total))
		for range b.N {
			for _, d := range docs {
				v, ok := refDoc(&p, d)
				if x := refFind(path, v); !ok || x == nil || string(x.GetStringBytes()) != "residential" {
					b.Fatalf("%s", d)
				}
			}
		}
	})
}
