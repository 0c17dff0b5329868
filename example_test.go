package tsq_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/tsqdb/tsq"
)

func Example() {
	dir, _ := os.MkdirTemp("", "tsq-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()

	s, err := tsq.Open(dir, nil) // SyncAlways on the OS file system
	if err != nil {
		panic(err)
	}
	defer s.Close()

	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC).UnixNano()
	seqs, _ := s.Append(ctx, "orders", tsq.Record{
		Time: t0, Series: "acct-42", Key: "order/7", Op: tsq.OpPut,
		Fields: []tsq.Field{{Name: "status", Value: tsq.Str("open")}, {Name: "total", Value: tsq.Float(9.5)}},
	})
	first, _ := s.AppendSamples(ctx, "cpu", `cpu{host="a"}`,
		[]int64{t0, t0 + 1e9, t0 + 2e9}, []float64{0.5, 0.75, 0.25})

	r, _ := s.Get("orders", seqs[0])
	status, _ := r.Field("status")
	fmt.Println(r.Seq, r.Series, r.Key, r.Op, status)

	for blk, err := range s.Scan(ctx, "cpu", tsq.ScanOptions{MinSeq: first + 1}) {
		if err != nil {
			panic(err)
		}
		for i := range blk.Rows {
			r := tsq.RecordAt(blk, i)
			v, _ := r.Field("value")
			fmt.Println(r.Seq, r.Series, v)
		}
	}
	// Output:
	// 1 acct-42 order/7 put "open"
	// 2 cpu{host="a"} 0.75
	// 3 cpu{host="a"} 0.25
}
