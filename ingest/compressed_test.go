package ingest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

func gzipped(t testing.TB, raw []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// zstded compresses raw as a stream with the given window.
func zstded(t testing.TB, raw []byte, window int) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := zstd.NewWriter(&b, zstd.WithWindowSize(window), zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestDetectCompression(t *testing.T) {
	bz, err := os.ReadFile("testdata/two_rows.jsonl.bz2")
	if err != nil {
		t.Fatal(err)
	}
	raw := []byte("{\"t\":1}\n")
	for _, c := range []struct {
		name string
		head []byte
		want Compression
		err  string
	}{
		{"gzip", gzipped(t, raw), Gzip, ""},
		{"zstd", zstded(t, raw, 1<<20), Zstd, ""},
		{"bzip2", bz, Bzip2, ""},
		{"xz", []byte("\xfd7zXZ\x00\x00\x04\xe6\xd6"), Uncompressed, "xz-compressed"},
		{"zip", []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00"), Uncompressed, "zip archive"},
		{"parquet", []byte("PAR1\x15\x04\x15\x80\x01\x15"), Uncompressed, "Parquet file"},
		{"feather 1", []byte("FEA1\x00\x00\x00\x00\x10\x00"), Uncompressed, "Feather version 1"},
		{"orc", []byte("ORC\x0a\x06\x08\x06\x10\x00\x18"), Uncompressed, "ORC file"},
		{"avro", []byte("Obj\x01\x04\x14avro"), Uncompressed, "Avro container"},
		{"csv ORC", []byte("ORC,v\n1,2\n"), Uncompressed, ""},
		{"arrow file", []byte("ARROW1\x00\x00\xff\xff"), Uncompressed, ""}, // read by the Arrow parser
		{"arrow stream", []byte("\xff\xff\xff\xff\x10\x01\x00\x00\x10\x00"), Uncompressed, ""},
		// Text that starts like a magic is text.
		{"csv BZh", []byte("BZh1,b,c\n1,2,3\n"), Uncompressed, ""},
		{"csv PAR1", []byte("PAR1,PAR2\n1,2\n"), Uncompressed, ""},
		{"csv PK", []byte("PK,name\n1,a\n"), Uncompressed, ""},
		{"json", raw, Uncompressed, ""},
		{"empty", nil, Uncompressed, ""},
		{"one byte", []byte{0x1f}, Uncompressed, ""},
	} {
		got, err := DetectCompression(c.head[:min(len(c.head), HeadBytes)])
		if got != c.want || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: got %v, %v; want %v, error with %q", c.name, got, err, c.want, c.err)
		}
	}
}

func TestDecompress(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&b, `{"t":%d,"series":"s%d","v":%d.25}`+"\n", i, i%7, i)
	}
	raw := []byte(b.String())
	bz, err := os.ReadFile("testdata/two_rows.jsonl.bz2")
	if err != nil {
		t.Fatal(err)
	}
	// Concatenated members and frames are read one after the other.
	two := append(gzipped(t, raw[:len(raw)/2]), gzipped(t, raw[len(raw)/2:])...)
	twoZ := append(zstded(t, raw[:len(raw)/3], 1<<20), zstded(t, raw[len(raw)/3:], 1<<20)...)
	for _, c := range []struct {
		name string
		in   []byte
		want []byte
	}{
		{"gzip", gzipped(t, raw), raw},
		{"gzip members", two, raw},
		{"zstd", zstded(t, raw, 1<<20), raw},
		{"zstd frames", twoZ, raw},
		{"bzip2", bz, []byte("{\"t\":1,\"v\":1.5}\n{\"t\":2,\"v\":2.5}\n")},
	} {
		comp, err := DetectCompression(c.in[:HeadBytes])
		if err != nil {
			t.Fatal(err)
		}
		r, release, err := Decompress(bytes.NewReader(c.in), comp, 8<<20)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := io.ReadAll(r)
		release()
		if err != nil || !bytes.Equal(got, c.want) {
			t.Fatalf("%s: %d bytes, %v; want %d bytes", c.name, len(got), err, len(c.want))
		}
		// A truncated input fails, naming the compression, and never
		// returns the bytes of a member as complete.
		r, release, err = Decompress(bytes.NewReader(c.in[:len(c.in)*2/3]), comp, 8<<20)
		if err == nil {
			_, err = io.ReadAll(r)
			release()
		}
		if err == nil || !strings.Contains(err.Error(), comp.String()) {
			t.Errorf("%s truncated: %v", c.name, err)
		}
	}

	// Corrupt bytes inside a gzip member: its CRC fails.
	bad := gzipped(t, raw)
	bad[len(bad)/2] ^= 0x55
	r, release, err := Decompress(bytes.NewReader(bad), Gzip, 8<<20)
	if err == nil {
		_, err = io.ReadAll(r)
		release()
	}
	if err == nil || !strings.Contains(err.Error(), "gzip: ") {
		t.Errorf("corrupt gzip: %v", err)
	}

	// A zstd frame asking for a window over the limit fails, saying how
	// to read it; under the limit it reads.
	big := zstded(t, raw, 32<<20)
	for _, limit := range []uint64{8 << 20, 32 << 20} {
		r, release, err := Decompress(bytes.NewReader(big), Zstd, limit)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		release()
		if limit < 32<<20 {
			if err == nil || !strings.Contains(err.Error(), "window") || !strings.Contains(err.Error(), "--memory") {
				t.Errorf("window 32 MiB, limit %d: %v", limit, err)
			}
		} else if err != nil || !bytes.Equal(got, raw) {
			t.Errorf("window 32 MiB, limit %d: %d bytes, %v", limit, len(got), err)
		}
	}
}

func TestFormatFromCompressedPath(t *testing.T) {
	for path, want := range map[string]Format{
		"a.csv.gz": CSV, "a.jsonl.zst": JSONLines, "A.LP.GZ": LineProtocol, "a.prom.bz2": Prometheus,
		"a.json.zstd": JSONArray, "a.gz": Guess, "a.csv": CSV, "a.tsv.gzip": CSV,
	} {
		if got := FormatFromPath(path); got != want {
			t.Errorf("%s: %v, want %v", path, got, want)
		}
	}
	if got := TrimCompressedExt("dir/data.csv.GZ"); got != "dir/data.csv" {
		t.Errorf("TrimCompressedExt: %q", got)
	}
}
