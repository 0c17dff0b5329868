package tsq

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

// jsonGen is an io.Reader producing JSON lines on the fly: row i has
// time day0+i s, series "s<i%7>", key "k<i>", an int, a float and a
// string field. No file is ever written.
type jsonGen struct {
	rows, i int64
	limit   int64 // stop after this many bytes if > 0 (rows then ignored)
	n       int64 // bytes produced
	buf     bytes.Buffer
	line    []byte
}

func (g *jsonGen) Read(p []byte) (int, error) {
	for g.buf.Len() < len(p) {
		if g.limit > 0 && g.n+int64(g.buf.Len()) >= g.limit || g.limit == 0 && g.i >= g.rows {
			break
		}
		i := g.i
		b := g.line[:0]
		b = append(b, `{"ts":`...)
		b = strconv.AppendInt(b, day0/1e6+i*1000, 10)
		b = append(b, `,"host":"s`...)
		b = strconv.AppendInt(b, i%7, 10)
		b = append(b, `","id":"k`...)
		b = strconv.AppendInt(b, i, 10)
		b = append(b, `","n":`...)
		b = strconv.AppendInt(b, i, 10)
		b = append(b, `,"v":`...)
		b = strconv.AppendInt(b, i%1000, 10)
		b = append(b, `.25,"msg":"payload `...)
		b = strconv.AppendInt(b, i%97, 10)
		b = append(b, ` with some text","nested":{"a":`...)
		b = strconv.AppendInt(b, i%3, 10)
		b = append(b, "}}\n"...)
		g.line = b
		g.buf.Write(b)
		g.i++
	}
	if g.buf.Len() == 0 {
		return 0, io.EOF
	}
	n, _ := g.buf.Read(p)
	g.n += int64(n)
	return n, nil
}

var genMapping = []string{"time=ts", "series=host", "key=id"}

func importOpts(t testing.TB, kv ...string) *ImportOptions {
	o := &ImportOptions{Source: "gen.jsonl"}
	for _, s := range append(append([]string{}, genMapping...), kv...) {
		if err := o.Mapping.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

func countT(t testing.TB, s *Store, stream string) int {
	t.Helper()
	n, err := s.Count(stream)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// stagingEmpty fails unless the staging area holds nothing.
func stagingEmpty(t testing.TB, fsys vfs.FS, dir string) {
	t.Helper()
	names, err := fsys.ReadDir(dir + "/staging")
	if err == nil && len(names) > 0 {
		t.Fatalf("staging not cleaned: %v", names)
	}
}

func sharedData(t testing.TB, name string) io.Reader {
	f, err := os.Open("../shared/data/" + name)
	if err != nil {
		t.Skipf("shared data absent: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
