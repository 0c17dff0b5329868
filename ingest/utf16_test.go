package ingest

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"
	"unicode/utf16"
	"unicode/utf8"
)

// utf16Bytes encodes units in order o.
func utf16Bytes(units []uint16, o UTF16Order) []byte {
	b := make([]byte, 0, 2*len(units))
	for _, u := range units {
		if o == UTF16BE {
			b = binary.BigEndian.AppendUint16(b, u)
		} else {
			b = binary.LittleEndian.AppendUint16(b, u)
		}
	}
	return b
}

// utf16Reference decodes in (order o) with unicode/utf16: the UTF-8 the
// reader must give.
func utf16Reference(in []byte, o UTF16Order) string {
	units := make([]uint16, len(in)/2)
	for i := range units {
		if o == UTF16BE {
			units[i] = binary.BigEndian.Uint16(in[2*i:])
		} else {
			units[i] = binary.LittleEndian.Uint16(in[2*i:])
		}
	}
	s := string(utf16.Decode(units))
	if len(in)%2 == 1 {
		s += "\uFFFD"
	}
	return s
}

func readUTF16(t testing.TB, r io.Reader, o UTF16Order) string {
	t.Helper()
	got, err := io.ReadAll(NewUTF16Reader(r, o))
	if err != nil {
		t.Fatal(err)
	}
	return string(got)
}

func TestUTF16Reader(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("ab,\t\n\r\"1.5 éß€中😀🎉\U0010FFFF")
	for round := range 300 {
		var text []rune
		for range rng.IntN(5000) {
			text = append(text, alphabet[rng.IntN(len(alphabet))])
		}
		units := utf16.Encode(text)
		if round%3 == 0 { // with a byte order mark
			units = append([]uint16{0xfeff}, units...)
		}
		if round%5 == 0 && len(units) > 3 { // unpaired surrogates
			units[rng.IntN(len(units))] = 0xd800 + uint16(rng.IntN(0x800))
		}
		for _, o := range []UTF16Order{UTF16LE, UTF16BE} {
			in := utf16Bytes(units, o)
			if round%7 == 0 {
				in = append(in, 'x') // an odd byte at the end
			}
			want := utf16Reference(in, o)
			if !utf8.ValidString(want) {
				t.Fatal("reference not UTF-8")
			}
			for _, r := range []io.Reader{bytes.NewReader(in), iotest.OneByteReader(bytes.NewReader(in)), iotest.HalfReader(bytes.NewReader(in))} {
				if got := readUTF16(t, r, o); got != want {
					t.Fatalf("round %d, order %d: %d bytes differ from the reference's %d", round, o, len(got), len(want))
				}
			}
		}
	}
	// A read error is returned after the text before it.
	in := utf16Bytes(utf16.Encode([]rune("ab")), UTF16LE)
	got, err := io.ReadAll(NewUTF16Reader(io.MultiReader(bytes.NewReader(in), iotest.ErrReader(io.ErrClosedPipe)), UTF16LE))
	if string(got) != "ab" || err != io.ErrClosedPipe {
		t.Fatalf("%q, %v", got, err)
	}
}

func TestDetectUTF16(t *testing.T) {
	text := "time,value\n1,2\n3,4\n"
	le := utf16Bytes(utf16.Encode([]rune(text)), UTF16LE)
	be := utf16Bytes(utf16.Encode([]rune(text)), UTF16BE)
	for name, c := range map[string]struct {
		head []byte
		want UTF16Order
	}{
		"le bom":       {append([]byte{0xff, 0xfe}, le...), UTF16LE},
		"be bom":       {append([]byte{0xfe, 0xff}, be...), UTF16BE},
		"le":           {le, UTF16LE},
		"be":           {be, UTF16BE},
		"utf-8":        {[]byte(text), NotUTF16},
		"utf-8 bom":    {append([]byte{0xef, 0xbb, 0xbf}, text...), NotUTF16},
		"short le":     {le[:10], NotUTF16},
		"le non-ascii": {utf16Bytes(utf16.Encode([]rune("é,value\n1,2\n3,4\n")), UTF16LE), NotUTF16},
		"nul bytes":    {make([]byte, 32), NotUTF16},
	} {
		if got := DetectUTF16(c.head); got != c.want {
			t.Errorf("%s: %d, want %d", name, got, c.want)
		}
	}
}

// FuzzUTF16 reads any bytes in both orders through the reader, cut at
// one byte a read: the UTF-8 of unicode/utf16's decoding, always valid.
func FuzzUTF16(f *testing.F) {
	f.Add([]byte("\xff\xfea\x00b\x00"), true)
	f.Add([]byte("\x00\xd8\x00\xdc\x00\xd8x"), false)
	f.Fuzz(func(t *testing.T, in []byte, big bool) {
		o := UTF16LE
		if big {
			o = UTF16BE
		}
		got := readUTF16(t, iotest.OneByteReader(bytes.NewReader(in)), o)
		if want := utf16Reference(in, o); got != want || !utf8.ValidString(got) {
			t.Fatalf("%q: got %q, want %q", in, got, want)
		}
	})
}
