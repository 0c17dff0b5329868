package ingest

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsqdb/tsq/chunk"
)

// row is one parsed row, materialised for comparison.
type row struct {
	t      int64
	series string
	key    string
	op     Op
	fields map[string]any
}

func parseAll(t testing.TB, in string, o Options) ([]row, *Parser, error) {
	t.Helper()
	p, err := NewParser(strings.NewReader(in), o)
	if err != nil {
		return nil, nil, err
	}
	var rows []row
	var b Batch
	for {
		err := p.Fill(&b)
		if err == io.EOF {
			return rows, p, nil
		}
		if err != nil {
			return rows, p, err
		}
		rows = append(rows, batchRows(&b)...)
	}
}

func batchRows(b *Batch) []row {
	var rows []row
	for i := 0; i < b.Rows; i++ {
		r := row{t: b.Time[i], series: strings.Clone(b.Str(b.Series[i])), key: strings.Clone(b.Str(b.Key[i])), op: b.Op[i], fields: map[string]any{}}
		for _, c := range b.Cols {
			if len(c.Valid) != b.Rows {
				panic("column not padded")
			}
			if !c.Valid[i] {
				continue
			}
			switch c.Type {
			case chunk.Int64:
				r.fields[c.Name] = c.Ints[i]
			case chunk.Float64:
				r.fields[c.Name] = c.Floats[i]
			case chunk.Bool:
				r.fields[c.Name] = c.Bools[i]
			default:
				r.fields[c.Name] = strings.Clone(b.Str(c.Strs[i]))
			}
		}
		rows = append(rows, r)
	}
	return rows
}

func mapping(t testing.TB, kvs ...string) Mapping {
	var m Mapping
	for _, kv := range kvs {
		if err := m.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func TestJSONLines(t *testing.T) {
	in := `{"ts":1000,"host":"a","id":7,"v":1.5,"ok":true,"tags":{"x":{"y":"z"}},"arr":[1,2],"n":null,"time":3}
{"ts":"1970-01-01T00:00:02Z","host":"b","id":8,"v":2,"ok":false}

{"ts":3000,"host":"a","id":9,"v":1e2,"act":"delete"}
`
	rows, _, err := parseAll(t, in, Options{Mapping: mapping(t, "time=ts", "series=host", "key=host,id", "op=act")})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[0]
	if r.t != 1000e6 || r.series != "a" || r.key != "a/7" || r.op != OpPut {
		t.Fatalf("row 0: %+v", r)
	}
	if r.fields["v"] != 1.5 || r.fields["ok"] != true || r.fields["tags.x.y"] != "z" || r.fields["arr"] != "[1,2]" || r.fields["time_"] != int64(3) {
		t.Fatalf("row 0 fields: %v", r.fields)
	}
	if _, ok := r.fields["n"]; ok {
		t.Fatal("null stored")
	}
	if rows[1].t != 2e9 || rows[1].fields["v"] != 2.0 || rows[1].fields["ok"] != false {
		t.Fatalf("row 1: %+v", rows[1])
	}
	if rows[2].op != OpDelete || rows[2].fields["v"] != 100.0 {
		t.Fatalf("row 2: %+v", rows[2])
	}
}

func TestJSONNestedAsJSON(t *testing.T) {
	rows, _, err := parseAll(t, `{"a":{"b":1}}`+"\n", Options{Mapping: mapping(t, "nested=json"), Now: 5})
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].fields["a"] != `{"b":1}` || rows[0].t != 5 || rows[0].series != "default" {
		t.Fatalf("%+v", rows[0])
	}
}

func TestJSONArray(t *testing.T) {
	in := "  [\n {\"t\": 1, \"s\": \"a,b]\", \"o\": {\"p\": [1, {\"q\": 2}]}},\n{\"t\":2,\"s\":\"\\\"\"} ]\n"
	rows, _, err := parseAll(t, in, Options{Mapping: mapping(t, "time=t", "time.unit=s")})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].fields["s"] != "a,b]" || rows[1].fields["s"] != `"` || rows[1].t != 2e9 {
		t.Fatalf("%+v", rows)
	}
	if rows[0].fields["o.p"] != `[1,{"q":2}]` {
		t.Fatalf("%v", rows[0].fields)
	}
	// errors
	for _, bad := range []string{`{"a":1}`, `[{"a":1} {"b":2}]`, `[{"a":1},`, `[{"a":1}] x`, `[{"a":"x}]`} {
		_, _, err := parseAll(t, bad, Options{Format: JSONArray})
		var pe *Error
		if !errors.As(err, &pe) {
			t.Fatalf("%q: %v", bad, err)
		}
	}
}

func TestCSV(t *testing.T) {
	in := "series,ts,value,note,flag\r\ns1,1000,0.06453452400000001,\"a, \"\"quoted\"\"\nline\",true\ns1,2000,12,,false\n"
	rows, _, err := parseAll(t, in, Options{Mapping: mapping(t, "series=series", "time=ts", "type.value=float64", "type.flag=bool")})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].fields["value"] != 0.06453452400000001 || rows[1].fields["value"] != 12.0 {
		t.Fatalf("%+v", rows)
	}
	if rows[0].fields["note"] != "a, \"quoted\"\nline" || rows[0].fields["flag"] != true || rows[0].t != 1e9 {
		t.Fatalf("%+v", rows[0])
	}
	if _, ok := rows[1].fields["note"]; ok {
		t.Fatal("empty cell stored")
	}
}

// TestCSVEmptyCellsFirst parses CSV whose first rows leave cells empty
// before filled ones (a row's k-th cell then is not its k-th field set):
// the empty cells are nulls and the others land in their columns.
func TestCSVEmptyCellsFirst(t *testing.T) {
	in := "a,b,ts,c\n,,1000,x\n1,,2000,\n,2,3000,y\n"
	rows, _, err := parseAll(t, in, Options{Mapping: mapping(t, "time=ts")})
	if err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{{"c": "x"}, {"a": int64(1)}, {"b": int64(2), "c": "y"}}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(rows), len(want), rows)
	}
	for i, r := range rows {
		for k, v := range want[i] {
			if r.fields[k] != v {
				t.Fatalf("row %d: %s = %v (%T), want %v: %+v", i, k, r.fields[k], r.fields[k], v, r)
			}
		}
		if len(r.fields) != len(want[i]) {
			t.Fatalf("row %d: fields %v, want %v", i, r.fields, want[i])
		}
	}
	if rows[0].t != 1e9 || rows[1].t != 2e9 || rows[2].t != 3e9 { // milliseconds, as TestCSV
		t.Fatalf("times %d %d %d", rows[0].t, rows[1].t, rows[2].t)
	}
}

// TestFieldNameNotUTF8: a field name that is not UTF-8 (a Latin-1 CSV
// header, a JSON key) becomes a column named with U+FFFD for each
// run of invalid bytes (Arrow and Parquet schemas need UTF-8); one that
// grows past MaxNameLen so is a bad row.
func TestFieldNameNotUTF8(t *testing.T) {
	rows, _, err := parseAll(t, "ts,caf\xe9,na\xefve\n1000,x,1\n", Options{Format: CSV, Mapping: mapping(t, "time=ts")})
	if err != nil || len(rows) != 1 || rows[0].fields["caf\uFFFD"] != "x" || rows[0].fields["na\uFFFDve"] != int64(1) {
		t.Fatalf("%v %+v", err, rows)
	}
	rows, _, err = parseAll(t, "{\"t\":1,\"\xe9t\xe9\":2}\n", Options{Format: JSONLines, Mapping: mapping(t, "time=t")})
	if err != nil || len(rows) != 1 || rows[0].fields["\uFFFDt\uFFFD"] != int64(2) {
		t.Fatalf("json: %v %+v", err, rows)
	}
	long := strings.Repeat("\xffa", MaxNameLen/2) // 2 bytes each, 4 once valid
	_, _, err = parseAll(t, "ts,"+long+"\n1000,1\n", Options{Format: CSV, Mapping: mapping(t, "time=ts")})
	var pe *Error
	if !errors.As(err, &pe) || pe.Line != 2 || !strings.Contains(pe.Msg, "must be 1 to") {
		t.Fatalf("long name: %v", err)
	}
}

// TestByteOrderMark: input starting with a UTF-8 byte order mark (as
// Excel and Notepad write) parses as without it, in every format and
// whatever the read buffer cuts.
func TestByteOrderMark(t *testing.T) {
	for _, c := range []struct {
		f     Format
		in, m string
	}{
		{CSV, "ts,v\n1000,1\n", "time=ts"},
		{JSONLines, "{\"ts\":1000,\"v\":1}\n", "time=ts"},
		{JSONArray, " [{\"ts\":1000,\"v\":1}]", "time=ts"},
		{LineProtocol, "m v=1i 1000000000\n", ""},
		{Prometheus, "v 1 1000\n", ""},
	} {
		for _, buf := range []int{0, 1, 2, 16} {
			var m Mapping
			if c.m != "" {
				m = mapping(t, c.m)
			}
			for _, guess := range []bool{false, true} {
				f := c.f
				if guess {
					if buf != 0 { // a guess reads what one buffer holds
						continue
					}
					f = Guess
				}
				rows, _, err := parseAll(t, "\ufeff"+c.in, Options{Format: f, Mapping: m, BufferBytes: buf})
				if err != nil || len(rows) != 1 || rows[0].t != 1e9 || (rows[0].fields["v"] != int64(1) && rows[0].fields["v"] != 1.0 && rows[0].fields["value"] != 1.0) {
					t.Fatalf("%v (format %v, buffer %d): %v %+v", c.f, f, buf, err, rows)
				}
			}
		}
	}
}

func TestLineProtocol(t *testing.T) {
	in := "# comment\ncpu,host=a,region=eu\\ west usage=1.5,n=3i,ok=t,msg=\"hi, \\\"x\\\"\" 1000\nmem,host=b free=2u\n"
	rows, _, err := parseAll(t, in, Options{Now: 7})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[0]
	if r.series != `cpu,host=a,region=eu\ west` || r.t != 1000 || r.fields["usage"] != 1.5 || r.fields["n"] != int64(3) ||
		r.fields["ok"] != true || r.fields["msg"] != `hi, "x"` || r.fields["region"] != "eu west" {
		t.Fatalf("%+v", r)
	}
	if rows[1].t != 7 || rows[1].fields["free"] != int64(2) {
		t.Fatalf("%+v", rows[1])
	}
}

func TestPrometheus(t *testing.T) {
	in := "# HELP x help\n# TYPE x counter\nx_total{a=\"1\",b=\"q\\\"}\"} 3.5 1700000000000\nup 1\nom_metric 2 1700000000.5 # {trace=\"t\"} 1\n# EOF\n"
	rows, p, err := parseAll(t, in, Options{Now: 9})
	if err != nil {
		t.Fatal(err)
	}
	if p.Format() != Prometheus {
		t.Fatalf("guessed %v", p.Format())
	}
	if len(rows) != 3 || rows[0].series != `x_total{a="1",b="q\"}"}` || rows[0].fields["value"] != 3.5 || rows[0].t != 1700000000000e6 || rows[0].fields["b"] != `q"}` {
		t.Fatalf("%+v", rows)
	}
	if rows[1].t != 9 || rows[2].t != 1700000000500000000 {
		t.Fatalf("%+v", rows[1:])
	}
}

// TestCSVSeparators: a CSV's separator is read from its header: a
// comma when it has one, else a tab (TSV), else a semicolon (spreadsheets
// where the decimal separator is a comma); quoted fields may hold any of
// them; a header of one name is one column. The same holds when the
// import parses in parallel (SetHeader).
func TestCSVSeparators(t *testing.T) {
	for _, c := range []struct {
		in   string
		want map[string]any
	}{
		{"ts,v,s\n1000,1,\"a;b\tc\"\n", map[string]any{"v": int64(1), "s": "a;b\tc"}},
		{"ts\tv\ts\n1000\t1\t\"a,b;c\"\n", map[string]any{"v": int64(1), "s": "a,b;c"}},
		{"ts;v;s\n1000;\"1,5\";a,b\n", map[string]any{"v": 1.5, "s": "a,b"}}, // a decimal comma (TestCSVDecimalComma)
		{"\"t;s\",v\n1000,2\n", map[string]any{"v": int64(2)}},
		{"ts\n1000\n", map[string]any{}},
	} {
		tsField := "time=ts"
		if strings.HasPrefix(c.in, `"t;s"`) {
			tsField = "time=t;s"
		}
		checkCSVRow(t, c.in, mapping(t, tsField), c.want)
	}
}

// checkCSVRow parses a CSV of one row at time 1000 (ms) whole, and as the
// import's parallel parsers do (the header given first, SetHeader), and
// checks that both give the fields want.
func checkCSVRow(t *testing.T, in string, m Mapping, want map[string]any) {
	t.Helper()
	rows, _, err := parseAll(t, in, Options{Format: CSV, Mapping: m})
	if err != nil || len(rows) != 1 || rows[0].t != 1e9 || !reflect.DeepEqual(rows[0].fields, want) {
		t.Errorf("%q: %v %+v, want %v", in, err, rows, want)
	}
	i := strings.IndexByte(in, '\n') + 1
	p, err := NewParser(strings.NewReader(in[i:]), Options{Format: CSV, Mapping: m})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.SetHeader([]byte(in[:i])); err != nil {
		t.Fatal(err)
	}
	var b Batch
	if err := p.Fill(&b); err != nil || b.Rows != 1 || !reflect.DeepEqual(batchRows(&b)[0].fields, want) {
		t.Errorf("%q with SetHeader: %v %+v", in, err, batchRows(&b))
	}
}

// TestCSVHeaderNames: a header's empty names become column<i> (pandas
// writes its index column without a name) and repeated ones get _1,
// _2...: no row fails for its header, whole or with SetHeader.
func TestCSVHeaderNames(t *testing.T) {
	for _, c := range []struct {
		in   string
		want map[string]any
	}{
		{",ts,v\n0,1000,1\n", map[string]any{"column0": int64(0), "v": int64(1)}},
		{"ts,a,a,a_1,\n1000,1,2,3,4\n", map[string]any{"a": int64(1), "a_1": int64(2), "a_1_1": int64(3), "column4": int64(4)}},
	} {
		checkCSVRow(t, c.in, mapping(t, "time=ts"), c.want)
	}
}

func TestGuess(t *testing.T) {
	for in, want := range map[string]Format{
		`[{"a":1}]`: JSONArray, `{"a":1}`: JSONLines, "a,b\n1,2": CSV, "cpu,h=a v=1 1": LineProtocol,
		"cpu v=1": LineProtocol, "up 1": Prometheus, `up{a="b"} 1`: Prometheus, "# TYPE x gauge": Prometheus,
		"up NaN 17": Prometheus, "ts\tvalue\n1\t2": CSV, "ts value\n1 2": CSV, "ts;value\n1;2": CSV,
	} {
		if got := GuessContent([]byte(in)); got != want {
			t.Errorf("%q: %v, want %v", in, got, want)
		}
	}
	if FormatFromPath("x.ndjson") != JSONLines || FormatFromPath("a/b.CSV") != CSV || FormatFromPath("x.tsv") != CSV || FormatFromPath("x.bin") != Guess {
		t.Fatal("FormatFromPath")
	}
}

// TestTextTimes: without a layout, a text time is read in RFC 3339 and
// the forms CSV files and the query language use: a space for the 'T',
// no zone (UTC), a date alone, a fraction of a second, no seconds; what
// no default layout reads (TestOtherTextTimes lists them) is a bad row
// naming the field.
func TestTextTimes(t *testing.T) {
	for in, want := range map[string]string{
		"2014-02-14T14:27:00Z":          "2014-02-14T14:27:00Z",
		"2014-02-14T14:27:00.25+01:00":  "2014-02-14T13:27:00.25Z",
		"2014-02-14 14:27:00":           "2014-02-14T14:27:00Z",
		"2014-02-14 14:27:00.123456789": "2014-02-14T14:27:00.123456789Z",
		"2014-02-14 14:27:00-05:00":     "2014-02-14T19:27:00Z",
		"2014-02-14T14:27:00":           "2014-02-14T14:27:00Z",
		"2014-02-14":                    "2014-02-14T00:00:00Z",
		"2014-02-14 14:27":              "2014-02-14T14:27:00Z",
	} {
		rows, _, err := parseAll(t, "ts\n"+in+"\n", Options{Format: CSV, Mapping: mapping(t, "time=ts")})
		if err != nil || len(rows) != 1 {
			t.Fatalf("%q: %v", in, err)
		}
		if got := time.Unix(0, rows[0].t).UTC().Format(time.RFC3339Nano); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
	for _, bad := range []string{"14/02/2014", "2014-02-14T25:00:00Z", "yesterday", "2014-02-14 14"} {
		_, _, err := parseAll(t, "ts\n"+bad+"\n", Options{Format: CSV, Mapping: mapping(t, "time=ts")})
		var pe *Error
		if !errors.As(err, &pe) || pe.Line != 2 || !strings.Contains(pe.Msg, `time field "ts"`) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestTimeOutOfRange: a time string int64 nanoseconds cannot hold
// (before 1677-09-21 or after 2262-04-11, with the default or a given
// layout) fails its row with an error naming the line, instead of
// wrapping around to another time; the bounds themselves are read.
func TestTimeOutOfRange(t *testing.T) {
	for _, c := range []struct{ in, layout string }{
		{"ts,v\n2014-01-01T00:00:00Z,1\n0001-01-01T00:00:00Z,2\n", ""},
		{"ts,v\n2014-01-01T00:00:00Z,1\n2500-01-01T00:00:00Z,2\n", ""},
		{"ts,v\n2014-01-01 00:00:00,1\n1500-06-01 00:00:00,2\n", "2006-01-02 15:04:05"},
	} {
		kvs := []string{"time=ts"}
		if c.layout != "" {
			kvs = append(kvs, "time.layout="+c.layout)
		}
		_, _, err := parseAll(t, c.in, Options{Format: CSV, Mapping: mapping(t, kvs...)})
		var pe *Error
		if !errors.As(err, &pe) || pe.Line != 3 || !strings.Contains(err.Error(), "out of range") {
			t.Fatalf("%q: %v", c.in, err)
		}
		rows, p, err := parseAll(t, c.in, Options{Format: CSV, Mapping: mapping(t, kvs...), SkipBad: true})
		if err != nil || len(rows) != 1 || p.Rejected() != 1 || rows[0].t != 1388534400e9 {
			t.Fatalf("%q with SkipBad: %v %+v", c.in, err, rows)
		}
	}
	rows, _, err := parseAll(t, "ts\n1677-09-21T00:12:43.145224192Z\n2262-04-11T23:47:16.854775807Z\n", Options{Format: CSV, Mapping: mapping(t, "time=ts")})
	if err != nil || len(rows) != 2 || rows[0].t != math.MinInt64 || rows[1].t != math.MaxInt64 {
		t.Fatalf("the bounds: %v %+v", err, rows)
	}
}

func TestErrorsAndSkipBad(t *testing.T) {
	in := "{\"t\":1}\n{\"t\":2}\n{bad json\n{\"t\":\"x\"}\n{\"t\":5}\n"
	m := mapping(t, "time=t")
	_, _, err := parseAll(t, in, Options{Mapping: m})
	var pe *Error
	if !errors.As(err, &pe) || pe.Line != 3 || pe.Offset != 16 || pe.Snippet != "{bad json" {
		t.Fatalf("%v", err)
	}
	if !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "byte offset 16") {
		t.Fatalf("%v", err)
	}
	var rej bytes.Buffer
	rows, p, err := parseAll(t, in, Options{Mapping: m, SkipBad: true, Rejects: &rej})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || p.Rejected() != 2 || rej.String() != "{bad json\n{\"t\":\"x\"}\n" {
		t.Fatalf("rows %d rejected %d %q", len(rows), p.Rejected(), rej.String())
	}
	// a bad row leaves no trace in the batch
	in2 := "{\"t\":1,\"a\":1}\n{\"a\":\"x\",\"b\":2}\n{\"t\":3,\"a\":2}\n"
	rows, _, err = parseAll(t, in2, Options{Mapping: m, SkipBad: true})
	if err != nil || len(rows) != 2 || rows[1].fields["a"] != int64(2) || len(rows[1].fields) != 1 {
		t.Fatalf("%v %+v", err, rows)
	}
	// unmapped op value
	_, _, err = parseAll(t, `{"o":"frob"}`, Options{Mapping: mapping(t, "op=o")})
	if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "op value") {
		t.Fatalf("%v", err)
	}
	// line too long
	_, _, err = parseAll(t, `{"a":"`+strings.Repeat("x", 100)+`"}`+"\n{}\n", Options{MaxLineBytes: 50, BufferBytes: 16})
	if !errors.As(err, &pe) || pe.Line != 1 {
		t.Fatalf("%v", err)
	}
}

func TestLongLines(t *testing.T) {
	var sb strings.Builder
	for i := range 50 {
		sb.WriteString(`{"t":` + strings.Repeat(" ", i*7) + `1,"s":"` + strings.Repeat("y", i*13) + "\"}\n")
	}
	rows, _, err := parseAll(t, sb.String(), Options{BufferBytes: 64, Mapping: mapping(t, "time=t")})
	if err != nil || len(rows) != 50 {
		t.Fatalf("%v %d", err, len(rows))
	}
	for i, r := range rows {
		if r.fields["s"] != strings.Repeat("y", i*13) {
			t.Fatalf("row %d", i)
		}
	}
}

func TestBatchBounds(t *testing.T) {
	var sb strings.Builder
	for i := range 1000 {
		sb.WriteString(`{"a":1,"f` + string(rune('a'+i%26)) + `":2}` + "\n")
	}
	p, err := NewParser(strings.NewReader(sb.String()), Options{BatchRows: 100})
	if err != nil {
		t.Fatal(err)
	}
	var b Batch
	n, total := 0, int64(0)
	for {
		err := p.Fill(&b)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if b.Rows > 100 {
			t.Fatalf("batch of %d", b.Rows)
		}
		n += b.Rows
		total += b.Bytes
	}
	if n != 1000 || total != int64(sb.Len()) {
		t.Fatalf("%d rows %d bytes of %d", n, total, sb.Len())
	}
}

func TestMappingFile(t *testing.T) {
	m, err := ParseMapping(strings.NewReader("# osm\ntime = ts_ms\nkey=type,id\nop=action\nop.create=put\nop.modify=put\nop.delete=delete\ntype.version=int64\n"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Time != "ts_ms" || m.Key != "type,id" || m.OpValues["delete"] != "delete" || m.Types["version"] != "int64" {
		t.Fatalf("%+v", m)
	}
	if _, err := ParseMapping(strings.NewReader("x\n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Fatal(err)
	}
	if err := m.Set("op.x=frob"); err == nil {
		t.Fatal("bad op accepted")
	}
}

func sharedFile(t *testing.T, name string) *os.File {
	f, err := os.Open("../../shared/data/" + name)
	if err != nil {
		t.Skipf("shared data absent: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestRealOSMDiff(t *testing.T) {
	f := sharedFile(t, "events/osm_ch_diff_2013-04-10.jsonl")
	p, err := NewParser(f, Options{Mapping: mapping(t, "time=ts_ms", "series=type", "key=type,id", "op=action", "op.create=put", "op.modify=put", "op.delete=delete")})
	if err != nil {
		t.Fatal(err)
	}
	var b Batch
	ops := map[Op]int{}
	for {
		err := p.Fill(&b)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range b.Op[:b.Rows] {
			ops[op]++
		}
	}
	if ops[OpPut] != 1163+185 || ops[OpDelete] != 16778 {
		t.Fatalf("%v", ops)
	}
}

// TestBatchesInTurn fills several batches in turn, as the import's
// pipeline does, and checks that no row lands in another batch.
func TestBatchesInTurn(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("s,t,v\n")
	for i := range 100 {
		sb.WriteString("a," + strconv.Itoa(i) + "," + strconv.Itoa(i) + ".5\n")
	}
	p, err := NewParser(strings.NewReader(sb.String()), Options{BatchRows: 7, Mapping: mapping(t, "series=s", "time=t")})
	if err != nil {
		t.Fatal(err)
	}
	bs := make([]Batch, 3)
	n := 0
	for k := 0; ; k++ {
		b := &bs[k%3]
		err := p.Fill(b)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range batchRows(b) {
			if r.fields["v"] != float64(n)+0.5 || r.t != int64(n)*1e6 {
				t.Fatalf("row %d: %+v", n, r)
			}
			n++
		}
	}
	if n != 100 {
		t.Fatalf("%d rows", n)
	}
}

// TestChunks parses an input cut into chunks by a Chunker with one
// parser reset per chunk: the rows and the error positions are those of
// a parse of the whole input.
func TestChunks(t *testing.T) {
	var sb strings.Builder
	for i := range 3000 {
		sb.WriteString(`{"t":` + strconv.Itoa(i) + `,"pad":"` + strings.Repeat("x", i%50) + "\"}\n")
	}
	sb.WriteString("{bad\n")
	in := sb.String()
	o := Options{Format: JSONLines, Mapping: mapping(t, "time=t")}
	_, _, wantErr := parseAll(t, in, o)
	c := NewChunker(strings.NewReader(in), JSONLines, 1000, 1<<20, 0, 0)
	p, err := NewParser(strings.NewReader(""), o)
	if err != nil {
		t.Fatal(err)
	}
	var buf []byte
	n := 0
	var b Batch
	for {
		chunk, line, off, err := c.Next(buf)
		if err == io.EOF {
			t.Fatal("no error")
		}
		if err != nil {
			t.Fatal(err)
		}
		buf = chunk
		p.ResetChunk(chunk, line, off)
		for {
			err := p.Fill(&b)
			if err == io.EOF {
				break
			}
			if err != nil {
				if err.Error() != wantErr.Error() || n < 2900 {
					t.Fatalf("%v after %d rows, want %v", err, n, wantErr)
				}
				return
			}
			for _, r := range batchRows(&b) {
				if r.t != int64(n)*1e6 {
					t.Fatalf("row %d: %+v", n, r)
				}
				n++
			}
		}
	}
}

func TestParseInt(t *testing.T) {
	for _, s := range []string{"0", "-1", "+7", "123456789012345678", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "", "-", "1.5", "1e3", "12a", "00012"} {
		want, err := strconv.ParseInt(s, 10, 64)
		got, ok := parseInt([]byte(s))
		if ok != (err == nil) || ok && got != want {
			t.Errorf("%q: %d %v, strconv %d %v", s, got, ok, want, err)
		}
	}
}
