package interop_test

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/query"
)

// shared is the NAB data loaded once into a tsq store for all tests;
// TestMain closes and removes it.
var shared struct {
	once    sync.Once
	samples []sample
	store   *tsq.Store
	dir     string
	err     error
}

// nabShared returns the NAB samples and a store holding them in stream
// "nab", built on first use: one AppendSamples per run of a series (the
// CSV is grouped by series).
func nabShared(t *testing.T) ([]sample, *tsq.Store) {
	t.Helper()
	samples, _ := loadNAB(t)
	shared.once.Do(func() {
		shared.samples = samples
		if shared.dir, shared.err = os.MkdirTemp("", "tsq-interop-"); shared.err != nil {
			return
		}
		shared.store, shared.err = loadStore(shared.dir, samples)
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.samples, shared.store
}

func loadStore(dir string, samples []sample) (*tsq.Store, error) {
	s, err := tsq.Open(dir, &tsq.Options{Sync: tsq.SyncNever}) // test data: no fsync per append
	if err != nil {
		return nil, err
	}
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
			s.Close()
			return nil, err
		}
		i = j
	}
	return s, nil
}

func closeShared() {
	if shared.store != nil {
		shared.store.Close()
	}
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
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
