package check

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tsq "github.com/tsqdb/tsq"
)

// newStore writes two streams of samples and returns the store directory.
func newStore(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	s, err := tsq.Open(dir, &tsq.Options{BlockRows: 500, SegmentMaxBytes: 16 << 10})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, st := range []string{"cpu", "mem"} {
		for b := 0; b < 6; b++ {
			n := 1000
			times, vals := make([]int64, n), make([]float64, n)
			for i := range times {
				times[i] = int64(b*n+i) * 1e9
				vals[i] = float64(i%37) * 1.5
			}
			if _, err := s.AppendSamples(ctx, st, st+`{host="a"}`, times, vals); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCleanStore(t *testing.T) {
	dir := newStore(t)
	var calls int
	rep, err := Store(context.Background(), dir, &Options{Progress: func(done, total int64) { calls++ }})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("problems in a clean store: %v", rep.Problems)
	}
	if rep.Streams != 2 || rep.Segments < 2 || rep.Rows != 12000 || rep.Blocks < 24 {
		t.Fatalf("report %+v", rep)
	}
	if calls != rep.Segments {
		t.Fatalf("progress called %d times for %d segments", calls, rep.Segments)
	}
}

// TestFlippedByte flips one byte inside a block body of one segment and
// checks that the report names that file and that block.
func TestFlippedByte(t *testing.T) {
	dir := newStore(t)
	segs, err := filepath.Glob(filepath.Join(dir, "streams", "mem", "*.seg"))
	if err != nil || len(segs) == 0 {
		t.Fatalf("no segments: %v", err)
	}
	victim := segs[0]
	data, err := os.ReadFile(victim)
	if err != nil {
		t.Fatal(err)
	}
	off := secondBlockBody(t, victim)
	data[off+20] ^= 0x40
	if err := os.WriteFile(victim, data, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Store(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() {
		t.Fatal("flipped byte not found")
	}
	rel, _ := filepath.Rel(dir, victim)
	found := false
	for _, p := range rep.Problems {
		s := p.String()
		t.Log(s)
		if strings.HasPrefix(s, rel+": block 1") && strings.Contains(s, " at offset ") {
			found = true
		}
		if p.File != rel {
			t.Errorf("problem in an untouched file: %s", s)
		}
	}
	if !found {
		t.Fatalf("no problem names %s block 1: %v", rel, rep.Problems)
	}
}

func TestMissingStore(t *testing.T) {
	if _, err := Store(context.Background(), filepath.Join(t.TempDir(), "nope"), nil); err == nil {
		t.Fatal("no error for a missing store")
	}
}

// TestStateFiles: soft deletes, a retention rule and a compaction leave
// state files that a check reads; a flipped byte in the bitmap is named.
func TestStateFiles(t *testing.T) {
	dir := newStore(t)
	s, err := tsq.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := s.Delete(ctx, "cpu", 3, 4, 5, 900); err != nil {
		t.Fatal(err)
	}
	if err := s.SetRetention("cpu", tsq.Retention{MaxCount: 5000}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Compact(ctx, "mem"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	rep, err := Store(ctx, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || rep.StateFiles < 3 {
		t.Fatalf("state files %d, problems %v", rep.StateFiles, rep.Problems)
	}
	p := filepath.Join(dir, "streams", "cpu", "deleted.bitmap")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 1
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err = Store(ctx, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 1 || rep.Problems[0].File != filepath.Join("streams", "cpu", "deleted.bitmap") {
		t.Fatalf("problems %v", rep.Problems)
	}
	t.Log(rep.Problems[0])
}
