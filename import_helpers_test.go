package tsq

import (
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

// jsonGen is an io.Reader producing JSON lines on the fly: row i has
// time day0+i s, series "s<i%7>", key "k<i>", an int, a float and a
// string field. No file is ever written, and reading allocates nothing
// once the first line is made.
type jsonGen struct {
	rows, i int64
	limit   int64 // stop after this many bytes if > 0 (rows then ignored)
	// width, if > 0, zero-pads the key to that many digits and adds
	// 10^width to the int field: every row then has the same length,
	// whatever the input's size (up to 10^width rows)
	width int
	made  int64 // bytes of the lines made
	n     int64 // bytes produced
	line  []byte
	pend  []byte // the rest of line not read yet
}

func (g *jsonGen) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(g.pend) == 0 {
			if g.limit > 0 && g.made >= g.limit || g.limit == 0 && g.i >= g.rows {
				break
			}
			g.line = g.appendLine(g.line[:0], g.i)
			g.pend = g.line
			g.made += int64(len(g.line))
			g.i++
		}
		c := copy(p[n:], g.pend)
		g.pend = g.pend[c:]
		n += c
	}
	if n == 0 {
		return 0, io.EOF
	}
	g.n += int64(n)
	return n, nil
}

func (g *jsonGen) appendLine(b []byte, i int64) []byte {
	b = append(b, `{"ts":`...)
	b = strconv.AppendInt(b, day0/1e6+i*1000, 10)
	b = append(b, `,"host":"s`...)
	b = strconv.AppendInt(b, i%7, 10)
	b = append(b, `","id":"k`...)
	b = g.appendNum(b, i)
	b = append(b, `","n":`...)
	if g.width > 0 {
		b = strconv.AppendInt(b, pow10(g.width)+i, 10) // g.width+1 digits
	} else {
		b = strconv.AppendInt(b, i, 10)
	}
	b = append(b, `,"v":`...)
	b = strconv.AppendInt(b, i%1000, 10)
	b = append(b, `.25,"msg":"payload `...)
	b = strconv.AppendInt(b, i%97, 10)
	b = append(b, ` with some text","nested":{"a":`...)
	b = strconv.AppendInt(b, i%3, 10)
	return append(b, "}}\n"...)
}

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// appendNum appends i, zero-padded to g.width digits.
func (g *jsonGen) appendNum(b []byte, i int64) []byte {
	start := len(b)
	b = strconv.AppendInt(b, i, 10)
	if pad := g.width - (len(b) - start); pad > 0 {
		b = append(b, make([]byte, pad)...)
		copy(b[start+pad:], b[start:len(b)-pad])
		for k := range pad {
			b[start+k] = '0'
		}
	}
	return b
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
