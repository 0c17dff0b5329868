package interop_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq"
	pqin "github.com/tsqdb/tsq/ingest/parquet"
)

// TestImportDuckDBParquet: a Parquet file DuckDB writes (timestamps,
// text, integers, doubles, decimals, booleans, nulls, lists, structs,
// dates, unsigned) imports into tsq with its timestamp as the time, and
// tsq's sums and counts of it equal DuckDB's.
func TestImportDuckDBParquet(t *testing.T) {
	node := requireNode(t)
	path := filepath.Join(t.TempDir(), "duck.parquet")
	var want struct {
		Rows, N, Small, Even, Notes, U, Hosts int64
		StA                                   int64 `json:"st_a"`
		X, Price                              float64
		MinTs                                 string `json:"min_ts"`
		MaxTs                                 string `json:"max_ts"`
	}
	runNode(t, node, &want, "write_parquet.mjs", path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	stream, err := pqin.NewStream(ctx, f, fi.Size(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	s, err := tsq.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st, err := s.Import(ctx, "duck", stream, &tsq.ImportOptions{GuessTime: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != want.Rows || st.TimeField != "ts" || strconv.FormatInt(st.MinTime, 10) != want.MinTs || strconv.FormatInt(st.MaxTime, 10) != want.MaxTs {
		t.Fatalf("import %+v; DuckDB %+v", st, want)
	}
	rr, err := s.Query(ctx, "SELECT count(*), sum(n), sum(small), sum(x), sum(price), count(note), sum(`st.a`), sum(u), count(DISTINCT host) FROM duck", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if !rr.Next() {
		t.Fatal(rr.Err())
	}
	rec := rr.RecordBatch()
	i := func(c int) int64 { return rec.Column(c).(*array.Int64).Value(0) }
	fl := func(c int) float64 { return rec.Column(c).(*array.Float64).Value(0) }
	if i(0) != want.Rows || i(1) != want.N || i(2) != want.Small || !near(fl(3), want.X) || !near(fl(4), want.Price) ||
		i(5) != want.Notes || i(6) != want.StA || i(7) != want.U || i(8) != want.Hosts {
		t.Fatalf("tsq: %v; DuckDB: %+v", rec, want)
	}
	rr2, err := s.Query(ctx, "SELECT count(*) FROM duck WHERE even = true AND pair LIKE '[%,%]' AND day LIKE '2024-01-__'", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rr2.Release()
	if !rr2.Next() || rr2.RecordBatch().Column(0).(*array.Int64).Value(0) != want.Even {
		t.Fatalf("bools, lists and dates: %v", rr2.Err())
	}
}

// near reports whether a and b agree to 12 digits (sums added in another
// order).
func near(a, b float64) bool { return a == b || (a-b)/b < 1e-12 && (b-a)/b < 1e-12 }
