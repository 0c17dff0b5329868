package tsq

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/query"
)

// fillDeleteWhere appends 300 keyed puts over series a, b and c (key
// k<i%100>: three versions of each key, in series a, b or c by key),
// samples of series m, a delete of key k7 (series b) and a drop of series c.
func fillDeleteWhere(t *testing.T, s *Store) {
	t.Helper()
	var recs []Record
	for i := range 300 {
		recs = append(recs, Record{Time: day0 + int64(i)*1e9, Series: "abc"[i%100%3 : i%100%3+1], Key: fmt.Sprintf("k%d", i%100),
			Fields: []Field{{"n", Int(int64(i))}}})
		recs = append(recs, Record{Time: day0 + int64(i)*1e9, Series: "m", Fields: []Field{{"value", Float(float64(i))}}})
	}
	recs = append(recs, Record{Time: day0 + 400e9, Series: "b", Key: "k7", Op: OpDelete},
		Record{Time: day0 + 401e9, Series: "c", Op: OpDrop})
	if _, err := s.Append(ctx, "ev", recs...); err != nil {
		t.Fatal(err)
	}
}

// count1 runs a SELECT count(*) and returns its one cell.
func count1(t *testing.T, s *Store, text string) string {
	t.Helper()
	_, rows := queryT(t, s, text)
	if len(rows) != 1 {
		t.Fatalf("%s: %d rows", text, len(rows))
	}
	return rows[0]
}

// TestDeleteStatement: DELETE FROM stream WHERE cond soft-deletes the put
// rows of the raw view that match (tombstone rows stay), durably, returns
// how many it deleted, and a second run deletes nothing; the rows are
// gone from every read and, after a pass, from disk.
func TestDeleteStatement(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{CompactInterval: 0})
	fillDeleteWhere(t, s)
	const cond = "series IN ('a', 'm') AND time < '2026-12-01T00:02:30Z'"
	want := count1(t, s, "SELECT count(*) FROM ev WHERE op = 'put' AND "+cond)
	if want == "0" {
		t.Fatal("the condition matches nothing")
	}
	before, _ := s.Count("ev")
	schema, rows := queryT(t, s, "DELETE FROM ev WHERE "+cond+";")
	if schema.NumFields() != 1 || schema.Field(0).Name != "deleted" || len(rows) != 1 || rows[0] != want {
		t.Fatalf("DELETE returned %v %v, want deleted=%s", schema, rows, want)
	}
	if got := count1(t, s, "SELECT count(*) FROM ev WHERE "+cond); got != "0" {
		t.Fatalf("%s rows still match after DELETE", got)
	}
	after, _ := s.Count("ev")
	if fmt.Sprint(before-after) != want {
		t.Fatalf("Count went from %d to %d, want %s fewer", before, after, want)
	}
	if _, rows := queryT(t, s, "DELETE FROM ev WHERE "+cond); rows[0] != "0" {
		t.Fatalf("a second DELETE deleted %s rows", rows[0])
	}
	// The deletion is durable: a crash right after keeps it.
	crashed := mem.CrashClone()
	closeT(t, s)
	s = openT(t, crashed, Options{CompactInterval: 0})
	if got := count1(t, s, "SELECT count(*) FROM ev WHERE "+cond); got != "0" {
		t.Fatalf("after a crash %s deleted rows are back", got)
	}
	// Tombstone rows are never soft-deleted: DELETE without WHERE
	// deletes every put and leaves them.
	_, rows = queryT(t, s, "delete from EV")
	left := count1(t, s, "SELECT count(*) FROM ev")
	if left != "2" || rows[0] != fmt.Sprint(after-2) {
		t.Fatalf("DELETE FROM ev deleted %s and left %s rows, want %d and the 2 tombstones", rows[0], left, after-2)
	}
	if _, err := s.Compact(ctx, "ev"); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Count("ev"); n != 2 {
		t.Fatalf("after a pass Count %d, want the 2 tombstones", n)
	}
	closeT(t, s)
}

// TestDeleteCorrelated: DELETE's condition may hold a correlated
// subquery (the stream named: DELETE FROM ev AS e ... e.series): each
// series' puts above its own mean go, computed before any goes; the
// others stay.
func TestDeleteCorrelated(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{CompactInterval: 0})
	defer closeT(t, s)
	fillDeleteWhere(t, s)
	for _, c := range []struct{ cond, kept, what string }{
		{"n > (SELECT avg(n) FROM ev WHERE series = e.series)", " OR op != 'put'", "above their series' mean"},
		// A correlated IN: the smallest n of each key of a series.
		{"n IN (SELECT min(n) FROM ev WHERE series = e.series GROUP BY key)", "", "the least of their key"},
	} {
		want := count1(t, s, "SELECT count(*) FROM ev AS e WHERE op = 'put' AND "+c.cond)
		keep := count1(t, s, "SELECT count(*) FROM ev AS e WHERE NOT ("+c.cond+")"+c.kept+" OR n IS NULL")
		if want == "0" || keep == "0" {
			t.Fatalf("%s rows %s, %s others: the case shows nothing", want, c.what, keep)
		}
		if _, rows := queryT(t, s, "DELETE FROM ev AS e WHERE "+c.cond); rows[0] != want {
			t.Fatalf("%s: deleted %v, want %s", c.cond, rows, want)
		}
		if left := count1(t, s, "SELECT count(*) FROM ev"); left != keep {
			t.Fatalf("%s rows left, want the %s not %s", left, keep, c.what)
		}
	}
}

// TestDeleteStatementFold: on keyed records DELETE removes versions; when
// it removes a key's newest version the one before it is current again,
// and deleting every version of a key removes it from the folded view.
func TestDeleteStatementFold(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{CompactInterval: 0})
	defer closeT(t, s)
	fillDeleteWhere(t, s)
	// k10 of series b: versions n=10, 110, 210.
	if _, rows := queryT(t, s, "SELECT n FROM fold(ev) WHERE key = 'k10'"); len(rows) != 1 || rows[0] != "210" {
		t.Fatalf("k10 before: %v", rows)
	}
	if _, rows := queryT(t, s, "DELETE FROM ev WHERE key = 'k10' AND n > 200"); rows[0] != "1" {
		t.Fatalf("deleted %v, want 1", rows)
	}
	if _, rows := queryT(t, s, "SELECT n FROM fold(ev) WHERE key = 'k10'"); len(rows) != 1 || rows[0] != "110" {
		t.Fatalf("k10 after deleting its newest version: %v, want the one before (110)", rows)
	}
	if _, rows := queryT(t, s, "DELETE FROM ev WHERE key = 'k10'"); rows[0] != "2" {
		t.Fatalf("deleted %v, want 2", rows)
	}
	if _, rows := queryT(t, s, "SELECT n FROM fold(ev) WHERE key = 'k10'"); len(rows) != 0 {
		t.Fatalf("k10 after deleting every version: %v", rows)
	}
}

// TestDeleteStatementErrors: what DELETE refuses, with the position of
// the cause; a refused or explained DELETE deletes nothing.
func TestDeleteStatementErrors(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{CompactInterval: 0})
	fillDeleteWhere(t, s)
	n, _ := s.Count("ev")
	for _, c := range []struct{ text, msg string }{
		{"DELETE FROM fold(ev) WHERE key = 'k1'", "append delete records"},
		{"DELETE FROM ev WHERE n > 3 ORDER BY time", "DELETE takes a WHERE condition and nothing else"},
		{"DELETE FROM ev LIMIT 3", "DELETE takes a WHERE condition and nothing else"},
		{"DELETE ev", "expected from"},
		{"DELETE FROM ev WHERE nosuch > 3", "nosuch"},
		{"DELETE FROM nosuch", "nosuch"},
	} {
		wantQueryError(t, s, c.text, c.msg)
	}
	// The query package alone cannot delete.
	src, err := s.querySource("ev")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := query.Run(ctx, "DELETE FROM ev", func(string) (query.Source, error) { return src, nil }, nil); err == nil || !strings.Contains(err.Error(), "Store.Query") {
		t.Errorf("query.Run of a DELETE: %v", err)
	}
	_, plan := queryT(t, s, "EXPLAIN DELETE FROM ev WHERE series = 'a'")
	if text := strings.Join(plan, "\n"); !strings.Contains(text, "filter: (series = 'a' AND op = 'put')") || !strings.Contains(text, "soft-deleted") {
		t.Errorf("EXPLAIN DELETE:\n%s", text)
	}
	if m, _ := s.Count("ev"); m != n {
		t.Fatalf("Count %d after refused DELETEs, want %d", m, n)
	}
	closeT(t, s)
	r := openT(t, mem, Options{ReadOnly: true})
	defer closeT(t, r)
	if rr, err := r.Query(ctx, "DELETE FROM ev", nil); !errors.Is(err, ErrReadOnly) {
		if err == nil {
			rr.Release()
		}
		t.Errorf("DELETE on a read-only store: %v, want ErrReadOnly", err)
	}
}

// TestSoftDeleteGone: a DELETE's seqs that a compaction removed since
// they were selected are left out; Delete refuses them.
func TestSoftDeleteGone(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{CompactInterval: 0})
	defer closeT(t, s)
	seqs := appendN(t, s, "ev", 5)
	st, err := s.stream("ev", false)
	if err != nil {
		t.Fatal(err)
	}
	add := roaring64.BitmapOf(seqs[1], seqs[3], 1<<40)
	if n, err := st.softDelete(ctx, add, false); err != nil || n != 2 {
		t.Fatalf("softDelete of two stored seqs and one gone: %d, %v; want 2", n, err)
	}
	if err := s.Delete(ctx, "ev", seqs[0], 1<<40); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Delete of a seq not stored: %v, want ErrNotFound", err)
	}
	if n, _ := s.Count("ev"); n != 3 {
		t.Fatalf("Count %d, want 3", n)
	}
}

// TestInsertStatement: INSERT INTO appends its rows as records (times
// from text, nanoseconds or now() ± durations; integers and numbers of a
// column as numbers; NULL fields left out; ops), returns how many and
// their seqs, and they survive a crash; what it refuses, it says where.
func TestInsertStatement(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{CompactInterval: 0, Sync: SyncAlways})
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	o := query.Options{Now: now}
	_, rows := queryOptsT(t, s, `INSERT INTO notes (time, series, key, text, level, ok) VALUES
		('2024-05-01T10:00:00Z', 'deploy', 'v1', 'first', 1, true),
		(now() - 90m, 'deploy', 'v2', 'it''s fixed', 2.5, NULL),
		(1700000000000000000, 'alert', NULL, NULL, -3, false);`, o)
	if len(rows) != 1 || rows[0] != "3|1|3" {
		t.Fatalf("INSERT returned %v, want 3|1|3", rows)
	}
	_, rows = queryT(t, s, "SELECT seq, time, series, key, op, text, level, ok FROM notes")
	want := []string{
		"1|2024-05-01T10:00:00Z|deploy|v1|put|first|1|true",
		"2|2026-12-03T10:30:00Z|deploy|v2|put|it's fixed|2.5|null",
		"3|2023-11-14T22:13:20Z|alert||put|null|-3|false",
	}
	if !slices.Equal(rows, want) {
		t.Fatalf("rows:\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	if _, rows := queryOptsT(t, s, "INSERT INTO notes (series, key, op) VALUES ('deploy', 'v1', 'DELETE')", o); rows[0] != "1|4|4" {
		t.Fatalf("INSERT of a delete: %v", rows)
	}
	if _, rows := queryT(t, s, "SELECT key FROM fold(notes) WHERE series = 'deploy'"); !slices.Equal(rows, []string{"v2"}) {
		t.Fatalf("fold after the delete: %v", rows)
	}
	crashed := mem.CrashClone()
	closeT(t, s)
	s = openT(t, crashed, Options{CompactInterval: 0})
	if n, _ := s.Count("notes"); n != 4 {
		t.Fatalf("after a crash %d records, want 4", n)
	}
	for _, c := range []struct{ text, msg string }{
		{"INSERT INTO notes VALUES (1)", "columns named before VALUES"},
		{"INSERT INTO notes (series, v) VALUES ('a')", "1 values for 2 columns"},
		{"INSERT INTO notes (seq, series) VALUES (1, 'a')", "seq is assigned by the store"},
		{"INSERT INTO notes (series, series) VALUES ('a', 'b')", "named twice"},
		{"INSERT INTO notes (time, series) VALUES (NULL, 'a')", "time cannot be NULL"},
		{"INSERT INTO notes (time, series) VALUES ('yesterday', 'a')", "bad time"},
		{"INSERT INTO notes (series, op) VALUES ('a', 'upsert')", "op is 'put', 'delete' or 'drop'"},
		{"INSERT INTO notes (v) VALUES (1)", "needs a series"},
		{"INSERT INTO notes (series, v) VALUES ('a', now())", "field \"v\" takes a number"},
		{"INSERT INTO notes (series, v) VALUES (1, 2)", "series takes a string"},
		{"EXPLAIN INSERT INTO notes (series) VALUES ('a')", "EXPLAIN INSERT"},
		{"INSERT INTO notes (series) VALUES ('a') LIMIT 1", "unexpected"},
	} {
		wantQueryError(t, s, c.text, c.msg)
	}
	// A type the stream's batch cannot hold: the store's error, nothing appended.
	if _, err := s.Query(ctx, "INSERT INTO notes (series, v) VALUES ('a', 1), ('a', 'x')", nil); !errors.Is(err, ErrInvalidRecord) {
		t.Fatalf("mixed types: %v", err)
	}
	if n, _ := s.Count("notes"); n != 4 {
		t.Fatalf("%d records after refused INSERTs, want 4", n)
	}
	src, err := s.querySource("notes")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := query.Run(ctx, "INSERT INTO notes (series) VALUES ('a')", func(string) (query.Source, error) { return src, nil }, nil); err == nil || !strings.Contains(err.Error(), "Store.Query") {
		t.Errorf("query.Run of an INSERT: %v", err)
	}
	closeT(t, s)
	r := openT(t, crashed, Options{ReadOnly: true})
	defer closeT(t, r)
	if rr, err := r.Query(ctx, "INSERT INTO notes (series) VALUES ('a')", nil); !errors.Is(err, ErrReadOnly) {
		if err == nil {
			rr.Release()
		}
		t.Errorf("INSERT on a read-only store: %v, want ErrReadOnly", err)
	}
}

// wantQueryError checks that text fails with a *query.Error saying msg.
func wantQueryError(t *testing.T, s *Store, text, msg string) {
	t.Helper()
	rr, err := s.Query(ctx, text, nil)
	if err == nil {
		rr.Release()
		t.Errorf("%s: no error", text)
		return
	}
	var qe *query.Error
	if !errors.As(err, &qe) || !strings.Contains(err.Error(), msg) {
		t.Errorf("%s: %v (%T), want a *query.Error saying %q", text, err, err, msg)
	}
}

// TestInsertSelect: INSERT INTO stream SELECT appends the result's rows
// (time, series, key, op by name, seq dropped, other columns as fields)
// as one import: a rollup reads back as the aggregate it came from, a
// copy folds as its source, the journal records it, and a stream can
// take rows of its own.
func TestInsertSelect(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{CompactInterval: 0})
	fillDeleteWhere(t, s)
	const agg = "SELECT time, series, avg(n) AS n, count(*) AS c FROM ev WHERE op = 'put' GROUP BY time(1m), series"
	_, want := queryT(t, s, agg)
	_, rows := queryT(t, s, "INSERT INTO rollup "+agg)
	if len(rows) != 1 || rows[0] != fmt.Sprintf("%d|1|%d", len(want), len(want)) {
		t.Fatalf("INSERT ... SELECT returned %v, want %d rows at seqs 1..%d", rows, len(want), len(want))
	}
	if _, got := queryT(t, s, "SELECT time, series, n, c FROM rollup"); !slices.Equal(got, want) {
		t.Fatalf("rollup:\n%s\nwant\n%s", strings.Join(got[:min(5, len(got))], "\n"), strings.Join(want[:5], "\n"))
	}
	// A rollup of a rollup, in one statement: the minute with most rows
	// of each series and hour, from a subquery over the stream.
	const agg2 = "SELECT time, series, max(c) AS busiest FROM (" + agg + ") GROUP BY time(1h), series"
	_, want2 := queryT(t, s, agg2)
	queryT(t, s, "INSERT INTO hourly "+agg2)
	if _, got := queryT(t, s, "SELECT time, series, busiest FROM hourly"); !slices.Equal(got, want2) || len(got) == 0 || len(got) >= len(want) {
		t.Fatalf("rollup of a rollup: %d rows %v, want %d %v", len(got), got[:min(3, len(got))], len(want2), want2[:min(3, len(want2))])
	}
	queryT(t, s, "INSERT INTO copy SELECT * FROM ev;")
	for _, q := range []string{"SELECT series, key, op, n FROM %s", "SELECT series, key, n FROM fold(%s)", "SELECT count(*) FROM fold(%s) WHERE series = 'c'"} {
		_, a := queryT(t, s, fmt.Sprintf(q, "ev"))
		_, b := queryT(t, s, fmt.Sprintf(q, "copy"))
		if !slices.Equal(a, b) || len(a) == 0 {
			t.Fatalf("%s: the copy differs (%d rows, source %d)", q, len(b), len(a))
		}
	}
	recs, err := s.Imports("copy")
	if err != nil || len(recs) != 1 || recs[0].Source != "INSERT ... SELECT" {
		t.Fatalf("journal of copy: %+v, %v", recs, err)
	}
	n, _ := s.Count("ev")
	m := count1(t, s, "SELECT count(*) FROM ev WHERE series = 'm'")
	queryT(t, s, "INSERT INTO ev SELECT time, series, value FROM ev WHERE series = 'm'")
	if n2, _ := s.Count("ev"); fmt.Sprint(n2-n) != m {
		t.Fatalf("a stream copying its own rows: %d more, want %s", n2-n, m)
	}
	for _, c := range []struct{ text, msg string }{
		{"INSERT INTO x SELECT time, avg(n) FROM ev GROUP BY time(1m)", "needs a series column"},
		{"INSERT INTO x SELECT series, count(*) FROM ev GROUP BY series", "needs a time column"},
		{"INSERT INTO x (time, series) SELECT time, series FROM ev", "leave out the column list"},
		{"INSERT INTO x SELECT nosuch FROM ev", "unknown column"},
	} {
		rr, err := s.Query(ctx, c.text, nil)
		if err == nil {
			rr.Release()
		}
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want %q", c.text, err, c.msg)
		}
	}
	if names, _ := s.Streams(); slices.Contains(names, "x") {
		t.Fatalf("a refused INSERT ... SELECT made stream x: %v", names)
	}
	closeT(t, s)
	r := openT(t, mem, Options{ReadOnly: true})
	defer closeT(t, r)
	if _, err := r.Query(ctx, "INSERT INTO y SELECT * FROM ev", nil); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("on a read-only store: %v", err)
	}
}

// FuzzStatement runs any statement, writes included, on a small store:
// nothing panics, every failure is an error, and the store still opens
// and counts after it (ev is gone only after a DROP naming it).
func FuzzStatement(f *testing.F) {
	for _, s := range []string{
		"SHOW STREAMS",
		"DESCRIBE ev",
		"INSERT INTO r SELECT time, series, max(c) AS m FROM (SELECT time, series, count(*) AS c FROM ev GROUP BY time(1m), series) GROUP BY time(1h), series",
		"DELETE FROM ev WHERE series = 'a' AND n > 100",
		"INSERT INTO ev (time, series, key, n, s) VALUES ('2026-12-01T00:00:00Z' + 1h, 'a', 'k1', 3, 'x'), (now(), 'b', NULL, 2.5, true)",
		"INSERT INTO rollup SELECT time, series, avg(n) AS n FROM ev GROUP BY time(1m, 'Europe/Berlin'), series",
		"SELECT time, difference(n), moving_average(value, 2) FROM ev WHERE series = 'm'",
		"EXPLAIN DELETE FROM ev",
		"CREATE TABLE IF NOT EXISTS r AS FROM ev SELECT time, series, max(n) AS m GROUP BY time(1h), series",
		"DROP TABLE IF EXISTS r, ev",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		mem := vfs.NewMem()
		s := openT(t, mem, Options{CompactInterval: 0, Sync: SyncNever})
		fillDeleteWhere(t, s)
		if rr, err := s.Query(ctx, text, nil); err == nil {
			for rr.Next() {
			}
			_ = rr.Err()
			rr.Release()
		}
		closeT(t, s)
		s = openT(t, mem, Options{CompactInterval: 0})
		defer closeT(t, s)
		_, err := s.Count("ev")
		if st, perr := query.Parse(text); perr == nil && st.Drop != nil && slices.Contains(st.Drop.Streams, "ev") {
			if err != nil && !errors.Is(err, ErrStreamNotFound) {
				t.Fatalf("%q: the store does not count after it: %v", text, err)
			}
			return // dropped, or the statement failed
		}
		if err != nil {
			t.Fatalf("%q: the store does not count after it: %v", text, err)
		}
	})
}

// TestShowStreams: SHOW STREAMS lists every stream with its rows (soft
// deletes not counted), through Store.Query; a dropped stream is gone.
func TestShowStreams(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{CompactInterval: 0})
	defer closeT(t, s)
	if _, rows := queryT(t, s, "SHOW STREAMS"); len(rows) != 0 {
		t.Fatalf("an empty store shows %v", rows)
	}
	fillDeleteWhere(t, s)
	queryT(t, s, "INSERT INTO notes (series, text) VALUES ('a', 'x'), ('b', 'y')")
	queryT(t, s, "DELETE FROM notes WHERE series = 'b'")
	n, _ := s.Count("ev")
	_, rows := queryT(t, s, "SHOW STREAMS;")
	if want := []string{fmt.Sprintf("ev|%d", n), "notes|1"}; !slices.Equal(rows, want) {
		t.Fatalf("SHOW STREAMS: %v, want %v", rows, want)
	}
	if _, err := s.DropStream(ctx, "notes"); err != nil {
		t.Fatal(err)
	}
	if _, rows := queryT(t, s, "show tables"); len(rows) != 1 || !strings.HasPrefix(rows[0], "ev|") {
		t.Fatalf("after the drop: %v", rows)
	}
	if _, rows := queryT(t, s, "DESCRIBE ev"); len(rows) < 6 || rows[0] != "seq|uint64|false" {
		t.Fatalf("DESCRIBE ev: %v", rows)
	}
}

// TestDeleteWithExpressions: DELETE's condition takes what WHERE takes:
// an IN subquery over the same stream (run before any row goes), text
// functions and CASE; the rows deleted are those a SELECT of the same
// condition counted.
func TestDeleteWithExpressions(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{CompactInterval: 0})
	defer closeT(t, s)
	fillDeleteWhere(t, s)
	const cond2 = "series IN (SELECT series FROM ev WHERE n > 250 AND upper(series) != 'C') AND CASE WHEN n / 2 = floor(n / 2) THEN 1 ELSE 0 END = 1"
	want := count1(t, s, "SELECT count(*) FROM ev WHERE op = 'put' AND "+cond2)
	if want == "0" {
		t.Fatal("the condition selects no row")
	}
	_, rows := queryT(t, s, "DELETE FROM ev WHERE "+cond2)
	if len(rows) != 1 || rows[0] != want {
		t.Fatalf("DELETE deleted %v, want %s", rows, want)
	}
	if got := count1(t, s, "SELECT count(*) FROM ev WHERE op = 'put' AND (series = 'a' OR series = 'b') AND n / 2 = floor(n / 2)"); got != "0" {
		t.Fatalf("%s even rows of a and b left", got)
	}
}
