package ingest

import (
	"bytes"
	"errors"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/tsqdb/tsq/chunk"
)

// arrowIPC writes recs as an Arrow IPC stream, or file when file is set.
func arrowIPC(t testing.TB, file bool, recs ...arrow.RecordBatch) []byte {
	return arrowIPCWith(t, file, nil, recs...)
}

// arrowIPCWith is arrowIPC with a writer option (a compression).
func arrowIPCWith(t testing.TB, file bool, opt ipc.Option, recs ...arrow.RecordBatch) []byte {
	t.Helper()
	opts := []ipc.Option{ipc.WithSchema(recs[0].Schema())}
	if opt != nil {
		opts = append(opts, opt)
	}
	var buf bytes.Buffer
	type writer interface {
		Write(arrow.RecordBatch) error
		Close() error
	}
	var w writer
	if file {
		fw, err := ipc.NewFileWriter(&buf, opts...)
		if err != nil {
			t.Fatal(err)
		}
		w = fw
	} else {
		w = ipc.NewWriter(&buf, opts...)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// typesRecord is a record of two rows with a column of each Arrow type
// the parser reads, the second row null in every nullable column but
// "i8".
func typesRecord(t testing.TB) arrow.RecordBatch {
	mem := memory.NewGoAllocator()
	ts := func(u arrow.TimeUnit, tz string) arrow.DataType { return &arrow.TimestampType{Unit: u, TimeZone: tz} }
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	point := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, arrow.Field{Name: "y", Type: arrow.BinaryTypes.String, Nullable: true})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i8", Type: arrow.PrimitiveTypes.Int8},
		{Name: "i16", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "u8", Type: arrow.PrimitiveTypes.Uint8, Nullable: true},
		{Name: "u16", Type: arrow.PrimitiveTypes.Uint16, Nullable: true},
		{Name: "u32", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
		{Name: "u64", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
		{Name: "f16", Type: arrow.FixedWidthTypes.Float16, Nullable: true},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ls", Type: arrow.BinaryTypes.LargeString, Nullable: true},
		{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "ts_s", Type: ts(arrow.Second, "UTC"), Nullable: true},
		{Name: "ts_us", Type: ts(arrow.Microsecond, ""), Nullable: true},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "day64", Type: arrow.FixedWidthTypes.Date64, Nullable: true},
		{Name: "took", Type: arrow.FixedWidthTypes.Duration_ms, Nullable: true},
		{Name: "price", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
		{Name: "cat", Type: dict, Nullable: true},
		{Name: "pt", Type: point, Nullable: true},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "nothing", Type: arrow.Null, Nullable: true},
		{Name: "", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "time", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	t0 := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	b.Field(0).(*array.Int8Builder).AppendValues([]int8{-8, 8}, nil)
	b.Field(1).(*array.Int16Builder).Append(-16)
	b.Field(2).(*array.Int32Builder).Append(-32)
	b.Field(3).(*array.Int64Builder).Append(math.MinInt64)
	b.Field(4).(*array.Uint8Builder).Append(255)
	b.Field(5).(*array.Uint16Builder).Append(65535)
	b.Field(6).(*array.Uint32Builder).Append(math.MaxUint32)
	b.Field(7).(*array.Uint64Builder).Append(math.MaxUint64)
	b.Field(8).(*array.Float16Builder).Append(float16.New(1.5))
	b.Field(9).(*array.Float32Builder).Append(0.1)
	b.Field(10).(*array.Float64Builder).Append(math.Pi)
	b.Field(11).(*array.BooleanBuilder).Append(true)
	b.Field(12).(*array.StringBuilder).Append("héllo")
	b.Field(13).(*array.LargeStringBuilder).Append("large")
	b.Field(14).(*array.BinaryBuilder).Append([]byte{0, 1, 0xff})
	b.Field(15).(*array.TimestampBuilder).Append(arrow.Timestamp(t0.Unix()))
	b.Field(16).(*array.TimestampBuilder).Append(arrow.Timestamp(t0.UnixMicro() + 5))
	b.Field(17).(*array.Date32Builder).Append(arrow.Date32FromTime(t0))
	b.Field(18).(*array.Date64Builder).Append(arrow.Date64FromTime(t0))
	b.Field(19).(*array.DurationBuilder).Append(1500)
	b.Field(20).(*array.Decimal128Builder).Append(decimal128.FromI64(12345))
	if err := b.Field(21).(*array.BinaryDictionaryBuilder).AppendString("red"); err != nil {
		t.Fatal(err)
	}
	sb := b.Field(22).(*array.StructBuilder)
	sb.Append(true)
	sb.FieldBuilder(0).(*array.Int32Builder).Append(3)
	sb.FieldBuilder(1).(*array.StringBuilder).Append("north")
	lb := b.Field(23).(*array.ListBuilder)
	lb.Append(true)
	lb.ValueBuilder().(*array.StringBuilder).AppendValues([]string{"a", "b"}, nil)
	b.Field(24).(*array.NullBuilder).AppendNull()
	b.Field(25).(*array.Int64Builder).Append(25)
	b.Field(26).(*array.Int64Builder).Append(1000)
	for i := 1; i < len(schema.Fields()); i++ {
		b.Field(i).AppendNull()
	}
	return b.NewRecordBatch()
}

// TestArrowTypes: each Arrow type becomes the column type and value the
// parser's documentation gives, as a stream and as a file, with bodies
// plain or compressed (zstd, LZ4), and a null leaves the row without the
// field.
func TestArrowTypes(t *testing.T) {
	rec := typesRecord(t)
	defer rec.Release()
	t0 := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	want := map[string]struct {
		typ chunk.Type
		v   any
	}{
		"i8": {chunk.Int64, int64(-8)}, "i16": {chunk.Int64, int64(-16)}, "i32": {chunk.Int64, int64(-32)},
		"i64": {chunk.Int64, int64(math.MinInt64)}, "u8": {chunk.Int64, int64(255)}, "u16": {chunk.Int64, int64(65535)},
		"u32": {chunk.Int64, int64(math.MaxUint32)}, "u64": {chunk.Float64, float64(math.MaxUint64)},
		"f16": {chunk.Float64, 1.5}, "f32": {chunk.Float64, 0.1}, "f64": {chunk.Float64, math.Pi},
		"ok": {chunk.Bool, true}, "s": {chunk.String, "héllo"}, "ls": {chunk.String, "large"},
		"bin": {chunk.String, "\x00\x01\xff"}, "ts_s": {chunk.String, "2024-05-06T07:08:09Z"},
		"ts_us": {chunk.String, "2024-05-06T07:08:09.000005Z"}, "day": {chunk.String, "2024-05-06"},
		"day64": {chunk.String, "2024-05-06"}, "took": {chunk.Int64, int64(1500 * time.Millisecond)},
		"price": {chunk.Float64, 123.45}, "cat": {chunk.String, "red"}, "pt.x": {chunk.Int64, int64(3)},
		"pt.y": {chunk.String, "north"}, "tags": {chunk.String, `["a","b"]`}, "column25": {chunk.Int64, int64(25)},
		"time_": {chunk.Int64, int64(1000)},
	}
	for k, comp := range []ipc.Option{nil, nil, ipc.WithZstd(), ipc.WithLZ4()} {
		file := k%2 == 1
		in := arrowIPCWith(t, file, comp, rec)
		p, err := NewParser(bytes.NewReader(in), Options{Now: t0.UnixNano()})
		if err != nil {
			t.Fatal(err)
		}
		if p.Format() != Arrow {
			t.Fatalf("file %v: format %v", file, p.Format())
		}
		var b Batch
		if err := p.Fill(&b); err != nil {
			t.Fatal(err)
		}
		if b.Rows != 2 || p.Lines() != 2 {
			t.Fatalf("file %v: %d rows (%d read), want 2", file, b.Rows, p.Lines())
		}
		got := map[string]bool{}
		for _, c := range b.Cols {
			w, ok := want[c.Name]
			if !ok {
				t.Errorf("file %v: unexpected column %q", file, c.Name)
				continue
			}
			got[c.Name] = true
			if c.Type != w.typ {
				t.Errorf("file %v: column %q is %v, want %v", file, c.Name, c.Type, w.typ)
				continue
			}
			if !c.Valid[0] || (c.Name != "i8" && c.Valid[1]) {
				t.Errorf("file %v: column %q validity %v", file, c.Name, c.Valid)
			}
			var v any
			switch c.Type {
			case chunk.Int64:
				v = c.Ints[0]
			case chunk.Float64:
				v = c.Floats[0]
			case chunk.Bool:
				v = c.Bools[0]
			case chunk.String:
				v = b.Str(c.Strs[0])
			}
			if v != w.v {
				t.Errorf("file %v: column %q = %#v, want %#v", file, c.Name, v, w.v)
			}
		}
		for name := range want {
			if !got[name] {
				t.Errorf("file %v: no column %q", file, name)
			}
		}
		if b.Time[0] != t0.UnixNano() || b.Op[0] != OpPut {
			t.Errorf("file %v: time %d op %v", file, b.Time[0], b.Op[0])
		}
		if err := p.Fill(&b); err != io.EOF {
			t.Fatalf("file %v: after the last row: %v", file, err)
		}
		if p.Offset() != int64(len(in)) {
			t.Errorf("file %v: read %d of %d bytes", file, p.Offset(), len(in))
		}
	}
}

// TestArrowMapping: typed times become the record's time exactly,
// whatever their unit; the series, key and op map as in other formats;
// a row with a bad op fails naming its row and showing it as JSON, or
// goes to the rejects with SkipBad; rows span record batches and parser
// batches.
func TestArrowMapping(t *testing.T) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "Europe/Paris"}},
		{Name: "host", Type: arrow.BinaryTypes.String},
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "action", Type: arrow.BinaryTypes.String},
		{Name: "v", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	t0 := time.Date(2024, 1, 2, 3, 4, 5, 6e6, time.UTC)
	batch := func(from int, actions ...string) arrow.RecordBatch {
		b := array.NewRecordBuilder(mem, schema)
		defer b.Release()
		for i, a := range actions {
			n := from + i
			b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(t0.UnixMilli() + int64(n)))
			b.Field(1).(*array.StringBuilder).Append([]string{"a", "b"}[n%2])
			b.Field(2).(*array.Int64Builder).Append(int64(n))
			b.Field(3).(*array.StringBuilder).Append(a)
			b.Field(4).(*array.Float64Builder).Append(float64(n) / 4)
		}
		return b.NewRecordBatch()
	}
	r1, r2 := batch(0, "create", "modify", "delete"), batch(3, "create", "frobnicate", "drop", "create")
	defer r1.Release()
	defer r2.Release()
	in := arrowIPC(t, false, r1, r2)
	m := Mapping{Time: "at", Series: "host", Key: "host,id", Op: "action"}

	p, err := NewParser(bytes.NewReader(in), Options{Mapping: m, BatchRows: 2})
	if err != nil {
		t.Fatal(err)
	}
	var b Batch
	var rows int
	for {
		err = p.Fill(&b)
		if err != nil {
			break
		}
		for i := range b.Rows {
			n := rows + i
			if b.Time[i] != t0.UnixNano()+int64(n)*1e6 || b.Str(b.Series[i]) != []string{"a", "b"}[n%2] {
				t.Fatalf("row %d: time %d series %q", n, b.Time[i], b.Str(b.Series[i]))
			}
		}
		rows += b.Rows
	}
	var pe *Error
	if !errors.As(err, &pe) || pe.Line != 5 || !strings.Contains(pe.Error(), `op value "frobnicate" is not mapped`) ||
		!strings.Contains(pe.Error(), `row 5 (of the record batch at byte offset`) || !strings.Contains(pe.Snippet, `"action":"frobnicate"`) || rows != 4 {
		t.Fatalf("after %d rows: %v", rows, err)
	}

	// The offset is that of the batch's message, in a stream and in a
	// file (after its magic), read through a pipe a few bytes at a time.
	for _, src := range [][]byte{in, arrowIPC(t, true, r1, r2)} {
		p, err := NewParser(iotest.OneByteReader(bytes.NewReader(src)), Options{Mapping: m})
		if err != nil {
			t.Fatal(err)
		}
		for err == nil {
			err = p.Fill(&b)
		}
		if !errors.As(err, &pe) || pe.Line != 5 || pe.Offset <= 8 || !bytes.HasPrefix(src[pe.Offset:], []byte{0xff, 0xff, 0xff, 0xff}) {
			t.Fatalf("%v: the offset is not a message's", err)
		}
	}

	var rejects bytes.Buffer
	p, err = NewParser(bytes.NewReader(in), Options{Mapping: m, SkipBad: true, Rejects: &rejects})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Fill(&b); err != nil {
		t.Fatal(err)
	}
	ops := []Op{OpPut, OpPut, OpDelete, OpPut, OpDrop, OpPut}
	if b.Rows != len(ops) || p.Rejected() != 1 || !strings.HasPrefix(rejects.String(), `{"at":"2024-01-02`) || !strings.Contains(rejects.String(), `"id":4,"action":"frobnicate","v":1}`) {
		t.Fatalf("%d rows, %d rejected: %q", b.Rows, p.Rejected(), rejects.String())
	}
	for i, op := range ops {
		if b.Op[i] != op {
			t.Errorf("row %d: op %v, want %v", i, b.Op[i], op)
		}
	}
	if got := b.Str(b.Key[5]); got != "a/6" {
		t.Errorf("last key %q", got)
	}
}

// TestArrowTsqSchema: tsq's own raw schema (seq, time, series, key, op)
// maps itself when the mapping names none of its columns (seq dropped),
// so does a time and series alone (a seq of int64 is not tsq's, kept),
// and a mapping that names one keeps them as fields.
func TestArrowTsqSchema(t *testing.T) {
	mem := memory.NewGoAllocator()
	opType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	serType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "seq", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "time", Type: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}},
		{Name: "series", Type: serType},
		{Name: "key", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "op", Type: opType},
		{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	b.Field(0).(*array.Uint64Builder).AppendValues([]uint64{7, 9}, nil)
	b.Field(1).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{123456789, 987654321}, nil)
	for _, s := range []string{"cpu", "mem"} {
		if err := b.Field(2).(*array.BinaryDictionaryBuilder).AppendString(s); err != nil {
			t.Fatal(err)
		}
	}
	b.Field(3).(*array.StringBuilder).AppendNull()
	b.Field(3).(*array.StringBuilder).Append("k1")
	for _, s := range []string{"put", "delete"} {
		if err := b.Field(4).(*array.BinaryDictionaryBuilder).AppendString(s); err != nil {
			t.Fatal(err)
		}
	}
	b.Field(5).(*array.Int64Builder).Append(42)
	b.Field(5).AppendNull()
	rec := b.NewRecordBatch()
	b.Release()
	defer rec.Release()
	in := arrowIPC(t, true, rec)

	for _, timeField := range []string{"", "time"} {
		p, err := NewParser(bytes.NewReader(in), Options{Mapping: Mapping{Time: timeField}})
		if err != nil {
			t.Fatal(err)
		}
		var bt Batch
		if err := p.Fill(&bt); err != nil {
			t.Fatal(err)
		}
		if bt.Rows != 2 || bt.Time[0] != 123456789 || bt.Time[1] != 987654321 || bt.Str(bt.Series[1]) != "mem" ||
			bt.Str(bt.Key[0]) != "" || bt.Str(bt.Key[1]) != "k1" || bt.Op[0] != OpPut || bt.Op[1] != OpDelete {
			t.Fatalf("time %q: rows %d times %v ops %v", timeField, bt.Rows, bt.Time, bt.Op)
		}
		if len(bt.Cols) != 1 || bt.Cols[0].Name != "v" {
			t.Fatalf("time %q: columns %v", timeField, colNames(&bt))
		}
	}
	// SELECT time, series, value: the time and series are the record's
	part := arrow.NewSchema([]arrow.Field{schema.Field(1), schema.Field(2), {Name: "seq", Type: arrow.PrimitiveTypes.Int64}}, nil)
	pb := array.NewRecordBuilder(mem, part)
	pb.Field(0).(*array.TimestampBuilder).Append(42)
	if err := pb.Field(1).(*array.BinaryDictionaryBuilder).AppendString("disk"); err != nil {
		t.Fatal(err)
	}
	pb.Field(2).(*array.Int64Builder).Append(7)
	prec := pb.NewRecordBatch()
	pb.Release()
	defer prec.Release()
	pp, err := NewParser(bytes.NewReader(arrowIPC(t, false, prec)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var pbt Batch
	if err := pp.Fill(&pbt); err != nil {
		t.Fatal(err)
	}
	if pbt.Rows != 1 || pbt.Time[0] != 42 || pbt.Str(pbt.Series[0]) != "disk" || len(pbt.Cols) != 1 || pbt.Cols[0].Name != "seq_" {
		t.Fatalf("time and series only: time %v series %q columns %v", pbt.Time, pbt.Str(pbt.Series[0]), colNames(&pbt))
	}

	p, err := NewParser(bytes.NewReader(in), Options{Mapping: Mapping{Series: "series"}, Now: 5})
	if err != nil {
		t.Fatal(err)
	}
	var bt Batch
	if err := p.Fill(&bt); err != nil {
		t.Fatal(err)
	}
	names := colNames(&bt)
	slices.Sort(names)
	if got := strings.Join(names, ","); got != "key_,op_,seq_,time_,v" || bt.Time[0] != 5 {
		t.Fatalf("a mapping of series only: columns %s, time %d", got, bt.Time[0])
	}
}

func colNames(b *Batch) []string {
	var n []string
	for _, c := range b.Cols {
		n = append(n, c.Name)
	}
	return n
}

// TestArrowCut: an Arrow input cut anywhere, its bytes flipped, or a
// batch over the memory bound fails with an error that says so, never
// a panic and never a silent partial read; GuessContent, IsArrow and
// GuessTimeField see Arrow.
func TestArrowCut(t *testing.T) {
	rec := typesRecord(t)
	defer rec.Release()
	for _, file := range []bool{false, true} {
		in := arrowIPC(t, file, rec, rec)
		if GuessContent(in) != Arrow || !IsArrow(in) {
			t.Fatalf("file %v: not seen as Arrow", file)
		}
		if got := GuessTimeField(in, Guess); got != "ts_s" {
			t.Errorf("file %v: guessed time field %q, want ts_s (the first timestamp)", file, got)
		}
		for cut := 1; cut < len(in); cut++ {
			rows, err := parseArrow(in[:cut], 1<<20)
			if err == nil {
				t.Fatalf("file %v: cut at %d of %d read %d rows without an error", file, cut, len(in), rows)
			}
		}
		for i := 0; i < len(in); i += 3 {
			bad := bytes.Clone(in)
			bad[i] ^= 0x5a
			_, _ = parseArrow(bad, 1<<20) // no panic
		}
		if _, err := parseArrow(in, 1<<10); err == nil || !strings.Contains(err.Error(), "the import's bound for one batch") {
			t.Fatalf("file %v: a batch over the bound: %v", file, err)
		}
		if rows, err := parseArrow(in, 0); err != nil || rows != 4 {
			t.Fatalf("file %v: whole: %d rows, %v", file, rows, err)
		}
	}
	if GuessContent([]byte("\xff\xff\xff\xffabc")) == Arrow {
		t.Error("text after 0xffffffff seen as Arrow")
	}
}

func parseArrow(in []byte, maxRecord int) (rows int, err error) {
	p, err := NewParser(bytes.NewReader(in), Options{Format: Arrow, MaxRecordBytes: maxRecord, BatchRows: 64})
	if err != nil {
		return 0, err
	}
	var b Batch
	for range 1000 {
		if err := p.Fill(&b); err != nil {
			if err == io.EOF {
				return rows, nil
			}
			return rows, err
		}
		rows += b.Rows
	}
	return rows, errors.New("more than 1000 batches")
}

// FuzzArrow feeds any bytes to the Arrow parser (as a stream and after a
// file's magic): no panic, and no batch over the 1 MiB bound.
func FuzzArrow(f *testing.F) {
	rec := typesRecord(f)
	defer rec.Release()
	f.Add(arrowIPC(f, false, rec))
	f.Add(arrowIPC(f, true, rec))
	f.Fuzz(func(t *testing.T, in []byte) {
		_, _ = parseArrow(in, 1<<20)
		_, _ = parseArrow(append([]byte("ARROW1\x00\x00"), in...), 1<<20)
	})
}
