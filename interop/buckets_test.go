package interop_test

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/export"
)

// nabParquet returns the shared NAB store and its Parquet export (SELECT *
// FROM nab) in a file of the test's.
func nabParquet(t *testing.T) (*tsq.Store, string) {
	t.Helper()
	_, s := nabShared(t)
	path := filepath.Join(t.TempDir(), "nab.parquet")
	rr := storeQuery(t, s, "SELECT * FROM nab")
	_, err := export.WriteFile(context.Background(), path, 0, rr, nil)
	rr.Release()
	if err != nil {
		t.Fatal(err)
	}
	return s, path
}

// TestInteropBuckets runs the aggregate of BenchmarkQueryAggregate (avg and
// max of value per series per 5-minute bucket) in tsq and, on tsq's Parquet
// export of the same rows, in DuckDB, and compares every group.
func TestInteropBuckets(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	type group struct {
		n    int64
		avg  float64
		max  float64
		seen bool
	}
	tsqGroups := map[[2]string]*group{}
	rr := storeQuery(t, s, "SELECT count(value), avg(value), max(value) FROM nab GROUP BY time(5m), series")
	defer rr.Release()
	sc := rr.Schema()
	col := func(name string) int {
		idx := sc.FieldIndices(name)
		if len(idx) != 1 {
			t.Fatalf("tsq result has no column %q: %v", name, sc)
		}
		return idx[0]
	}
	ct, cs, cn, ca, cm := col("time"), col("series"), col("count(value)"), col("avg(value)"), col("max(value)")
	for rr.Next() {
		rec := rr.RecordBatch()
		ts := rec.Column(ct).(*array.Timestamp)
		unit := ts.DataType().(*arrow.TimestampType).Unit
		ser := rec.Column(cs).(*array.Dictionary)
		names := ser.Dictionary().(*array.String)
		for i := 0; i < int(rec.NumRows()); i++ {
			k := [2]string{names.Value(ser.GetValueIndex(i)), strconv.FormatInt(ts.Value(i).ToTime(unit).UnixNano(), 10)}
			tsqGroups[k] = &group{
				n:   rec.Column(cn).(*array.Int64).Value(i),
				avg: rec.Column(ca).(*array.Float64).Value(i),
				max: rec.Column(cm).(*array.Float64).Value(i),
			}
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	var duck [][]any
	runNode(t, node, &duck, "buckets_parquet.mjs", path, "5")
	if len(duck) != len(tsqGroups) {
		t.Fatalf("DuckDB has %d groups, tsq %d", len(duck), len(tsqGroups))
	}
	bad := 0
	for _, row := range duck {
		k := [2]string{row[0].(string), row[1].(string)}
		g := tsqGroups[k]
		n, a, m := int64(row[2].(float64)), row[3].(float64), row[4].(float64)
		if g == nil || g.seen || g.n != n || g.max != m || !closeTo(g.avg, a) {
			if bad++; bad <= 5 {
				t.Errorf("group %v: DuckDB n=%d avg=%v max=%v, tsq %+v", k, n, a, m, g)
			}
			continue
		}
		g.seen = true
	}
	if bad > 0 {
		t.Fatalf("%d of %d groups differ", bad, len(duck))
	}
	t.Logf("%d groups agree", len(duck))
}
