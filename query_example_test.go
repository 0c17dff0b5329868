package tsq_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/query"
)

func ExampleStore_Query() {
	dir, _ := os.MkdirTemp("", "tsq-query-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	s, err := tsq.Open(dir, &tsq.Options{Sync: tsq.SyncNever})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC).UnixNano()
	for i, host := range []string{"a", "b"} {
		times := []int64{t0, t0 + 60e9, t0 + 360e9}
		vals := []float64{float64(i + 1), float64(i + 2), float64(i + 3)}
		if _, err := s.AppendSamples(ctx, "cpu", `cpu{host="`+host+`"}`, times, vals); err != nil {
			panic(err)
		}
	}

	rr, err := s.Query(ctx, `SELECT avg(value) AS mean, count(*) FROM cpu GROUP BY time(5m), host`, nil)
	if err != nil {
		panic(err)
	}
	defer rr.Release()
	for rr.Next() {
		rec := rr.RecordBatch()
		bucket := rec.Column(0).(*array.Timestamp)
		host := rec.Column(1).(*array.String)
		mean := rec.Column(2).(*array.Float64)
		n := rec.Column(3).(*array.Int64)
		for i := range int(rec.NumRows()) {
			fmt.Println(bucket.Value(i).ToTime(arrow.Nanosecond).UTC().Format("15:04"), host.Value(i), mean.Value(i), n.Value(i))
		}
	}

	text := "SELECT * FROM cpu WHERE value > 'high'"
	_, err = s.Query(ctx, text, nil)
	var qe *query.Error
	if errors.As(err, &qe) {
		fmt.Println(qe.Msg)
		fmt.Println(qe.Caret(text))
	}
	// Output:
	// 12:00 a 1.5 2
	// 12:00 b 2.5 2
	// 12:05 a 3 1
	// 12:05 b 4 1
	// type mismatch: float64 column "value" compared with a string
	// SELECT * FROM cpu WHERE value > 'high'
	//                                 ^
}

// A rollup kept by INSERT ... SELECT, the raw samples removed by DELETE,
// and the day-over-day change by a window function.
func ExampleStore_Query_rollup() {
	dir, _ := os.MkdirTemp("", "tsq-rollup-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	s, err := tsq.Open(dir, &tsq.Options{Sync: tsq.SyncNever})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	t0 := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC).UnixNano()
	var times []int64
	var vals []float64
	for h := range 72 { // three days, hourly
		times = append(times, t0+int64(h)*int64(time.Hour))
		vals = append(vals, float64(10+h/24*5)) // 10, then 15, then 20
	}
	if _, err := s.AppendSamples(ctx, "cpu", "cpu", times, vals); err != nil {
		panic(err)
	}
	run := func(q string) array.RecordReader {
		rr, err := s.Query(ctx, q, nil)
		if err != nil {
			panic(err)
		}
		return rr
	}
	run(`INSERT INTO cpu_1d SELECT time, series, avg(value) AS value FROM cpu GROUP BY time(1d), series`).Release()
	rr := run(`DELETE FROM cpu WHERE time < '2026-11-30'`)
	rr.Next()
	fmt.Println("deleted", rr.RecordBatch().Column(0).(*array.Uint64).Value(0))
	rr.Release()

	rr = run(`SELECT time, value, difference(value) FROM cpu_1d`)
	defer rr.Release()
	for rr.Next() {
		rec := rr.RecordBatch()
		day := rec.Column(0).(*array.Timestamp)
		v, d := rec.Column(1).(*array.Float64), rec.Column(2).(*array.Float64)
		for i := range int(rec.NumRows()) {
			fmt.Println(day.Value(i).ToTime(arrow.Nanosecond).Format("Jan 2"), v.Value(i), d.Value(i), d.IsNull(i))
		}
	}
	// Output:
	// deleted 48
	// Nov 28 10 0 true
	// Nov 29 15 5 false
	// Nov 30 20 5 false
}
