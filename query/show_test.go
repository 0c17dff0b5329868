package query

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestShow: DESCRIBE and SHOW COLUMNS give the raw view's columns, SHOW
// SERIES the sorted series (LIMIT n: the first n); SHOW STREAMS needs a
// store; bad forms say what is wanted.
func TestShow(t *testing.T) {
	src, rows := testSource(t, 500, 50)
	open := openOnly(src)
	want := [][]any{{"seq", "uint64", false}, {"time", "timestamp", false}, {"series", "string", false},
		{"key", "string", false}, {"op", "string", false}}
	fields, err := runCells("SELECT * FROM m LIMIT 0", open, nil)
	if err != nil || len(fields) != 0 {
		t.Fatal(err)
	}
	sc, _ := RawSchema(src)
	for _, f := range sc.Fields()[5:] {
		typ := map[string]string{"v": "float64", "n": "int64", "s": "string", "b": "bool", "x": "float64"}[f.Name]
		want = append(want, []any{f.Name, typ, true})
	}
	for _, q := range []string{"DESCRIBE m", "describe M;", "SHOW COLUMNS FROM m", "show fields from m"} {
		got, err := runCells(q, open, nil)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if d := diffCells(got, want); d != "" {
			t.Errorf("%s: %s", q, d)
		}
	}
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.series] = true
	}
	got, err := runCells("SHOW SERIES FROM m", open, nil)
	if err != nil || len(got) != len(seen) {
		t.Fatalf("SHOW SERIES: %d rows, %v; want %d", len(got), err, len(seen))
	}
	for i := 1; i < len(got); i++ {
		if got[i-1][0].(string) >= got[i][0].(string) || !seen[got[i][0].(string)] {
			t.Fatalf("SHOW SERIES not sorted or unknown: %v", got)
		}
	}
	if two, _ := runCells("SHOW SERIES FROM m LIMIT 2", open, nil); len(two) != 2 || two[0][0] != got[0][0] {
		t.Fatalf("SHOW SERIES LIMIT 2: %v", two)
	}
	// DESCRIBE SELECT: the result's columns, names and types, nothing run.
	got, err = runCells("DESCRIBE SELECT series, time_bucket(1h, time) AS h, avg(v) AS a, count(*) FROM m GROUP BY ALL", open, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]any{{"series", "string", false}, {"h", "timestamp", true}, {"a", "float64", true}, {"count(*)", "int64", false}}; diffCells(got, want) != "" {
		t.Errorf("DESCRIBE SELECT: %v, want %v", got, want)
	}
	got, err = runCells("DESCRIBE SELECT s FROM m UNION SELECT key FROM m", open, nil)
	if err != nil || diffCells(got, [][]any{{"s", "string", true}}) != "" {
		t.Errorf("DESCRIBE of a UNION: %v %v", got, err)
	}
	for _, c := range []struct{ q, msg string }{
		{"DESCRIBE SELECT nope FROM m", `unknown column "nope"`},
		{"SHOW STREAMS", "run it with Store.Query"},
		{"SHOW INDEXES", "stream not found"}, // SHOW s is DESCRIBE s
		{"SHOW INDEXES FROM m", "SHOW what?"},
		{"DESCRIBE", "expected a stream name"},
		{"DESCRIBE nope", "stream not found"},
		{"DESCRIBE m extra", "unexpected"},
		{"SHOW SERIES m", "expected from"},
	} {
		_, err := Run(context.Background(), c.q, open, nil)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want an *Error saying %q", c.q, err, c.msg)
		}
	}
}
