package chunk

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsqdb/tsq/codec"
)

// testBlock builds a block with every type, nulls, and the record columns.
func testBlock(rows int, seed uint64) *Block {
	r := rand.New(rand.NewPCG(seed, 1))
	b := &Block{Rows: rows}
	seq := make([]int64, rows)
	ts := make([]int64, rows)
	series := make([]string, rows)
	key := make([]string, rows)
	vals := make([]float64, rows)
	temp := make([]float64, rows)
	flag := make([]bool, rows)
	blob := make([]string, rows)
	cnt := make([]int64, rows)
	valid := make([]bool, rows)
	t0 := int64(1_700_000_000_000_000_000)
	for i := range rows {
		seq[i] = int64(1000 + i)
		ts[i] = t0 + int64(i)*15e9 + r.Int64N(3)*1e6
		series[i] = fmt.Sprintf(`cpu{host="h%d"}`, r.IntN(5))
		key[i] = fmt.Sprintf("obj/%d", r.IntN(rows*4))
		vals[i] = math.Round(r.Float64()*10000) / 100
		temp[i] = r.NormFloat64()
		flag[i] = r.IntN(3) == 0
		blob[i] = string([]byte{byte(i), byte(i >> 8), 0, 255})
		cnt[i] = int64(i) * 1024
		valid[i] = r.IntN(4) != 0
	}
	b.Columns = []Column{
		{Name: "seq", Type: Int64, Ints: seq},
		{Name: "time", Type: Int64, Ints: ts},
		{Name: "series", Type: String, Strs: series},
		{Name: "key", Type: String, Strs: key},
		{Name: "value", Type: Float64, Floats: vals},
		{Name: "temp", Type: Float64, Floats: temp, Valid: valid},
		{Name: "flag", Type: Bool, Bools: flag, Valid: valid},
		{Name: "blob", Type: Bytes, Strs: blob, Valid: valid},
		{Name: "count", Type: Int64, Ints: cnt, Valid: valid},
	}
	return b
}

// equalColumn compares a decoded column with the original, floats by bits
// and null rows ignored.
func equalColumn(t *testing.T, want, got *Column, rows int) {
	t.Helper()
	if got.Name != want.Name || got.Type != want.Type {
		t.Fatalf("column %q/%v decoded as %q/%v", want.Name, want.Type, got.Name, got.Type)
	}
	for i := range rows {
		if want.IsNull(i) != got.IsNull(i) {
			t.Fatalf("column %q row %d: null %v, want %v", want.Name, i, got.IsNull(i), want.IsNull(i))
		}
		if want.IsNull(i) {
			continue
		}
		switch want.Type {
		case Int64:
			if got.Ints[i] != want.Ints[i] {
				t.Fatalf("column %q row %d: %d, want %d", want.Name, i, got.Ints[i], want.Ints[i])
			}
		case Float64:
			if math.Float64bits(got.Floats[i]) != math.Float64bits(want.Floats[i]) {
				t.Fatalf("column %q row %d: %v, want %v", want.Name, i, got.Floats[i], want.Floats[i])
			}
		case Bool:
			if got.Bools[i] != want.Bools[i] {
				t.Fatalf("column %q row %d: %v, want %v", want.Name, i, got.Bools[i], want.Bools[i])
			}
		default:
			if got.StringAt(i) != want.StringAt(i) {
				t.Fatalf("column %q row %d: %q, want %q", want.Name, i, got.StringAt(i), want.StringAt(i))
			}
		}
	}
}

// encodeFor encodes b with enc and options o and returns the bytes and a
// decoder reset on them.
func encodeFor(tb testing.TB, enc *Encoder, b *Block, o *Options) ([]byte, *Decoder) {
	tb.Helper()
	buf, err := enc.Append(nil, b, o)
	if err != nil {
		tb.Fatal(err)
	}
	dec := new(Decoder)
	if err := dec.Reset(buf); err != nil {
		tb.Fatal(err)
	}
	return buf, dec
}

func TestRoundTrip(t *testing.T) {
	for _, rows := range []int{1, 2, 3, 127, 128, 129, 1000, DefaultRows} {
		for _, o := range []*Options{nil, {NoCompression: true}, {Compression: CompressS2}, {Compression: CompressZstd}, {Fixed: true}} {
			t.Run(fmt.Sprintf("rows=%d/%+v", rows, o), func(t *testing.T) {
				b := testBlock(rows, uint64(rows))
				var enc Encoder
				prefix := []byte("prefix")
				buf, err := enc.Append(slices.Clone(prefix), b, o)
				if err != nil {
					t.Fatal(err)
				}
				if string(buf[:len(prefix)]) != string(prefix) {
					t.Fatal("Append changed dst's prefix")
				}
				var dec Decoder
				if err := dec.Reset(buf[len(prefix):]); err != nil {
					t.Fatal(err)
				}
				if dec.Rows() != rows || dec.NumColumns() != len(b.Columns) {
					t.Fatalf("decoded %d rows %d columns", dec.Rows(), dec.NumColumns())
				}
				var got Block
				if err := dec.Block(&got); err != nil {
					t.Fatal(err)
				}
				for i := range b.Columns {
					equalColumn(t, &b.Columns[i], &got.Columns[i], rows)
				}
				// Reuse: decode again into the same block.
				if err := dec.Block(&got); err != nil {
					t.Fatal(err)
				}
				equalColumn(t, &b.Columns[4], &got.Columns[4], rows)
			})
		}
	}
}

func TestOneColumnWithoutOthers(t *testing.T) {
	b := testBlock(500, 7)
	buf, dec := encodeFor(t, new(Encoder), b, nil)
	// Destroy every other column's body (the CRC was already verified by
	// Reset): decoding "value" must not look at them.
	vi := dec.Find("value")
	for i := range dec.NumColumns() {
		if i != vi {
			info := dec.Info(i)
			for k := info.Offset; k < info.Offset+info.Stored; k++ {
				buf[k] = 0xff
			}
		}
	}
	var col Column
	if err := dec.Column(vi, &col); err != nil {
		t.Fatal(err)
	}
	equalColumn(t, &b.Columns[4], &col, 500)
	if err := dec.Column(dec.Find("time"), &col); err == nil {
		t.Fatal("decoding a destroyed column succeeded")
	}
}

func TestDictInput(t *testing.T) {
	var dict codec.Strings
	for _, s := range []string{"a", "bb", "", "ccc"} {
		dict.AppendString(s)
	}
	codes := []int32{3, 0, 0, 1, 2, 3, 3}
	b := &Block{Rows: 7, Columns: []Column{{Name: "series", Type: String, Dict: dict, Codes: codes}}}
	_, dec := encodeFor(t, new(Encoder), b, nil)
	var col Column
	if err := dec.Column(0, &col); err != nil {
		t.Fatal(err)
	}
	equalColumn(t, &b.Columns[0], &col, 7)
}

func TestEncodeRejects(t *testing.T) {
	ok := func() *Block {
		return &Block{Rows: 2, Columns: []Column{{Name: "a", Type: Int64, Ints: []int64{1, 2}}}}
	}
	cases := []struct {
		name string
		mod  func(b *Block)
		want error
	}{
		{"zero rows", func(b *Block) { b.Rows = 0 }, ErrTooManyRows},
		{"too many rows", func(b *Block) { b.Rows = MaxRows + 1 }, ErrTooManyRows},
		{"short column", func(b *Block) { b.Columns[0].Ints = b.Columns[0].Ints[:1] }, ErrBadColumn},
		{"empty name", func(b *Block) { b.Columns[0].Name = "" }, ErrBadColumn},
		{"unknown type", func(b *Block) { b.Columns[0].Type = 9 }, ErrBadColumn},
		{"duplicate name", func(b *Block) { b.Columns = append(b.Columns, b.Columns[0]) }, ErrBadColumn},
		{"short validity", func(b *Block) { b.Columns[0].Valid = []bool{true} }, ErrBadColumn},
		{"code outside dict", func(b *Block) { b.Columns[0] = Column{Name: "s", Type: String, Codes: []int32{0, 1}} }, ErrBadColumn},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := ok()
			c.mod(b)
			var enc Encoder
			if _, err := enc.Append(nil, b, nil); !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
		})
	}
}

// reseal recomputes the CRC so that corruption reaches the decoders.
func reseal(b []byte) {
	binary.LittleEndian.PutUint32(b[len(b)-4:], Checksum(b[:len(b)-4]))
}

func decodeAll(buf []byte) error {
	var dec Decoder
	if err := dec.Reset(buf); err != nil {
		return err
	}
	var b Block
	return dec.Block(&b)
}

func TestCorruption(t *testing.T) {
	b := testBlock(300, 3)
	var enc Encoder
	good, err := enc.Append(nil, b, &Options{Compression: CompressZstd})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := enc.Append(nil, b, &Options{NoCompression: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("flip detected by CRC", func(t *testing.T) {
		for i := range good {
			bad := slices.Clone(good)
			bad[i] ^= 0x10
			err := decodeAll(bad)
			var ce *codec.CorruptionError
			if !errors.Is(err, ErrCorrupt) || !errors.As(err, &ce) {
				t.Fatalf("flip at %d: got %v, want a corruption error", i, err)
			}
		}
	})
	t.Run("truncation", func(t *testing.T) {
		for n := range len(good) {
			if err := decodeAll(good[:n]); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("truncated to %d: got %v", n, err)
			}
		}
	})
	// With the CRC recomputed the damage reaches the column decoders: each
	// must return a value or a corruption error, never panic.
	t.Run("flip behind a valid CRC", func(t *testing.T) {
		for _, src := range [][]byte{good, plain} {
			for i := range len(src) - 4 {
				for _, x := range []byte{0x01, 0x80, 0xff} {
					bad := slices.Clone(src)
					bad[i] ^= x
					reseal(bad)
					if err := decodeAll(bad); err != nil && !errors.Is(err, ErrCorrupt) {
						t.Fatalf("flip %02x at %d: error %v does not wrap ErrCorrupt", x, i, err)
					}
				}
			}
		}
	})
	t.Run("error names column and offset", func(t *testing.T) {
		bad := slices.Clone(plain)
		var dec Decoder
		if err := dec.Reset(bad); err != nil {
			t.Fatal(err)
		}
		info := dec.Info(dec.Find("value"))
		bad[info.Offset+1] = 0x7f // unknown float encoding tag
		reseal(bad)
		err := decodeAll(bad)
		var ce *codec.CorruptionError
		if !errors.As(err, &ce) {
			t.Fatalf("got %v", err)
		}
		if ce.Offset != int64(info.Offset+1) || !contains(ce.Section, "column value") {
			t.Fatalf("error %q: offset %d section %q, want offset %d in column value", err, ce.Offset, ce.Section, info.Offset+1)
		}
	})
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestFixedEncodings: Options.Fixed writes int64 columns delta-packed and
// float64 columns with XOR, uncompressed, where the search picks others
// (run-length for a constant, decimal for two-decimal values).
func TestFixedEncodings(t *testing.T) {
	const rows = 200
	b := &Block{Rows: rows, Columns: []Column{
		{Name: "c", Type: Int64, Ints: make([]int64, rows)},
		{Name: "v", Type: Float64, Floats: make([]float64, rows)},
		{Name: "s", Type: String, Strs: make([]string, rows)},
	}}
	for i := range rows {
		b.Columns[0].Ints[i] = 7
		b.Columns[1].Floats[i] = float64(i%97) / 100
		b.Columns[2].Strs[i] = fmt.Sprintf("series-%d", i)
	}
	tags := func(o *Options) (intTag, floatTag byte, comp Compression) {
		buf, dec := encodeFor(t, new(Encoder), b, o)
		var got Block
		if err := dec.Block(&got); err != nil {
			t.Fatal(err)
		}
		for i := range b.Columns {
			equalColumn(t, &b.Columns[i], &got.Columns[i], rows)
		}
		ci, cf := dec.cols[0], dec.cols[1]
		// A body is a null flag (0: no nulls), then the encoding tag.
		return buf[ci.Offset+1], buf[cf.Offset+1], dec.cols[2].Compression
	}
	if it, ft, _ := tags(nil); it == byte(codec.IntDelta) || ft == byte(codec.FloatXOR) {
		t.Fatalf("the search picked int %d, float %d: the test needs other encodings", it, ft)
	}
	it, ft, comp := tags(&Options{Fixed: true})
	if it != byte(codec.IntDelta) || ft != byte(codec.FloatXOR) || comp != CompressNone {
		t.Fatalf("Fixed: int tag %d, float tag %d, string compression %v", it, ft, comp)
	}
}

// TestResetChecked: ResetChecked skips only the CRC (the caller checked
// it): a block whose CRC is wrong is parsed, a truncated header is
// still refused, and the columns decode as with Reset.
func TestResetChecked(t *testing.T) {
	var enc Encoder
	b := testBlock(100, 7)
	data, err := enc.Append(nil, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	var d1, d2 Decoder
	if err := d1.Reset(data); err != nil {
		t.Fatal(err)
	}
	if err := d2.ResetChecked(data); err != nil {
		t.Fatal(err)
	}
	var b1, b2 Block
	if err := d1.Block(&b1); err != nil {
		t.Fatal(err)
	}
	if err := d2.Block(&b2); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(b1) != fmt.Sprint(b2) {
		t.Fatal("ResetChecked decodes differently from Reset")
	}
	bad := slices.Clone(data)
	bad[len(bad)-1] ^= 0xff
	if err := d1.Reset(bad); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Reset of a wrong CRC: %v", err)
	}
	if err := d2.ResetChecked(bad); err != nil {
		t.Fatalf("ResetChecked of a wrong CRC: %v", err)
	}
	if err := d2.ResetChecked(data[:len(data)/2]); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("ResetChecked of a truncated block: %v", err)
	}
}

// TestResetHeader: a buffer of the block's length holding only its
// header and one column's body (the rest zero, as a partial read
// leaves it) decodes that column as the whole block does; a header
// longer than the bytes said to be read is refused.
func TestResetHeader(t *testing.T) {
	var enc Encoder
	b := testBlock(300, 9)
	data, err := enc.Append(nil, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	var whole Decoder
	if err := whole.Reset(data); err != nil {
		t.Fatal(err)
	}
	head := whole.Info(0).Offset
	for i := range whole.NumColumns() {
		info := whole.Info(i)
		part := make([]byte, len(data))
		copy(part, data[:head])
		copy(part[info.Offset:], data[info.Offset:info.Offset+info.Stored])
		var d Decoder
		if err := d.ResetHeader(part, head); err != nil {
			t.Fatalf("column %s: %v", info.Name, err)
		}
		var got, want Column
		if err := d.Column(i, &got); err != nil {
			t.Fatalf("column %s: %v", info.Name, err)
		}
		if err := whole.Column(i, &want); err != nil {
			t.Fatal(err)
		}
		equalColumn(t, &want, &got, 300)
	}
	var d Decoder
	if err := d.ResetHeader(data, head-1); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("a header past the bytes read: %v", err)
	}
}
