package ingest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The Arrow decoder trusts the flatbuffers of its messages: a corrupt
// vector length makes it allocate that many elements (gigabytes, which
// no recover catches). messageChecker sits before it and checks each
// message's metadata against the parts of the Arrow schema (Message.fbs,
// Schema.fbs) the decoder reads: tables, vectors and strings inside the
// buffer, field nesting at most maxFieldDepth deep, and a body within
// the batch bound.

// maxArrowMetadata bounds one message's metadata (a schema of a
// thousand columns takes some 100 KiB).
const maxArrowMetadata = 1 << 20

// maxFieldDepth bounds the nesting of a schema's fields.
const maxFieldDepth = 64

// messageChecker passes an Arrow IPC stream through, message by
// message, checking each message's metadata before handing it on.
type messageChecker struct {
	r       io.Reader
	maxBody int64
	pend    []byte // checked bytes not yet handed on
	body    int64  // body bytes still to pass through unchecked
	done    bool   // the end-of-stream marker was passed on
	err     error
}

func (c *messageChecker) Read(p []byte) (int, error) {
	if len(c.pend) == 0 && c.body == 0 {
		if c.done {
			return 0, io.EOF
		}
		if c.err != nil {
			return 0, c.err
		}
		if c.err = c.next(); c.err != nil && len(c.pend) == 0 {
			return 0, c.err
		}
	}
	if len(c.pend) > 0 {
		n := copy(p, c.pend)
		c.pend = c.pend[n:]
		return n, nil
	}
	n, err := c.r.Read(p[:min(int64(len(p)), c.body)])
	c.body -= int64(n)
	if err == io.EOF && c.body > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// next reads the next message's prefix and metadata into pend, checked.
// A clean end of the input before a message is io.EOF for the decoder
// to see (the caller then finds the end marker missing).
func (c *messageChecker) next() error {
	var pre [8]byte
	n, err := io.ReadFull(c.r, pre[:4])
	if err != nil {
		if err == io.EOF || n == 0 {
			return io.EOF
		}
		return io.ErrUnexpectedEOF
	}
	size := binary.LittleEndian.Uint32(pre[:4])
	head := 4
	if size == 0xffffffff { // the continuation marker, then the size
		if _, err := io.ReadFull(c.r, pre[4:8]); err != nil {
			return io.ErrUnexpectedEOF
		}
		size, head = binary.LittleEndian.Uint32(pre[4:8]), 8
	}
	if size == 0 { // end of stream
		c.pend, c.done = pre[:head], true
		return nil
	}
	if size > maxArrowMetadata {
		return fmt.Errorf("message metadata of %d bytes (at most %d)", size, maxArrowMetadata)
	}
	buf := make([]byte, head+int(size))
	copy(buf, pre[:head])
	if _, err := io.ReadFull(c.r, buf[head:]); err != nil {
		return io.ErrUnexpectedEOF
	}
	body, err := checkMessage(buf[head:])
	if err != nil {
		return fmt.Errorf("corrupt message metadata: %w", err)
	}
	if body > c.maxBody {
		return fmt.Errorf("message body of %d bytes exceeds limit %d", body, c.maxBody)
	}
	c.pend, c.body = buf, body
	return nil
}

// fb reads a flatbuffer, every access bounds-checked.
type fb struct{ b []byte }

var errFB = errors.New("offset out of bounds")

func (f fb) u32(at int) (int, error) {
	if at < 0 || at+4 > len(f.b) {
		return 0, errFB
	}
	return int(binary.LittleEndian.Uint32(f.b[at:])), nil
}

// table checks the table at t and returns the positions of its fields
// (0 for an absent one).
func (f fb) table(t int) ([]int, error) {
	if t < 0 || t+4 > len(f.b) {
		return nil, errFB
	}
	vt := t - int(int32(binary.LittleEndian.Uint32(f.b[t:])))
	if vt < 0 || vt+4 > len(f.b) {
		return nil, errors.New("vtable out of bounds")
	}
	vsize, tsize := int(binary.LittleEndian.Uint16(f.b[vt:])), int(binary.LittleEndian.Uint16(f.b[vt+2:]))
	if vsize < 4 || vsize%2 != 0 || vt+vsize > len(f.b) || t+tsize > len(f.b) {
		return nil, errors.New("vtable out of bounds")
	}
	fields := make([]int, (vsize-4)/2)
	for i := range fields {
		off := int(binary.LittleEndian.Uint16(f.b[vt+4+2*i:]))
		if off == 0 {
			continue
		}
		if off < 4 || off >= tsize {
			return nil, errors.New("field outside its table")
		}
		fields[i] = t + off
	}
	return fields, nil
}

// slot returns field i's position, 0 when absent.
func slot(fields []int, i int) int {
	if i < len(fields) {
		return fields[i]
	}
	return 0
}

// ref follows the offset at field position at (a table, vector or
// string), 0 when the field is absent.
func (f fb) ref(at int) (int, error) {
	if at == 0 {
		return 0, nil
	}
	o, err := f.u32(at)
	if err != nil {
		return 0, err
	}
	return at + o, nil
}

// vector checks the vector the field at at refers to, of elements of
// elem bytes, and returns its position and length (0, 0 when absent).
func (f fb) vector(at, elem int) (int, int, error) {
	v, err := f.ref(at)
	if err != nil || v == 0 {
		return 0, 0, err
	}
	n, err := f.u32(v)
	if err != nil {
		return 0, 0, err
	}
	if n > (len(f.b)-v-4)/elem {
		return 0, 0, errors.New("vector longer than the buffer")
	}
	return v + 4, n, nil
}

// tables checks each table of the vector of tables at field position
// at with check.
func (f fb) tables(at int, check func(t int) error) error {
	v, n, err := f.vector(at, 4)
	if err != nil {
		return err
	}
	for i := range n {
		t, err := f.ref(v + 4*i)
		if err != nil {
			return err
		}
		if err := check(t); err != nil {
			return err
		}
	}
	return nil
}

// scalar checks that a scalar of size bytes at field position at lies in
// the buffer.
func (f fb) scalar(at, size int) error {
	if at != 0 && at+size > len(f.b) {
		return errFB
	}
	return nil
}

// checkMessage checks a Message's metadata and returns its body length.
func checkMessage(b []byte) (int64, error) {
	f := fb{b}
	root, err := f.u32(0)
	if err != nil {
		return 0, err
	}
	m, err := f.table(root)
	if err != nil {
		return 0, err
	}
	var body int64
	if at := slot(m, 3); at != 0 {
		if err := f.scalar(at, 8); err != nil {
			return 0, err
		}
		body = int64(binary.LittleEndian.Uint64(b[at:]))
		if body < 0 {
			return 0, errors.New("negative body length")
		}
	}
	if err := f.tables(slot(m, 4), f.keyValue); err != nil {
		return 0, err
	}
	kind := byte(0)
	if at := slot(m, 1); at != 0 {
		if err := f.scalar(at, 1); err != nil {
			return 0, err
		}
		kind = b[at]
	}
	h, err := f.ref(slot(m, 2))
	if err != nil {
		return 0, err
	}
	if h == 0 {
		return body, nil // the decoder refuses a message without a header
	}
	switch kind {
	case 1: // Schema
		err = f.schema(h)
	case 2: // DictionaryBatch: id, data, isDelta
		var d []int
		if d, err = f.table(h); err == nil {
			var rb int
			if rb, err = f.ref(slot(d, 1)); err == nil && rb != 0 {
				err = f.recordBatch(rb)
			}
		}
	case 3: // RecordBatch
		err = f.recordBatch(h)
	default: // tensors and unknown headers: the decoder refuses them
		_, err = f.table(h)
	}
	return body, err
}

func (f fb) keyValue(t int) error {
	kv, err := f.table(t)
	if err != nil {
		return err
	}
	for i := range 2 {
		if _, _, err := f.vector(slot(kv, i), 1); err != nil {
			return err
		}
	}
	return nil
}

// schema: endianness, fields, custom_metadata, features.
func (f fb) schema(t int) error {
	s, err := f.table(t)
	if err != nil {
		return err
	}
	if err := f.tables(slot(s, 1), func(t int) error { return f.field(t, 1) }); err != nil {
		return err
	}
	if err := f.tables(slot(s, 2), f.keyValue); err != nil {
		return err
	}
	_, _, err = f.vector(slot(s, 3), 8)
	return err
}

// field: name, nullable, type_type, type, dictionary, children,
// custom_metadata.
func (f fb) field(t, depth int) error {
	if depth > maxFieldDepth {
		return fmt.Errorf("fields nested more than %d deep", maxFieldDepth)
	}
	fl, err := f.table(t)
	if err != nil {
		return err
	}
	if _, _, err := f.vector(slot(fl, 0), 1); err != nil {
		return err
	}
	if err := f.scalar(slot(fl, 2), 1); err != nil {
		return err
	}
	if typ, err := f.ref(slot(fl, 3)); err != nil {
		return err
	} else if typ != 0 {
		tt, err := f.table(typ)
		if err != nil {
			return err
		}
		kind := byte(0)
		if at := slot(fl, 2); at != 0 {
			kind = f.b[at]
		}
		switch kind {
		case 10: // Timestamp: unit, timezone
			_, _, err = f.vector(slot(tt, 1), 1)
		case 14: // Union: mode, typeIds
			_, _, err = f.vector(slot(tt, 1), 4)
		}
		if err != nil {
			return err
		}
	}
	if dict, err := f.ref(slot(fl, 4)); err != nil { // DictionaryEncoding: id, indexType, ...
		return err
	} else if dict != 0 {
		d, err := f.table(dict)
		if err != nil {
			return err
		}
		if it, err := f.ref(slot(d, 1)); err != nil {
			return err
		} else if it != 0 {
			if _, err := f.table(it); err != nil {
				return err
			}
		}
	}
	if err := f.tables(slot(fl, 5), func(t int) error { return f.field(t, depth+1) }); err != nil {
		return err
	}
	return f.tables(slot(fl, 6), f.keyValue)
}

// recordBatch: length, nodes (16-byte structs), buffers (16-byte
// structs), compression, variadicBufferCounts.
func (f fb) recordBatch(t int) error {
	rb, err := f.table(t)
	if err != nil {
		return err
	}
	if _, _, err := f.vector(slot(rb, 1), 16); err != nil {
		return err
	}
	if _, _, err := f.vector(slot(rb, 2), 16); err != nil {
		return err
	}
	if c, err := f.ref(slot(rb, 3)); err != nil {
		return err
	} else if c != 0 {
		if _, err := f.table(c); err != nil {
			return err
		}
	}
	_, _, err = f.vector(slot(rb, 4), 8)
	return err
}

// CheckArrowSchema checks an encapsulated Arrow IPC message whole in msg,
// as Parquet's ARROW:schema metadata holds one (base64-decoded), the way
// a stream's messages are checked: its metadata within its bytes and the
// schema's limits, its body within what follows.
func CheckArrowSchema(msg []byte) error {
	if len(msg) < 4 {
		return errors.New("shorter than a message's size")
	}
	size, head := binary.LittleEndian.Uint32(msg), 4
	if size == 0xffffffff { // the continuation marker, then the size
		if len(msg) < 8 {
			return errors.New("shorter than a message's size")
		}
		size, head = binary.LittleEndian.Uint32(msg[4:]), 8
	}
	if size < 4 || int64(size) > int64(len(msg)-head) || size > maxArrowMetadata {
		return fmt.Errorf("message metadata of %d bytes in %d", size, len(msg)-head)
	}
	body, err := checkMessage(msg[head : head+int(size)])
	if err != nil {
		return fmt.Errorf("corrupt message metadata: %w", err)
	}
	if rest := int64(len(msg) - head - int(size)); body > rest {
		return fmt.Errorf("message body of %d bytes in %d", body, rest)
	}
	return nil
}
