package ingest

import (
	"encoding/binary"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// UTF16Order tells whether an input is UTF-16 text and in which byte
// order: Excel's "Unicode Text" and Windows PowerShell's redirections
// write UTF-16 little-endian with a byte order mark.
type UTF16Order uint8

const (
	NotUTF16 UTF16Order = iota
	UTF16LE
	UTF16BE
)

// DetectUTF16 tells UTF-16 text from its first bytes: a byte order mark
// (FF FE little-endian, FE FF big-endian), or, without one, at least 16
// bytes of ASCII with a zero byte after (or before) each character.
func DetectUTF16(head []byte) UTF16Order {
	switch {
	case len(head) >= 2 && head[0] == 0xff && head[1] == 0xfe:
		return UTF16LE
	case len(head) >= 2 && head[0] == 0xfe && head[1] == 0xff:
		return UTF16BE
	}
	n := min(len(head), 64) &^ 1
	if n < 16 {
		return NotUTF16
	}
	le, be := true, true
	for i := 0; i < n; i += 2 {
		a, b := head[i], head[i+1]
		le = le && a != 0 && a < utf8.RuneSelf && b == 0
		be = be && b != 0 && b < utf8.RuneSelf && a == 0
	}
	switch {
	case le:
		return UTF16LE
	case be:
		return UTF16BE
	}
	return NotUTF16
}

// NewUTF16Reader returns a reader of r's UTF-16 text as UTF-8. A byte
// order mark becomes UTF-8's (which the parsers skip); an unpaired
// surrogate, or an odd byte at the end, becomes U+FFFD. It holds 12 KiB
// whatever the input.
func NewUTF16Reader(r io.Reader, o UTF16Order) io.Reader {
	u := &utf16Reader{r: r, order: binary.ByteOrder(binary.LittleEndian)}
	if o == UTF16BE {
		u.order = binary.BigEndian
	}
	return u
}

type utf16Reader struct {
	r     io.Reader
	order binary.ByteOrder
	in    [4096]byte
	n     int // in[:n] read, not decoded yet
	out   []byte
	off   int // out[off:] not returned yet
	err   error
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for u.off == len(u.out) {
		if u.err != nil {
			return 0, u.err
		}
		k, err := u.r.Read(u.in[u.n:])
		u.n += k
		u.err = err
		u.decode(err != nil)
	}
	k := copy(p, u.out[u.off:])
	u.off += k
	return k, nil
}

// decode turns the code units of in[:n] into out, keeping a unit cut in
// two or a high surrogate whose pair is not read yet, unless final.
func (u *utf16Reader) decode(final bool) {
	u.out, u.off = u.out[:0], 0
	i := 0
	for ; i+1 < u.n; i += 2 {
		c := rune(u.order.Uint16(u.in[i:]))
		if utf16.IsSurrogate(c) && c < 0xdc00 { // a high surrogate: its pair follows
			if i+3 >= u.n {
				if !final {
					break
				}
				u.out = utf8.AppendRune(u.out, utf8.RuneError)
				continue
			}
			if r := utf16.DecodeRune(c, rune(u.order.Uint16(u.in[i+2:]))); r != utf8.RuneError {
				u.out = utf8.AppendRune(u.out, r)
				i += 2
				continue
			}
			c = utf8.RuneError
		}
		u.out = utf8.AppendRune(u.out, c) // a lone low surrogate is U+FFFD
	}
	if final && i < u.n { // an odd byte at the end
		u.out = utf8.AppendRune(u.out, utf8.RuneError)
		i = u.n
	}
	u.n = copy(u.in[:], u.in[i:u.n])
}
