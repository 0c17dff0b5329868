package check

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
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

// TestKeyOutsideSpan rewrites a block's key span (its CRC made right)
// so that it no longer holds the block's keys: the report names the
// file, the section and the key, since a query for it would skip it.
func TestKeyOutsideSpan(t *testing.T) {
	dir := t.TempDir()
	s, err := tsq.Open(dir, &tsq.Options{BlockRows: 500})
	if err != nil {
		t.Fatal(err)
	}
	var recs []tsq.Record
	for i := range 1200 {
		recs = append(recs, tsq.Record{Time: int64(i) * 1e9, Series: "s", Key: fmt.Sprintf("k%05d", i), Fields: []tsq.Field{{Name: "v", Value: tsq.Int(int64(i))}}})
	}
	if _, err := s.Append(context.Background(), "ev", recs...); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Compact(context.Background(), "ev"); err != nil { // seals the segment
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if rep, err := Store(context.Background(), dir, nil); err != nil || !rep.OK() {
		t.Fatalf("a clean store: %v %v", err, rep.Problems)
	}
	segs, _ := filepath.Glob(filepath.Join(dir, "streams", "ev", "*.seg"))
	if len(segs) == 0 {
		t.Fatal("no segment")
	}
	data, err := os.ReadFile(segs[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 40 || string(data[len(data)-4:]) != "TSQF" {
		t.Fatalf("%s is not sealed", segs[0])
	}
	// The key spans section lies between the bloom and the footer; its
	// first entry's bounds "k00000".."k00499" become "x00000".."x00499".
	foot := len(data) - 40
	start := int(binary.LittleEndian.Uint64(data[foot+12:]) + uint64(binary.LittleEndian.Uint32(data[foot+20:])))
	sec := data[start : foot-4]
	i := bytes.Index(sec, []byte("k00000"))
	j := bytes.Index(sec, []byte("k00499"))
	if i < 0 || j < 0 {
		t.Fatalf("key spans section % x", sec)
	}
	sec[i], sec[j] = 'x', 'x'
	binary.LittleEndian.PutUint32(data[foot-4:], crc32.Checksum(sec, crc32.MakeTable(crc32.Castagnoli)))
	if err := os.WriteFile(segs[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Store(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range rep.Problems {
		found = found || (p.Section == "key spans" && strings.Contains(p.String(), `key "k00000" of block 0`))
	}
	if !found {
		t.Fatalf("the wrong span is not reported: %v", rep.Problems)
	}
}
