package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
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

// FuzzChunked: parsing an input cut by a Chunker into small chunks, one
// parser per chunk as the import does (CSV header given by SetHeader),
// yields the same rows as parsing it whole, or the same error.
func FuzzChunked(f *testing.F) {
	f.Add([]byte("a,b\n1,\"x\ny\"\n2,\"q\"\"\"\n3,z\n"), true)
	f.Add([]byte("{\"a\":1}\n{\"a\":\"x\"}\n\n{\"a\":2.5}\n"), false)
	f.Fuzz(func(t *testing.T, in []byte, csv bool) {
		format, m := JSONLines, Mapping{}
		if csv {
			format = CSV
		}
		o := Options{Format: format, Mapping: m, Now: 1}
		whole, _, werr := parseAll(t, string(in), o)
		var header []byte
		body := in
		if csv {
			i := bytes.IndexByte(in, '\n')
			if i < 0 || bytes.Count(in[:i], []byte{'"'})%2 == 1 || len(bytes.TrimSpace(in[:i])) == 0 {
				return // the import parses such inputs on one goroutine
			}
			header, body = in[:i+1], in[i+1:]
		}
		lines := int64(0)
		if header != nil {
			lines = 1
		}
		c := NewChunker(bytes.NewReader(body), format, 16, 1<<12, lines, int64(len(header)))
		var got []row
		var cerr error
		var buf []byte
		if header != nil { // every parser of the import starts so
			p, _ := NewParser(bytes.NewReader(nil), o)
			cerr = p.SetHeader(header)
		}
	chunks:
		for cerr == nil {
			chunk, line, off, err := c.Next(buf)
			if err == io.EOF {
				break
			}
			if err != nil {
				cerr = err
				break
			}
			p, err := NewParser(bytes.NewReader(nil), o)
			if err != nil {
				t.Fatal(err)
			}
			if header != nil {
				if err := p.SetHeader(header); err != nil {
					cerr = err
					break
				}
			}
			p.ResetChunk(append([]byte(nil), chunk...), line, off)
			var b Batch
			for {
				err := p.Fill(&b)
				if err == io.EOF {
					break
				}
				if err != nil {
					cerr = err
					break chunks
				}
				got = append(got, batchRows(&b)...)
			}
			buf = chunk
		}
		if (werr == nil) != (cerr == nil) {
			t.Fatalf("whole: %v, chunked: %v", werr, cerr)
		}
		if werr != nil {
			if werr.Error() != cerr.Error() {
				t.Fatalf("whole: %v\nchunked: %v", werr, cerr)
			}
			return
		}
		if len(got) != len(whole) {
			t.Fatalf("%d rows whole, %d chunked", len(whole), len(got))
		}
		// Values may differ in type (each chunk's parser infers its own:
		// "00" is a string after a text value, an int in a fresh parser);
		// rows, their record columns and their field names may not.
		for i := range got {
			g, w := got[i], whole[i]
			if g.t != w.t || g.series != w.series || g.key != w.key || g.op != w.op || fmt.Sprint(keys(g.fields)) != fmt.Sprint(keys(w.fields)) {
				t.Fatalf("row %d: whole %v, chunked %v", i, w, g)
			}
		}
	})
}

func keys(m map[string]any) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	slices.Sort(k)
	return k
}

// FuzzDecompress feeds any bytes to DetectCompression and Decompress
// (zstd windows limited to 1 MiB) and reads up to 1 MiB of the output:
// no panic, whatever the bytes.
func FuzzDecompress(f *testing.F) {
	raw := []byte("{\"t\":1,\"v\":2}\n{\"t\":2,\"v\":3}\n")
	f.Add(gzipped(f, raw))
	f.Add(zstded(f, raw, 1<<20))
	f.Add(zstded(f, raw, 32<<20))
	f.Add([]byte("BZh91AY&SY\x33\x05\xc7\x54\x00\x00"))
	f.Add(raw)
	f.Fuzz(func(t *testing.T, in []byte) {
		comp, err := DetectCompression(in[:min(len(in), HeadBytes)])
		if err != nil || comp == Uncompressed {
			return
		}
		r, release, err := Decompress(bytes.NewReader(in), comp, 1<<20)
		if err != nil {
			return
		}
		defer release()
		_, _ = io.Copy(io.Discard, io.LimitReader(r, 1<<20))
	})
}
