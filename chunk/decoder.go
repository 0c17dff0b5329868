package chunk

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/tsqdb/tsq/codec"
)

// ColumnInfo describes a column of a parsed block.
type ColumnInfo struct {
	Name        string
	Type        Type
	Compression Compression
	Offset      int // of the stored body within the block
	Stored      int // stored body length
	Raw         int // body length after decompression
}

// Decoder reads one block at a time. The zero value is ready; Reset it with
// a block, then decode columns. It is not safe for concurrent use.
type Decoder struct {
	src   []byte
	rows  int
	cols  []ColumnInfo
	names []string
	codec codec.Decoder
	raw   []byte
	valid []bool
	tags  []uint8 // value encoding tag of each decoded column, 0 if not decoded
	tag   uint8   // of the body decodeBody last read
	// nested holds the encodings of the ints nested in each decoded
	// String or Bytes column (codec.Decoder.Nested), as tags does.
	nested []codec.NestedInts
	// version of the block since Reset
	version Version
}

// Release drops the Decoder's reference to its block, as Reset(nil)
// does, without building the error Reset returns for it.
func (d *Decoder) Release() {
	d.src, d.rows, d.cols, d.tags, d.nested = nil, 0, d.cols[:0], d.tags[:0], d.nested[:0]
}

// Reset parses the block header in src and verifies the block checksum. src
// must be exactly one block; it is not modified and must stay unchanged
// while the Decoder uses it.
func (d *Decoder) Reset(src []byte) error { return d.reset(src, true) }

// ResetChecked is Reset for a block whose checksum the caller has just
// verified against the block's CRC (as seg.Reader.ReadBlock does): the
// header is parsed and checked, the CRC is not computed again.
func (d *Decoder) ResetChecked(src []byte) error { return d.reset(src, false) }

// ResetHeader is Reset for a block of which src (the block's full
// length) holds only the header and the bodies of the columns the caller
// decodes: nothing is checked beyond the header's own consistency, so a
// caller must check the whole block (Reset, or seg.Reader.ReadBlock)
// before it trusts what it decoded. It reports ErrCorrupt too when the
// header does not fit in the first head bytes of src (read more).
func (d *Decoder) ResetHeader(src []byte, head int) error {
	if err := d.reset(src, false); err != nil {
		return err
	}
	if len(d.cols) > 0 && d.cols[0].Offset > head {
		n := d.cols[0].Offset
		d.Release()
		return corrupt("block header", head, fmt.Errorf("header of %d bytes past the %d read", n, head))
	}
	return nil
}

func (d *Decoder) reset(src []byte, verify bool) error {
	d.Release()
	if len(src) < 1+1+1+crcLen {
		return corrupt("block", 0, fmt.Errorf("%d bytes is shorter than any block", len(src)))
	}
	body := src[:len(src)-crcLen]
	want := binary.LittleEndian.Uint32(src[len(body):])
	if verify {
		if got := Checksum(body); got != want {
			return corrupt("block checksum", len(body), fmt.Errorf("CRC-32C of %d bytes is %08x, stored %08x", len(body), got, want))
		}
	}
	r := hreader{buf: body}
	v := Version(r.byte())
	if r.err == nil && (v < V1 || v > CurrentVersion) {
		return corrupt("block header", 0, fmt.Errorf("unsupported block format version %d", uint8(v)))
	}
	d.version = v
	rows := r.count("row count", MaxRows)
	if r.err == nil && rows == 0 {
		r.fail("block of 0 rows")
	}
	ncols := r.count("column count", MaxColumns)
	if r.err != nil {
		return r.err
	}
	prev := d.names
	d.names = d.names[:0]
	for i := range ncols {
		nl := r.count("column name length", MaxNameLen)
		name := r.bytes(nl)
		tAt := r.off
		t := Type(r.byte())
		c := Compression(r.byte())
		stored := r.count("stored column length", MaxColumnBytes)
		raw := stored
		if c != CompressNone {
			raw = r.count("raw column length", MaxColumnBytes)
		}
		if r.err != nil {
			return r.err
		}
		if !t.valid() {
			return corrupt("block header", tAt, fmt.Errorf("column %q: unknown type %d", name, uint8(t)))
		}
		if c > CompressZstd {
			return corrupt("block header", tAt+1, fmt.Errorf("column %q: unknown compression %d", name, uint8(c)))
		}
		// Reuse the name string of the previous block when it matches.
		var s string
		if i < len(prev) && prev[i] == string(name) {
			s = prev[i]
		} else {
			s = string(name)
		}
		d.names = append(d.names, s)
		d.cols = append(d.cols, ColumnInfo{Name: s, Type: t, Compression: c, Stored: stored, Raw: raw})
	}
	off := r.off
	for i := range d.cols {
		c := &d.cols[i]
		if c.Stored > len(body)-off {
			return corrupt("block header", off, fmt.Errorf("column %q body of %d bytes overruns the block (%d left)", c.Name, c.Stored, len(body)-off))
		}
		c.Offset = off
		off += c.Stored
	}
	if off != len(body) {
		return corrupt("block", off, fmt.Errorf("%d unexplained bytes after column bodies", len(body)-off))
	}
	d.src, d.rows = src, rows
	d.tags = append(d.tags, make([]uint8, len(d.cols))...)
	d.nested = append(d.nested[:0], make([]codec.NestedInts, len(d.cols))...)
	return nil
}

// Hint returns how column i is encoded, for Encoder.AppendAs: its
// compression, and its value encoding tag (with a String or Bytes
// column's nested int encodings) once the column was decoded since the
// last Reset (0 before, and for Bool columns).
func (d *Decoder) Hint(i int) Hint {
	if i < 0 || i >= len(d.cols) {
		return Hint{}
	}
	return Hint{Encoding: d.tags[i], Compression: d.cols[i].Compression, Nested: d.nested[i]}
}

// Rows returns the block's row count.
func (d *Decoder) Rows() int { return d.rows }

// NumColumns returns the block's column count.
func (d *Decoder) NumColumns() int { return len(d.cols) }

// Info describes column i.
func (d *Decoder) Info(i int) ColumnInfo { return d.cols[i] }

// Find returns the index of the named column, or -1.
func (d *Decoder) Find(name string) int {
	for i := range d.cols {
		if d.cols[i].Name == name {
			return i
		}
	}
	return -1
}

// Column decodes column i into dst, reusing dst's buffers. The decoded
// String and Bytes data alias dst's own buffers, not the block.
func (d *Decoder) Column(i int, dst *Column) error {
	if d.src == nil {
		return errors.New("chunk: Column before a successful Reset")
	}
	if i < 0 || i >= len(d.cols) {
		return fmt.Errorf("chunk: column %d of %d", i, len(d.cols))
	}
	info := &d.cols[i]
	dst.Name, dst.Type = info.Name, info.Type
	body := d.src[info.Offset : info.Offset+info.Stored]
	base := info.Offset
	if info.Compression != CompressNone {
		var err error
		d.raw, err = decompress(d.raw, body, info.Compression, info.Raw)
		if err != nil {
			return corrupt("column "+info.Name, info.Offset, err)
		}
		body, base = d.raw, 0
	}
	if err := d.decodeBody(dst, body); err != nil {
		section := "column " + info.Name
		if info.Compression != CompressNone {
			section += " (offsets within its " + info.Compression.String() + "-decompressed body)"
		}
		return codec.Within(err, section, base)
	}
	d.tags[i] = d.tag
	if info.Type == String || info.Type == Bytes {
		d.nested[i] = d.codec.Nested()
	}
	return nil
}

// Block decodes every column into dst.
func (d *Decoder) Block(dst *Block) error {
	dst.Rows = d.rows
	if cap(dst.Columns) < len(d.cols) {
		dst.Columns = append(dst.Columns[:cap(dst.Columns)], make([]Column, len(d.cols)-cap(dst.Columns))...)
	}
	dst.Columns = dst.Columns[:len(d.cols)]
	for i := range d.cols {
		if err := d.Column(i, &dst.Columns[i]); err != nil {
			return err
		}
	}
	return nil
}

// sparseAllowed checks that the bools at body[off:] are not in the
// sparse encoding unless the block's version has it.
func (d *Decoder) sparseAllowed(body []byte, off int) error {
	if d.version < V3 && off < len(body) && body[off] == byte(codec.BoolSparse) {
		return corrupt("bools", off, fmt.Errorf("bool encoding %v in a block of version %d", codec.BoolSparse, d.version))
	}
	return nil
}

func (d *Decoder) decodeBody(dst *Column, body []byte) error {
	rows := d.rows
	if len(body) == 0 {
		return corrupt("body", 0, errors.New("empty column body"))
	}
	off := 1
	present := rows
	switch body[0] {
	case 0:
		dst.Valid = nil
	case 1:
		if err := d.sparseAllowed(body, off); err != nil {
			return err
		}
		var err error
		var n int
		d.valid, n, err = codec.DecodeBools(d.valid, body[off:], rows)
		if err != nil {
			return codec.Within(err, "nulls", off)
		}
		off += n
		present = 0
		for _, v := range d.valid {
			if v {
				present++
			}
		}
		dst.Valid = append(dst.Valid[:0], d.valid...)
	default:
		return corrupt("body", 0, fmt.Errorf("null flag %d", body[0]))
	}
	var n int
	var err error
	vals := body[off:]
	// dst may have held a column of another type (scratch reused across
	// blocks): only the slice of its type may hold values, so that
	// consumers that take every non-empty slice (pick) see its rows only.
	dst.Strs, dst.Ascending = nil, false
	dst.Ints, dst.Floats, dst.Bools, dst.Codes = dst.Ints[:0], dst.Floats[:0], dst.Bools[:0], dst.Codes[:0]
	if dst.Type != String && dst.Type != Bytes {
		dst.Dict.Data, dst.Dict.Offsets = dst.Dict.Data[:0], dst.Dict.Offsets[:0]
	}
	d.tag = 0
	if len(vals) > 0 && dst.Type != Bool {
		d.tag = vals[0]
	}
	switch dst.Type {
	case Int64:
		dst.Ints, n, err = d.codec.DecodeInts(dst.Ints, vals, present)
		if err == nil && present != rows {
			dst.Ints = spread(dst.Ints, dst.Valid)
		}
	case Float64:
		dst.Floats, n, err = d.codec.DecodeFloats(dst.Floats, vals, present)
		if err == nil && present != rows {
			dst.Floats = spread(dst.Floats, dst.Valid)
		}
	case Bool:
		if err := d.sparseAllowed(body, off); err != nil {
			return err
		}
		dst.Bools, n, err = codec.DecodeBools(dst.Bools, vals, present)
		if err == nil && present != rows {
			dst.Bools = spread(dst.Bools, dst.Valid)
		}
	case String, Bytes:
		if d.version < V2 && d.tag == uint8(codec.StringPrefix) {
			return corrupt("values", off, fmt.Errorf("string encoding %v in a block of version %d", codec.StringPrefix, d.version))
		}
		dst.Codes, n, err = d.codec.DecodeStrings(&dst.Dict, dst.Codes, vals, present, MaxColumnBytes)
		dst.Ascending = err == nil && d.codec.Ascending()
		if err == nil && present != rows {
			dst.Codes = spread(dst.Codes, dst.Valid)
		}
	}
	if err != nil {
		return codec.Within(err, "values", off)
	}
	if off+n != len(body) {
		return corrupt("body", off+n, fmt.Errorf("%d bytes after the values", len(body)-off-n))
	}
	return nil
}

// spread moves the present values of s to their rows, zeroing null rows.
func spread[T any](s []T, valid []bool) []T {
	n := len(s)
	if cap(s) < len(valid) {
		s = append(s[:cap(s)], make([]T, len(valid)-cap(s))...)
	}
	s = s[:len(valid)]
	var zero T
	for i := len(valid) - 1; i >= 0; i-- {
		if valid[i] {
			n--
			s[i] = s[n]
		} else {
			s[i] = zero
		}
	}
	return s
}

// plainNoNulls reports whether column i's body is stored uncompressed
// and holds no nulls and values in the plain string encoding, or for a
// Float64 column in the raw float encoding.
func (d *Decoder) plainNoNulls(i int) bool {
	info := &d.cols[i]
	body := d.src[info.Offset : info.Offset+info.Stored]
	if info.Compression != CompressNone || len(body) < 2 || body[0] != 0 {
		return false
	}
	switch info.Type {
	case String, Bytes:
		return body[1] == uint8(codec.StringPlain)
	case Float64:
		return body[1] == uint8(codec.FloatRaw)
	}
	return false
}
