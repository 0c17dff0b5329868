package query

import (
	"errors"
	"strings"
	"testing"
)

// TestFileSource: read_csv('p'), read_parquet('p') and a quoted path
// ('data/x.csv', 'x.parquet.gz') name files, read by Options.OpenFile in
// the format the reader names; a quoted name that looks like no file is
// a stream's; a file side of a join goes by its base name; without
// OpenFile, or when it fails, the error is at the file's name.
func TestFileSource(t *testing.T) {
	src, _ := testSource(t, 300, 20)
	open := openOnly(src)
	var asked []string
	o := &Options{OpenFile: func(f File) (Source, error) {
		asked = append(asked, f.Format+"|"+f.Path+strings.Join(f.Mapping, "&"))
		if strings.Contains(f.Path, "missing") {
			return nil, errors.New("no such file")
		}
		return src, nil
	}}
	run := func(q string) [][]any {
		t.Helper()
		rows, err := runCells(q, open, o)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return rows
	}
	want := run("SELECT count(*), sum(n) FROM m")
	for _, q := range []string{
		"SELECT count(*), sum(n) FROM read_csv('data/x.csv')",
		"SELECT count(*), sum(n) FROM read_parquet('x.parquet')",
		"SELECT count(*), sum(n) FROM 'y.parquet.gz'",
		"SELECT count(*), sum(n) FROM 'dir/plain'",
	} {
		if d := diffCells(run(q), want); d != "" {
			t.Errorf("%s: %s", q, d)
		}
	}
	if got := strings.Join(asked, ","); got != "csv|data/x.csv,parquet|x.parquet,|y.parquet.gz,|dir/plain" {
		t.Fatalf("OpenFile asked for %s", got)
	}
	// DESCRIBE and SUMMARIZE take a file as they take a stream.
	for _, c := range [][2]string{{"DESCRIBE 'data/x.csv'", "DESCRIBE m"}, {"SUMMARIZE read_json('y.jsonl')", "SUMMARIZE m"}} {
		if d := diffCells(run(c[0]), run(c[1])); d != "" {
			t.Errorf("%s: %s", c[0], d)
		}
	}
	asked = nil
	if d := diffCells(run("SELECT count(*) FROM 'm'"), run("SELECT count(*) FROM m")); d != "" || len(asked) != 0 {
		t.Fatalf("'m' is the stream m: %s, files %v", d, asked)
	}
	if d := diffCells(run("SELECT count(*) FROM fold('a/x.jsonl')"), run("SELECT count(*) FROM fold(m)")); d != "" {
		t.Fatalf("fold of a file: %s", d)
	}
	// A reader's named arguments are the import mapping settings the
	// file is read with, part of its name (another mapping, another read).
	asked = nil
	run("SELECT count(*) FROM read_json('e.jsonl', time = 'ts_ms', time_unit = 'ms', series = 'type', key = 'type,id', op = 'action', map = 'type.id=int64', keep_mapped = true) AS e JOIN read_json('e.jsonl') AS f USING (seq)")
	if got := strings.Join(asked, ","); got != "|e.jsonl,|e.jsonltime=ts_ms&time.unit=ms&series=type&key=type,id&op=action&type.id=int64&keep.mapped=true" { // the right side first
		t.Fatalf("OpenFile asked for %s", got)
	}
	got := run("SELECT x.n, m.n FROM m JOIN 'a/x.v2.csv' USING (seq) LIMIT 3")
	if len(got) != 3 || got[0][0] != got[0][1] {
		t.Fatalf("join with a file: %v", got)
	}
	plan := strings.Join(func() []string {
		var l []string
		for _, r := range run("EXPLAIN SELECT count(*) FROM 'a/b.csv'") {
			l = append(l, r[0].(string))
		}
		return l
	}(), "\n")
	if !strings.Contains(plan, "file 'a/b.csv' (raw view)") {
		t.Fatalf("EXPLAIN:\n%s", plan)
	}
	for _, c := range []struct {
		q   string
		o   *Options
		err string
	}{
		{"SELECT * FROM 'a/b.csv'", nil, "reading a file in FROM takes tsq's shell or tsq query"},
		{"SELECT * FROM read_csv('missing.csv')", o, "no such file"},
		{"SELECT * FROM read_csv(x)", o, "read_csv wants the file's path in quotes"},
		{"SELECT nope FROM 'a/b.csv'", o, `unknown column "nope" in file 'a/b.csv'`},
		{"SELECT * FROM read_csv('a.csv', delim = ';')", o, "read_csv takes the path, then named arguments (drop, keep,"},
		{"SELECT * FROM read_csv('a.csv', time 'ts')", o, "expected = after time"},
		{"SELECT * FROM read_csv('a.csv', time = ts)", o, "time wants a value in quotes"},
		{"SELECT * FROM read_csv('a.csv', map = 'ts')", o, "map wants a mapping setting k=v"},
	} {
		if _, err := runCells(c.q, open, c.o); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v, want %q", c.q, err, c.err)
		}
	}
}
