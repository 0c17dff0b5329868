package render

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/tsqdb/tsq/query"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// sample builds batches with the raw view's column types: seq, time,
// dictionary series, key, dictionary op, then int, float, string, bool and
// binary fields with nulls.
func sample(t *testing.T, rows int, batches int) array.RecordReader {
	t.Helper()
	mem := memory.NewGoAllocator()
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "seq", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "time", Type: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}},
		{Name: "series", Type: dict},
		{Name: "key", Type: arrow.BinaryTypes.String},
		{Name: "op", Type: dict},
		{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "value", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "status", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "raw", Type: arrow.BinaryTypes.Binary, Nullable: true},
	}, nil)
	var recs []arrow.RecordBatch
	seq := uint64(1)
	for b := 0; b < batches; b++ {
		bld := array.NewRecordBuilder(mem, schema)
		for i := 0; i < rows; i++ {
			bld.Field(0).(*array.Uint64Builder).Append(seq)
			bld.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(1700000000e9 + int64(seq)*1500e6))
			bld.Field(2).(*array.BinaryDictionaryBuilder).AppendString([]string{`cpu{host="a"}`, `cpu{host="b"}`}[seq%2])
			bld.Field(3).(*array.StringBuilder).Append("")
			bld.Field(4).(*array.BinaryDictionaryBuilder).AppendString([]string{"put", "delete"}[min(seq%5, 1)])
			if seq%3 == 0 {
				bld.Field(5).AppendNull()
			} else {
				bld.Field(5).(*array.Int64Builder).Append(int64(seq) * -1000)
			}
			switch seq % 4 {
			case 0:
				bld.Field(6).AppendNull()
			case 1:
				bld.Field(6).(*array.Float64Builder).Append(math.NaN())
			default:
				bld.Field(6).(*array.Float64Builder).Append(float64(seq) / 3)
			}
			if seq%2 == 0 {
				bld.Field(7).AppendNull()
			} else {
				bld.Field(7).(*array.StringBuilder).Append("open, \"quoted\"")
			}
			bld.Field(8).(*array.BooleanBuilder).Append(seq%2 == 1)
			bld.Field(9).(*array.BinaryBuilder).Append([]byte{byte(seq), 0xff})
			seq++
		}
		recs = append(recs, bld.NewRecordBatch())
		bld.Release()
	}
	rr, err := array.NewRecordReader(schema, recs)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		r.Release()
	}
	return rr
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestModes(t *testing.T) {
	for _, m := range []Mode{Table, CSV, JSON, Line, JSONL, Logfmt, Markdown} {
		t.Run(m.String(), func(t *testing.T) {
			rr := sample(t, 3, 2)
			defer rr.Release()
			var buf bytes.Buffer
			n, err := Write(&buf, rr, Options{Mode: m})
			if err != nil {
				t.Fatal(err)
			}
			if n != 6 {
				t.Fatalf("rows %d, want 6", n)
			}
			golden(t, m.String(), buf.Bytes())
		})
	}
}

func TestTruncate(t *testing.T) {
	rr := sample(t, 10, 3)
	defer rr.Release()
	var buf bytes.Buffer
	n, err := Write(&buf, rr, Options{Mode: Table, MaxRows: 4})
	if err != nil || n != 30 {
		t.Fatalf("n=%d err=%v", n, err)
	}
	out := buf.String()
	if !strings.Contains(out, "… 26 more rows (30 in all") {
		t.Fatalf("no truncation count:\n%s", out)
	}
	if strings.Count(out, "cpu{host=") != 4 {
		t.Fatalf("want 4 rows shown:\n%s", out)
	}
}

func TestTableTypesAndAlignment(t *testing.T) {
	rr := sample(t, 2, 1)
	defer rr.Release()
	var buf bytes.Buffer
	if _, err := Write(&buf, rr, Options{Mode: Table, Color: true}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"timestamp", "uint64", "2023-11-14T22:13:21.5Z", "\x1b[2mNULL"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestJSONEmpty(t *testing.T) {
	rr := sample(t, 0, 1)
	defer rr.Release()
	var buf bytes.Buffer
	if _, err := Write(&buf, rr, Options{Mode: JSON}); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "[]\n" {
		t.Fatalf("got %q", buf.String())
	}
}

func TestParseMode(t *testing.T) {
	for _, s := range []string{"table", "CSV", "json", "line"} {
		if _, err := ParseMode(s); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseMode("html"); err == nil || !strings.Contains(err.Error(), "html") {
		t.Fatalf("err %v", err)
	}
}

// TestExplainPlain: an EXPLAIN plan prints as whole lines in table mode,
// however long, and stays a one-column table in the other modes.
func TestExplainPlain(t *testing.T) {
	long := "filter: " + strings.Repeat("series = 'x' OR ", 10) + "true"
	plan := func() array.RecordReader {
		b := array.NewRecordBuilder(memory.NewGoAllocator(), query.ExplainSchema)
		defer b.Release()
		b.Field(0).(*array.StringBuilder).AppendValues([]string{"stream cpu (raw view)", long}, nil)
		rec := b.NewRecordBatch()
		defer rec.Release()
		rr, err := array.NewRecordReader(query.ExplainSchema, []arrow.RecordBatch{rec})
		if err != nil {
			t.Fatal(err)
		}
		return rr
	}
	var buf bytes.Buffer
	rr := plan()
	if n, err := Write(&buf, rr, Options{Mode: Table}); err != nil || n != 2 {
		t.Fatalf("n=%d err=%v", n, err)
	}
	rr.Release()
	if want := "stream cpu (raw view)\n" + long + "\n"; buf.String() != want {
		t.Fatalf("table mode:\n%q\nwant\n%q", buf.String(), want)
	}
	buf.Reset()
	rr = plan()
	defer rr.Release()
	if _, err := Write(&buf, rr, Options{Mode: CSV}); err != nil || !strings.HasPrefix(buf.String(), "plan\n") {
		t.Fatalf("csv mode: %v\n%s", err, buf.String())
	}
}

// TestMarkdownCell: a cell's | is escaped and its line breaks become
// spaces, so a row stays one line of the table.
func TestMarkdownCell(t *testing.T) {
	if got := markdownCell("a|b\r\nc\nd"); got != `a\|b c d` {
		t.Errorf("markdownCell = %q", got)
	}
	if m, err := ParseMode("Markdown"); err != nil || m != Markdown {
		t.Errorf("ParseMode(Markdown) = %v, %v", m, err)
	}
}

// TestFloatText: floats print without an exponent from 1e-4 up to 1e21
// (an epoch in seconds reads 1392388200) and float32 values with
// float32's digits, in every text mode.
func TestFloatText(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{{Name: "d", Type: arrow.PrimitiveTypes.Float64}, {Name: "f", Type: arrow.PrimitiveTypes.Float32}}, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), sc)
	defer b.Release()
	b.Field(0).(*array.Float64Builder).AppendValues([]float64{1392388200, 1.5333060620408162e7, 1e21, 2.5e-5}, nil)
	b.Field(1).(*array.Float32Builder).AppendValues([]float32{0.1, 16777216, 3.5, 1e-5}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	rr, err := array.NewRecordReader(sc, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var buf bytes.Buffer
	if _, err := Write(&buf, rr, Options{Mode: CSV}); err != nil {
		t.Fatal(err)
	}
	want := "d,f\n1392388200,0.1\n15333060.620408162,16777216\n1e+21,3.5\n2.5e-05,1e-05\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}
