package ingest

import (
	"bytes"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Compression is the compression of an input, as its first bytes show.
type Compression uint8

const (
	Uncompressed Compression = iota
	Gzip
	Zstd
	Bzip2
)

func (c Compression) String() string {
	switch c {
	case Uncompressed:
		return "uncompressed"
	case Gzip:
		return "gzip"
	case Zstd:
		return "zstd"
	case Bzip2:
		return "bzip2"
	}
	return fmt.Sprintf("Compression(%d)", uint8(c))
}

// HeadBytes is how many first bytes DetectCompression wants (fewer at a
// short input's end).
const HeadBytes = 10

// DetectCompression tells the compression of an input from its first
// bytes: gzip, zstd or bzip2, whose input is then decompressed
// (Decompress), or none. Inputs no parser reads — xz, zip, Parquet
// through a pipe, Feather version 1, ORC, Avro — fail with an error
// that says what the input is and what to do instead, rather than
// failing later on every row as garbage text.
func DetectCompression(head []byte) (Compression, error) {
	has := func(magic string) bool { return bytes.HasPrefix(head, []byte(magic)) }
	switch {
	case has("\x1f\x8b"):
		return Gzip, nil
	case has("\x28\xb5\x2f\xfd"):
		return Zstd, nil
	case len(head) >= 10 && has("BZh") && head[3] >= '1' && head[3] <= '9' && string(head[4:10]) == "1AY&SY":
		return Bzip2, nil
	case has("\xfd7zXZ\x00"):
		return Uncompressed, errors.New("ingest: the input is xz-compressed: decompress it first (xz -dc FILE | tsq import --stream S -); gzip, zstd and bzip2 are read as they are")
	case has("PK\x03\x04"):
		return Uncompressed, errors.New("ingest: the input is a zip archive: extract the file first (unzip -p ARCHIVE FILE | tsq import --stream S -)")
	case has("FEA1") && binaryAt(head, 4):
		return Uncompressed, errors.New("ingest: the input is a Feather version 1 file: write it again as Feather version 2, an Arrow IPC file (pyarrow.feather.write_feather(df, path), its default), which import reads")
	case has("ORC") && binaryAt(head, 3):
		return Uncompressed, errors.New("ingest: the input is an ORC file: convert it to Parquet or Arrow (pyarrow, DuckDB, Spark), which import reads")
	case has("Obj\x01"):
		return Uncompressed, errors.New("ingest: the input is an Avro container file: convert it to JSON lines, Parquet or Arrow (avro-tools tojson, DuckDB, Spark), which import reads")
	case has("PAR1") && binaryAt(head, 4):
		return Uncompressed, errors.New("ingest: the input is a Parquet file, whose rows are found from its end: import it by its path (tsq import FILE.parquet; package ingest/parquet), not through a pipe")
	}
	return Uncompressed, nil
}

// binaryAt reports whether head has a control byte other than a tab or
// a line end from off on: not text.
func binaryAt(head []byte, off int) bool {
	for _, c := range head[min(off, len(head)):] {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return true
		}
	}
	return false
}

// Decompress returns a reader of r's decompressed bytes and the function
// that releases it. A zstd frame may use a window of at most maxWindow
// bytes (a frame asking for more fails with an error saying so): the
// decoder's memory is bounded by it; gzip and bzip2 need under 1 MiB.
// Concatenated gzip members and zstd frames are read one after the
// other. A corrupt or truncated input fails the read with an error
// naming the compression.
func Decompress(r io.Reader, c Compression, maxWindow uint64) (io.Reader, func(), error) {
	switch c {
	case Uncompressed:
		return r, func() {}, nil
	case Gzip:
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, nil, fmt.Errorf("gzip: %w", err)
		}
		return &namedReader{r: zr, name: "gzip"}, func() { _ = zr.Close() }, nil
	case Zstd:
		zr, err := zstd.NewReader(r,
			zstd.WithDecoderConcurrency(1), // synchronous: no goroutine, no blocks in flight
			zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(maxWindow),
			zstd.WithDecoderMaxMemory(maxWindow))
		if err != nil {
			return nil, nil, fmt.Errorf("zstd: %w", err)
		}
		return &namedReader{r: zr, name: "zstd", window: maxWindow}, zr.Close, nil
	case Bzip2:
		return &namedReader{r: bzip2.NewReader(r), name: "bzip2"}, func() {}, nil
	}
	return nil, nil, fmt.Errorf("ingest: unknown %v", c)
}

// namedReader names the compression in its errors (other than io.EOF),
// and says how to read a zstd frame whose window is over the limit.
type namedReader struct {
	r      io.Reader
	name   string
	window uint64
}

func (n *namedReader) Read(p []byte) (int, error) {
	k, err := n.r.Read(p)
	switch {
	case err == nil || err == io.EOF:
	case errors.Is(err, io.ErrUnexpectedEOF):
		err = fmt.Errorf("%s: the input ends inside compressed data (truncated): %w", n.name, err)
	case errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded):
		err = fmt.Errorf("zstd: a frame needs a window over the import's limit of %d MiB (half its memory budget): raise the memory budget (--memory): %w", n.window>>20, err)
	default:
		err = fmt.Errorf("%s: %w", n.name, err)
	}
	return k, err
}

// compressedExts are the file extensions of the compressions Decompress
// reads; FormatFromPath looks through them.
var compressedExts = []string{".gz", ".gzip", ".zst", ".zstd", ".bz2"}

// TrimCompressedExt returns path without a compression's extension
// (data.jsonl.gz: data.jsonl).
func TrimCompressedExt(path string) string {
	ext := strings.ToLower(filepath.Ext(path))
	for _, e := range compressedExts {
		if ext == e {
			return path[:len(path)-len(ext)]
		}
	}
	return path
}
