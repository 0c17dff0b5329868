package ingest

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// randomCell returns a cell of up to 12 runes drawn from letters, digits
// and the characters CSV must quote (comma, quote, newline, space), not
// starting or ending with a space; "" is an empty cell.
func randomCell(rng *rand.Rand) string {
	const alphabet = "ab7,\"\n xé0"
	n := 1 + rng.IntN(12)
	r := []rune(alphabet)
	var sb strings.Builder
	for range n {
		sb.WriteRune(r[rng.IntN(len(r))])
	}
	return strings.Trim(sb.String(), " ")
}

// randomTable returns column names (the time column "ts" among them, at a
// random place) and rows of cells, each column empty with its own
// probability; cells of "ts" are the row's time in milliseconds.
func randomTable(rng *rand.Rand) (names []string, rows [][]string) {
	ncols := 1 + rng.IntN(12)
	tsAt := rng.IntN(ncols + 1)
	empty := make([]float64, ncols+1)
	for i := range ncols + 1 {
		if i == tsAt {
			names = append(names, "ts")
			continue
		}
		names = append(names, fmt.Sprintf("c%d", i))
		empty[i] = []float64{0, 0.3, 0.9, 1}[rng.IntN(4)]
	}
	for r := range 1 + rng.IntN(60) {
		row := make([]string, len(names))
		for i := range names {
			switch {
			case i == tsAt:
				row[i] = fmt.Sprint(1000 * (r + 1))
			case rng.Float64() >= empty[i]:
				row[i] = randomCell(rng)
			}
		}
		rows = append(rows, row)
	}
	return names, rows
}

// stringMapping maps "ts" to the time and forces every other column to
// be a string, so that parsed values compare with the cells as text.
func stringMapping(t *testing.T, names []string) Mapping {
	kvs := []string{"time=ts"}
	for _, n := range names {
		if n != "ts" {
			kvs = append(kvs, "type."+n+"=string")
		}
	}
	return mapping(t, kvs...)
}

// checkRows compares parsed rows with the table: the same times in
// order, and in each row exactly the non-empty cells as fields.
func checkRows(t *testing.T, seed uint64, in string, names []string, want [][]string, got []row) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("seed %d: %d rows, want %d; input:\n%s", seed, len(got), len(want), in)
	}
	for r, cells := range want {
		fields := map[string]any{}
		for i, c := range cells {
			if names[i] != "ts" && c != "" {
				fields[names[i]] = c
			}
		}
		if got[r].t != int64(r+1)*1e9 || !reflect.DeepEqual(got[r].fields, fields) {
			t.Fatalf("seed %d row %d: time %d fields %q, want %d %q; input:\n%s", seed, r, got[r].t, got[r].fields, int64(r+1)*1e9, fields, in)
		}
	}
}

// TestCSVDifferential parses random tables written by encoding/csv
// (quoted cells with commas, quotes and newlines; empty cells anywhere,
// whole empty columns) in batches of a few rows: every row comes back
// with exactly its non-empty cells.
func TestCSVDifferential(t *testing.T) {
	for seed := range uint64(400) {
		rng := rand.New(rand.NewPCG(seed, 7))
		names, rows := randomTable(rng)
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		w.UseCRLF = seed%2 == 1
		_ = w.Write(names)
		_ = w.WriteAll(rows)
		in := buf.String()
		got, _, err := parseAll(t, in, Options{Format: CSV, Mapping: stringMapping(t, names), BatchRows: 1 + int(seed%9)})
		if err != nil {
			t.Fatalf("seed %d: %v; input:\n%s", seed, err, in)
		}
		checkRows(t, seed, in, names, rows, got)
	}
}

// TestJSONLinesDifferential parses random tables written as JSON lines,
// each row's fields in a random order with its empty cells left out (so
// that the k-th field of a row often differs from the previous row's).
func TestJSONLinesDifferential(t *testing.T) {
	for seed := range uint64(400) {
		rng := rand.New(rand.NewPCG(seed, 11))
		names, rows := randomTable(rng)
		var buf bytes.Buffer
		for r, cells := range rows {
			buf.WriteByte('{')
			first := true
			for _, i := range rng.Perm(len(names)) {
				var v []byte
				switch {
				case names[i] == "ts":
					v = []byte(fmt.Sprint(1000 * (r + 1)))
				case cells[i] == "":
					continue
				default:
					v, _ = json.Marshal(cells[i])
				}
				if !first {
					buf.WriteByte(',')
				}
				first = false
				fmt.Fprintf(&buf, "%q:%s", names[i], v)
			}
			buf.WriteString("}\n")
		}
		in := buf.String()
		got, _, err := parseAll(t, in, Options{Format: JSONLines, Mapping: stringMapping(t, names), BatchRows: 1 + int(seed%9)})
		if err != nil {
			t.Fatalf("seed %d: %v; input:\n%s", seed, err, in)
		}
		checkRows(t, seed, in, names, rows, got)
	}
}

// randomNumber returns the text of a number of the column's kind: an
// int64 ("i"), or a float ("f") as decimals, exponents or the shortest
// text of a random float64 (up to 17 significant digits); a float column
// also holds integer texts.
func randomNumber(rng *rand.Rand, kind byte) string {
	if kind == 'i' {
		switch rng.IntN(3) {
		case 0:
			return fmt.Sprint(rng.IntN(100) - 50)
		case 1:
			return fmt.Sprint(int64(rng.Uint64()))
		}
		return fmt.Sprint(rng.Int64N(1 << 40))
	}
	x := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(30)-15))
	switch rng.IntN(5) {
	case 0:
		return strconv.FormatFloat(x, 'f', rng.IntN(8), 64)
	case 1:
		return strconv.FormatFloat(x, 'e', rng.IntN(17), 64)
	case 2:
		return fmt.Sprint(rng.IntN(1000))
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// TestCSVDifferentialNumbers parses random tables of int and float
// columns (types inferred, empty cells anywhere) in batches of a few
// rows: an int cell comes back as that int64, a float cell as exactly
// the float64 strconv.ParseFloat gives; an integer text of a float
// column is read as an int64, which stays one while its batch saw no
// other and else becomes the nearest float64 ("-0" is 0).
func TestCSVDifferentialNumbers(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 13))
		ncols := 1 + rng.IntN(8)
		names := []string{"ts"}
		kinds := []byte{0}
		for i := range ncols {
			names = append(names, fmt.Sprintf("n%d", i))
			kinds = append(kinds, "if"[rng.IntN(2)])
		}
		var rows [][]string
		for r := range 1 + rng.IntN(80) {
			row := []string{fmt.Sprint(1000 * (r + 1))}
			for _, k := range kinds[1:] {
				cell := ""
				if rng.IntN(4) > 0 {
					cell = randomNumber(rng, k)
				}
				row = append(row, cell)
			}
			rows = append(rows, row)
		}
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		_ = w.Write(names)
		_ = w.WriteAll(rows)
		in := buf.String()
		got, _, err := parseAll(t, in, Options{Format: CSV, Mapping: mapping(t, "time=ts"), BatchRows: 1 + int(seed%9)})
		if err != nil {
			t.Fatalf("seed %d: %v; input:\n%s", seed, err, in)
		}
		if len(got) != len(rows) {
			t.Fatalf("seed %d: %d rows, want %d", seed, len(got), len(rows))
		}
		for r, cells := range rows {
			n := 0
			for i, cell := range cells[1:] {
				name := names[i+1]
				v, ok := got[r].fields[name]
				if cell == "" {
					if ok {
						t.Fatalf("seed %d row %d: %s = %v from an empty cell", seed, r, name, v)
					}
					continue
				}
				n++
				wantI, intErr := strconv.ParseInt(cell, 10, 64)
				wantF, _ := strconv.ParseFloat(cell, 64)
				switch v := v.(type) {
				case int64:
					if intErr != nil || v != wantI {
						t.Fatalf("seed %d row %d: %s = int64 %d from %q", seed, r, name, v, cell)
					}
				case float64:
					if intErr == nil { // converted with its column: "-0" is the int 0
						wantF = float64(wantI)
					}
					if math.Float64bits(v) != math.Float64bits(wantF) {
						t.Fatalf("seed %d row %d: %s = %v from %q, want %v", seed, r, name, v, cell, wantF)
					}
				default:
					t.Fatalf("seed %d row %d: %s = %T %v from %q", seed, r, name, v, v, cell)
				}
			}
			if len(got[r].fields) != n {
				t.Fatalf("seed %d row %d: fields %v, want %d", seed, r, got[r].fields, n)
			}
		}
	}
}

// lpEscape escapes the bytes of special (each a byte) with a backslash,
// as a line protocol writer does.
func lpEscape(s, special string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(special, s[i]) >= 0 {
			sb.WriteByte('\\')
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// lpText returns 1 to 8 bytes drawn from letters, digits and the bytes
// line protocol escapes (space, comma, equals, quote, backslash).
func lpText(rng *rand.Rand) string {
	const alphabet = "ab9 ,=\"\\é"
	r := []rune(alphabet)
	var sb strings.Builder
	for range 1 + rng.IntN(8) {
		sb.WriteRune(r[rng.IntN(len(r))])
	}
	return sb.String()
}

// TestLineProtocolDifferential parses random line protocol written with
// the escapes of its specification (measurement: comma and space; tag
// keys and values and field keys: comma, equals and space; string
// values: quote and backslash; a backslash everywhere, which the
// specification reads as escaping the next one), rows with random subsets of the tags
// and fields, fields in random order, of every type: each row comes back
// with the measurement and tags as written for its series, its tags as
// strings and its fields as typed values.
func TestLineProtocolDifferential(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 17))
		meas := lpText(rng)
		ntags, nfields := rng.IntN(4), 1+rng.IntN(5)
		tagNames, fieldNames := make([]string, ntags), make([]string, nfields)
		kinds := make([]byte, nfields)
		for i := range tagNames {
			tagNames[i] = fmt.Sprintf("t%d%s", i, lpText(rng))
		}
		for i := range fieldNames {
			fieldNames[i] = fmt.Sprintf("f%d%s", i, lpText(rng))
			kinds[i] = "fibs"[rng.IntN(4)]
		}
		type want struct {
			series string
			fields map[string]any
		}
		var wants []want
		var buf bytes.Buffer
		for r := range 1 + rng.IntN(60) {
			w := want{fields: map[string]any{}}
			key := lpEscape(meas, ", \\")
			for _, name := range tagNames {
				if rng.IntN(3) == 0 {
					continue
				}
				v := lpText(rng)
				key += "," + lpEscape(name, ",= \\") + "=" + lpEscape(v, ",= \\")
				w.fields[name] = v
			}
			w.series = key
			var parts []string
			for _, i := range rng.Perm(nfields) {
				if len(parts) > 0 && rng.IntN(3) == 0 {
					continue
				}
				var text string
				var v any
				switch kinds[i] {
				case 'f':
					x := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-10))
					text = strconv.FormatFloat(x, "gef"[rng.IntN(3)], -1, 64)
					v, _ = strconv.ParseFloat(text, 64)
				case 'i':
					n := int64(rng.Uint64())
					text, v = fmt.Sprintf("%di", n), n
				case 'b':
					b := rng.IntN(2) == 1
					text = map[bool][]string{true: {"t", "T", "true", "True", "TRUE"}, false: {"f", "F", "false", "False", "FALSE"}}[b][rng.IntN(5)]
					v = b
				default:
					s := lpText(rng)
					text, v = `"`+lpEscape(s, `"\`)+`"`, s
				}
				parts = append(parts, lpEscape(fieldNames[i], ",= \\")+"="+text)
				w.fields[fieldNames[i]] = v
			}
			fmt.Fprintf(&buf, "%s %s %d\n", key, strings.Join(parts, ","), r+1)
			wants = append(wants, w)
		}
		in := buf.String()
		got, _, err := parseAll(t, in, Options{Format: LineProtocol, BatchRows: 1 + int(seed%9)})
		if err != nil {
			t.Fatalf("seed %d: %v; input:\n%s", seed, err, in)
		}
		if len(got) != len(wants) {
			t.Fatalf("seed %d: %d rows, want %d", seed, len(got), len(wants))
		}
		for r, w := range wants {
			g := got[r]
			if g.series != w.series || g.t != int64(r+1) || !reflect.DeepEqual(g.fields, w.fields) {
				t.Fatalf("seed %d row %d: series %q time %d fields %#v, want %q %d %#v; input:\n%s", seed, r, g.series, g.t, g.fields, w.series, r+1, w.fields, in)
			}
		}
	}
}

// TestPrometheusDifferential parses random Prometheus text: metric and
// label names of the format's alphabet, label values with every escape
// (backslash, quote, newline) and the bytes the label set's syntax uses
// ('}', ',', '=', '#', spaces), sparse labels, special values (NaN,
// ±Inf), with and without a millisecond timestamp, comments between
// samples: each sample comes back with its series as written, its labels
// unescaped and its value exact.
func TestPrometheusDifferential(t *testing.T) {
	const nameChars = "abcxyz_:09"
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 19))
		name := func(first string) string {
			n := first
			for range rng.IntN(6) {
				n += string(nameChars[rng.IntN(len(nameChars))])
			}
			return n
		}
		metrics := []string{name("m"), name("_"), name(":")}
		labels := []string{name("l"), name("l"), name("l")}
		type want struct {
			series string
			t      int64
			fields map[string]any
		}
		var wants []want
		var buf bytes.Buffer
		buf.WriteString("# HELP m help text\n# TYPE m gauge\n")
		for r := range 1 + rng.IntN(60) {
			w := want{series: metrics[rng.IntN(len(metrics))], t: 77, fields: map[string]any{}}
			var ls []string
			for _, l := range labels {
				if rng.IntN(2) == 0 || w.fields[l] != nil {
					continue
				}
				alphabet, v := []rune("ab\\\"\n},=# é"), []rune{}
				for range rng.IntN(8) {
					v = append(v, alphabet[rng.IntN(len(alphabet))])
				}
				esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(string(v))
				ls = append(ls, l+`="`+esc+`"`)
				w.fields[l] = string(v)
			}
			if len(ls) > 0 {
				w.series += "{" + strings.Join(ls, ",") + "}"
			}
			x := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-10))
			text := strconv.FormatFloat(x, "gef"[rng.IntN(3)], -1, 64)
			switch rng.IntN(8) {
			case 0:
				text = "NaN"
			case 1:
				text = "+Inf"
			case 2:
				text = "-Inf"
			}
			w.fields["value"], _ = strconv.ParseFloat(text, 64)
			line := w.series + " " + text
			if rng.IntN(3) > 0 {
				w.t = int64(r+1) * 1e6
				line += fmt.Sprintf(" %d", r+1)
			}
			buf.WriteString(line + "\n")
			if rng.IntN(5) == 0 {
				buf.WriteString("# a comment {\"}\n")
			}
			wants = append(wants, w)
		}
		in := buf.String()
		got, _, err := parseAll(t, in, Options{Format: Prometheus, Now: 77, BatchRows: 1 + int(seed%9)})
		if err != nil {
			t.Fatalf("seed %d: %v; input:\n%s", seed, err, in)
		}
		if len(got) != len(wants) {
			t.Fatalf("seed %d: %d rows, want %d; input:\n%s", seed, len(got), len(wants), in)
		}
		for r, w := range wants {
			g := got[r]
			wv, gv := w.fields["value"].(float64), g.fields["value"]
			if f, ok := gv.(float64); !ok || math.Float64bits(f) != math.Float64bits(wv) && !(math.IsNaN(f) && math.IsNaN(wv)) {
				t.Fatalf("seed %d row %d: value %v, want %v", seed, r, gv, wv)
			}
			delete(w.fields, "value")
			delete(g.fields, "value")
			if g.series != w.series || g.t != w.t || !reflect.DeepEqual(g.fields, w.fields) {
				t.Fatalf("seed %d row %d: series %q time %d fields %#v, want %q %d %#v; input:\n%s", seed, r, g.series, g.t, g.fields, w.series, w.t, w.fields, in)
			}
		}
	}
}

// jsonDoc builds a random JSON object of up to depth levels, appending
// its text to buf and the fields it flattens to (name path joined with
// '.': typed values; arrays as their compact text) to want. kinds keeps
// the kind of value each name was first given, so that a column's type
// does not change (mixed columns become strings: another test's
// concern).
func jsonDoc(rng *rand.Rand, buf *bytes.Buffer, want map[string]any, kinds map[string]int, path string, depth int) {
	buf.WriteByte('{')
	n := rng.IntN(5)
	for i := range n {
		if i > 0 {
			buf.WriteByte(',')
			if rng.IntN(3) == 0 {
				buf.WriteString(" \t")
			}
		}
		// keys: distinct per object, with characters JSON escapes
		key := fmt.Sprintf("k%d%s", i, []string{"", "é", `"q"`, `\`, "[]{},:", "\u2028", " x"}[rng.IntN(7)])
		kj, _ := json.Marshal(key)
		if rng.IntN(2) == 0 { // the same key with every non-ASCII rune as a \u escape
			kj = []byte(strconv.QuoteToASCII(key)) // no key has a rune past U+FFFF
		}
		buf.Write(kj)
		buf.WriteByte(':')
		name := key
		if path != "" {
			name = path + "." + key
		}
		k, ok := kinds[name]
		if !ok {
			k = rng.IntN(9)
			if k == 0 && depth == 0 {
				k = 4
			}
			kinds[name] = k
		}
		switch {
		case k == 0:
			jsonDoc(rng, buf, want, kinds, name, depth-1)
		case k == 1:
			v := int64(rng.Uint64()) >> rng.IntN(64)
			fmt.Fprint(buf, v)
			want[name] = v
		case k == 2:
			x := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
			text := strconv.FormatFloat(x, "gef"[rng.IntN(3)], -1, 64)
			if !strings.ContainsAny(text, ".e") {
				text += ".0"
			}
			buf.WriteString(text)
			want[name], _ = strconv.ParseFloat(text, 64)
		case k == 3:
			b := rng.IntN(2) == 0
			fmt.Fprint(buf, b)
			want[name] = b
		case k == 4:
			buf.WriteString("null")
		case k == 5:
			text := fmt.Sprintf("[%d,[true,null],%d.5]", rng.IntN(100), rng.IntN(100))
			buf.WriteString(text)
			want[name] = text
		default:
			s := lpText(rng) + "\n\t\u00e9\U0001F600"
			sj, _ := json.Marshal(s)
			buf.Write(sj)
			want[name] = s
		}
	}
	buf.WriteByte('}')
}

// TestJSONDifferential parses random nested objects (keys and strings
// with escapes, \u escapes, ints across the int64 range, floats of every
// form, booleans, nulls, arrays) as JSON lines and as one JSON array
// with whitespace between its elements: both come back row for row with
// the flattened fields, exactly typed.
func TestJSONDifferential(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 23))
		var lines, array bytes.Buffer
		var wants []map[string]any
		kinds := map[string]int{}
		array.WriteString(" [")
		for r := range 1 + rng.IntN(40) {
			var doc bytes.Buffer
			want := map[string]any{}
			jsonDoc(rng, &doc, want, kinds, "", 3)
			// the time first or last
			obj := doc.Bytes()
			ts := fmt.Sprintf(`"ts":%d`, r+1)
			if len(obj) == 2 {
				obj = []byte("{" + ts + "}")
			} else if rng.IntN(2) == 0 {
				obj = append([]byte("{"+ts+","), obj[1:]...)
			} else {
				obj = append(obj[:len(obj)-1:len(obj)-1], []byte(","+ts+"}")...)
			}
			lines.Write(obj)
			lines.WriteByte('\n')
			if r > 0 {
				array.WriteString([]string{",", " ,\n ", ",\r\n\t"}[rng.IntN(3)])
			}
			array.Write(obj)
			wants = append(wants, want)
		}
		array.WriteString("]\n")
		for _, c := range []struct {
			f  Format
			in string
		}{{JSONLines, lines.String()}, {JSONArray, array.String()}} {
			got, _, err := parseAll(t, c.in, Options{Format: c.f, Mapping: mapping(t, "time=ts", "time.unit=s"), BatchRows: 1 + int(seed%9)})
			if err != nil {
				t.Fatalf("seed %d %v: %v; input:\n%s", seed, c.f, err, c.in)
			}
			if len(got) != len(wants) {
				t.Fatalf("seed %d %v: %d rows, want %d", seed, c.f, len(got), len(wants))
			}
			for r, w := range wants {
				if got[r].t != int64(r+1)*1e9 || !reflect.DeepEqual(got[r].fields, w) {
					t.Fatalf("seed %d %v row %d: time %d fields %#v, want %d %#v; input:\n%s", seed, c.f, r, got[r].t, got[r].fields, int64(r+1)*1e9, w, c.in)
				}
			}
		}
	}
}
