package ingest

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// fuzzParse parses in with format f and checks the invariants: no
// panic, errors are *Error or read errors, batches are padded and
// bounded, spans stay inside the arena.
func fuzzParse(t *testing.T, f Format, m Mapping, in []byte, skip bool) {
	p, err := NewParser(bytes.NewReader(in), Options{Format: f, Mapping: m, SkipBad: skip, Rejects: io.Discard, MaxLineBytes: 1 << 12, BatchRows: 7, BufferBytes: 32})
	if err != nil {
		return
	}
	var b Batch
	for range 10000 {
		err := p.Fill(&b)
		if err == io.EOF {
			return
		}
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if b.Rows == 0 || b.Rows > 7 {
			t.Fatalf("batch of %d rows", b.Rows)
		}
		check := func(s Span) {
			if int(s.Off)+int(s.Len) > len(b.Arena) {
				t.Fatalf("span %v outside arena of %d", s, len(b.Arena))
			}
		}
		for i := 0; i < b.Rows; i++ {
			check(b.Series[i])
			check(b.Key[i])
		}
		for _, c := range b.Cols {
			if len(c.Valid) != b.Rows {
				t.Fatalf("column %q: %d values of %d", c.Name, len(c.Valid), b.Rows)
			}
			for _, s := range c.Strs {
				check(s)
			}
		}
	}
	t.Fatal("parser does not end")
}

func FuzzJSONLines(f *testing.F) {
	f.Add([]byte(`{"t":1,"a":{"b":[1,2]},"s":"x"}`+"\n"+`{"t":"2020-01-01T00:00:00Z","a":1.5}`), true)
	f.Add([]byte("{\"a\":1}\n{\"a\":\"x\"}\n{\"a\":true}\n"), false)
	m := Mapping{Time: "t", Series: "s", Key: "s,a", Op: "o"}
	f.Fuzz(func(t *testing.T, in []byte, skip bool) { fuzzParse(t, JSONLines, m, in, skip) })
}

func FuzzJSONArray(f *testing.F) {
	f.Add([]byte(`[{"t":1},{"t":2,"x":"]"}]`), true)
	f.Add([]byte(`[1,"a",{}]`), false)
	f.Fuzz(func(t *testing.T, in []byte, skip bool) { fuzzParse(t, JSONArray, Mapping{Time: "t"}, in, skip) })
}

func FuzzCSV(f *testing.F) {
	f.Add([]byte("a,b,t\n1,\"x\"\"y\",5\n2.5,,6\n"), true)
	f.Add([]byte("a\n\"multi\nline\"\n"), false)
	f.Fuzz(func(t *testing.T, in []byte, skip bool) {
		fuzzParse(t, CSV, Mapping{Time: "t", Types: map[string]string{"a": "float64"}}, in, skip)
	})
}

func FuzzLineProtocol(f *testing.F) {
	f.Add([]byte("cpu,h=a v=1,s=\"x y\",i=2i,b=t 123\n"), true)
	f.Fuzz(func(t *testing.T, in []byte, skip bool) { fuzzParse(t, LineProtocol, Mapping{}, in, skip) })
}

func FuzzPrometheus(f *testing.F) {
	f.Add([]byte("# TYPE x gauge\nx{a=\"b\"} 1 2\ny 1.5 1.5 # {t=\"1\"} 2\n"), true)
	f.Fuzz(func(t *testing.T, in []byte, skip bool) { fuzzParse(t, Prometheus, Mapping{}, in, skip) })
}
