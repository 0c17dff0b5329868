package interop_test

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/query"
)

// nabStore loads samples into a tsq store in a temporary directory, stream
// "nab", one AppendSamples per run of a series (the CSV is grouped by
// series).
func nabStore(t *testing.T, samples []sample) *tsq.Store {
	t.Helper()
	s, err := tsq.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	ctx := context.Background()
	for i := 0; i < len(samples); {
		j := i
		var times []int64
		var values []float64
		for ; j < len(samples) && samples[j].series == samples[i].series; j++ {
			times = append(times, samples[j].ms*1e6)
			values = append(values, samples[j].value)
		}
		if _, err := s.AppendSamples(ctx, "nab", samples[i].series, times, values); err != nil {
			t.Fatalf("append %s: %v", samples[i].series, err)
		}
		i = j
	}
	return s
}

// storeQuery runs a query, failing the test on error.
func storeQuery(t *testing.T, s *tsq.Store, text string) array.RecordReader {
	t.Helper()
	rr, err := s.Query(context.Background(), text, &query.Options{BatchRows: 8192})
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return rr
}
