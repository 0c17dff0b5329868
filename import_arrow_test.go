package tsq

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/tsqdb/tsq/export"
	"github.com/tsqdb/tsq/internal/vfs"
)

// TestImportArrowRoundTrip exports a stream of keyed puts, deletes,
// drops and samples with fields of every stored type but bytes as an
// Arrow file and as an Arrow stream, imports each into a new stream with
// no mapping, and checks that the raw and folded views of the copies
// equal the original's, seqs included (assigned in the same order).
func TestImportArrowRoundTrip(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 100})
	var recs []Record
	for i := range 700 {
		r := Record{Time: day0 + int64(i)*1e9 + 7, Series: fmt.Sprintf("host%d", i%3), Fields: []Field{
			{"n", Int(int64(i * i))}, {"x", Float(float64(i) / 3)}, {"ok", Bool(i%2 == 0)}, {"msg", Str(strings.Repeat("é", i%4))}}}
		switch {
		case i%5 == 0:
			r.Key = fmt.Sprintf("k%d", i%40)
		case i%97 == 0:
			r.Key, r.Op, r.Fields = fmt.Sprintf("k%d", i%40-5), OpDelete, nil
		case i == 650:
			r.Op, r.Fields = OpDrop, []Field{{"reason", Str("retired")}}
		}
		if i%7 == 0 {
			r.Fields = r.Fields[:min(len(r.Fields), 2)] // fields missing in some rows
		}
		recs = append(recs, r)
	}
	if _, err := s.Append(ctx, "orig", recs...); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	view := func(stream, from string) []byte {
		t.Helper()
		rr, err := s.Query(ctx, "SELECT * FROM "+strings.ReplaceAll(from, "S", stream)+" ORDER BY seq", nil)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, stream+".csv")
		if _, err := export.WriteFile(ctx, p, export.CSV, rr, nil); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, f := range []export.Format{export.ArrowFile, export.ArrowStream} {
		p := filepath.Join(dir, "orig."+f.String())
		rr, err := s.Query(ctx, "SELECT * FROM orig", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := export.WriteFile(ctx, p, f, rr, nil); err != nil {
			t.Fatal(err)
		}
		in, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		stream := "copy-" + f.String()
		st, err := s.Import(ctx, stream, bytes.NewReader(in), &ImportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if st.Rows != int64(len(recs)) || st.Bytes != int64(len(in)) || st.Format.String() != "arrow" {
			t.Fatalf("%v: %d rows of %d bytes as %v, want %d of %d", f, st.Rows, st.Bytes, st.Format, len(recs), len(in))
		}
		for _, from := range []string{"S", "fold(S)"} {
			want, got := view("orig", from), view(stream, from)
			if !bytes.Equal(got, want) {
				t.Fatalf("%v, %s: the copy differs:\n%.600s\nwant\n%.600s", f, from, got, want)
			}
		}
	}
}

// TestImportArrowFlights imports a third party's Arrow file (shared
// data, skipped without it: 200,000 flights written by apache-arrow in
// JavaScript as one batch of int16, int16, float32) and checks the
// sums of its columns against arrow-go's reading of it, the float32s
// widened as their shortest decimals.
func TestImportArrowFlights(t *testing.T) {
	f := sharedData(t, "arrow/flights-200k.arrow")
	in, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ipc.NewFileReader(bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var rows, delay, distance int64
	var hours float64
	for i := range r.NumRecords() {
		rec, err := r.RecordBatch(i)
		if err != nil {
			t.Fatal(err)
		}
		d, km, h := rec.Column(0).(*array.Int16), rec.Column(1).(*array.Int16), rec.Column(2).(*array.Float32)
		for j := range int(rec.NumRows()) {
			delay += int64(d.Value(j))
			distance += int64(km.Value(j))
			x, _ := strconv.ParseFloat(strconv.FormatFloat(float64(h.Value(j)), 'g', -1, 32), 64)
			hours += x
		}
		rows += rec.NumRows()
	}
	r.Close()
	s := openT(t, vfs.NewMem(), Options{})
	st, err := s.Import(ctx, "flights", bytes.NewReader(in), &ImportOptions{GuessTime: true})
	if err != nil {
		t.Fatal(err)
	}
	// The file's "time" is an hour of the day, a float: not a time the
	// guess takes (it takes timestamp and date columns only).
	if st.Rows != rows || rows != 200_000 || st.TimeField != "" {
		t.Fatalf("%+v; arrow-go read %d rows", st, rows)
	}
	rr, err := s.Query(ctx, "SELECT count(*), sum(delay), sum(distance), sum(time_) FROM flights", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if !rr.Next() {
		t.Fatal(rr.Err())
	}
	rec := rr.RecordBatch()
	n, dsum, ksum := rec.Column(0).(*array.Int64).Value(0), rec.Column(1).(*array.Int64).Value(0), rec.Column(2).(*array.Int64).Value(0)
	hsum := rec.Column(3).(*array.Float64).Value(0)
	if n != rows || dsum != delay || ksum != distance || math.Abs(hsum-hours) > 1e-9*hours {
		t.Fatalf("tsq: %d rows, sums %d %d %v; arrow-go: %d, %d %d %v", n, dsum, ksum, hsum, rows, delay, distance, hours)
	}
}

// arrowGen writes an Arrow IPC stream of batches record batches of rows
// rows (a timestamp, a series of 50, an int, a float and a 40-byte
// string) to w, and closes it with err of the write, if any.
func arrowGen(w *io.PipeWriter, batches, rows int) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
		{Name: "host", Type: arrow.BinaryTypes.String},
		{Name: "n", Type: arrow.PrimitiveTypes.Int64},
		{Name: "x", Type: arrow.PrimitiveTypes.Float64},
		{Name: "msg", Type: arrow.BinaryTypes.String},
	}, nil)
	iw := ipc.NewWriter(w, ipc.WithSchema(schema))
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	var err error
	for k := range batches {
		for i := range rows {
			n := k*rows + i
			b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(1_700_000_000_000 + int64(n)))
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("host%02d", n%50))
			b.Field(2).(*array.Int64Builder).Append(int64(n))
			b.Field(3).(*array.Float64Builder).Append(float64(n) / 7)
			b.Field(4).(*array.StringBuilder).Append(fmt.Sprintf("%040d", n))
		}
		rec := b.NewRecordBatch()
		err = iw.Write(rec)
		rec.Release()
		if err != nil {
			break
		}
	}
	if err == nil {
		err = iw.Close()
	}
	w.CloseWithError(err)
}

// TestImportArrowBoundedHeap imports an Arrow stream of 2,000,000 rows
// (about 150 MB of Arrow, made as it is read) into a store on disk and
// checks that the heap, sampled during the run, stays under the budget
// plus the allowance TestImportLargeBoundedHeap allows; a record batch
// over half the budget fails the import, naming the bound, and commits
// nothing.
func TestImportArrowBoundedHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("imports 2,000,000 rows")
	}
	s, err := Open(t.TempDir(), &Options{CacheBytes: NoCache})
	if err != nil {
		t.Fatal(err)
	}
	defer closeT(t, s)
	budget := int64(DefaultImportBudget)
	pr, pw := io.Pipe()
	go arrowGen(pw, 200, 10_000)
	st, err := s.Import(ctx, "big", pr, &ImportOptions{GuessTime: true, MemoryBudget: budget})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d rows, %d MiB of Arrow in %v (%.0f MB/s); peak heap %d MiB (budget %d MiB + allowance %d MiB)",
		st.Rows, st.Bytes>>20, st.Total, float64(st.Bytes)/st.Total.Seconds()/1e6, st.PeakHeap>>20, budget>>20, heapAllowance>>20)
	if st.Rows != 2_000_000 || st.TimeField != "ts" || st.MinTime != 1_700_000_000_000*1e6 {
		t.Fatalf("%+v", st)
	}
	if st.PeakHeap > uint64(budget)+heapAllowance {
		t.Fatalf("peak heap %d MiB over budget %d MiB + allowance %d MiB", st.PeakHeap>>20, budget>>20, heapAllowance>>20)
	}
	pr, pw = io.Pipe()
	go arrowGen(pw, 2, 200_000) // batches of ~22 MB, over half of 16 MiB
	_, err = s.Import(ctx, "huge", pr, &ImportOptions{MemoryBudget: 16 << 20})
	if err == nil || !strings.Contains(err.Error(), "the import's bound for one batch") {
		t.Fatalf("a batch over the bound: %v", err)
	}
	pr.Close()
	if _, err := s.Count("huge"); err == nil {
		t.Fatal("the failed import left a stream")
	}
}
