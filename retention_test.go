package tsq

import (
	"errors"
	"log/slog"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/tsqdb/tsq/index"
	"github.com/tsqdb/tsq/internal/vfs"
)

// retentionStore appends 20 orders at day0 + i hours; every fourth has
// status "open", the others "closed"; seq 21 is a delete tombstone at
// day0. The clock reads day0 + 20h.
func retentionStore(t *testing.T, fsys vfs.FS) (*Store, []uint64) {
	t.Helper()
	s := openT(t, fsys, Options{BlockRows: 4, RetentionInterval: NoRetentionLoop})
	s.now = func() time.Time { return time.Unix(0, day0).Add(20 * time.Hour) }
	var all []uint64
	for i := range 20 {
		status := "closed"
		if i%4 == 0 {
			status = "open"
		}
		seqs, err := s.Append(ctx, "orders", Record{Time: day0 + int64(i)*int64(time.Hour), Series: "acct", Key: "o" + string(rune('a'+i)),
			Fields: []Field{{"status", Str(status)}, {"n", Int(int64(i))}}})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, seqs...)
	}
	seqs, err := s.Append(ctx, "orders", Record{Time: day0, Series: "acct", Key: "oa", Op: OpDelete})
	if err != nil {
		t.Fatal(err)
	}
	return s, append(all, seqs...)
}

func visible(t *testing.T, s *Store, stream string) []uint64 { return allSeqs(t, s, stream) }

func TestRetentionByAge(t *testing.T) {
	s, all := retentionStore(t, vfs.NewMem())
	defer closeT(t, s)
	if err := s.SetRetention("orders", Retention{MaxAge: 10 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	st, err := s.ApplyRetention(ctx, "orders")
	if err != nil {
		t.Fatal(err)
	}
	// Times day0+0h..day0+9h are before now-10h = day0+10h: seqs 1..10;
	// the tombstone (seq 21, day0) stays.
	want := append(slices.Clone(all[10:20]), all[20])
	if got := visible(t, s, "orders"); !slices.Equal(got, want) || st.ByAge != 10 || st.ByCount != 0 {
		t.Fatalf("visible %v (stats %+v), want %v", got, st, want)
	}
	// Idempotent.
	if st, err := s.ApplyRetention(ctx, "orders"); err != nil || st.ByAge != 0 {
		t.Fatalf("second pass: %+v, %v", st, err)
	}
	if m := s.Metrics(); m.RetentionDeletedRows != 10 || m.RetentionPasses != 2 || m.SoftDeletedRows != 0 {
		t.Fatalf("metrics %+v", m)
	}
}

func TestRetentionProtected(t *testing.T) {
	s, all := retentionStore(t, vfs.NewMem())
	defer closeT(t, s)
	if err := s.SetRetention("orders", Retention{MaxAge: 10 * time.Hour, ProtectField: "status", ProtectValues: []string{"open"}}); err != nil {
		t.Fatal(err)
	}
	st, err := s.ApplyRetention(ctx, "orders")
	if err != nil {
		t.Fatal(err)
	}
	// Rows 0, 4, 8 (seqs 1, 5, 9) are open and stay.
	want := []uint64{1, 5, 9}
	want = append(want, all[10:]...)
	if got := visible(t, s, "orders"); !slices.Equal(got, want) || st.ByAge != 7 || st.Protected != 3 {
		t.Fatalf("visible %v (stats %+v), want %v", got, st, want)
	}
}

func TestRetentionByCount(t *testing.T) {
	s, all := retentionStore(t, vfs.NewMem())
	defer closeT(t, s)
	if err := s.Delete(ctx, "orders", 2); err != nil {
		t.Fatal(err)
	}
	if err := s.SetRetention("orders", Retention{MaxCount: 8, ProtectField: "status", ProtectValues: []string{"open"}}); err != nil {
		t.Fatal(err)
	}
	st, err := s.ApplyRetention(ctx, "orders")
	if err != nil {
		t.Fatal(err)
	}
	// 20 visible (21 rows, seq 2 deleted); 12 must go, oldest first,
	// skipping protected seqs 1, 5, 9, 13, 17 and the tombstone 21.
	if n, _ := s.Count("orders"); n != 8 || st.ByCount != 12 {
		t.Fatalf("count %d, stats %+v", n, st)
	}
	want := []uint64{1, 5, 9, 13, 17, 19, 20, 21}
	if got := visible(t, s, "orders"); !slices.Equal(got, want) {
		t.Fatalf("visible %v, want %v (all %v)", got, want, all)
	}
	if st.Protected != 5 {
		t.Fatalf("protected %d, want 5", st.Protected)
	}
}

func TestRetentionPersistedAndLoop(t *testing.T) {
	mem := vfs.NewMem()
	s, _ := retentionStore(t, mem)
	r := Retention{MaxAge: time.Hour, MaxCount: 7, ProtectField: "status", ProtectValues: []string{"open", "held"}}
	if err := s.SetRetention("orders", r); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Retention("orders"); err != nil || !retentionEqual(got, r) {
		t.Fatalf("Retention %+v, %v", got, err)
	}
	for _, bad := range []Retention{{MaxAge: -1}, {MaxCount: -2}, {ProtectValues: []string{"x"}}} {
		if err := s.SetRetention("orders", bad); !errors.Is(err, ErrInvalidRetention) {
			t.Fatalf("SetRetention(%+v): %v", bad, err)
		}
	}
	closeT(t, s)
	ro := openT(t, mem, Options{ReadOnly: true})
	if got, err := ro.Retention("orders"); err != nil || !retentionEqual(got, r) {
		t.Fatalf("read-only Retention %+v, %v", got, err)
	}
	if _, err := ro.ApplyRetention(ctx, "orders"); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("ApplyRetention read-only: %v", err)
	}
	closeT(t, ro)
	// The loop applies the persisted rule of a stream this Store has not
	// opened yet (record times are in 2026-12; the real clock is used).
	s = openT(t, mem, Options{RetentionInterval: 5 * time.Millisecond})
	deadline := time.Now().Add(5 * time.Second)
	for {
		if m := s.Metrics(); m.RetentionDeletedRows > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the retention loop did not run")
		}
		time.Sleep(5 * time.Millisecond)
	}
	closeT(t, s) // stops the loop
	s = openT(t, mem, Options{RetentionInterval: NoRetentionLoop})
	defer closeT(t, s)
	if n, _ := s.Count("orders"); n > 7 {
		t.Fatalf("count %d after the loop, want at most 7", n)
	}
	if err := s.SetRetention("orders", Retention{}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Retention("orders"); !retentionEqual(got, Retention{}) {
		t.Fatalf("cleared rule reads %+v", got)
	}
}

func retentionEqual(a, b Retention) bool {
	return a.MaxAge == b.MaxAge && a.MaxCount == b.MaxCount && a.ProtectField == b.ProtectField &&
		slices.Equal(a.ProtectValues, b.ProtectValues)
}

func TestRetentionOptions(t *testing.T) {
	if _, err := Open("db", &Options{FS: vfs.NewMem(), RetentionInterval: -5}); !errors.Is(err, ErrInvalidOptions) {
		t.Fatalf("negative RetentionInterval: %v", err)
	}
	s := openT(t, vfs.NewMem(), Options{RetentionInterval: NoRetentionLoop})
	defer closeT(t, s)
	if _, err := s.ApplyRetention(ctx, "missing"); !errors.Is(err, ErrStreamNotFound) {
		t.Fatalf("ApplyRetention of a missing stream: %v", err)
	}
	if err := s.SetRetention("Bad/Name", Retention{MaxCount: 1}); err == nil {
		t.Fatal("SetRetention accepted a bad stream name")
	}
	// No rule: nothing happens.
	appendN(t, s, "ev", 3)
	if st, err := s.ApplyRetention(ctx, "ev"); err != nil || st != (RetentionStats{}) {
		t.Fatalf("no rule: %+v, %v", st, err)
	}
}

// TestCompactRowsRetention: compaction counts the rows it removes for
// retention apart from those soft-deleted by Delete, also after a
// reopen (the retained bitmap is persisted), and the retained bitmap
// empties with the deleted one.
func TestCompactRowsRetention(t *testing.T) {
	mem := vfs.NewMem()
	o := Options{BlockRows: 4, RetentionInterval: NoRetentionLoop}
	s := openT(t, mem, o)
	s.now = func() time.Time { return time.Unix(0, day0).Add(20 * time.Hour) }
	for i := range 20 { // samples: soft-deleted ones go at the first pass
		if _, err := s.Append(ctx, "m", Record{Time: day0 + int64(i)*int64(time.Hour), Series: "cpu", Fields: []Field{{"v", Int(int64(i))}}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Delete(ctx, "m", 15, 16); err != nil {
		t.Fatal(err)
	}
	if err := s.SetRetention("m", Retention{MaxAge: 10 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	if st, err := s.ApplyRetention(ctx, "m"); err != nil || st.ByAge != 10 {
		t.Fatalf("retention: %+v, %v; want 10 rows by age", st, err)
	}
	closeT(t, s)
	// A stray seq in retained (an older tsq's compaction forgot it from
	// deleted only) leaves it at the next open.
	if err := index.WriteBitmap(mem, "db/streams/m/retained.bitmap", index.KindRetained, 99, roaring64.BitmapOf(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 19), nil); err != nil {
		t.Fatal(err)
	}
	s = openT(t, mem, o)
	defer closeT(t, s)
	st, err := s.stream("m", false) // opens it
	if err != nil {
		t.Fatal(err)
	}
	if bm := st.retainedSnapshot(); bm == nil || bm.GetCardinality() != 10 || bm.Contains(19) {
		t.Fatalf("retained bitmap after reopening: %v, want seqs 1..10", bm)
	}
	cs, err := s.Compact(ctx, "m")
	if err != nil {
		t.Fatal(err)
	}
	if cs.RowsRetention != 10 || cs.RowsSoftDeleted != 2 {
		t.Fatalf("pass removed %d rows for retention and %d soft-deleted, want 10 and 2", cs.RowsRetention, cs.RowsSoftDeleted)
	}
	if m := s.CompactionMetrics(); m.RowsRetention != 10 || m.RowsSoftDeleted != 2 {
		t.Fatalf("metrics: %d retention, %d soft deleted; want 10 and 2", m.RowsRetention, m.RowsSoftDeleted)
	}
	for name, bm := range map[string]*roaring64.Bitmap{"deleted": st.deletedSnapshot(), "retained": st.retainedSnapshot()} {
		if bm != nil && !bm.IsEmpty() {
			t.Fatalf("%s bitmap %v after the pass, want empty", name, bm.ToArray())
		}
	}
}

// TestRetentionRetainedWriteFails: when the retained bitmap cannot be
// written (a full disk) after the deleted one was, retention still
// succeeds: the rows are deleted and counted, the failure is logged,
// and compaction counts them as soft deletes.
func TestRetentionRetainedWriteFails(t *testing.T) {
	var logBuf syncBuffer
	efs := vfs.NewErrorFS(vfs.NewMem())
	s := openT(t, efs, Options{BlockRows: 4, RetentionInterval: NoRetentionLoop, Logger: slog.New(slog.NewTextHandler(&logBuf, nil))})
	defer closeT(t, s)
	s.now = func() time.Time { return time.Unix(0, day0).Add(20 * time.Hour) }
	for i := range 20 {
		if _, err := s.Append(ctx, "m", Record{Time: day0 + int64(i)*int64(time.Hour), Series: "cpu", Fields: []Field{{"v", Int(int64(i))}}}); err != nil {
			t.Fatal(err)
		}
	}
	w0 := efs.Ops(vfs.OpWrite)
	if err := s.Delete(ctx, "m", 20); err != nil { // one bitmap file written
		t.Fatal(err)
	}
	perFile := efs.Ops(vfs.OpWrite) - w0
	if err := s.SetRetention("m", Retention{MaxAge: 10 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	efs.FailAfter(vfs.OpWrite, perFile, syscall.ENOSPC) // deleted.bitmap written, retained.bitmap not
	st, err := s.ApplyRetention(ctx, "m")
	efs.Disarm()
	if err != nil || st.ByAge != 10 || efs.Injected(vfs.OpWrite) == 0 {
		t.Fatalf("retention: %+v, %v (%d failures injected); want 10 rows by age, no error", st, err, efs.Injected(vfs.OpWrite))
	}
	if got := len(visible(t, s, "m")); got != 9 {
		t.Fatalf("%d rows visible, want 9", got)
	}
	if m := s.Metrics(); m.RetentionDeletedRows != 10 {
		t.Fatalf("RetentionDeletedRows %d, want 10", m.RetentionDeletedRows)
	}
	if !strings.Contains(logBuf.String(), "not noted as retention's") {
		t.Fatalf("failure not logged: %q", logBuf.String())
	}
	cs, err := s.Compact(ctx, "m")
	if err != nil || cs.RowsSoftDeleted != 11 || cs.RowsRetention != 0 {
		t.Fatalf("pass: %d soft deleted, %d retention (%v); want 11 and 0", cs.RowsSoftDeleted, cs.RowsRetention, err)
	}
}
