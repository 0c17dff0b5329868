package codec

import (
	"encoding/binary"
	"fmt"
)

// reader is a sticky-error cursor over an encoded buffer: after the first
// failure every read returns zero and err keeps the first cause.
type reader struct {
	buf     []byte
	off     int
	section string
	enc     fmt.Stringer // encoding being decoded, named in errors; may be nil
	err     error
}

// where names the section for an error; built only on failure so that
// successful decodes do not allocate.
func (r *reader) where() string {
	if r.enc == nil {
		return r.section
	}
	return r.section + " " + r.enc.String()
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = corrupt(r.where(), r.off, format, args...)
	}
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.buf[r.off:])
	if n <= 0 {
		if n == 0 {
			r.fail("truncated uvarint")
		} else {
			r.fail("uvarint overflows 64 bits")
		}
		return 0
	}
	r.off += n
	return v
}

func (r *reader) varint() int64 { return Unzigzag(r.uvarint()) }

// count reads a uvarint that must not exceed max.
func (r *reader) count(what string, max int) int {
	at := r.off
	v := r.uvarint()
	if r.err == nil && v > uint64(max) {
		r.off = at
		r.fail("%s %d exceeds limit %d", what, v, max)
		return 0
	}
	return int(v)
}

func (r *reader) byte() byte {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.buf) {
		r.fail("truncated: need 1 byte")
		return 0
	}
	b := r.buf[r.off]
	r.off++
	return b
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.buf)-r.off {
		r.fail("truncated: need %d bytes, have %d", n, len(r.buf)-r.off)
		return nil
	}
	b := r.buf[r.off : r.off+n : r.off+n]
	r.off += n
	return b
}

// rest returns the unread bytes.
func (r *reader) rest() []byte {
	if r.err != nil {
		return nil
	}
	return r.buf[r.off:]
}

// nested runs a sub-decoder on the unread bytes, advancing by what it used
// and rebasing its error.
// nestedInts decodes n nested ints into *dst with c (nested).
func (r *reader) nestedInts(c *Decoder, dst *[]int64, n int) {
	r.nested(func(b []byte) (int, error) {
		var k int
		var err error
		*dst, k, err = c.DecodeInts(*dst, b, n)
		return k, err
	})
}

func (r *reader) nested(fn func(src []byte) (int, error)) {
	if r.err != nil {
		return
	}
	n, err := fn(r.buf[r.off:])
	if err != nil {
		r.err = Within(err, r.where(), r.off)
		return
	}
	r.off += n
}

// peekEncoding returns the next byte, the tag of a nested int encoding,
// as a valid IntEncoding, without reading it; 0 when there is none or it
// is not one.
func (r *reader) peekEncoding() IntEncoding {
	if r.err != nil || r.off >= len(r.buf) {
		return 0
	}
	if e := IntEncoding(r.buf[r.off]); e >= IntPacked && e <= IntVarint {
		return e
	}
	return 0
}
