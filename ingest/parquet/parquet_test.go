package parquet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/ingest"
)

// parquetFile writes n rows (a timestamp, a dictionary-encoded host,
// an int with nulls, a float and a list) as Parquet in row groups of
// 1,000, with or without the Arrow schema stored.
func parquetFile(t testing.TB, n int, storeSchema bool) []byte {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
		{Name: "host", Type: arrow.BinaryTypes.String},
		{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "x", Type: arrow.PrimitiveTypes.Float64},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	t0 := time.Date(2024, 3, 4, 0, 0, 0, 0, time.UTC)
	for i := range n {
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(t0.UnixMicro() + int64(i)*1e6))
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("host%d", i%5))
		if i%3 == 0 {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.Int32Builder).Append(int32(i))
		}
		b.Field(3).(*array.Float64Builder).Append(float64(i) / 8)
		lb := b.Field(4).(*array.ListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.StringBuilder).Append(fmt.Sprint("t", i%2))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	aprops := pqarrow.NewArrowWriterProperties()
	if storeSchema {
		aprops = pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())
	}
	w, err := pqarrow.NewFileWriter(schema, &buf, parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithMaxRowGroupLength(1000), parquet.WithDictionaryDefault(true)), aprops)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// parseStream reads a Parquet file through NewStream and the ingest
// parser, the time from ts.
func parseStream(in []byte, batchBytes int) (rows []ingest.Batch, err error) {
	s, err := NewStream(context.Background(), bytes.NewReader(in), int64(len(in)), batchBytes)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	p, err := ingest.NewParser(s, ingest.Options{Mapping: ingest.Mapping{Time: "ts", Series: "host"}, BatchRows: 700})
	if err != nil {
		return nil, err
	}
	for range 1000 {
		var b ingest.Batch
		if err := p.Fill(&b); err != nil {
			if err == io.EOF {
				return rows, nil
			}
			return rows, err
		}
		rows = append(rows, b)
	}
	return rows, errors.New("more than 1000 batches")
}

// TestStream: every row of a Parquet file of several row groups comes
// through the stream and the ingest parser with its time, series and
// typed fields, whether the file stores its Arrow schema or not, and
// whatever the batch size.
func TestStream(t *testing.T) {
	const n = 2500
	t0 := time.Date(2024, 3, 4, 0, 0, 0, 0, time.UTC).UnixNano()
	for _, stored := range []bool{true, false} {
		in := parquetFile(t, n, stored)
		for _, batchBytes := range []int{1, 1 << 20} {
			batches, err := parseStream(in, batchBytes)
			if err != nil {
				t.Fatal(err)
			}
			i := 0
			for _, b := range batches {
				cols := map[string]*ingest.Col{}
				for _, c := range b.Cols {
					cols[c.Name] = c
				}
				if cols["n"] == nil || cols["n"].Type != chunk.Int64 || cols["x"].Type != chunk.Float64 || cols["tags"].Type != chunk.String {
					t.Fatalf("stored %v: columns %v", stored, cols)
				}
				for r := range b.Rows {
					if b.Time[r] != t0+int64(i)*1e9 || b.Str(b.Series[r]) != fmt.Sprintf("host%d", i%5) ||
						cols["n"].Valid[r] != (i%3 != 0) || cols["n"].Valid[r] && cols["n"].Ints[r] != int64(i) ||
						cols["x"].Floats[r] != float64(i)/8 || b.Str(cols["tags"].Strs[r]) != fmt.Sprintf(`["t%d"]`, i%2) {
						t.Fatalf("stored %v, batch bytes %d: row %d: time %d series %q", stored, batchBytes, i, b.Time[r], b.Str(b.Series[r]))
					}
					i++
				}
			}
			if i != n {
				t.Fatalf("stored %v, batch bytes %d: %d rows, want %d", stored, batchBytes, i, n)
			}
		}
	}
}

// TestStreamCorrupt: a Parquet file cut short or with bytes changed
// fails with an error (from NewStream or from reading the stream),
// never a panic; a file cut anywhere never reads as whole.
func TestStreamCorrupt(t *testing.T) {
	in := parquetFile(t, 2500, true)
	whole, err := parseStream(in, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	rows := func(bs []ingest.Batch) (n int) {
		for _, b := range bs {
			n += b.Rows
		}
		return n
	}
	for cut := 0; cut < len(in); cut += 97 {
		if bs, err := parseStream(in[:cut], 1<<20); err == nil {
			t.Fatalf("cut at %d of %d: %d rows, no error", cut, len(in), rows(bs))
		}
	}
	changed := 0
	for i := 0; i < len(in); i += 31 {
		bad := bytes.Clone(in)
		bad[i] ^= 0xa5
		bs, err := parseStream(bad, 1<<20)
		if err != nil || rows(bs) != rows(whole) {
			changed++
		}
	}
	if changed == 0 {
		t.Fatal("no changed byte was noticed")
	}
}

// FuzzStream reads any bytes as a Parquet file through the stream and
// the ingest parser: no panic, whatever the bytes.
func FuzzStream(f *testing.F) {
	f.Add(parquetFile(f, 30, true))
	f.Add(parquetFile(f, 30, false))
	f.Fuzz(func(t *testing.T, in []byte) {
		_, _ = parseStream(in, 1<<16)
	})
}

// TestCorruptArrowSchema: a file whose stored Arrow schema claims a
// vector longer than its bytes (found by FuzzStream: the Arrow decoder
// allocated 94 GB for it and the process died) is refused with an error
// naming the metadata, and a checked schema still reads.
func TestCorruptArrowSchema(t *testing.T) {
	raw, err := os.ReadFile("testdata/fuzz/FuzzStream/8e26e0d1ab70fde7")
	if err != nil {
		t.Fatal(err)
	}
	quoted := strings.TrimSuffix(strings.TrimPrefix(strings.SplitN(string(raw), "\n", 2)[1], "[]byte("), ")\n")
	in, err := strconv.Unquote(quoted)
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewStream(context.Background(), bytes.NewReader([]byte(in)), int64(len(in)), 1<<16)
	if err == nil || !strings.Contains(err.Error(), "ARROW:schema metadata") {
		t.Fatalf("NewStream of the corrupt schema: %v", err)
	}
	good := parquetFile(t, 30, true)
	if !bytes.Contains(good, []byte("ARROW:schema")) {
		t.Fatal("the good file stores no Arrow schema: the case checks nothing")
	}
	if _, err := parseStream(good, 1<<16); err != nil {
		t.Fatalf("a good file: %v", err)
	}
}
