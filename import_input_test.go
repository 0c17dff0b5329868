package tsq

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/tsqdb/tsq/ingest"
	"github.com/tsqdb/tsq/internal/vfs"
)

// TestImportCompressed imports the same JSON lines plain, gzip- and
// zstd-compressed (and a bzip2 file), and checks that the compressed
// imports hold the plain one's rows, report both sizes, and that a
// truncated or non-text input fails and leaves no row.
func TestImportCompressed(t *testing.T) {
	raw, err := io.ReadAll(&jsonGen{rows: 30000})
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(raw)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	zs := enc.EncodeAll(raw, nil)
	mem := vfs.NewMem()
	s := openT(t, mem, Options{SegmentMaxBytes: 64 << 10, BlockRows: 1000})
	if _, err := s.Import(ctx, "plain", bytes.NewReader(raw), importOpts(t)); err != nil {
		t.Fatal(err)
	}
	want := make(map[uint64]Record)
	for q := uint64(1); q <= 30000; q += 149 {
		if want[q], err = s.Get("plain", q); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		stream string
		in     []byte
		comp   ingest.Compression
	}{{"gz", gz.Bytes(), ingest.Gzip}, {"zst", zs, ingest.Zstd}} {
		o := importOpts(t)
		o.Size = int64(len(c.in))
		var last ImportProgress
		o.Progress = func(p ImportProgress) { last = p }
		// Through a reader that is not in memory, as a file or pipe is.
		st, err := s.Import(ctx, c.stream, io.MultiReader(bytes.NewReader(c.in)), o)
		if err != nil {
			t.Fatalf("%s: %v", c.stream, err)
		}
		if st.Rows != 30000 || st.Compression != c.comp || st.ReadBytes != int64(len(c.in)) || st.Bytes != int64(len(raw)) ||
			st.MinTime != day0 || st.MaxTime != day0+29999*1e9 {
			t.Fatalf("%s: stats %+v", c.stream, st)
		}
		if !last.Done || last.ReadBytes != last.TotalBytes || last.Bytes != int64(len(raw)) {
			t.Fatalf("%s: last progress %+v", c.stream, last)
		}
		for q, w := range want {
			got, err := s.Get(c.stream, q)
			if err != nil || !reflect.DeepEqual(got.Fields, w.Fields) || got.Time != w.Time || got.Series != w.Series || got.Key != w.Key {
				t.Fatalf("%s: seq %d: %+v, %v; want %+v", c.stream, q, got, err, w)
			}
		}
	}

	bz, err := os.ReadFile("ingest/testdata/two_rows.jsonl.bz2")
	if err != nil {
		t.Fatal(err)
	}
	o := importOpts(t)
	o.Mapping = ingest.Mapping{}
	if err := o.Mapping.Set("time=t"); err != nil {
		t.Fatal(err)
	}
	o.Mapping.TimeUnit = "s"
	st, err := s.Import(ctx, "bz", bytes.NewReader(bz), o)
	if err != nil || st.Rows != 2 || st.Compression != ingest.Bzip2 {
		t.Fatalf("bzip2: %+v, %v", st, err)
	}
	if r, err := s.Get("bz", 2); err != nil || r.Time != 2e9 {
		t.Fatalf("bzip2 row 2: %+v, %v", r, err)
	}

	// A truncated gzip file: the rows before the cut parse, but nothing
	// commits; nor does a Parquet file get parsed as text.
	for name, in := range map[string][]byte{
		"truncated": gz.Bytes()[:gz.Len()/2],
		"parquet":   []byte("PAR1\x15\x04\x15\x80\x01\x15\x00rest"),
	} {
		_, err := s.Import(ctx, "plain", bytes.NewReader(in), importOpts(t))
		wantErr := map[string]string{"truncated": "gzip: the input ends inside compressed data", "parquet": "Parquet file"}[name]
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("%s: %v", name, err)
		}
		if n := countT(t, s, "plain"); n != 30000 {
			t.Fatalf("%s: a failed import left %d rows", name, n)
		}
		stagingEmpty(t, mem, "db")
	}
	closeT(t, s)
}

// TestImportUTF16 imports a tab-separated file as Excel saves "Unicode
// Text" (UTF-16 little-endian with a byte order mark), gzip-compressed
// too, and big-endian without a mark: the rows of the UTF-8 file.
func TestImportUTF16(t *testing.T) {
	text := "time\thost\tnote\tv\n1700000000000\tweb-1\tcafé ☕ 😀\t1.5\r\n1700000060000\tweb-2\t\"a\tb\"\t2\r\n"
	s := openT(t, vfs.NewMem(), Options{})
	o := func() *ImportOptions {
		o := &ImportOptions{}
		if err := o.Mapping.Set("time=time"); err != nil {
			t.Fatal(err)
		}
		return o
	}
	rows := func(stream string) []Record {
		var out []Record
		for q := uint64(1); q <= 2; q++ {
			r, err := s.Get(stream, q)
			if err != nil {
				t.Fatalf("%s: %v", stream, err)
			}
			r.Seq = 0
			out = append(out, r)
		}
		return out
	}
	if _, err := s.Import(ctx, "utf8", strings.NewReader(text), o()); err != nil {
		t.Fatal(err)
	}
	want := rows("utf8")
	if v, _ := want[0].Field("note"); v.Str() != "café ☕ 😀" {
		t.Fatalf("utf-8 import: %+v", want)
	}
	units := utf16.Encode([]rune(text))
	var leBOM, be []byte
	leBOM = append(leBOM, 0xff, 0xfe)
	for _, u := range units {
		leBOM = binary.LittleEndian.AppendUint16(leBOM, u)
		be = binary.BigEndian.AppendUint16(be, u)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(leBOM)
	_ = zw.Close()
	for name, in := range map[string][]byte{"le": leBOM, "be": be, "gz": gz.Bytes()} {
		st, err := s.Import(ctx, name, io.MultiReader(bytes.NewReader(in)), o())
		if err != nil || !st.UTF16 || st.Rows != 2 {
			t.Fatalf("%s: %+v, %v", name, st, err)
		}
		got := rows(name)
		for i := range got {
			got[i].Series = want[i].Series // named after the stream
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n%+v\nwant\n%+v", name, got, want)
		}
	}
}

// TestImportGuessTime: with GuessTime and no time field in the mapping,
// the time comes from a field named like one in the first record (after
// decompression); a mapped time field wins; without GuessTime rows get
// the import's time.
func TestImportGuessTime(t *testing.T) {
	csv := "Timestamp,host,v\n2024-01-02T03:04:05Z,a,1\n2024-01-02T03:04:06Z,b,2\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(csv))
	_ = zw.Close()
	s := openT(t, vfs.NewMem(), Options{})
	want := time.Date(2024, 1, 2, 3, 4, 6, 0, time.UTC).UnixNano()
	for _, c := range []struct {
		stream string
		in     []byte
		guess  bool
		mapped string
		field  string // TimeField
		time   int64  // of row 2; 0: the import's
	}{
		{"plain", []byte(csv), true, "", "Timestamp", want},
		{"gz", gz.Bytes(), true, "", "Timestamp", want},
		{"off", []byte(csv), false, "", "", 0},
		{"mapped", []byte("ts,Timestamp\n5,2024-01-02T03:04:06Z\n7,x\n"), true, "ts", "", 7e6},
		{"none", []byte("a,b\n1,2\n3,4\n"), true, "", "", 0},
	} {
		o := &ImportOptions{GuessTime: c.guess}
		if c.mapped != "" {
			if err := o.Mapping.Set("time=" + c.mapped); err != nil {
				t.Fatal(err)
			}
		}
		before := time.Now().UnixNano()
		st, err := s.Import(ctx, c.stream, bytes.NewReader(c.in), o)
		if err != nil || st.TimeField != c.field {
			t.Fatalf("%s: %+v, %v", c.stream, st, err)
		}
		r, err := s.Get(c.stream, 2)
		if err != nil {
			t.Fatal(err)
		}
		if c.time != 0 && r.Time != c.time || c.time == 0 && r.Time < before {
			t.Errorf("%s: time %v, want %v", c.stream, time.Unix(0, r.Time).UTC(), time.Unix(0, c.time).UTC())
		}
		// The field taken as the time is not kept as a field too, as
		// with a mapped one; without the guess it is a field.
		if _, ok := r.Field("Timestamp"); c.field != "" && ok || c.stream == "off" && !ok {
			t.Errorf("%s: the field Timestamp stored: %v", c.stream, ok)
		}
	}
}
