package seg

import "encoding/binary"

// cursor is a sticky-error reader over bytes read from a file at base.
// The first failure is kept as a *codec.CorruptionError naming path,
// section and the file offset of the failing field; later reads return
// zero values.
type cursor struct {
	buf     []byte
	off     int
	base    int64
	path    string
	section string
	err     error
}

func (c *cursor) fail(format string, args ...any) {
	if c.err == nil {
		c.err = corrupt(c.path, c.section, c.base+int64(c.off), format, args...)
	}
}

// need reports whether n more bytes are there, failing if not.
func (c *cursor) need(n int, what string) bool {
	if c.err != nil {
		return false
	}
	if n > len(c.buf)-c.off {
		c.fail("truncated %s: need %d bytes, have %d", what, n, len(c.buf)-c.off)
		return false
	}
	return true
}

func (c *cursor) bytes(n int, what string) []byte {
	if !c.need(n, what) {
		return nil
	}
	c.off += n
	return c.buf[c.off-n : c.off]
}

func (c *cursor) u8(what string) byte {
	if b := c.bytes(1, what); b != nil {
		return b[0]
	}
	return 0
}

func (c *cursor) u32(what string) uint32 {
	if b := c.bytes(4, what); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (c *cursor) u64(what string) uint64 {
	if b := c.bytes(8, what); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (c *cursor) uvarint(what string) uint64 {
	if c.err != nil {
		return 0
	}
	v, n := binary.Uvarint(c.buf[c.off:])
	if n <= 0 {
		c.fail("bad %s uvarint", what)
		return 0
	}
	c.off += n
	return v
}

// magic reads len(want) bytes and fails unless they equal want.
func (c *cursor) magic(want string) {
	at := c.off
	if b := c.bytes(len(want), "magic"); b != nil && string(b) != want {
		c.off = at
		c.fail("magic %q, want %q", b, want)
	}
}

// crc reads a stored CRC-32C and fails unless it matches the bytes from
// start to here; a mismatch is reported at start, the covered region.
func (c *cursor) crc(start int, what string) {
	if c.err != nil {
		return
	}
	n := c.off - start
	got := checksum(c.buf[start:c.off])
	if want := c.u32(what + " CRC"); c.err == nil && got != want {
		c.off = start
		c.fail("%s CRC-32C of %d bytes is %08x, stored %08x", what, n, got, want)
	}
}
