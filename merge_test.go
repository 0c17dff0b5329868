package tsq

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tsqdb/tsq/internal/vfs"
)

// Merge tests append under SyncAlways: each append is then its own small
// frame (the other policies buffer frames until they are full).

// TestMergeAtSeal: a segment sealed with many small frames is rewritten
// in the background with BlockRows-row blocks; every record reads back
// the same before and after, in this Store and after reopen.
func TestMergeAtSeal(t *testing.T) {
	fsys := vfs.NewMem()
	s := openT(t, fsys, Options{BlockRows: 32, Sync: SyncAlways})
	for i := range 100 {
		r := rec(day0+int64(i), "a", int64(i))
		if i%10 == 3 {
			r.Fields = append(r.Fields, Field{"extra", Bool(true)})
		}
		if _, err := s.Append(ctx, "ev", r); err != nil {
			t.Fatal(err)
		}
	}
	day := int64(24 * time.Hour)
	if _, err := s.Append(ctx, "ev", rec(day0+day, "a", 100)); err != nil { // rolls: seals and merges day 1
		t.Fatal(err)
	}
	check := func(s *Store) {
		t.Helper()
		for q := uint64(1); q <= 101; q++ {
			r, err := s.Get("ev", q)
			if err != nil {
				t.Fatalf("Get(%d): %v", q, err)
			}
			n, _ := r.Field("n")
			_, extra := r.Field("extra")
			if n.Int() != int64(q-1) || extra != (q <= 100 && (q-1)%10 == 3) || r.Series != "a" {
				t.Fatalf("Get(%d) = %+v", q, r)
			}
		}
		if got := allSeqs(t, s, "ev"); len(got) < 101 {
			t.Fatalf("%d records", len(got))
		}
	}
	check(s)
	deadline := time.Now().Add(2 * time.Second)
	for s.Metrics().Merges == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if _, err := s.Append(ctx, "ev", rec(day0+day+1, "a", 101)); err != nil { // publishes the merge
		t.Fatal(err)
	}
	v, _ := s.readViewT("ev")
	if len(v.segs[0].blocks) != 4 {
		t.Fatalf("merged segment has %d blocks, want 4", len(v.segs[0].blocks))
	}
	check(s)
	if m := s.Metrics(); m.Merges != 1 || m.MergeErrors != 0 {
		t.Fatalf("merges %d, errors %d", m.Merges, m.MergeErrors)
	}
	closeT(t, s)
	s = openT(t, fsys.CrashClone(), Options{ReadOnly: true})
	defer closeT(t, s)
	check(s)
	v, _ = s.readViewT("ev")
	if len(v.segs[0].blocks) != 4 || !v.segs[0].sealed {
		t.Fatalf("after reopen: %d blocks", len(v.segs[0].blocks))
	}
}

// TestMergeSeqGap: seqs consumed by a failed append leave a gap that no
// merged block spans: every block keeps seqs MinSeq..MaxSeq.
func TestMergeSeqGap(t *testing.T) {
	efs := vfs.NewErrorFS(vfs.NewMem())
	s := openT(t, efs, Options{BlockRows: 64, Sync: SyncAlways})
	var acked []uint64
	for i := range 40 {
		if i == 20 {
			efs.FailAfter(vfs.OpWrite, 0, nil)
		}
		seqs, err := s.Append(ctx, "ev", rec(day0+int64(i), "a", int64(i)))
		if err == nil {
			acked = append(acked, seqs...)
		}
	}
	if len(acked) != 39 {
		t.Fatalf("%d acknowledged", len(acked))
	}
	if _, err := s.Append(ctx, "ev", rec(day0+int64(24*time.Hour), "a", 0)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for s.Metrics().Merges == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if _, err := s.Append(ctx, "ev", rec(day0+int64(24*time.Hour), "a", 1)); err != nil {
		t.Fatal(err)
	}
	v, _ := s.readViewT("ev")
	blocks := v.segs[0].blocks
	if len(blocks) != 2 {
		t.Fatalf("merged segment has %d blocks, want 2 (split at the gap)", len(blocks))
	}
	for i := range blocks {
		if !contiguous(&blocks[i]) {
			t.Fatalf("block %d: %+v not contiguous", i, blocks[i])
		}
	}
	for _, q := range acked {
		if _, err := s.Get("ev", q); err != nil {
			t.Fatalf("Get(%d): %v", q, err)
		}
	}
	closeT(t, s)
}

// TestMergeFailure: a merge whose rename fails leaves the sealed segment
// as it was, readable; the failure is counted.
func TestMergeFailure(t *testing.T) {
	mem := vfs.NewMem()
	efs := vfs.NewErrorFS(mem)
	s := openT(t, efs, Options{BlockRows: 32, Sync: SyncAlways})
	for i := range 50 {
		if _, err := s.Append(ctx, "ev", rec(day0+int64(i), "a", int64(i))); err != nil {
			t.Fatal(err)
		}
	}
	efs.FailAfter(vfs.OpRename, 0, nil)
	if _, err := s.Append(ctx, "ev", rec(day0+int64(24*time.Hour), "a", 50)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for s.Metrics().MergeErrors == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if m := s.Metrics(); m.MergeErrors != 1 || m.Merges != 0 {
		t.Fatalf("merges %d, errors %d", m.Merges, m.MergeErrors)
	}
	closeT(t, s)
	s = openT(t, mem, Options{})
	defer closeT(t, s)
	if rec, _ := s.Recovered("ev"); len(rec.RemovedTmp) != 0 {
		t.Fatalf("temp file left: %+v", rec)
	}
	if got := allSeqs(t, s, "ev"); len(got) != 51 {
		t.Fatalf("%d records", len(got))
	}
}

// TestReadOnlyFollowsMerge: a read-only store that saw a segment
// unsealed reads it correctly after the writer sealed and merged it.
func TestReadOnlyFollowsMerge(t *testing.T) {
	fsys := vfs.NewMem()
	w := openT(t, fsys, Options{BlockRows: 32, Sync: SyncAlways})
	defer closeT(t, w)
	for i := range 50 {
		if _, err := w.Append(ctx, "ev", rec(day0+int64(i), "a", int64(i))); err != nil {
			t.Fatal(err)
		}
	}
	r := openT(t, fsys, Options{ReadOnly: true})
	defer closeT(t, r)
	if n, err := r.Count("ev"); err != nil || n != 50 {
		t.Fatalf("Count = %d, %v", n, err)
	}
	if _, err := w.Append(ctx, "ev", rec(day0+int64(24*time.Hour), "a", 50)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for w.Metrics().Merges == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := allSeqs(t, r, "ev"); len(got) != 51 {
		t.Fatalf("%d records", len(got))
	}
	for q := uint64(1); q <= 51; q++ {
		rc, err := r.Get("ev", q)
		if n, _ := rc.Field("n"); err != nil || n.Int() != int64(q-1) {
			t.Fatalf("Get(%d) = %+v, %v", q, rc, err)
		}
	}
	v, _ := r.readViewT("ev")
	if !v.segs[0].sealed || len(v.segs[0].blocks) != 2 {
		t.Fatalf("reader sees %d blocks, sealed=%v", len(v.segs[0].blocks), v.segs[0].sealed)
	}
}

// TestMergeColumnWise: blocks of samples and of int, float and bool
// fields with nulls are merged column by column (mergeSrc.prepare takes
// them); a field whose type changes splits the merged blocks; every
// record reads back the same.
func TestMergeColumnWise(t *testing.T) {
	fsys := vfs.NewMem()
	s := openT(t, fsys, Options{BlockRows: 32, Sync: SyncAlways})
	defer closeT(t, s)
	for i := range 100 {
		r := Record{Time: day0 + int64(i), Series: "s" + string(rune('a'+i%3)), Fields: []Field{{"n", Int(int64(i))}}}
		if i%4 == 1 {
			r.Fields = append(r.Fields, Field{"ok", Bool(i%8 == 1)})
		}
		if i < 50 {
			r.Fields = append(r.Fields, Field{"x", Int(int64(i))})
		} else {
			r.Fields = append(r.Fields, Field{"x", Float(float64(i) / 2)})
		}
		if _, err := s.Append(ctx, "ev", r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.AppendSamples(ctx, "ev", "cpu", []int64{day0 + 100, day0 + 101}, []float64{1, 2}); err != nil {
		t.Fatal(err)
	}
	v, _ := s.readViewT("ev")
	for i := range v.segs[0].blocks {
		blk, err := s.st("ev").decodeBlock(v.segs[0], i)
		if err != nil {
			t.Fatal(err)
		}
		var src mergeSrc
		if !src.prepare(blk) {
			t.Fatalf("block %d would be merged row by row", i)
		}
	}
	before := getAll(t, s, "ev", 102)
	if _, err := s.Append(ctx, "ev", rec(day0+dayNS, "a", 0)); err != nil { // rolls
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for s.Metrics().Merges == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if _, err := s.Append(ctx, "ev", rec(day0+dayNS+1, "a", 1)); err != nil { // publishes the merge
		t.Fatal(err)
	}
	v, _ = s.readViewT("ev")
	var rows []int
	for i := range v.segs[0].blocks {
		if !contiguous(&v.segs[0].blocks[i]) {
			t.Fatalf("block %d not contiguous", i)
		}
		rows = append(rows, v.segs[0].blocks[i].Rows)
	}
	// x is int64 in seqs 1..50, float64 in 51..100; the samples have no x.
	if want := []int{32, 18, 32, 20}; !reflect.DeepEqual(rows, want) {
		t.Fatalf("merged blocks of %v rows, want %v", rows, want)
	}
	after := getAll(t, s, "ev", 102)
	// A merged block orders its field columns by first use in the block,
	// so a record's fields may come in another order: compare sorted.
	for _, rs := range [][]Record{before, after} {
		for i := range rs {
			slices.SortFunc(rs[i].Fields, func(a, b Field) int { return strings.Compare(a.Name, b.Name) })
		}
	}
	if !reflect.DeepEqual(before, after) {
		t.Fatal("records differ after the column-wise merge")
	}
}
