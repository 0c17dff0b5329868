package chunk

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tsqdb/tsq/codec"
)

// TestAppendAs: every valid hint encodes a block that decodes to the same
// values, with the hinted value encoding and compression; a block
// re-encoded with its decoder's hints keeps them. Also with FastZstd.
func TestAppendAs(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	const n = 300
	b := Block{Rows: n, Columns: []Column{
		{Name: "i", Type: Int64, Ints: make([]int64, n)},
		{Name: "f", Type: Float64, Floats: make([]float64, n), Valid: make([]bool, n)},
		{Name: "s", Type: String},
		{Name: "b", Type: Bool, Bools: make([]bool, n)},
		{Name: "y", Type: Bytes},
	}}
	for r := range n {
		b.Columns[0].Ints[r] = int64(r*1000) + rng.Int64N(7)
		b.Columns[1].Floats[r] = float64(rng.IntN(10000)) / 100
		b.Columns[1].Valid[r] = r%7 != 0
		b.Columns[2].Dict.AppendString(fmt.Sprintf("host%02d", r%9))
		b.Columns[2].Codes = append(b.Columns[2].Codes, int32(r))
		b.Columns[3].Bools[r] = r%3 == 0
		b.Columns[4].Dict.Append([]byte{byte(r), byte(rng.Uint32()), 1, 2, 3})
		b.Columns[4].Codes = append(b.Columns[4].Codes, int32(r))
	}
	tags := map[Type][]uint8{
		Int64:   {0, uint8(codec.IntPacked), uint8(codec.IntDelta), uint8(codec.IntDoD), uint8(codec.IntRLE), uint8(codec.IntVarint)},
		Float64: {0, uint8(codec.FloatRaw), uint8(codec.FloatXOR), uint8(codec.FloatDecimal)},
		String:  {0, uint8(codec.StringPlain), uint8(codec.StringDict)},
		Bytes:   {0, uint8(codec.StringPlain), uint8(codec.StringDict)},
		Bool:    {0},
	}
	var enc Encoder
	var dec Decoder
	want := decodeHinted(t, &dec, mustAppend(t, &enc, &b))
	for round := range 12 {
		enc.FastZstd = round >= 6 // zstd's fastest level from round 6
		hints := make([]Hint, len(b.Columns))
		for i, c := range b.Columns {
			ts := tags[c.Type]
			hints[i] = Hint{Encoding: ts[(round+i)%len(ts)], Compression: []Compression{CompressNone, CompressZstd, CompressS2}[(round+i)%3]}
			if (c.Type == String || c.Type == Bytes) && hints[i].Encoding != 0 && round%3 != 0 {
				// The ints it nests, in given encodings.
				nested := []codec.IntEncoding{codec.IntPacked, codec.IntDelta, codec.IntRLE, codec.IntVarint}
				hints[i].Nested = codec.NestedInts{nested[(round+i)%4], nested[(round+i+1)%4]}
			}
		}
		out, err := enc.AppendAs(nil, &b, hints)
		if err != nil {
			t.Fatal(err)
		}
		got := decodeHinted(t, &dec, out)
		if !reflect.DeepEqual(values(want), values(got)) {
			t.Fatalf("round %d: values differ", round)
		}
		for i, h := range hints {
			gh := dec.Hint(i)
			if h.Encoding != 0 && gh.Encoding != h.Encoding {
				t.Errorf("round %d column %d: encoding %d, hinted %d", round, i, gh.Encoding, h.Encoding)
			}
			if gh.Compression != CompressNone && gh.Compression != h.Compression {
				t.Errorf("round %d column %d: compression %v, hinted %v", round, i, gh.Compression, h.Compression)
			}
			for k, e := range h.Nested {
				if e != 0 && !(k == 1 && h.Encoding == uint8(codec.StringPlain)) && gh.Nested[k] != e {
					t.Errorf("round %d column %d: nested ints %d in %v, hinted %v", round, i, k, gh.Nested[k], e)
				}
			}
		}
		// EncodeAs writes the same block, into a buffer with a prefix,
		// large or too small, and leaves the encoder's state sound.
		for _, bufCap := range []int{3, 3 + len(out) + 4096} {
			buf := append(make([]byte, 0, bufCap), "pre"...)
			blk, err := enc.EncodeAs(buf, &b, hints)
			if err != nil {
				t.Fatal(err)
			}
			if string(blk) != string(out) || string(buf) != "pre" {
				t.Fatalf("round %d cap %d: EncodeAs differs from AppendAs", round, bufCap)
			}
			if again, err := enc.AppendAs(nil, &b, hints); err != nil || string(again) != string(out) || string(blk) != string(out) {
				t.Fatalf("round %d cap %d: AppendAs after EncodeAs differs (%v)", round, bufCap, err)
			}
		}
		// The decoder's hints re-encode to the same bytes.
		again, err := enc.AppendAs(nil, &got, hintsOf(&dec))
		if err != nil {
			t.Fatal(err)
		}
		if string(again) != string(out) {
			t.Fatalf("round %d: re-encoding with the decoder's hints changed the block", round)
		}
	}
	if _, err := enc.AppendAs(nil, &b, make([]Hint, 2)); err == nil {
		t.Fatal("wrong hint count accepted")
	}
	bad := make([]Hint, len(b.Columns))
	bad[3].Encoding = 1 // Bool has no encoding choice
	if _, err := enc.AppendAs(nil, &b, bad); err == nil {
		t.Fatal("encoding hint on a bool column accepted")
	}
	if _, err := enc.EncodeAs(nil, &b, bad); err == nil {
		t.Fatal("EncodeAs: encoding hint on a bool column accepted")
	}
	for _, h := range []struct {
		col  int
		hint Hint
	}{
		{0, Hint{Encoding: uint8(codec.IntPacked), Nested: codec.NestedInts{codec.IntPacked}}}, // an int column nests nothing
		{2, Hint{Nested: codec.NestedInts{codec.IntPacked}}},                                   // nested without the encoding
		{2, Hint{Encoding: uint8(codec.StringDict), Nested: codec.NestedInts{0, 9}}},           // no such int encoding
	} {
		bad := make([]Hint, len(b.Columns))
		bad[h.col] = h.hint
		if _, err := enc.AppendAs(nil, &b, bad); err == nil {
			t.Fatalf("hint %+v on column %d accepted", h.hint, h.col)
		}
	}
	if _, err := enc.EncodeAs(nil, &b, make([]Hint, 2)); err == nil {
		t.Fatal("EncodeAs: wrong hint count accepted")
	}
}

func mustAppend(t *testing.T, enc *Encoder, b *Block) []byte {
	t.Helper()
	out, err := enc.Append(nil, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func decodeHinted(t *testing.T, dec *Decoder, data []byte) Block {
	t.Helper()
	if err := dec.Reset(data); err != nil {
		t.Fatal(err)
	}
	var b Block
	if err := dec.Block(&b); err != nil {
		t.Fatal(err)
	}
	return b
}

func hintsOf(dec *Decoder) []Hint {
	h := make([]Hint, dec.NumColumns())
	for i := range h {
		h[i] = dec.Hint(i)
	}
	return h
}

// values returns each column's row values as comparable data.
func values(b Block) [][]any {
	out := make([][]any, len(b.Columns))
	for i := range b.Columns {
		c := &b.Columns[i]
		for r := range b.Rows {
			if c.IsNull(r) {
				out[i] = append(out[i], nil)
				continue
			}
			switch c.Type {
			case Int64:
				out[i] = append(out[i], c.Ints[r])
			case Float64:
				out[i] = append(out[i], c.Floats[r])
			case Bool:
				out[i] = append(out[i], c.Bools[r])
			default:
				out[i] = append(out[i], c.StringAt(r))
			}
		}
	}
	return out
}
