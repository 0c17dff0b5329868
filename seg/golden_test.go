package seg

import (
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"

	"github.com/tsqdb/tsq/internal/testdata"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenChunk is the block of chunk/testdata/golden_v1.txt (6 rows of
// time and value), fixed here so that this file tracks the segment format
// only.
const goldenChunk = "0106020474696d650100130576616c756502002300038080d0e2c6bfce972f80d88ee16f0100" +
	"0000030201199a2102f90401010306000181808080808080e13f82808080808080c27f00134358e6"

// goldenSegment writes the segment of docs/FORMAT.md's worked example: one
// block of 6 rows, one empty frame, sealed with one series.
func goldenSegment(t *testing.T) []byte {
	block, err := hex.DecodeString(goldenChunk)
	if err != nil {
		t.Fatal(err)
	}
	mem := vfs.NewMem()
	w, err := Create(mem, "golden.seg", "cpu", 1, 100)
	if err != nil {
		t.Fatal(err)
	}
	t0 := int64(1_700_000_000_000_000_000)
	if err := w.Append(block, BlockMeta{Rows: 6, MinSeq: 100, MaxSeq: 105, MinTime: t0, MaxTime: t0 + 75e9}); err != nil {
		t.Fatal(err)
	}
	if err := w.Append(nil, BlockMeta{MinSeq: 106, MaxSeq: 107, MinTime: t0 + 90e9, MaxTime: t0 + 105e9}); err != nil {
		t.Fatal(err)
	}
	w.AddSeries(`cpu{host="a"}`)
	w.SetBlockKeys(0, &KeySpan{}) // no keyed row
	w.SetBlockKeys(1, &KeySpan{})
	if err := w.Seal(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return fileBytes(t, mem, "golden.seg")
}

// dump renders a segment as an annotated hex dump, one line per field.
type dump struct {
	b   []byte
	off int
	sb  strings.Builder
}

func (d *dump) line(n int, what string, args ...any) {
	fmt.Fprintf(&d.sb, "%04x  %-40s  %s\n", d.off, hex.EncodeToString(d.b[d.off:d.off+n]), fmt.Sprintf(what, args...))
	d.off += n
}

func (d *dump) uvarint(what string) uint64 {
	v, n := binary.Uvarint(d.b[d.off:])
	d.line(n, "%s = %d (uvarint)", what, v)
	return v
}

func (d *dump) u32(what string) uint32 {
	v := binary.LittleEndian.Uint32(d.b[d.off:])
	d.line(4, "%s = %d", what, v)
	return v
}

func (d *dump) u64(what string) {
	d.line(8, "%s = %d", what, int64(binary.LittleEndian.Uint64(d.b[d.off:])))
}

func (d *dump) crc(what string) {
	d.line(4, "CRC-32C of %s = %08x", what, binary.LittleEndian.Uint32(d.b[d.off:]))
}

func (d *dump) bytes(n int, what string) {
	for end := d.off + n; d.off < end; {
		d.line(min(16, end-d.off), "%s", what)
	}
}

func annotate(b []byte) string {
	d := &dump{b: b}
	d.line(4, "segment magic %q", b[:4])
	d.line(1, "segment format version %d", b[4])
	n := d.uvarint("stream name length")
	d.line(int(n), "stream %q", b[d.off:d.off+int(n)])
	d.uvarint("generation")
	d.uvarint("first seq")
	d.crc("the header")
	foot := len(b) - footerLen
	indexOff := int(binary.LittleEndian.Uint64(b[foot:]))
	for i := 0; d.off < indexOff; i++ {
		d.line(4, "block %d: frame magic %q", i, b[d.off:d.off+4])
		blen := d.u32(fmt.Sprintf("block %d: block length", i))
		d.u32(fmt.Sprintf("block %d: rows", i))
		for _, f := range []string{"min seq", "max seq", "min time", "max time"} {
			d.u64(fmt.Sprintf("block %d: %s", i, f))
		}
		d.crc("the frame header")
		if blen > 0 {
			d.bytes(int(blen)-crcLen, fmt.Sprintf("block %d: chunk block", i))
			d.crc("the chunk block (its own)")
		}
	}
	for i := 0; d.off < indexOff+int(binary.LittleEndian.Uint32(b[foot+8:]))-crcLen; i++ {
		d.u64(fmt.Sprintf("index %d: frame offset", i))
		d.u32(fmt.Sprintf("index %d: frame length", i))
		d.u32(fmt.Sprintf("index %d: rows", i))
		for _, f := range []string{"min seq", "max seq", "min time", "max time"} {
			d.u64(fmt.Sprintf("index %d: %s", i, f))
		}
		d.line(4, "index %d: block CRC %08x", i, binary.LittleEndian.Uint32(b[d.off:]))
	}
	d.crc("the index")
	d.line(1, "bloom: k = %d hashes", b[d.off])
	m := d.uvarint("bloom: m bits")
	d.bytes(int((m+7)/8), "bloom: bits")
	d.crc("the bloom filter")
	if b[4] >= byte(V2) {
		n := d.uvarint("key spans: blocks")
		for i := range n {
			switch st := b[d.off]; st {
			case spanBounds:
				d.line(1, "key span %d: state %d (bounds follow)", i, st)
				k := d.uvarint(fmt.Sprintf("key span %d: least key length", i))
				d.line(int(k), "key span %d: least key %q", i, b[d.off:d.off+int(k)])
				k = d.uvarint(fmt.Sprintf("key span %d: greatest key length", i))
				d.line(int(k), "key span %d: greatest key %q", i, b[d.off:d.off+int(k)])
			case spanNone:
				d.line(1, "key span %d: state %d (no keyed row)", i, st)
			default:
				d.line(1, "key span %d: state %d (keys unknown)", i, st)
			}
		}
		d.crc("the key spans")
	}
	d.u64("footer: index offset")
	d.u32("footer: index length")
	d.u64("footer: bloom offset")
	d.u32("footer: bloom length")
	d.u64("footer: total rows")
	d.crc("the footer")
	d.line(4, "footer magic %q", b[d.off:d.off+4])
	return d.sb.String()
}

func TestGolden(t *testing.T) {
	b := goldenSegment(t)
	testdata.Golden(t, "testdata/golden_v2.txt", annotate(b), *update)
	// The golden bytes still open, read and verify.
	r := openGolden(t, b, CurrentVersion)
	if k := r.Keys(); !k.Empty() || k.MayHold([]byte("a")) {
		t.Fatalf("golden segment's key span %+v, want no keyed row", k)
	}
}

// TestGoldenV1 reads the version 1 worked example, which writers no
// longer write: it opens, reads and verifies, and its keys are unknown.
func TestGoldenV1(t *testing.T) {
	r := openGolden(t, goldenV1(t), V1)
	if k := r.Keys(); k.Known() || !k.MayHold([]byte("any")) {
		t.Fatalf("a version 1 segment's key span %+v, want unknown", k)
	}
}

// openGolden opens the worked example's bytes b, of version v, and
// checks that it reads and verifies: sealed, 2 blocks, 6 rows, its
// series in the bloom. The reader is closed when the test ends.
func openGolden(t *testing.T, b []byte, v Version) *Reader {
	t.Helper()
	mem := vfs.NewMem()
	putFile(t, mem, "golden.seg", b)
	r := openReader(t, mem, "golden.seg")
	if err := r.Verify(); err != nil || r.Header().Version != v || !r.Sealed() || len(r.Blocks()) != 2 || r.Rows() != 6 || !r.MayContainSeries(`cpu{host="a"}`) {
		t.Fatalf("golden segment: %v, %v, sealed %v, %d blocks, %d rows", err, r.Header().Version, r.Sealed(), len(r.Blocks()), r.Rows())
	}
	return r
}

// goldenV1 returns the bytes of the version 1 worked example, checking
// that they annotate back to the dump.
func goldenV1(t *testing.T) []byte {
	text, err := os.ReadFile("testdata/golden_v1.txt")
	if err != nil {
		t.Fatal(err)
	}
	var b []byte
	for _, line := range strings.Split(strings.TrimSpace(string(text)), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			t.Fatalf("golden line %q", line)
		}
		h, err := hex.DecodeString(f[1])
		if err != nil {
			t.Fatalf("golden line %q: %v", line, err)
		}
		b = append(b, h...)
	}
	if got := annotate(b); got != string(text) {
		t.Fatalf("the version 1 dump does not annotate back to itself:\n%s", got)
	}
	return b
}
