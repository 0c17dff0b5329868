package tsq

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/query"
)

// queryErr runs text, which must fail, and returns its error.
func queryErr(t *testing.T, s *Store, text string) error {
	t.Helper()
	rr, err := s.Query(ctx, text, nil)
	if err == nil {
		rr.Release()
		t.Fatalf("%s: no error", text)
	}
	return err
}

// wantAt checks that err is a *query.Error at the first byte of word in
// text.
func wantAt(t *testing.T, err error, text, word string) {
	t.Helper()
	var qe *query.Error
	if !errors.As(err, &qe) || qe.Pos != strings.Index(text, word) {
		t.Fatalf("%s: %v, want an error at %q (byte %d)", text, err, word, strings.Index(text, word))
	}
}

// TestCreateTableAs: CREATE TABLE name AS SELECT ... makes a stream of
// the result, as INSERT ... SELECT into a new stream would; a stream of
// that name is an error at the name that changes nothing (IF NOT EXISTS:
// 0 rows, nothing changed); a statement that fails leaves no stream; an
// empty result makes an empty stream; FROM-first and parenthesized
// queries are taken; a read-only store refuses it.
func TestCreateTableAs(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{CompactInterval: 0})
	fillDeleteWhere(t, s)
	const agg = "SELECT time, series, avg(n) AS n, count(*) AS c FROM ev WHERE op = 'put' GROUP BY time(1m), series"
	_, want := queryT(t, s, agg)
	_, rows := queryT(t, s, "CREATE TABLE rollup AS "+agg)
	if len(rows) != 1 || rows[0] != fmt.Sprintf("%d|1|%d", len(want), len(want)) {
		t.Fatalf("CREATE TABLE ... AS returned %v, want %d rows at seqs 1..%d", rows, len(want), len(want))
	}
	if _, got := queryT(t, s, "SELECT time, series, n, c FROM rollup"); !slices.Equal(got, want) {
		t.Fatalf("rollup: %d rows, want %d", len(got), len(want))
	}
	if recs, err := s.Imports("rollup"); err != nil || len(recs) != 1 || recs[0].Source != "CREATE TABLE ... AS SELECT" {
		t.Fatalf("journal of rollup: %+v, %v", recs, err)
	}

	for _, text := range []string{"CREATE TABLE rollup AS SELECT * FROM ev", "create stream ROLLUP as select * from ev"} {
		err := queryErr(t, s, text)
		if !errors.Is(err, ErrStreamExists) || !strings.Contains(err.Error(), "DROP TABLE rollup") {
			t.Fatalf("%s: %v", text, err)
		}
		wantAt(t, err, text, map[bool]string{true: "rollup", false: "ROLLUP"}[strings.Contains(text, "rollup")])
	}
	_, rows = queryT(t, s, "CREATE TABLE IF NOT EXISTS rollup AS SELECT * FROM ev")
	if len(rows) != 1 || rows[0] != "0|0|0" {
		t.Fatalf("IF NOT EXISTS over a stream: %v", rows)
	}
	if _, got := queryT(t, s, "SELECT time, series, n, c FROM rollup"); !slices.Equal(got, want) {
		t.Fatalf("rollup changed by a refused CREATE: %d rows, want %d", len(got), len(want))
	}

	// Failures leave no stream: a result without time, a query error, a
	// cancelled statement.
	for _, c := range []struct{ text, msg string }{
		{"CREATE TABLE x AS SELECT series, count(*) FROM ev GROUP BY series", "CREATE TABLE ... AS SELECT needs a time column"},
		{"CREATE TABLE x AS SELECT nosuch FROM ev", "unknown column"},
		{"CREATE TABLE x AS SELECT * FROM nosuch", "not found"},
	} {
		if err := queryErr(t, s, c.text); !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want %q", c.text, err, c.msg)
		}
	}
	for _, text := range []string{"CREATE TABLE 'a b' AS SELECT * FROM ev", "DROP TABLE ev, 'a b'"} {
		err := queryErr(t, s, text)
		if !errors.Is(err, ErrInvalidStreamName) || !strings.Contains(err.Error(), `invalid stream name "a b"`) {
			t.Fatalf("%s: %v", text, err)
		}
		wantAt(t, err, text, "'a b'")
	}
	if names, _ := s.Streams(); !slices.Contains(names, "ev") {
		t.Fatalf("a DROP with an invalid name dropped ev: %v", names)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if rr, err := s.Query(cctx, "CREATE TABLE x AS SELECT * FROM ev", nil); err == nil {
		rr.Release()
		t.Fatal("a cancelled CREATE TABLE succeeded")
	}
	if names, _ := s.Streams(); slices.Contains(names, "x") {
		t.Fatalf("a failed CREATE TABLE made stream x: %v", names)
	}

	// An empty result: an empty stream, as an empty table.
	if _, rows = queryT(t, s, "CREATE TABLE empty AS SELECT * FROM ev WHERE n < 0"); rows[0] != "0|0|0" {
		t.Fatalf("empty result: %v", rows)
	}
	if names, _ := s.Streams(); !slices.Contains(names, "empty") {
		t.Fatalf("CREATE TABLE of an empty result made no stream: %v", names)
	}
	if got := count1(t, s, "SELECT count(*) FROM empty"); got != "0" {
		t.Fatalf("empty: %s rows", got)
	}

	// FROM-first (DuckDB's CREATE TABLE t AS FROM src) and parentheses;
	// INSERT INTO t FROM src as well.
	m := count1(t, s, "SELECT count(*) FROM ev WHERE series = 'm'")
	for i, text := range []string{
		"CREATE TABLE m1 AS FROM ev WHERE series = 'm'",
		"CREATE TABLE m2 AS (SELECT * FROM ev WHERE series = 'm');",
		"CREATE TABLE m3 AS FROM ev SELECT time, series, value WHERE series = 'm'",
		"CREATE TABLE m4 AS WITH x AS (SELECT * FROM ev WHERE series = 'm') SELECT * FROM x",
	} {
		queryT(t, s, text)
		if got := count1(t, s, fmt.Sprintf("SELECT count(*) FROM m%d", i+1)); got != m {
			t.Fatalf("%s: %s rows, want %s", text, got, m)
		}
	}
	queryT(t, s, "INSERT INTO m1 FROM ev WHERE series = 'm'")
	if got := count1(t, s, "SELECT count(*) FROM m1"); got != fmt.Sprint(2*atoiT(t, m)) {
		t.Fatalf("INSERT INTO m1 FROM ...: %s rows, want twice %s", got, m)
	}

	// Import with Create refuses a stream that exists before reading.
	r := &readCounter{r: strings.NewReader(`{"time":1,"series":"a"}`)}
	if _, err := s.Import(ctx, "rollup", r, &ImportOptions{Create: true}); !errors.Is(err, ErrStreamExists) || r.n != 0 {
		t.Fatalf("Import with Create into a stream that exists: %v, %d bytes read", err, r.n)
	}

	closeT(t, s)
	ro := openT(t, mem, Options{ReadOnly: true})
	defer closeT(t, ro)
	if err := queryErr(t, ro, "CREATE TABLE y AS SELECT * FROM ev"); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("on a read-only store: %v", err)
	}
}

// readCounter counts the bytes read through it.
type readCounter struct {
	r interface{ Read([]byte) (int, error) }
	n int
}

func (c *readCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func atoiT(t *testing.T, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestDropTable: DROP TABLE removes the named streams and says what each
// held; a name not found drops nothing (an error at it) unless IF EXISTS
// skips it; a name twice is dropped once; a dropped stream made again
// starts afresh; a read-only store refuses it.
func TestDropTable(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{CompactInterval: 0})
	fillDeleteWhere(t, s)
	for _, n := range []string{"a", "b", "c"} {
		queryT(t, s, "CREATE TABLE "+n+" AS FROM ev WHERE series = '"+n+"'")
	}
	counts := map[string]string{}
	for _, n := range []string{"a", "b", "c"} {
		counts[n] = count1(t, s, "SELECT count(*) FROM "+n)
	}

	const missing = "DROP TABLE a, nope"
	err := queryErr(t, s, missing)
	if !errors.Is(err, ErrStreamNotFound) || !strings.Contains(err.Error(), "nothing was dropped") {
		t.Fatalf("%s: %v", missing, err)
	}
	wantAt(t, err, missing, "nope")
	if names, _ := s.Streams(); !slices.Contains(names, "a") {
		t.Fatalf("a DROP naming a missing stream dropped a: %v", names)
	}

	_, rows := queryT(t, s, "DROP TABLE IF EXISTS a, nope, b, a;")
	want := []string{"a|" + counts["a"], "b|" + counts["b"]}
	if len(rows) != 2 {
		t.Fatalf("DROP TABLE IF EXISTS a, nope, b, a: %v", rows)
	}
	for i, r := range rows {
		if f := strings.Split(r, "|"); len(f) != 4 || f[0]+"|"+f[1] != want[i] || f[2] == "0" || f[3] == "0" {
			t.Fatalf("DROP result row %d: %q, want %s|<segments>|<bytes>", i, r, want[i])
		}
	}
	names, _ := s.Streams()
	if slices.Contains(names, "a") || slices.Contains(names, "b") || !slices.Contains(names, "c") {
		t.Fatalf("after dropping a and b: %v", names)
	}
	if _, rows = queryT(t, s, "DROP STREAM IF EXISTS a"); len(rows) != 0 {
		t.Fatalf("dropping a stream not there, IF EXISTS: %v", rows)
	}
	queryT(t, s, "CREATE TABLE a AS FROM ev WHERE series = 'm'")
	if got := count1(t, s, "SELECT count(*) FROM a WHERE series != 'm'"); got != "0" {
		t.Fatalf("a stream made again after DROP holds %s rows of the old one", got)
	}

	// A drop failing midway says which streams are gone already.
	closeT(t, s)
	efs := vfs.NewErrorFS(mem)
	s = openT(t, efs, Options{CompactInterval: 0})
	queryT(t, s, "CREATE TABLE d AS FROM ev WHERE series = 'm'")
	renames := efs.Ops(vfs.OpRename)
	queryT(t, s, "DROP TABLE d")
	per := efs.Ops(vfs.OpRename) - renames // a drop's renames
	queryT(t, s, "CREATE TABLE d AS FROM ev WHERE series = 'm'")
	efs.FailAfter(vfs.OpRename, per, syscall.EIO)
	err = queryErr(t, s, "DROP TABLE d, c")
	efs.Disarm()
	if !errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), "dropped d, then c failed") {
		t.Fatalf("a DROP failing at its second stream: %v", err)
	}
	if names, _ := s.Streams(); slices.Contains(names, "d") || !slices.Contains(names, "c") {
		t.Fatalf("after a DROP failing at its second stream: %v", names)
	}
	closeT(t, s)
	s = openT(t, mem, Options{CompactInterval: 0})
	if names, _ := s.Streams(); slices.Contains(names, "b") {
		t.Fatalf("b is back after reopening: %v", names)
	}
	closeT(t, s)
	ro := openT(t, mem, Options{ReadOnly: true})
	defer closeT(t, ro)
	if err := queryErr(t, ro, "DROP TABLE c"); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("on a read-only store: %v", err)
	}
}
