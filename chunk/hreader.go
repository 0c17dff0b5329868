package chunk

import (
	"encoding/binary"
	"fmt"
)

// hreader is a sticky-error cursor over a block header.
type hreader struct {
	buf []byte
	off int
	err error
}

func (r *hreader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = corrupt("block header", r.off, fmt.Errorf(format, args...))
	}
}

func (r *hreader) byte() byte {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.buf) {
		r.fail("truncated")
		return 0
	}
	r.off++
	return r.buf[r.off-1]
}

func (r *hreader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.buf)-r.off {
		r.fail("truncated: need %d bytes, have %d", n, len(r.buf)-r.off)
		return nil
	}
	r.off += n
	return r.buf[r.off-n : r.off]
}

// count reads a uvarint no larger than max.
func (r *hreader) count(what string, max int) int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.buf[r.off:])
	if n <= 0 {
		r.fail("bad %s varint", what)
		return 0
	}
	if v > uint64(max) {
		r.fail("%s %d exceeds limit %d", what, v, max)
		return 0
	}
	r.off += n
	return int(v)
}
