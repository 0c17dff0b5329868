package export_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/tsqdb/tsq/export"
	"github.com/tsqdb/tsq/export/exporttest"
)

var t0 = time.Date(2024, 2, 28, 23, 0, 0, 123456789, time.UTC)

func genRows(n int) []exporttest.Row { return exporttest.Gen(1, n, t0, 1500*time.Millisecond, false) }

func wantValues(rows []exporttest.Row) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		out[i] = r.Values()
	}
	return out
}

func compareRows(t *testing.T, got, want [][]any) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d rows, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("row %d:\n got %#v\nwant %#v", i, got[i], want[i])
		}
	}
}

// dirEntries lists dir, to check that nothing (no tmp) was left behind.
func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestFormatFromPath(t *testing.T) {
	for path, want := range map[string]export.Format{
		"a.arrow": export.ArrowFile, "x/b.ARROWS": export.ArrowStream, "c.parquet": export.Parquet,
		"d.csv": export.CSV, "e.jsonl": export.JSONL, "f.ndjson": export.JSONL,
	} {
		got, err := export.FormatFromPath(path)
		if err != nil || got != want {
			t.Errorf("FormatFromPath(%q) = %v, %v; want %v", path, got, err, want)
		}
		back, err := export.ParseFormat(want.String())
		if err != nil || back != want {
			t.Errorf("ParseFormat(%q) = %v, %v", want.String(), back, err)
		}
	}
	for _, path := range []string{"noext", "a.txt", "a.json.gz"} {
		if _, err := export.FormatFromPath(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("FormatFromPath(%q): error %v should name the path", path, err)
		}
	}
}

func TestArrowFileRoundTrip(t *testing.T) {
	rows := genRows(2500)
	path := filepath.Join(t.TempDir(), "out.arrow")
	var progressed int64
	st, err := export.WriteFile(context.Background(), path, 0, exporttest.Reader(rows, 300),
		&export.Options{Progress: func(r, b int64) { progressed = r }})
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != 2500 || progressed != 2500 {
		t.Fatalf("stats %+v, progress %d", st, progressed)
	}
	fi, _ := os.Stat(path)
	if fi.Size() != st.Bytes {
		t.Fatalf("file has %d bytes, stats say %d", fi.Size(), st.Bytes)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	want, _ := export.PlainSchema(exporttest.Schema())
	if !r.Schema().Equal(want) {
		t.Fatalf("schema %v, want %v", r.Schema(), want)
	}
	if r.Schema().Field(2).Type.ID() != arrow.STRING || r.Schema().Field(5).Nullable != true {
		t.Fatalf("series should be plain utf8 and value nullable: %v", r.Schema())
	}
	var got [][]any
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordBatch(i)
		if err != nil {
			t.Fatal(err)
		}
		n, err := exporttest.Normalize(rec)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, n...)
	}
	compareRows(t, got, wantValues(rows))
	if names := dirEntries(t, filepath.Dir(path)); len(names) != 1 {
		t.Fatalf("directory holds %v, want only out.arrow", names)
	}
}

func TestArrowStreamRoundTrip(t *testing.T) {
	rows := genRows(2100)
	var buf bytes.Buffer
	st, err := export.Write(context.Background(), &buf, export.ArrowStream, exporttest.Reader(rows, 256), nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != 2100 || st.Bytes != int64(buf.Len()) {
		t.Fatalf("stats %+v, buffer %d", st, buf.Len())
	}
	r, err := ipc.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	if !r.Schema().Equal(exporttest.Schema()) {
		t.Fatalf("stream schema %v, want dictionaries kept: %v", r.Schema(), exporttest.Schema())
	}
	got, err := exporttest.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	compareRows(t, got, wantValues(rows))
}

// textValue renders a normalized value as the CSV and JSON writers do.
func textValue(col int, v any) string {
	switch x := v.(type) {
	case int64:
		if col == 1 {
			return time.Unix(0, x).UTC().Format(time.RFC3339Nano)
		}
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case string:
		if col == 9 {
			return base64.StdEncoding.EncodeToString([]byte(x))
		}
		return x
	}
	return ""
}

func TestCSV(t *testing.T) {
	rows := genRows(1000)
	path := filepath.Join(t.TempDir(), "out.csv")
	if _, err := export.WriteFile(context.Background(), path, export.CSV, exporttest.Reader(rows, 128), nil); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("seq,time,series,key,op,value,count,host,ok,blob\n")) {
		t.Fatalf("header: %q", data[:80])
	}
	if !bytes.Contains(data, []byte(",2024-02-28T23:00:00.123456789Z,")) {
		t.Fatalf("first time not RFC 3339 nano UTC: %q", data[:200])
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(rows)+1 {
		t.Fatalf("%d CSV records, want %d", len(recs), len(rows)+1)
	}
	// encoding/csv cannot tell "" from an empty field, so check nulls on the raw lines too.
	nulls, empties := 0, 0
	for i, r := range rows {
		want := r.Values()
		for c, v := range want {
			if got := recs[i+1][c]; got != textValue(c, v) {
				t.Fatalf("row %d col %d: %q, want %q", i, c, got, textValue(c, v))
			}
		}
		if r.Host == nil {
			nulls++
		} else if *r.Host == "" {
			empties++
		}
	}
	if nulls == 0 || empties == 0 {
		t.Fatalf("test data lacks null (%d) or empty (%d) hosts", nulls, empties)
	}
	if got := bytes.Count(data, []byte(`,"",`)); got < empties {
		t.Fatalf("%d quoted empty fields, want at least %d empty hosts", got, empties)
	}
}

func TestJSONL(t *testing.T) {
	rows := genRows(700)
	var buf bytes.Buffer
	if _, err := export.Write(context.Background(), &buf, export.JSONL, exporttest.Reader(rows, 100), nil); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != len(rows) {
		t.Fatalf("%d lines, want %d", len(lines), len(rows))
	}
	names := []string{"seq", "time", "series", "key", "op", "value", "count", "host", "ok", "blob"}
	for i, line := range lines {
		d := json.NewDecoder(strings.NewReader(line))
		d.UseNumber()
		var m map[string]any
		if err := d.Decode(&m); err != nil {
			t.Fatalf("line %d %q: %v", i, line, err)
		}
		for c, v := range rows[i].Values() {
			got, ok := m[names[c]]
			if !ok {
				t.Fatalf("line %d lacks %q", i, names[c])
			}
			if v == nil {
				if got != nil {
					t.Fatalf("line %d %s: %v, want null", i, names[c], got)
				}
				continue
			}
			var s string
			switch g := got.(type) {
			case json.Number:
				s = g.String()
			case string:
				s = g
			case bool:
				s = strconv.FormatBool(g)
			}
			if s != textValue(c, v) {
				t.Fatalf("line %d %s: %q, want %q", i, names[c], s, textValue(c, v))
			}
		}
	}
}

func TestEmptyResult(t *testing.T) {
	for _, f := range []export.Format{export.ArrowFile, export.ArrowStream, export.CSV, export.JSONL} {
		path := filepath.Join(t.TempDir(), "empty."+f.String())
		st, err := export.WriteFile(context.Background(), path, f, exporttest.Reader(nil, 10), nil)
		if err != nil || st.Rows != 0 {
			t.Fatalf("%v: %+v %v", f, st, err)
		}
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("%v: %v", f, err)
		}
	}
}

func TestParquetNotLinked(t *testing.T) {
	dir := t.TempDir()
	_, err := export.WriteFile(context.Background(), filepath.Join(dir, "x.parquet"), 0, exporttest.Reader(genRows(10), 5), nil)
	if !errors.Is(err, export.ErrParquetNotLinked) || !strings.Contains(err.Error(), "export/parquet") {
		t.Fatalf("got %v, want ErrParquetNotLinked naming the import", err)
	}
	if _, err := export.WritePartitioned(context.Background(), dir, "s", exporttest.Reader(genRows(10), 5), nil); !errors.Is(err, export.ErrParquetNotLinked) {
		t.Fatalf("WritePartitioned: %v", err)
	}
	if names := dirEntries(t, dir); len(names) != 0 {
		t.Fatalf("left %v", names)
	}
}

var allFormats = []export.Format{export.ArrowFile, export.ArrowStream, export.CSV, export.JSONL}

func TestBadPaths(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plain")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "missing", "out.arrow"), "no such file"},
		{filepath.Join(file, "out.arrow"), "not a directory"},
		{dir + "/", "no extension"},
		{filepath.Join(dir, "out.txt"), "unknown extension"},
		{"/proc/tsq-export-test.csv", "/proc/tsq-export-test.csv"},
	} {
		_, err := export.WriteFile(context.Background(), c.path, 0, exporttest.Reader(genRows(10), 5), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("WriteFile(%q) = %v, want an error containing %q", c.path, err, c.want)
		}
	}
	sub := filepath.Join(dir, "sub.csv")
	os.Mkdir(sub, 0o755)
	if _, err := export.WriteFile(context.Background(), sub, 0, exporttest.Reader(genRows(10), 5), nil); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("WriteFile onto a directory: %v", err)
	}
	if names := dirEntries(t, dir); len(names) != 2 {
		t.Fatalf("left %v", names)
	}
}

func TestFailingReaderLeavesNothing(t *testing.T) {
	for _, f := range allFormats {
		dir := t.TempDir()
		path := filepath.Join(dir, "out."+f.String())
		// An existing file stays as it was.
		if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		rr := exporttest.FailAfter(exporttest.Reader(genRows(1000), 100), 3)
		_, err := export.WriteFile(context.Background(), path, f, rr, nil)
		if !errors.Is(err, exporttest.ErrInjected) || !strings.Contains(err.Error(), "after 300 rows") {
			t.Fatalf("%v: %v", f, err)
		}
		if names := dirEntries(t, dir); len(names) != 1 {
			t.Fatalf("%v: left %v", f, names)
		}
		if b, _ := os.ReadFile(path); string(b) != "old" {
			t.Fatalf("%v: existing file changed to %q", f, b)
		}
	}
}

func TestCancelLeavesNothing(t *testing.T) {
	for _, f := range allFormats {
		dir := t.TempDir()
		ctx, cancel := context.WithCancel(context.Background())
		rr := exporttest.CancelAfter(exporttest.Reader(genRows(1000), 100), 4, cancel)
		_, err := export.WriteFile(ctx, filepath.Join(dir, "out."+f.String()), f, rr, nil)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%v: %v", f, err)
		}
		if names := dirEntries(t, dir); len(names) != 0 {
			t.Fatalf("%v: left %v", f, names)
		}
		cancel()
	}
}

func TestNilInputs(t *testing.T) {
	ctx := context.Background()
	if _, err := export.Write(ctx, &bytes.Buffer{}, export.CSV, nil, nil); err == nil {
		t.Error("nil reader accepted")
	}
	if _, err := export.Write(ctx, &bytes.Buffer{}, export.Format(99), exporttest.Reader(nil, 1), nil); err == nil || !strings.Contains(err.Error(), "Format(99)") {
		t.Errorf("bad format: %v", err)
	}
	if _, err := export.ParseFormat("xml"); err == nil {
		t.Error("xml accepted")
	}
}
