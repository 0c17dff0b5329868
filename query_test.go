package tsq

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/query"
)

// queryT runs a query and returns its batches' rows as strings (one per
// row, columns joined by |), checking the allocator for leaks.
func queryT(t testing.TB, s *Store, text string) (*arrow.Schema, []string) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rr, err := s.Query(ctx, text, &query.Options{Allocator: mem, BatchRows: 7})
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	defer rr.Release()
	var rows []string
	for rr.Next() {
		rec := rr.RecordBatch()
		for i := range int(rec.NumRows()) {
			var cells []string
			for c := range int(rec.NumCols()) {
				cells = append(cells, cellString(rec.Column(c), i))
			}
			rows = append(rows, strings.Join(cells, "|"))
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return rr.Schema(), rows
}

func cellString(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "null"
	}
	if d, ok := a.(*array.Dictionary); ok {
		return d.Dictionary().ValueStr(d.GetValueIndex(i))
	}
	if ts, ok := a.(*array.Timestamp); ok {
		return time.Unix(0, int64(ts.Value(i))).UTC().Format(time.RFC3339Nano)
	}
	return a.ValueStr(i)
}

func TestQuerySmoke(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 4})
	defer closeT(t, s)
	times := []int64{day0, day0 + int64(time.Minute), day0 + int64(6*time.Minute), day0 + int64(7*time.Minute)}
	if _, err := s.AppendSamples(ctx, "m", `cpu{host="a"}`, times, []float64{1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendSamples(ctx, "m", `cpu{host="b"}`, times, []float64{10, 20, 30, 40}); err != nil {
		t.Fatal(err)
	}
	sch, rows := queryT(t, s, `SELECT * FROM m WHERE series ~ cpu{host="a"} AND value > 1`)
	if got := sch.String(); !strings.Contains(got, "series: type=dictionary<values=utf8, indices=int32") {
		t.Errorf("schema %s", got)
	}
	want := []string{
		`2|2026-12-01T00:01:00Z|cpu{host="a"}||put|2`,
		`3|2026-12-01T00:06:00Z|cpu{host="a"}||put|3`,
		`4|2026-12-01T00:07:00Z|cpu{host="a"}||put|4`,
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("raw rows:\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	_, rows = queryT(t, s, `SELECT count(*), avg(value), max(value) FROM m GROUP BY time(5m), series`)
	want = []string{
		`2026-12-01T00:00:00Z|cpu{host="a"}|2|1.5|2`,
		`2026-12-01T00:00:00Z|cpu{host="b"}|2|15|20`,
		`2026-12-01T00:05:00Z|cpu{host="a"}|2|3.5|4`,
		`2026-12-01T00:05:00Z|cpu{host="b"}|2|35|40`,
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("agg rows:\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	_, err := s.Query(ctx, "SELECT * FROM nope", nil)
	var qe *query.Error
	if !errors.As(err, &qe) || qe.Col != 15 || !errors.Is(err, ErrStreamNotFound) {
		t.Errorf("unknown stream: %v", err)
	}
}
