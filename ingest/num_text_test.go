package ingest

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestNumberWords: words strconv takes for NaN and infinities ("Nan",
// "INF", "infinity") stay text in CSV and JSON strings, while the
// spellings programs write make float columns; numbers past float64's
// range are ±Inf, not text.
func TestNumberWords(t *testing.T) {
	csv := "name,code,x,big\nNan,INF,NaN,1e400\nBob,infinity,-Inf,-1e400\nAl,0x1p-2,inf,1e-400\n"
	rows, _, err := parseAll(t, csv, Options{Format: CSV})
	if err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{"name": "Nan", "code": "INF", "x": math.NaN(), "big": math.Inf(1)},
		{"name": "Bob", "code": "infinity", "x": math.Inf(-1), "big": math.Inf(-1)},
		{"name": "Al", "code": "0x1p-2", "x": math.Inf(1), "big": 0.0},
	}
	for i, r := range rows {
		for k, w := range want[i] {
			g := r.fields[k]
			if wf, ok := w.(float64); ok {
				gf, ok := g.(float64)
				if !ok || !(gf == wf || math.IsNaN(gf) && math.IsNaN(wf)) {
					t.Errorf("row %d %s: %#v, want %v", i, k, g, wf)
				}
			} else if g != w {
				t.Errorf("row %d %s: %#v, want %#v", i, k, g, w)
			}
		}
	}
	// JSON: a number too large is +Inf (Python and JavaScript agree);
	// NaN (as Python's json.dumps writes it) and -Inf are floats.
	rows, _, err = parseAll(t, `{"a":1e400,"b":NaN,"c":-Inf,"d":"Nan"}`+"\n", Options{Format: JSONLines})
	if err != nil {
		t.Fatal(err)
	}
	f := rows[0].fields
	if f["a"] != math.Inf(1) || !math.IsNaN(f["b"].(float64)) || f["c"] != math.Inf(-1) || f["d"] != "Nan" {
		t.Fatalf("%#v", f)
	}
	// An explicit float type takes the same numbers and refuses words.
	if _, _, err := parseAll(t, "x\nNan\n", Options{Format: CSV, Mapping: mapping(t, "type.x=float64")}); err == nil {
		t.Fatal(`"Nan" taken as a float64`)
	}
}

// TestNumberColumnToText: a column that turns to text within a batch
// shows the numbers before the turn without an exponent where they have
// none (1234567.5, not 1.2345675e+06), and reads back as the same value.
func TestNumberColumnToText(t *testing.T) {
	rows, _, err := parseAll(t, "v\n1234567.5\n0.00012\n1e21\n42\n-0.5\nn/a\n", Options{Format: CSV})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"1234567.5", "0.00012", "1e+21", "42", "-0.5", "n/a"}
	for i, r := range rows {
		if r.fields["v"] != want[i] {
			t.Errorf("row %d: %#v, want %q", i, r.fields["v"], want[i])
		}
	}
	for _, f := range []float64{0, 1e-4, 9.999e-5, 123456789.125, 1e20, 1e21, -7.25e300, math.SmallestNonzeroFloat64, math.MaxFloat64, math.Inf(-1)} {
		s := string(appendFloatText(nil, f))
		if g, err := strconv.ParseFloat(s, 64); err != nil || g != f {
			t.Errorf("%v: %q reads back as %v, %v", f, s, g, err)
		}
	}
}

func TestDecimalSyntax(t *testing.T) {
	for s, want := range map[string]bool{
		"1": true, "-1.5": true, "+.5": true, "5.": true, "1e9": true, "1E-9": true, "-0.0e+0": true,
		"": false, "-": false, ".": false, "e5": false, "1e": false, "1e+": false, "0x10": false, "1_000": false,
		"1.2.3": false, " 1": false, "1 ": false, "Inf": false, "NaN": false,
	} {
		if got := decimalSyntax([]byte(s)); got != want {
			t.Errorf("%q: %v", s, got)
		}
	}
}

// TestCSVBools: true and false in the spellings spreadsheets write make
// a bool column; 1/0, t/f and yes/no stay numbers and text; a bool
// column meeting other text turns to text.
func TestCSVBools(t *testing.T) {
	rows, _, err := parseAll(t, "a,b,c,d,e\ntrue,TRUE,1,yes,t\nFalse,FALSE,0,no,f\n", Options{Format: CSV})
	if err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{"a": true, "b": true, "c": int64(1), "d": "yes", "e": "t"},
		{"a": false, "b": false, "c": int64(0), "d": "no", "e": "f"},
	}
	for i, r := range rows {
		for k, w := range want[i] {
			if r.fields[k] != w {
				t.Errorf("row %d %s: %#v, want %#v", i, k, r.fields[k], w)
			}
		}
	}
	rows, _, err = parseAll(t, "a,b\ntrue,1\nmaybe,true\n", Options{Format: CSV})
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].fields["a"] != "true" || rows[1].fields["a"] != "maybe" || rows[0].fields["b"] != "1" || rows[1].fields["b"] != "true" {
		t.Fatalf("%+v", rows)
	}
}

// TestJSONPythonInfinity: Python's json.dumps writes infinite floats as
// Infinity and -Infinity; they are ±Inf, and the word inside strings is
// left alone.
func TestJSONPythonInfinity(t *testing.T) {
	in := `{"a":Infinity,"b":-Infinity,"c":NaN,"s":"Infinity \"x\" Infinity","d":[Infinity]}` + "\n" + `{"a":1}` + "\n"
	rows, _, err := parseAll(t, in, Options{Format: JSONLines})
	if err != nil {
		t.Fatal(err)
	}
	f := rows[0].fields
	if f["a"] != math.Inf(1) || f["b"] != math.Inf(-1) || !math.IsNaN(f["c"].(float64)) || f["s"] != `Infinity "x" Infinity` || f["d"] != "[Inf]" {
		t.Fatalf("%#v", f)
	}
	if rows[1].fields["a"] != 1.0 {
		t.Fatalf("%#v", rows[1].fields)
	}
	// A line broken otherwise keeps its own error.
	if _, _, err := parseAll(t, `{"a":Infinity,}`+"\n", Options{Format: JSONLines}); err == nil || !strings.Contains(err.Error(), "invalid JSON") {
		t.Fatalf("%v", err)
	}
}

// TestCSVDecimalComma: in a semicolon-separated CSV (spreadsheets where
// the decimal separator is a comma) 1,5 and 1.234,5 are numbers; other
// cells with commas stay text, and so does 1,5 in a comma-separated CSV
// (quoted) or a tab-separated one.
func TestCSVDecimalComma(t *testing.T) {
	for in, want := range map[string]string{"1,5": "1.5", "-2,25": "-2.25", "+0,5": "+0.5", "1.234,5": "1234.5", "-12.345.678,09": "-12345678.09"} {
		if got, ok := decimalComma(nil, []byte(in)); !ok || string(got) != want {
			t.Errorf("%q: %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"1,5,6", "1,234.5", "a,b", ",5", "5,", "1.23,4", "1234.567,8", "-,5", "1,5e3"} {
		if got, ok := decimalComma(nil, []byte(in)); ok {
			t.Errorf("%q read as %q", in, got)
		}
	}
	rows, _, err := parseAll(t, "a;b;c\n1,5;x,y;1.234,5\n2;3,0;4\n", Options{Format: CSV})
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].fields["a"] != 1.5 || rows[0].fields["b"] != "x,y" || rows[0].fields["c"] != 1234.5 || rows[1].fields["a"] != 2.0 || rows[1].fields["c"] != 4.0 {
		t.Fatalf("semicolons: %v", rows)
	}
	for _, in := range []string{"a,b\n\"1,5\",2\n", "a\tb\n1,5\t2\n"} {
		rows, _, err := parseAll(t, in, Options{Format: CSV})
		if err != nil || rows[0].fields["a"] != "1,5" {
			t.Fatalf("%q: %v, %v", in, rows, err)
		}
	}
}
