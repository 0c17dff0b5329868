package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	tsq "github.com/tsqdb/tsq"
)

// writeEvents writes n JSON lines of orders: puts of keys order/0..9 with
// a status, every seventh a delete, and one malformed line when bad.
func writeEvents(t *testing.T, n int, bad bool) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < n; i++ {
		op := "put"
		if i%7 == 6 {
			op = "delete"
		}
		fmt.Fprintf(&b, `{"ts":%d,"acct":"a%d","id":"order/%d","op":"%s","status":"%s","amount":%d}`+"\n",
			1700000000000+int64(i)*1000, i%3, i%10, op, []string{"open", "paid"}[i%2], i*10)
		if bad && i == n/2 {
			b.WriteString("{\"ts\": oops\n")
		}
	}
	p := filepath.Join(t.TempDir(), "orders.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestImportCommand(t *testing.T) {
	store := filepath.Join(t.TempDir(), "s")
	src := writeEvents(t, 100, false)
	r := runTSQ(t, "", "--store", store, "import", "--time", "ts", "--series", "acct", "--key", "id", "--op", "op", src)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "imported 100 rows") || !strings.Contains(r.stdout, "into orders as seqs 1..100") {
		t.Fatalf("%+v", r)
	}
	r = runTSQ(t, "", "--store", store, "query", "--mode", "csv", "-c",
		"SELECT count(*) FROM orders; SELECT count(*) FROM fold(orders); SELECT key, status, amount FROM orders LIMIT 2")
	want := "count(*)\n100\ncount(*)\n" // fold: the latest op of each of the 10 keys
	if r.code != 0 || !strings.HasPrefix(r.stdout, want) || !strings.Contains(r.stdout, "key,status,amount\norder/0,open,0\norder/1,paid,10\n") {
		t.Fatalf("query after import: %+v", r)
	}

	// A malformed line aborts with its line number and changes nothing.
	bad := writeEvents(t, 20, true)
	r = runTSQ(t, "", "--store", store, "import", "--stream", "orders", "--time", "ts", bad)
	if r.code != 1 || !strings.Contains(r.stderr, "line 12 (byte offset") || strings.Count(r.stderr, "\n") != 1 {
		t.Fatalf("bad line: %+v", r)
	}
	r = runTSQ(t, "", "--store", store, "query", "--mode", "csv", "-c", "SELECT count(*) FROM orders")
	if r.stdout != "count(*)\n100\n" {
		t.Fatalf("a failed import changed the stream: %q", r.stdout)
	}
	// --skip-bad imports the rest and writes the line to the rejects file.
	r = runTSQ(t, "", "--store", store, "import", "--stream", "orders", "--time", "ts", "--skip-bad", bad)
	if r.code != 0 || !strings.Contains(r.stdout, "imported 20 rows") || !strings.Contains(r.stdout, "1 rejected") {
		t.Fatalf("--skip-bad: %+v", r)
	}
	if rej, err := os.ReadFile(bad + ".rejects"); err != nil || !strings.Contains(string(rej), "oops") {
		t.Fatalf("rejects file: %v %q", err, rej)
	}
	// An input with no rows (a header alone) commits nothing and says so.
	hdr := filepath.Join(t.TempDir(), "header.csv")
	if err := os.WriteFile(hdr, []byte("ts,acct\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runTSQ(t, "", "--store", store, "import", "--stream", "orders", hdr); r.code != 0 || !strings.HasPrefix(r.stdout, "imported 0 rows (8 B read) into orders in ") {
		t.Fatalf("header only: %+v", r)
	}
	// stdin needs --stream; a bad format names the formats.
	if r := runTSQ(t, "{\"a\":1}\n", "--store", store, "import", "--stream", "s2", "-"); r.code != 0 {
		t.Fatalf("stdin: %+v", r)
	}
	if r := runTSQ(t, "", "--store", store, "import", "--format", "xml", src); r.code != 1 || !strings.Contains(r.stderr, "unknown format") {
		t.Fatalf("bad format: %+v", r)
	}
	if r := runTSQ(t, "", "--store", store, "gc"); r.code != 0 || !strings.HasPrefix(r.stdout, "staging: ") {
		t.Fatalf("gc: %+v", r)
	}
}

// The import bar's title carries what the bar does not: rows, rows/s and
// the heap.
func TestImportStatus(t *testing.T) {
	got := importStatus("osm", tsq.ImportProgress{Rows: 1_234_567, RowsPerSec: 523_400, HeapInUse: 45 << 20})
	if want := "import osm: 1.23M rows, 523.4k rows/s, heap 45.0 MiB"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestImportCompressedFile imports a gzip file with its flags after the
// file name: the stream is named without the .jsonl.gz, the summary gives
// both sizes, and the rows are those of the plain file.
func TestImportCompressedFile(t *testing.T) {
	store := filepath.Join(t.TempDir(), "s")
	src := writeEvents(t, 100, false)
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	_, _ = w.Write(raw)
	_ = w.Close()
	if err := os.WriteFile(src+".gz", gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runTSQ(t, "", "--store", store, "import", src+".gz", "--time", "ts", "--series", "acct", "--key", "id", "--op", "op")
	want := fmt.Sprintf("imported 100 rows (%s of gzip read, %s decompressed) into orders as seqs 1..100", humanBytes(int64(gz.Len())), humanBytes(int64(len(raw))))
	if r.code != 0 || !strings.HasPrefix(r.stdout, want) {
		t.Fatalf("%+v\nwant %q", r, want)
	}
	r = runTSQ(t, "", "--store", store, "import", "--stream", "plain", "--time", "ts", "--series", "acct", "--key", "id", "--op", "op", src)
	if r.code != 0 {
		t.Fatalf("plain: %+v", r)
	}
	rows := func(stream string) string {
		r := runTSQ(t, "", "--store", store, "query", "-c", "SELECT time, series, key, op, status, amount FROM fold("+stream+")", "--mode", "csv")
		if r.code != 0 || strings.Count(r.stdout, "\n") < 10 {
			t.Fatalf("query: %+v", r)
		}
		return r.stdout
	}
	if a, b := rows("orders"), rows("plain"); a != b {
		t.Fatalf("gzip import:\n%s\nplain import:\n%s", a, b)
	}
	// "--" ends the flags: what follows is a file name.
	r = runTSQ(t, "", "--store", store, "import", "--stream", "x", "--", "--time")
	if r.code != 1 || !strings.Contains(r.stderr, "--time: no such file or directory") {
		t.Fatalf("after --: %+v", r)
	}
	// A flag after the file is still checked.
	r = runTSQ(t, "", "--store", store, "import", src, "--bogus")
	if r.code != 2 && r.code != 1 || !strings.Contains(r.stderr, "flag provided but not defined: -bogus") {
		t.Fatalf("bad flag after the file: %+v", r)
	}
}

// TestImportTimeUnitHint: unix seconds read as the default milliseconds
// (or line protocol's nanoseconds) land in 1970; the import says so and
// names the flag, and says nothing when the unit is given or the times
// are plausible.
func TestImportTimeUnitHint(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	write := func(name, body string) string { return writeFile(t, dir, name, body) }
	secCSV := write("sec.csv", "ts,host,v\n1700000000,a,1\n1700000060,a,2\n")
	msCSV := write("ms.csv", "ts,host,v\n1700000000000,a,1\n")
	secLP := write("sec.lp", "cpu,host=a v=1 1700000000\n")
	msLP := write("msl.lp", "cpu,host=a v=1 1700000000000\n")
	small := write("small.csv", "ts,v\n0,1\n1,2\n") // before 1973 in any unit: no guess
	for _, c := range []struct {
		args []string
		note string // "" when none
	}{
		{[]string{secCSV, "--time", "ts"}, "read as milliseconds (the latest: 1970-01-20T16:13:20.06Z); if the times are unix seconds, import again with --time-unit s"},
		{[]string{secCSV, "--time", "ts", "--time-unit", "s"}, ""},
		{[]string{msCSV, "--time", "ts"}, ""},
		{[]string{secLP}, "read as nanoseconds (the latest: 1970-01-01T00:00:01.7Z); if the times are unix seconds, import again with --time-unit s"},
		{[]string{msLP}, "if the times are unix milliseconds, import again with --time-unit ms"},
		{[]string{msLP, "--time-unit", "ms"}, ""},
		{[]string{small, "--time", "ts"}, ""},
		{[]string{secCSV, "--time", ""}, ""}, // no time field: the rows get the import's time
		// Without --time the field ts is taken, and its seconds noticed.
		{[]string{secCSV}, "tsq: note: times from field \"ts\" (--time picks another; --time '' gives every row the import's time)\ntsq: note: every imported time is before 1973 read as milliseconds"},
	} {
		r := runTSQ(t, "", append([]string{"--store", store, "import"}, c.args...)...)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "imported ") {
			t.Fatalf("%v: %+v", c.args, r)
		}
		if c.note == "" && r.stderr != "" || c.note != "" && !strings.Contains(r.stderr, "tsq: note: every imported time is before 1973 ") || !strings.Contains(r.stderr, c.note) {
			t.Errorf("%v: stderr %q, want a note with %q", c.args, r.stderr, c.note)
		}
	}
	us := write("us.csv", "date,v\n01/02/2024,1\n")
	r := runTSQ(t, "", "--store", store, "import", us)
	if r.code != 1 || !strings.Contains(r.stderr, `time field "date" = "01/02/2024"`) ||
		!strings.Contains(r.stderr, `(the time was taken from field "date", as its name suggests: give --time FIELD, with --time-layout for text times, or --time '' for the import's time)`) {
		t.Fatalf("a guessed time field of other text: %+v", r)
	}
	if r := runTSQ(t, "", "--store", store, "import", us, "--time-layout", "01/02/2006"); r.code != 0 {
		t.Fatalf("with its layout: %+v", r)
	}
}

// TestImportSeveralFiles: each file is its own atomic import, in order,
// into the stream named after it or into --stream; the first failure
// stops the rest and says how far it got; a missing file stops the
// import before any.
func TestImportSeveralFiles(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	write := func(name, body string) string { return writeFile(t, dir, name, body) }
	a := write("a.csv", "ts,v\n1700000000000,1\n1700000001000,2\n")
	b := write("b.csv", "ts,v\n1700000002000,3\n")
	bad := write("bad.csv", "ts,v\n1700000003000,4\n\"x\n")
	count := func(stream string) string {
		r := runTSQ(t, "", "--store", store, "query", "--mode", "csv", "-c", "SELECT count(*), sum(v) FROM "+stream)
		return strings.TrimPrefix(r.stdout+r.stderr, "count(*),sum(v)\n")
	}
	r := runTSQ(t, "", "--store", store, "import", "--time", "ts", a, b)
	if r.code != 0 || !strings.Contains(r.stdout, "imported 2 rows (") || !strings.Contains(r.stdout, "into a as seqs 1..2") || !strings.Contains(r.stdout, "into b as seqs 1..1") {
		t.Fatalf("two files: %+v", r)
	}
	r = runTSQ(t, "", "--store", store, "import", "--time", "ts", "--stream", "all", a, bad, b)
	if r.code != 1 || !strings.Contains(r.stdout, "into all as seqs 1..2") || strings.Count(r.stdout, "imported") != 1 ||
		!strings.Contains(r.stderr, "unterminated quoted field") || !strings.Contains(r.stderr, "(1 of 3 files imported before "+bad+", none after it)") {
		t.Fatalf("a bad file in the middle: %+v", r)
	}
	if got := count("all"); got != "2,3\n" {
		t.Fatalf("after the bad file: %q", got)
	}
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{a, filepath.Join(dir, "missing.csv")}, "missing.csv: no such file"},
		{[]string{a, t.TempDir()}, "holds no file import reads by its name"}, // a directory is its files
		{[]string{a, "-"}, "- (stdin) is imported alone"},
		{[]string{"--rejects", "r.txt", "--skip-bad", a, b}, "--rejects names one file"},
	} {
		r := runTSQ(t, "", append([]string{"--store", store, "import", "--time", "ts", "--stream", "all"}, c.args...)...)
		if r.code == 0 || r.stdout != "" || !strings.Contains(r.stderr, c.err) {
			t.Errorf("%v: %+v", c.args, r)
		}
	}
	if got := count("all"); got != "2,3\n" {
		t.Fatalf("a refused import changed the stream: %q", got)
	}
	// A file no stream can be named after stops the files before it too.
	r = runTSQ(t, "", "--store", store, "import", "--time", "ts", a, writeFile(t, dir, "日本.csv", "ts,v\n1,2\n"))
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "no stream name can be made") {
		t.Fatalf("no name: %+v", r)
	}
	if got := count("a"); got != "2,3\n" {
		t.Fatalf("a refused import changed stream a: %q", got)
	}
}

func TestStreamNameOf(t *testing.T) {
	for path, want := range map[string]string{
		"data.csv": "data", "dir/Data.CSV.gz": "data", "My Data (2).csv": "my_data_2", "cpu-usage_v1.2.jsonl": "cpu-usage_v1.2",
		"__x__.csv": "x", "---.csv": "", "日本.csv": "", "café.lp": "caf", "a  b.csv": "a_b", ".hidden.csv": "hidden",
		strings.Repeat("x", 70) + ".csv": strings.Repeat("x", 64),
	} {
		got := streamNameOf(path)
		if got != want {
			t.Errorf("%q: %q, want %q", path, got, want)
		}
		if got != "" {
			if err := tsq.ValidateStreamName(got); err != nil {
				t.Errorf("%q: %v", path, err)
			}
		}
	}
	dir := t.TempDir()
	src := writeFile(t, dir, "日本.csv", "a,b\n1,2\n")
	r := runTSQ(t, "", "--store", filepath.Join(dir, "s"), "import", src)
	if r.code != 1 || !strings.Contains(r.stderr, `no stream name can be made from "日本.csv": give --stream`) {
		t.Fatalf("%+v", r)
	}
}

// TestImportArrowParquet: a keyed stream of puts and deletes exported
// by tsq as an Arrow file, an Arrow stream, Parquet, CSV and JSON lines
// imports back as it was (its folded and raw views equal), each told by
// its bytes whatever its name, without a mapping (the text formats'
// series, key and op taken from their fields, as noted); a Parquet file through a pipe
// is refused with what to do; a truncated Parquet file fails and
// leaves nothing.
func TestImportArrowParquet(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	var in strings.Builder
	for i := range 3000 {
		op := "put"
		if i%7 == 3 {
			op = "delete"
		}
		fmt.Fprintf(&in, `{"t":%d,"host":"h%d","id":%d,"op":%q,"v":%g,"note":"n%d"}`+"\n", 1700000000000+i, i%4, i%500, op, float64(i)/3, i%11)
	}
	src := writeFile(t, dir, "events.jsonl", in.String())
	if r := runTSQ(t, "", "--store", store, "import", "--time", "t", "--series", "host", "--key", "host,id", "--op", "op", src); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	view := func(stream, from string) string {
		t.Helper()
		r := runTSQ(t, "", "--store", store, "query", "--mode", "csv", "-c", "SELECT * FROM "+strings.ReplaceAll(from, "S", stream)+" ORDER BY seq")
		if r.code != 0 {
			t.Fatalf("%+v", r)
		}
		return r.stdout
	}
	for _, name := range []string{"e.arrow", "e.arrows", "e.parquet", "parquet-named.csv", "e.csv", "e.jsonl"} {
		p := filepath.Join(dir, name)
		args := []string{"--store", store, "export", "-c", "SELECT * FROM events", p}
		if name == "parquet-named.csv" {
			args = append(args, "--format", "parquet")
		}
		if r := runTSQ(t, "", args...); r.code != 0 {
			t.Fatalf("%s: %+v", name, r)
		}
		stream := "copy-" + strings.NewReplacer(".", "-").Replace(name)
		r := runTSQ(t, "", "--store", store, "import", "--stream", stream, p)
		if r.code != 0 || !strings.Contains(r.stdout, "imported 3000 rows") || !strings.Contains(r.stderr, `times from field "time"`) {
			t.Fatalf("%s: %+v", name, r)
		}
		if strings.Contains(name, "parquet") != strings.Contains(r.stdout, "of Parquet read as") {
			t.Errorf("%s: %s", name, r.stdout)
		}
		text := name == "e.csv" || name == "e.jsonl"
		if note := `series from field "series", key from field "key", op from field "op"`; text != strings.Contains(r.stderr, note) {
			t.Errorf("%s: want the note %q only for text: %s", name, note, r.stderr)
		}
		for _, from := range []string{"S", "fold(S)"} {
			if got, want := view(stream, from), view("events", from); got != want {
				t.Fatalf("%s, %s: the copy differs:\n%.500s\nwant\n%.500s", name, from, got, want)
			}
		}
	}
	pq, err := os.ReadFile(filepath.Join(dir, "e.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	r := runTSQ(t, string(pq), "--store", store, "import", "--stream", "piped", "-")
	if r.code == 0 || !strings.Contains(r.stderr, "Parquet file") || !strings.Contains(r.stderr, "not through a pipe") {
		t.Fatalf("Parquet on stdin: %+v", r)
	}
	cut := writeFile(t, dir, "cut.parquet", string(pq[:len(pq)*2/3]))
	r = runTSQ(t, "", "--store", store, "import", "--stream", "cut", cut)
	if r.code == 0 || !strings.Contains(r.stderr, "parquet") {
		t.Fatalf("a cut Parquet file: %+v", r)
	}
	// a failed import is named by its stream, not by its staging id
	r = runTSQ(t, "", "--store", store, "import", "--stream", "bad", "--time", "t", writeFile(t, dir, "bad.csv", "t\n1/2/2024\n"))
	if r.code == 0 || !strings.HasPrefix(r.stderr, `tsq: import into "bad": ingest: csv: line 2`) || strings.Contains(r.stderr, "~") {
		t.Fatalf("a bad time: %+v", r)
	}
	if r := runTSQ(t, "", "--store", store, "query", "-c", "SELECT count(*) FROM cut"); r.code == 0 || !strings.Contains(r.stderr, "not found") {
		t.Fatalf("a failed import left a stream: %+v", r)
	}
}

// TestSkipCorrupt: a flipped byte in a block makes queries and exports
// of the stream fail with what to do; with --skip-corrupt (after the
// command or before it) they leave that block out, say so on stderr with
// its rows and seqs, and an export of the rest imports into a new
// stream that verify finds sound.
func TestSkipCorrupt(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	var in strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&in, `{"t":%d,"v":%d,"note":"row %d"}`+"\n", 1700000000000+i, i, i)
	}
	if r := runTSQ(t, "", "--store", store, "import", "--stream", "ev", "--time", "t", writeFile(t, dir, "ev.jsonl", in.String())); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	segs, err := filepath.Glob(filepath.Join(store, "streams", "ev", "*.seg"))
	if err != nil || len(segs) == 0 {
		t.Fatal(segs, err)
	}
	b, err := os.ReadFile(segs[0])
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/3] ^= 0x08
	if err := os.WriteFile(segs[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	r := runTSQ(t, "", "--store", store, "query", "-c", "SELECT count(*) FROM ev")
	if r.code == 0 || !strings.Contains(r.stderr, "corrupt block") || !strings.Contains(r.stderr, "--skip-corrupt reads past corrupt blocks") {
		t.Fatalf("a corrupt block: %+v", r)
	}
	warn := regexp.MustCompile(`tsq: warning: left out (\d+) rows, seqs (\d+)\.\.(\d+): corrupt block \d+ in `)
	r = runTSQ(t, "", "--store", store, "--skip-corrupt", "query", "--mode", "csv", "-c", "SELECT count(*), sum(v) FROM ev")
	m := warn.FindStringSubmatch(r.stderr)
	if r.code != 0 || m == nil {
		t.Fatalf("--skip-corrupt: %+v", r)
	}
	lost, _ := strconv.Atoi(m[1])
	lo, _ := strconv.Atoi(m[2])
	hi, _ := strconv.Atoi(m[3])
	sum := 0 // of v over the rows kept: v is seq - 1
	for i := range 20000 {
		if i+1 < lo || i+1 > hi {
			sum += i
		}
	}
	if lost == 0 || hi-lo+1 != lost || r.stdout != fmt.Sprintf("count(*),sum(v)\n%d,%d\n", 20000-lost, sum) {
		t.Fatalf("--skip-corrupt: %+v, lost %d rows %d..%d", r, lost, lo, hi)
	}
	out := filepath.Join(dir, "rest.arrow")
	if r := runTSQ(t, "", "--store", store, "export", "--skip-corrupt", "-c", "SELECT * FROM ev", out); r.code != 0 || !warn.MatchString(r.stderr) {
		t.Fatalf("export --skip-corrupt: %+v", r)
	}
	if r := runTSQ(t, "", "--store", store, "import", "--stream", "ev2", out); r.code != 0 || !strings.Contains(r.stdout, fmt.Sprintf("imported %d rows", 20000-lost)) {
		t.Fatalf("import of the rest: %+v", r)
	}
	if r := runTSQ(t, "", "--store", store, "query", "--mode", "csv", "-c", "SELECT count(*), sum(v) FROM ev2"); r.stdout != fmt.Sprintf("count(*),sum(v)\n%d,%d\n", 20000-lost, sum) {
		t.Fatalf("the copy: %+v", r)
	}
	if r := runTSQ(t, "", "--store", store, "import", "--skip-corrupt", "--stream", "x", out); r.code == 0 || !strings.Contains(r.stderr, "flag provided but not defined: -skip-corrupt") {
		t.Fatalf("import --skip-corrupt: %+v", r)
	}
}

// TestImportDirectory: a directory stands for the files under it that
// import reads by name, in natural path order, each imported
// atomically: a dataset tsq export --partitioned wrote imports into the
// stream its stream=NAME directory names, as it was; hidden files are
// skipped; a directory without such files, or with --rejects, is
// refused before any file.
func TestImportDirectory(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	var in strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&in, `{"t":%d,"host":"h%d","id":%d,"v":%d}`+"\n", 1700000000000+int64(i)*60_000_000/3, i%3, i%700, i)
	}
	if r := runTSQ(t, "", "--store", store, "import", "--stream", "ev", "--time", "t", "--series", "host", "--key", "host,id", writeFile(t, dir, "ev.jsonl", in.String())); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	ds := filepath.Join(dir, "ds")
	if r := runTSQ(t, "", "--store", store, "export", "--partitioned", "-c", "SELECT * FROM ev", ds); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	writeFile(t, filepath.Join(ds, "stream=ev"), ".hidden.csv", "not,data\n")
	// a linked file counts as the file (a second copy of the rows)
	extra := writeFile(t, dir, "extra.jsonl", `{"time":"2023-11-14T22:13:20Z","v":1000000}`+"\n")
	if err := os.Symlink(extra, filepath.Join(ds, "stream=ev", "zz-extra.jsonl")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(ds, "stream=ev"), "README", "not data either\n")
	parts, _ := filepath.Glob(filepath.Join(ds, "stream=ev", "date=*", "*.parquet"))
	if len(parts) < 2 {
		t.Fatalf("the export wrote %d files", len(parts))
	}
	store2 := filepath.Join(dir, "s2")
	r := runTSQ(t, "", "--store", store2, "import", filepath.Join(ds, "stream=ev"))
	if r.code != 0 || strings.Count(r.stdout, "imported ") != len(parts)+1 || strings.Count(r.stderr, "times from field") != 1 {
		t.Fatalf("%d parts and a linked file: %+v", len(parts), r)
	}
	view := func(store, q string) string {
		r := runTSQ(t, "", "--store", store, "query", "--mode", "csv", "-c", q)
		if r.code != 0 {
			t.Fatalf("%+v", r)
		}
		return r.stdout
	}
	if got := view(store2, "SELECT count(*) FROM ev WHERE v = 1000000"); got != "count(*)\n1\n" {
		t.Fatalf("the linked file: %q", got)
	}
	for _, q := range []string{"SELECT count(*), sum(v), min(time), max(time) FROM ev WHERE v < 1000000",
		"SELECT series, key, v FROM fold(ev) WHERE v < 1000000 ORDER BY series, key"} {
		if got, want := view(store2, q), view(store, q); got != want {
			t.Fatalf("%s: the copy differs:\n%.300s\nwant\n%.300s", q, got, want)
		}
	}
	empty := filepath.Join(dir, "empty")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, empty, "notes.txt", "x\n")
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{empty}, "holds no file import reads by its name"},
		{[]string{"--rejects", "r.txt", "--skip-bad", ds}, "--rejects names one file"},
	} {
		if r := runTSQ(t, "", append([]string{"--store", store2, "import"}, c.args...)...); r.code == 0 || !strings.Contains(r.stderr, c.err) {
			t.Errorf("%v: %+v", c.args, r)
		}
	}
	got := []string{"d/part-10.parquet", "d/part-2.parquet", "d/part-1.parquet", "c/x"}
	slices.SortFunc(got, naturalCompare)
	if want := []string{"c/x", "d/part-1.parquet", "d/part-2.parquet", "d/part-10.parquet"}; !slices.Equal(got, want) {
		t.Fatalf("natural order %v", got)
	}
	for dir, want := range map[string]string{"/a/stream=cpu.v2/date=2024-01-01": "cpu.v2", "/a/stream=cpu": "cpu", "/data/My Logs": "my_logs", "/a/stream=cpu/x": "x"} {
		if got := dirStreamName(dir); got != want {
			t.Errorf("dirStreamName(%q) = %q, want %q", dir, got, want)
		}
	}
}
