package parquet_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/tsqdb/tsq/export"
	"github.com/tsqdb/tsq/export/exporttest"
	_ "github.com/tsqdb/tsq/export/parquet"
)

var t0 = time.Date(2024, 2, 28, 22, 0, 0, 987654321, time.UTC)

func values(rows []exporttest.Row) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		out[i] = r.Values()
	}
	return out
}

// readParquet reads a file back with pqarrow, checking its schema.
func readParquet(t *testing.T, path string) ([][]any, *file.Reader) {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pf.Close() })
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 333}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := fr.GetRecordReader(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	want, _ := export.PlainSchema(exporttest.Schema())
	got := rr.Schema()
	if got.NumFields() != want.NumFields() {
		t.Fatalf("schema\n%v\nwant\n%v", got, want)
	}
	for i, f := range want.Fields() { // pqarrow adds field_id metadata
		g := got.Field(i)
		if g.Name != f.Name || !arrow.TypeEqual(g.Type, f.Type) || g.Nullable != f.Nullable {
			t.Fatalf("field %d: %v, want %v", i, g, f)
		}
	}
	rows, err := exporttest.ReadAll(rr)
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	return rows, pf
}

func TestParquetRoundTrip(t *testing.T) {
	rows := exporttest.Gen(2, 5500, t0, time.Second, false)
	path := filepath.Join(t.TempDir(), "out.parquet")
	st, err := export.WriteFile(context.Background(), path, 0, exporttest.Reader(rows, 700), &export.Options{RowGroupRows: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != 5500 || st.Files != 1 {
		t.Fatalf("stats %+v", st)
	}
	got, pf := readParquet(t, path)
	if !reflect.DeepEqual(got, values(rows)) {
		t.Fatalf("rows differ (got %d, want %d)", len(got), len(rows))
	}
	md := pf.MetaData()
	if md.NumRowGroups() != 6 {
		t.Fatalf("%d row groups, want 6", md.NumRowGroups())
	}
	for i := 0; i < md.NumRowGroups(); i++ {
		rg := md.RowGroup(i)
		want := int64(1000)
		if i == 5 {
			want = 500
		}
		if rg.NumRows() != want {
			t.Fatalf("row group %d has %d rows, want %d", i, rg.NumRows(), want)
		}
		for c := 0; c < rg.NumColumns(); c++ {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			if cc.Compression() != compress.Codecs.Zstd {
				t.Fatalf("column %d compressed with %v", c, cc.Compression())
			}
		}
	}
	// time is a UTC-adjusted nanosecond timestamp, seq an unsigned int.
	sc := pf.MetaData().Schema
	if lt := sc.Column(1).LogicalType().String(); !strings.Contains(lt, "isAdjustedToUTC=true") || !strings.Contains(lt, "nanoseconds") {
		t.Fatalf("time logical type %s", lt)
	}
	if lt := sc.Column(0).LogicalType().String(); !strings.Contains(lt, "Int(bitWidth=64, isSigned=false)") {
		t.Fatalf("seq logical type %s", lt)
	}
}

func TestParquetFailAndCancel(t *testing.T) {
	dir := t.TempDir()
	rr := exporttest.FailAfter(exporttest.Reader(exporttest.Gen(3, 1000, t0, time.Second, false), 100), 5)
	if _, err := export.WriteFile(context.Background(), filepath.Join(dir, "x.parquet"), 0, rr, nil); !errors.Is(err, exporttest.ErrInjected) {
		t.Fatalf("failing reader: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rr = exporttest.CancelAfter(exporttest.Reader(exporttest.Gen(3, 1000, t0, time.Second, false), 100), 5, cancel)
	if _, err := export.WriteFile(ctx, filepath.Join(dir, "y.parquet"), 0, rr, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left %v", ents)
	}
}

// tree lists every file under dir, relative.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func TestPartitioned(t *testing.T) {
	// In time order, batches split by date into zero-copy slices.
	t.Run("ordered", func(t *testing.T) { testPartitioned(t, false) })
	// 8 dates in random order, at most 2 open files: every date is opened
	// and finished many times, giving many part files per date.
	t.Run("shuffled", func(t *testing.T) { testPartitioned(t, true) })
}

func testPartitioned(t *testing.T, shuffle bool) {
	rows := exporttest.Gen(4, 6000, t0, 97*time.Second, shuffle)
	dir := t.TempDir()
	st, err := export.WritePartitioned(context.Background(), dir, "metrics.v1", exporttest.Reader(rows, 500), &export.Options{MaxOpenFiles: 2, RowGroupRows: 300})
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != 6000 {
		t.Fatalf("stats %+v", st)
	}
	var files []string
	var size int64
	for _, p := range tree(t, dir) {
		if strings.HasSuffix(p, ".parquet") {
			files = append(files, p)
			fi, _ := os.Stat(filepath.Join(dir, p))
			size += fi.Size()
		} else if !strings.Contains(filepath.Base(p), "=") {
			t.Fatalf("unexpected entry %s", p)
		}
	}
	if st.Files != len(files) || st.Bytes != size {
		t.Fatalf("stats %+v, found %d files of %d bytes", st, len(files), size)
	}
	want := map[int64][]any{} // seq -> row
	for _, r := range rows {
		want[int64(r.Seq)] = r.Values()
	}
	dates := map[string]bool{}
	total := 0
	for _, f := range files {
		parts := strings.Split(f, string(filepath.Separator))
		if len(parts) != 3 || parts[0] != "stream=metrics.v1" || !strings.HasPrefix(parts[1], "date=") || !strings.HasPrefix(parts[2], "part-") {
			t.Fatalf("bad layout %s", f)
		}
		date := strings.TrimPrefix(parts[1], "date=")
		dates[date] = true
		got, _ := readParquet(t, filepath.Join(dir, f))
		for _, g := range got {
			if d := time.Unix(0, g[1].(int64)).UTC().Format(time.DateOnly); d != date {
				t.Fatalf("%s holds a row of %s", f, d)
			}
			w := want[int64(g[0].(uint64))]
			if !reflect.DeepEqual(g, w) {
				t.Fatalf("%s: row %v, want %v", f, g, w)
			}
		}
		total += len(got)
	}
	if total != len(rows) {
		t.Fatalf("read %d rows, want %d", total, len(rows))
	}
	if len(dates) != 8 || shuffle && len(files) <= len(dates) || !shuffle && len(files) != len(dates) {
		t.Fatalf("%d dates in %d files: %v", len(dates), len(files), files)
	}

	// A second export into the same root adds parts and overwrites nothing.
	before := len(files)
	if _, err := export.WritePartitioned(context.Background(), dir, "metrics.v1", exporttest.Reader(rows[:100], 50), nil); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range tree(t, dir) {
		if strings.HasSuffix(p, ".parquet") {
			n++
		}
	}
	if n <= before {
		t.Fatalf("%d files after the second export, had %d", n, before)
	}
}

func TestPartitionedBadInput(t *testing.T) {
	rows := exporttest.Gen(5, 3000, t0, 3*time.Minute, true)
	dir := t.TempDir()
	ctx := context.Background()
	o := &export.Options{MaxOpenFiles: 2}
	if _, err := export.WritePartitioned(ctx, filepath.Join(dir, "missing"), "s", exporttest.Reader(rows, 100), o); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("missing root: %v", err)
	}
	for _, bad := range []string{"", "../x", "A", "a/b", "-x"} {
		if _, err := export.WritePartitioned(ctx, dir, bad, exporttest.Reader(rows, 100), o); err == nil || !strings.Contains(err.Error(), "stream name") {
			t.Fatalf("stream %q: %v", bad, err)
		}
	}
	// Fails after several files were finished (2 open files, 7 dates):
	// everything written is removed.
	if _, err := export.WritePartitioned(ctx, dir, "s", exporttest.FailAfter(exporttest.Reader(rows, 100), 20), o); !errors.Is(err, exporttest.ErrInjected) {
		t.Fatalf("failing reader: %v", err)
	}
	if left := tree(t, dir); len(left) != 0 {
		t.Fatalf("left %v", left)
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if _, err := export.WritePartitioned(cctx, dir, "s", exporttest.CancelAfter(exporttest.Reader(rows, 100), 20, cancel), o); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: %v", err)
	}
	if left := tree(t, dir); len(left) != 0 {
		t.Fatalf("left %v", left)
	}
	// No time column.
	sc := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	rr, _ := array.NewRecordReader(sc, nil)
	if _, err := export.WritePartitioned(ctx, dir, "s", rr, o); err == nil || !strings.Contains(err.Error(), `"time"`) {
		t.Fatalf("no time column: %v", err)
	}
}

// TestParquetDurations: a duration[ns] column (a span of time) is
// written as int64 nanoseconds, nulls kept, from sliced batches too;
// the Arrow IPC file keeps it a duration.
func TestParquetDurations(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}, {Name: "span", Type: arrow.FixedWidthTypes.Duration_ns, Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	want := []any{int64(3 * time.Hour), nil, int64(-1), int64(90 * time.Minute)}
	for i, v := range want {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		if v == nil {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.DurationBuilder).Append(arrow.Duration(v.(int64)))
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	slice := rec.NewSlice(1, 4) // an offset into the buffers
	defer slice.Release()
	for name, r := range map[string]arrow.RecordBatch{"whole": rec, "slice": slice} {
		path := filepath.Join(t.TempDir(), name+".parquet")
		rr, err := array.NewRecordReader(schema, []arrow.RecordBatch{r})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := export.WriteFile(context.Background(), path, 0, rr, nil); err != nil {
			t.Fatal(err)
		}
		pf, err := file.OpenParquetFile(path, false)
		if err != nil {
			t.Fatal(err)
		}
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := fr.ReadTable(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		col := tbl.Column(1).Data().Chunk(0)
		if col.DataType().ID() != arrow.INT64 {
			t.Fatalf("%s: span read back as %v, want int64", name, col.DataType())
		}
		off := map[string]int{"whole": 0, "slice": 1}[name]
		for i := range col.Len() {
			var got any
			if !col.IsNull(i) {
				got = col.(*array.Int64).Value(i)
			}
			if got != want[off+i] {
				t.Errorf("%s row %d: %v, want %v", name, i, got, want[off+i])
			}
		}
		tbl.Release()
		pf.Close()
	}
	// A duration of another unit (none of tsq's results) is refused, by
	// name, and no file is left.
	msSchema := arrow.NewSchema([]arrow.Field{{Name: "took", Type: arrow.FixedWidthTypes.Duration_ms}}, nil)
	msPath := filepath.Join(t.TempDir(), "ms.parquet")
	msRR, _ := array.NewRecordReader(msSchema, nil)
	if _, err := export.WriteFile(context.Background(), msPath, 0, msRR, nil); err == nil || !strings.Contains(err.Error(), `column "took": duration[ms]`) {
		t.Fatalf("a duration[ms] column: %v", err)
	}
	if _, err := os.Stat(msPath); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a refused export left %s: %v", msPath, err)
	}
	path := filepath.Join(t.TempDir(), "spans.arrow")
	rr, _ := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	if _, err := export.WriteFile(context.Background(), path, 0, rr, nil); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ar, err := ipc.NewFileReader(f)
	if err != nil {
		t.Fatal(err)
	}
	defer ar.Close()
	if got := ar.Schema().Field(1).Type; !arrow.TypeEqual(got, arrow.FixedWidthTypes.Duration_ns) {
		t.Fatalf("the Arrow file's span is %v, want duration[ns]", got)
	}
}
