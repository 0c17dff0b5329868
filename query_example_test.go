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
