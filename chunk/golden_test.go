package chunk

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/tsqdb/tsq/codec"

	"github.com/tsqdb/tsq/internal/testdata"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenBlock is the block of docs/FORMAT.md's worked example.
func goldenBlock() *Block {
	ts := make([]int64, 6)
	vals := []float64{21.5, 21.75, 22, math.NaN(), 21.25, 21.5}
	for i := range ts {
		ts[i] = 1_700_000_000_000_000_000 + int64(i)*15_000_000_000
	}
	return &Block{Rows: 6, Columns: []Column{
		{Name: "time", Type: Int64, Ints: ts},
		{Name: "value", Type: Float64, Floats: vals},
	}}
}

// annotate renders a block as an annotated hex dump: one line per field.
func annotate(b []byte) string {
	var sb strings.Builder
	off := 0
	line := func(n int, what string) {
		fmt.Fprintf(&sb, "%04x  %-40s  %s\n", off, hex.EncodeToString(b[off:off+n]), what)
		off += n
	}
	uv := func(what string) uint64 {
		v, n := binary.Uvarint(b[off:])
		line(n, fmt.Sprintf("%s = %d (uvarint)", what, v))
		return v
	}
	line(1, fmt.Sprintf("block format version %d", b[0]))
	rows := uv("rows")
	ncols := uv("columns")
	type col struct {
		name           string
		typ            Type
		comp           Compression
		stored, rawLen uint64
	}
	var cols []col
	for range ncols {
		nl := uv("name length")
		name := string(b[off : off+int(nl)])
		line(int(nl), fmt.Sprintf("name %q", name))
		c := col{name: name, typ: Type(b[off]), comp: Compression(b[off+1])}
		line(1, "type "+c.typ.String())
		line(1, "compression "+c.comp.String())
		c.stored = uv("stored length")
		if c.comp != CompressNone {
			c.rawLen = uv("raw length")
		}
		cols = append(cols, c)
	}
	for _, c := range cols {
		end := off + int(c.stored)
		nulls := b[off] == 1
		line(1, fmt.Sprintf("column %q: null flag %d", c.name, b[off]))
		if nulls {
			_, n, _ := codec.DecodeBools(nil, b[off:end], int(rows))
			line(1, fmt.Sprintf("column %q: validity tag: bools %s", c.name, codec.BoolEncoding(b[off])))
			for stop := off + n - 1; off < stop; {
				line(min(16, stop-off), fmt.Sprintf("column %q: validity", c.name))
			}
		}
		tag := b[off]
		var enc string
		switch c.typ {
		case Int64:
			enc = "ints " + codec.IntEncoding(tag).String()
		case Float64:
			enc = "floats " + codec.FloatEncoding(tag).String()
		case Bool:
			enc = "bools " + codec.BoolEncoding(tag).String()
		default:
			enc = "strings " + codec.StringEncoding(tag).String()
		}
		line(1, fmt.Sprintf("column %q: encoding tag: %s", c.name, enc))
		for off < end {
			line(min(16, end-off), fmt.Sprintf("column %q: encoded values", c.name))
		}
	}
	line(4, fmt.Sprintf("CRC-32C = %08x", binary.LittleEndian.Uint32(b[off:])))
	return sb.String()
}

func TestGolden(t *testing.T) {
	if buf, _ := goldenRoundTrip(t, goldenBlock(), "testdata/golden_v1.txt"); Version(buf[0]) != V1 {
		t.Fatalf("version %d, want 1", buf[0])
	}
}

// goldenRoundTrip encodes b, checks the annotated bytes against the
// golden file path and that they decode to b, and returns the bytes and
// their decoder.
func goldenRoundTrip(t *testing.T, b *Block, path string) ([]byte, *Decoder) {
	t.Helper()
	buf, dec := encodeFor(t, new(Encoder), b, nil)
	testdata.Golden(t, path, annotate(buf), *update)
	var out Block
	if err := dec.Block(&out); err != nil {
		t.Fatal(err)
	}
	for i := range b.Columns {
		equalColumn(t, &b.Columns[i], &out.Columns[i], b.Rows)
	}
	return buf, dec
}

// goldenBlockV2 is a block with a front-coded column, which makes it
// version 2.
func goldenBlockV2() *Block {
	return &Block{Rows: 4, Columns: []Column{
		{Name: "seq", Type: Int64, Ints: []int64{41, 42, 43, 44}},
		{Name: "key", Type: String, Strs: []string{"order-0098", "order-0099", "order-0100", "order-0101"}},
	}}
}

// TestGoldenV2 pins a version 2 block; version 1 blocks (TestGolden) are
// still what the encoder writes when no column is front coded.
func TestGoldenV2(t *testing.T) {
	buf, dec := goldenRoundTrip(t, goldenBlockV2(), "testdata/golden_v2.txt")
	if Version(buf[0]) != V2 {
		t.Fatalf("version %d, want 2", buf[0])
	}
	if h := dec.Hint(1); h.Encoding != uint8(codec.StringPrefix) {
		t.Fatalf("key hint %+v", h)
	}
	// The same bytes labelled version 1 are corrupt: a version 1 block
	// has no front coding.
	if err := decodeAs(t, dec, buf, V1); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "version 1") {
		t.Fatalf("front coding in a version 1 block: %v", err)
	}
}

// decodeAs decodes the block buf labelled version v (its CRC fixed up)
// and returns the error of decoding its columns; a header it refuses is
// a test failure.
func decodeAs(t *testing.T, dec *Decoder, buf []byte, v Version) error {
	t.Helper()
	b := relabel(buf, v)
	if err := dec.Reset(b); err != nil {
		t.Fatal(err)
	}
	var out Block
	return dec.Block(&out)
}

// relabel returns a copy of the block buf labelled version v, its CRC
// fixed up.
func relabel(buf []byte, v Version) []byte {
	b := append([]byte(nil), buf...)
	b[0] = byte(v)
	body := b[:len(b)-4]
	binary.LittleEndian.PutUint32(b[len(body):], Checksum(body))
	return b
}

// goldenBlockV3 is a block with sparse bools, in an optional field's
// null bitmap and in a bool column's values, which make it version 3.
func goldenBlockV3() *Block {
	const n = 40
	b := &Block{Rows: n, Columns: []Column{
		{Name: "seq", Type: Int64, Ints: make([]int64, n)},
		{Name: "tags.name", Type: String, Strs: make([]string, n), Valid: make([]bool, n)},
		{Name: "alert", Type: Bool, Bools: make([]bool, n)},
	}}
	for i := range n {
		b.Columns[0].Ints[i] = int64(101 + i)
	}
	b.Columns[1].Strs[5], b.Columns[1].Valid[5] = "Vaduz", true
	b.Columns[1].Strs[33], b.Columns[1].Valid[33] = "Schaan", true
	b.Columns[2].Bools[17] = true
	return b
}

// TestGoldenV3 pins a version 3 block, shows the same bytes labelled
// version 2 corrupt and a version past the newest refused.
func TestGoldenV3(t *testing.T) {
	buf, dec := goldenRoundTrip(t, goldenBlockV3(), "testdata/golden_v3.txt")
	if Version(buf[0]) != V3 {
		t.Fatalf("version %d, want 3", buf[0])
	}
	if err := decodeAs(t, dec, buf, V2); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "sparse in a block of version 2") {
		t.Fatalf("sparse bools in a version 2 block: %v", err)
	}
	if err := dec.Reset(relabel(buf, CurrentVersion+1)); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "version 4") {
		t.Fatalf("version 4: %v", err)
	}
}
