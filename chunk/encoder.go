package chunk

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/tsqdb/tsq/codec"
)

// Options tune the encoder. The zero value (and nil) means defaults.
type Options struct {
	// Compression is tried on every column and kept where it saves at
	// least 1/8 of the column. CompressNone (the default) still compresses
	// String and Bytes columns with zstd when that pays; set NoCompression
	// to store every column as encoded.
	Compression   Compression
	NoCompression bool
	// Fixed skips the search for the smallest encoding: int64 columns are
	// written delta-packed (codec.IntDelta), float64 columns with Gorilla
	// XOR (codec.FloatXOR), and no column is compressed unless Compression
	// asks. The format is the same; blocks are a little larger and much
	// cheaper to make. For small frames that a merge rewrites later.
	Fixed bool
}

// Encoder appends blocks. The zero value is ready; it reuses its scratch
// space and is not safe for concurrent use.
type Encoder struct {
	// FastZstd makes AppendAs compress with zstd's fastest level: blocks
	// a little larger, much cheaper to make (for rewrites of blocks
	// already written). Append ignores it.
	FastZstd bool
	// OmitNull, when set, names the columns that EncodeFiltered leaves
	// out of the block when none of the kept rows has a value there: a
	// field only the rows taken out had (compaction leaves nothing of
	// them, not even the field's name).
	OmitNull func(name string) bool

	codec  codec.Encoder
	bodies []byte // raw column bodies, back to back
	hdr    []byte // a block header (EncodeAs)
	filt   filterState
	raw    []byte // one raw column body
	descs  []desc
	floats []float64
	ints   []int64
	bools  []bool
	strs   []string
	codes  []int32
	strTag uint8 // the string encoding appendBody last wrote, 0 if none
	sparse bool  // appendBody last wrote a sparse bool encoding
	// nested, while appendBodies encodes a column, is its hint's Nested.
	nested codec.NestedInts
}

type desc struct {
	comp    Compression
	stored  int
	rawLen  int
	typ     Type
	nameLen int
	prefix  bool // front-coded strings: the block needs V2
	sparse  bool // sparse bools (nulls or values): the block needs V3
}

// Append appends the encoding of b to dst. The block must have
// 0 < Rows <= MaxRows rows, at most MaxColumns columns with distinct valid
// names, and every column must hold Rows values.
func (e *Encoder) Append(dst []byte, b *Block, o *Options) ([]byte, error) {
	if o == nil {
		o = &Options{}
	}
	return e.appendBlock(dst, b, o, nil)
}

// Hint fixes how Encoder.AppendAs encodes a column: Encoding is the
// codec tag of its values (codec.IntEncoding, FloatEncoding or
// StringEncoding; 0 lets the encoder choose, and Bool columns have
// none), Compression the compression tried (CompressNone: none), kept
// only where it saves at least 1/8 of the column. Decoder.Hint gives a
// decoded column's hint: re-encoding a filtered block with its source's
// hints skips every candidate search.
type Hint struct {
	Encoding    uint8
	Compression Compression
	// Nested, for a String or Bytes column with an Encoding, are the
	// encodings of the ints its encoding nests (0: picked).
	Nested codec.NestedInts
}

// AppendAs appends the encoding of b with hints[i] for column i. The
// output is an ordinary block, read by any Decoder.
func (e *Encoder) AppendAs(dst []byte, b *Block, hints []Hint) ([]byte, error) {
	if len(hints) != len(b.Columns) {
		return dst, fmt.Errorf("%w: %d hints for %d columns", ErrBadColumn, len(hints), len(b.Columns))
	}
	for i, h := range hints {
		if !validHint(b.Columns[i].Type, h) {
			return dst, fmt.Errorf("%w: column %q: encoding %d, compression %d invalid for %v", ErrBadColumn, b.Columns[i].Name, h.Encoding, uint8(h.Compression), b.Columns[i].Type)
		}
	}
	return e.appendBlock(dst, b, nil, hints)
}

func validHint(t Type, h Hint) bool {
	if h.Compression > CompressZstd {
		return false
	}
	for _, e := range h.Nested {
		if e != 0 && (h.Encoding == 0 || (t != String && t != Bytes) || e < codec.IntPacked || e > codec.IntVarint) {
			return false
		}
	}
	if h.Encoding == 0 {
		return true
	}
	switch t {
	case Int64:
		return h.Encoding >= uint8(codec.IntPacked) && h.Encoding <= uint8(codec.IntVarint)
	case Float64:
		return h.Encoding >= uint8(codec.FloatRaw) && h.Encoding <= uint8(codec.FloatDecimal)
	case String, Bytes:
		return h.Encoding >= uint8(codec.StringPlain) && h.Encoding <= uint8(codec.StringPrefix)
	}
	return false
}

// EncodeAs is AppendAs writing the column bodies in place in buf's
// array, not copied after the header: it returns the block, a slice of
// buf[:cap(buf)] (or of a larger array if the block does not fit) that
// starts within the header space it reserves after len(buf). Cheaper
// than AppendAs by a copy of the block; for a caller that keeps the
// block as its own slice.
func (e *Encoder) EncodeAs(buf []byte, b *Block, hints []Hint) ([]byte, error) {
	if len(hints) != len(b.Columns) {
		return nil, fmt.Errorf("%w: %d hints for %d columns", ErrBadColumn, len(hints), len(b.Columns))
	}
	for i, h := range hints {
		if !validHint(b.Columns[i].Type, h) {
			return nil, fmt.Errorf("%w: column %q: encoding %d, compression %d invalid for %v", ErrBadColumn, b.Columns[i].Name, h.Encoding, uint8(h.Compression), b.Columns[i].Type)
		}
	}
	if err := validate(b); err != nil {
		return nil, err
	}
	return e.encodeAs(buf, b, hints)
}

// encodeAs is EncodeAs after its checks.
func (e *Encoder) encodeAs(buf []byte, b *Block, hints []Hint) ([]byte, error) {
	// Header space: version, rows, columns, and per column its name
	// length, name, type, compression and two lengths.
	reserve := 1 + 2*binary.MaxVarintLen64
	for i := range b.Columns {
		reserve += 3*binary.MaxVarintLen64 + 2 + len(b.Columns[i].Name)
	}
	start := len(buf)
	buf = slices.Grow(buf, reserve)[:start+reserve]
	buf, err := e.appendBodies(buf, b, nil, hints)
	if err != nil {
		return nil, err
	}
	e.hdr = e.appendHeader(e.hdr[:0], b)
	at := start + reserve - len(e.hdr)
	copy(buf[at:], e.hdr)
	buf = binary.LittleEndian.AppendUint32(buf, Checksum(buf[at:]))
	return buf[at:], nil
}

// appendBlock encodes b with options o, or with hints if not nil.
func (e *Encoder) appendBlock(dst []byte, b *Block, o *Options, hints []Hint) ([]byte, error) {
	if err := validate(b); err != nil {
		return dst, err
	}
	start := len(dst)
	var err error
	if e.bodies, err = e.appendBodies(e.bodies[:0], b, o, hints); err != nil {
		return dst, err
	}
	dst = e.appendHeader(dst, b)
	dst = append(dst, e.bodies...)
	return binary.LittleEndian.AppendUint32(dst, Checksum(dst[start:])), nil
}

// appendHeader appends the block header of b, whose bodies e.descs
// describes.
func (e *Encoder) appendHeader(dst []byte, b *Block) []byte {
	v := V1
	for _, d := range e.descs {
		switch {
		case d.sparse:
			v = V3
		case d.prefix:
			v = max(v, V2)
		}
	}
	dst = append(dst, byte(v))
	dst = binary.AppendUvarint(dst, uint64(b.Rows))
	dst = binary.AppendUvarint(dst, uint64(len(b.Columns)))
	for i, d := range e.descs {
		dst = binary.AppendUvarint(dst, uint64(d.nameLen))
		dst = append(dst, b.Columns[i].Name...)
		dst = append(dst, byte(d.typ), byte(d.comp))
		dst = binary.AppendUvarint(dst, uint64(d.stored))
		if d.comp != CompressNone {
			dst = binary.AppendUvarint(dst, uint64(d.rawLen))
		}
	}
	return dst
}

// appendBodies appends the column bodies of b (validated) to bodies,
// encoded with options o, or with hints if not nil, and describes them
// in e.descs.
func (e *Encoder) appendBodies(bodies []byte, b *Block, o *Options, hints []Hint) ([]byte, error) {
	e.descs = e.descs[:0]
	for i := range b.Columns {
		col := &b.Columns[i]
		var h Hint
		if hints != nil {
			h = hints[i]
		}
		c := h.Compression
		if hints == nil {
			c = pickCompression(col.Type, o)
		}
		before := len(bodies)
		e.strTag, e.sparse, e.nested = 0, false, h.Nested
		if c == CompressNone { // encoded in place, not copied
			var err error
			if bodies, err = e.encodeBody(bodies, i, col, b.Rows, h.Encoding, o != nil && o.Fixed); err != nil {
				return bodies, err
			}
			n := len(bodies) - before
			if n > MaxColumnBytes {
				return bodies, fmt.Errorf("%w: column %q encodes to %d bytes, limit %d", ErrBadColumn, col.Name, n, MaxColumnBytes)
			}
			e.descs = append(e.descs, desc{typ: col.Type, rawLen: n, stored: n, nameLen: len(col.Name), prefix: e.strTag == uint8(codec.StringPrefix), sparse: e.sparse})
			continue
		}
		var err error
		if e.raw, err = e.encodeBody(e.raw[:0], i, col, b.Rows, h.Encoding, o != nil && o.Fixed); err != nil {
			return bodies, err
		}
		if len(e.raw) > MaxColumnBytes {
			return bodies, fmt.Errorf("%w: column %q encodes to %d bytes, limit %d", ErrBadColumn, col.Name, len(e.raw), MaxColumnBytes)
		}
		d := desc{typ: col.Type, rawLen: len(e.raw), stored: len(e.raw), nameLen: len(col.Name), prefix: e.strTag == uint8(codec.StringPrefix), sparse: e.sparse}
		if len(e.raw) >= 64 {
			comp := compress
			if hints != nil && e.FastZstd {
				comp = compressFast
			}
			out, err := comp(bodies, e.raw, c)
			if err != nil {
				return bodies, err
			}
			if n := len(out) - before; n <= len(e.raw)-len(e.raw)/8 {
				bodies, d.comp, d.stored = out, c, n
			} else {
				bodies = out[:before]
			}
		}
		if d.comp == CompressNone {
			bodies = append(bodies, e.raw...)
		}
		e.descs = append(e.descs, d)
	}
	return bodies, nil
}

func pickCompression(t Type, o *Options) Compression {
	switch {
	case o.NoCompression:
		return CompressNone
	case o.Fixed && o.Compression == CompressNone:
		return CompressNone
	case o.Compression != CompressNone:
		return o.Compression
	case t == String || t == Bytes:
		return CompressZstd
	}
	return CompressNone
}

func validate(b *Block) error {
	if b.Rows <= 0 || b.Rows > MaxRows {
		return fmt.Errorf("%w: %d rows, want 1..%d", ErrTooManyRows, b.Rows, MaxRows)
	}
	if len(b.Columns) > MaxColumns {
		return fmt.Errorf("%w: %d, limit %d", ErrTooManyColumns, len(b.Columns), MaxColumns)
	}
	for i := range b.Columns {
		c := &b.Columns[i]
		switch {
		case c.Name == "" || len(c.Name) > MaxNameLen:
			return fmt.Errorf("%w: column %d name %q must be 1..%d bytes", ErrBadColumn, i, c.Name, MaxNameLen)
		case !c.Type.valid():
			return fmt.Errorf("%w: column %q has unknown type %d", ErrBadColumn, c.Name, uint8(c.Type))
		case c.Len() != b.Rows:
			return fmt.Errorf("%w: column %q has %d values for %d rows", ErrBadColumn, c.Name, c.Len(), b.Rows)
		case c.Valid != nil && len(c.Valid) != b.Rows:
			return fmt.Errorf("%w: column %q has %d validity flags for %d rows", ErrBadColumn, c.Name, len(c.Valid), b.Rows)
		}
		if c.Strs == nil && (c.Type == String || c.Type == Bytes) {
			n := int32(c.Dict.Len())
			for r, code := range c.Codes {
				if (code < 0 || code >= n) && !c.IsNull(r) {
					return fmt.Errorf("%w: column %q row %d: code %d outside dictionary of %d", ErrBadColumn, c.Name, r, code, n)
				}
			}
		}
		for j := range i {
			if b.Columns[j].Name == c.Name {
				return fmt.Errorf("%w: duplicate column name %q", ErrBadColumn, c.Name)
			}
		}
	}
	return nil
}

// appendBody appends the raw body of col: null flags, then present
// values, in encoding tag (0: the smallest found, or with fixed the
// fixed encoding of the type, found without a search).
func (e *Encoder) appendBody(dst []byte, col *Column, rows int, tag uint8, fixed bool) []byte {
	present := rows
	if col.Valid != nil {
		present = 0
		for _, v := range col.Valid {
			if v {
				present++
			}
		}
	}
	if present == rows {
		dst = append(dst, 0)
	} else {
		dst = append(dst, 1)
		at := len(dst)
		dst = codec.AppendBools(dst, col.Valid)
		e.sparse = dst[at] == byte(codec.BoolSparse)
	}
	switch col.Type {
	case Int64:
		vals := presentOnly(col.Ints, col.Valid, present, &e.ints)
		switch {
		case tag != 0:
			return e.codec.AppendIntsAs(dst, vals, codec.IntEncoding(tag))
		case fixed:
			return e.codec.AppendIntsAs(dst, vals, codec.IntDelta)
		}
		return e.codec.AppendInts(dst, vals)
	case Float64:
		vals := presentOnly(col.Floats, col.Valid, present, &e.floats)
		switch {
		case tag != 0:
			return e.codec.AppendFloatsAs(dst, vals, codec.FloatEncoding(tag))
		case fixed:
			return e.codec.AppendFloatsAs(dst, vals, codec.FloatXOR)
		}
		return e.codec.AppendFloats(dst, vals)
	case Bool:
		at := len(dst)
		dst = codec.AppendBools(dst, presentOnly(col.Bools, col.Valid, present, &e.bools))
		e.sparse = e.sparse || dst[at] == byte(codec.BoolSparse)
		return dst
	default: // String, Bytes
		at := len(dst)
		if col.Strs != nil {
			dst = e.codec.AppendStrings(dst, presentOnly(col.Strs, col.Valid, present, &e.strs))
		} else if codes := presentOnly(col.Codes, col.Valid, present, &e.codes); tag != 0 {
			dst = e.codec.AppendStringsNested(dst, &col.Dict, codes, codec.StringEncoding(tag), e.nested)
		} else {
			dst = e.codec.AppendDict(dst, &col.Dict, codes)
		}
		e.strTag = dst[at]
		return dst
	}
}

// presentOnly returns the values of present rows: vals itself when every
// row is present, else a copy in scratch.
func presentOnly[T any](vals []T, valid []bool, present int, scratch *[]T) []T {
	if present == len(vals) {
		return vals
	}
	out := (*scratch)[:0]
	for i, v := range vals {
		if valid[i] {
			out = append(out, v)
		}
	}
	*scratch = out
	return out
}

// encodeBody appends the raw body of column i, col: filtered from the
// source block's body when EncodeFiltered planned it so, else encoded
// (appendBody).
func (e *Encoder) encodeBody(dst []byte, i int, col *Column, rows int, tag uint8, fixed bool) ([]byte, error) {
	if f := &e.filt; f.dec != nil && f.direct[i] {
		if sp := f.bodies[i]; sp[1] > 0 {
			// Built by keepValues: the new nulls, then the values as stored.
			body := f.arena[sp[0]:sp[1]]
			e.sparse = body[1] == byte(codec.BoolSparse) || (col.Type == Bool && body[sp[2]-sp[0]] == byte(codec.BoolSparse))
			if col.Type == String || col.Type == Bytes {
				e.strTag = body[sp[2]-sp[0]]
			}
			return append(dst, body...), nil
		}
		return f.plainBody(dst, f.from[i], &e.codec)
	}
	return e.appendBody(dst, col, rows, tag, fixed), nil
}

// filterState is the scratch space of EncodeFiltered.
type filterState struct {
	dec    *Decoder // the source block's, during EncodeFiltered
	keep   []int32
	direct []bool // column i is filtered from its body (plainBody)
	from   []int  // the source column of column i of out (OmitNull leaves some out)
	out    Block
	hints  []Hint
	cols   []Column // columns decoded here
	// arrays holds, per source column, the arrays pick fills, of every
	// type: a column of another type in the same place in the next block
	// leaves them for the one after.
	arrays []Column
	cdec   codec.Decoder
	// bodies[i], when its end is not 0, is the range of arena holding
	// column i's new body, built by keepValues, and where its values
	// start.
	bodies [][3]int
	arena  []byte
	valid  []bool
	picked []bool
}

// keepValues builds in f.arena the body of column i (stored
// uncompressed) for the kept rows when none of the rows left out is
// present and some kept row is null: the values are then the same, and
// the new body is the kept rows' nulls followed by the values' bytes as
// stored, with neither decoded. It reports whether it did.
func (f *filterState) keepValues(i int) (bool, error) {
	d := f.dec
	info := &d.cols[i]
	body := d.src[info.Offset : info.Offset+info.Stored]
	if len(body) < 2 || body[0] != 1 {
		return false, nil
	}
	if err := d.sparseAllowed(body, 1); err != nil {
		return false, err
	}
	start := len(f.arena)
	f.arena = append(f.arena, 1)
	// Nulls stored as the list of the few present rows (the usual case
	// of a rare field) are filtered from the list alone.
	var used int
	var ok, left bool
	var err error
	f.arena, used, ok, left, err = codec.FilterTrue(f.arena, body[1:], d.rows, f.keep)
	switch {
	case err != nil:
		return false, codec.Within(err, "column "+info.Name+": nulls", 1)
	case left:
		f.arena = f.arena[:start]
		return false, nil
	case ok && f.arena[start+1] == byte(codec.BoolConst) && f.arena[start+2] == 1:
		f.arena = f.arena[:start] // no kept row is null
		return false, nil
	case !ok:
		f.valid, used, err = codec.DecodeBools(f.valid, body[1:], d.rows)
		if err != nil {
			return false, codec.Within(err, "column "+info.Name+": nulls", 1)
		}
		nulls := false
		for r, k := 0, 0; r < d.rows; r++ {
			if k < len(f.keep) && int(f.keep[k]) == r {
				nulls = nulls || !f.valid[r]
				k++
			} else if f.valid[r] {
				f.arena = f.arena[:start]
				return false, nil // a present row is left out
			}
		}
		if !nulls {
			f.arena = f.arena[:start]
			return false, nil
		}
		f.picked = pickOf(f.picked, f.valid, f.keep)
		f.arena = codec.AppendBools(f.arena, f.picked)
	}
	vals := len(f.arena)
	f.arena = append(f.arena, body[1+used:]...)
	f.bodies[i] = [3]int{start, len(f.arena), vals}
	return true, nil
}

// EncodeFiltered is EncodeAs for the rows keep (ascending, at least one)
// of the block d is Reset on, every column with the encoding and
// compression it has there. Column i is taken from have[i] when that is
// not nil (decoded by d since its Reset, so that d.Hint knows its
// encoding), else decoded; a String or Bytes column stored uncompressed
// in the plain encoding without nulls is not decoded: the kept values' bytes are
// copied from its body (codec.Encoder.FilterPlain), nor is a Float64
// column stored so in the raw encoding (rawFloats); nor are the values
// of a column stored uncompressed with nulls when every row left out is
// null (keepValues). The block holds the kept rows, encoded as EncodeAs
// encodes them (byte for byte when this encoder wrote the source: values
// kept as stored are what it writes for them).
func (e *Encoder) EncodeFiltered(buf []byte, d *Decoder, keep []int32, have []*Column) ([]byte, error) {
	f := &e.filt
	n := d.NumColumns()
	if d.src == nil || len(keep) == 0 || len(keep) > d.Rows() {
		return nil, fmt.Errorf("%w: filter %d rows of a block of %d", ErrBadColumn, len(keep), d.Rows())
	}
	// Ascending and within the block: what the columns filtered without
	// decoding (plainBody, keepValues) rely on.
	if j := badKeep(keep, d.rows); j >= 0 {
		return nil, fmt.Errorf("%w: filter row %d (kept row %d) of a block of %d: rows must ascend", ErrBadColumn, keep[j], j, d.rows)
	}
	f.keep = keep
	f.dec = d
	defer func() { f.dec = nil }()
	f.out.Rows = len(keep)
	f.out.Columns = growCols(f.out.Columns, n)
	f.cols = growCols(f.cols, n)
	f.arrays = growCols(f.arrays, n)
	f.hints = append(f.hints[:0], make([]Hint, n)...)
	f.direct = append(f.direct[:0], make([]bool, n)...)
	f.bodies = append(f.bodies[:0], make([][3]int, n)...)
	f.from = f.from[:0]
	for i := range n {
		f.from = append(f.from, i)
	}
	f.arena = f.arena[:0]
	for i := range n {
		info := &d.cols[i]
		var src *Column
		if i < len(have) {
			src = have[i]
		}
		if src == nil && d.plainNoNulls(i) {
			f.direct[i] = true
			f.out.Columns[i] = Column{Name: info.Name, Type: info.Type}
			f.hints[i] = Hint{Encoding: d.src[info.Offset+1], Compression: CompressNone}
			continue
		}
		if src == nil && info.Compression == CompressNone {
			ok, err := f.keepValues(i)
			if err != nil {
				return nil, err
			}
			if ok {
				f.direct[i] = true
				f.out.Columns[i] = Column{Name: info.Name, Type: info.Type}
				f.hints[i] = Hint{Encoding: d.Hint(i).Encoding, Compression: CompressNone}
				continue
			}
		}
		if src == nil {
			src = &f.cols[i]
			if err := d.Column(i, src); err != nil {
				return nil, err
			}
		}
		pick(&f.out.Columns[i], &f.arrays[i], src, keep)
		f.hints[i] = d.Hint(i)
		if info.Type == Int64 && f.hints[i].Encoding == uint8(codec.IntDoD) && len(keep) < d.rows {
			// Delta-of-delta is what a regular column (timestamps at a
			// fixed step, seqs) gets; rows taken out of it leave gaps:
			// deltas of one step or a few, which the delta encoding
			// stores in a bit or two each, far smaller.
			f.hints[i].Encoding = uint8(codec.IntDelta)
		}
	}
	if e.OmitNull != nil {
		if err := f.omitNull(e.OmitNull); err != nil {
			return nil, err
		}
	}
	// The hints are d's, the columns d's rows (or planned direct): no
	// check of EncodeAs can fail.
	return e.encodeAs(buf, &f.out, f.hints)
}

// badKeep returns the index of the first row of keep (not empty) that
// is outside [0, rows) or not above the one before it, -1 if none is.
// The steps are checked without a branch a row; the culprit is looked
// for only when one is wrong.
func badKeep(keep []int32, rows int) int {
	var low int64 // negative once a step is not positive
	for j := 1; j < len(keep); j++ {
		low |= int64(keep[j]) - int64(keep[j-1]) - 1
	}
	if low >= 0 && keep[0] >= 0 && int(keep[len(keep)-1]) < rows {
		return -1
	}
	for j, r := range keep {
		if r < 0 || int(r) >= rows || (j > 0 && r <= keep[j-1]) {
			return j
		}
	}
	return -1 // not reached
}

// omitNull leaves out of f.out the columns omit names that no kept row
// has a value in, with their hints and plans.
func (f *filterState) omitNull(omit func(string) bool) error {
	k := 0
	for i := range f.out.Columns {
		c := &f.out.Columns[i]
		if omit(c.Name) {
			null, err := f.allNull(i)
			if err != nil {
				return err
			}
			if null {
				continue
			}
		}
		// Swapped, not copied: each column keeps arrays of its own for
		// the next block (pick reuses them).
		f.out.Columns[k], f.out.Columns[i] = f.out.Columns[i], f.out.Columns[k]
		f.hints[k], f.direct[k], f.bodies[k], f.from[k] = f.hints[i], f.direct[i], f.bodies[i], f.from[i]
		k++
	}
	f.out.Columns, f.hints, f.direct, f.bodies, f.from = f.out.Columns[:k], f.hints[:k], f.direct[:k], f.bodies[:k], f.from[:k]
	return nil
}

// allNull reports whether no kept row has a value in output column i.
func (f *filterState) allNull(i int) (bool, error) {
	if !f.direct[i] {
		return f.out.Columns[i].Valid != nil && !slices.Contains(f.out.Columns[i].Valid, true), nil
	}
	sp := f.bodies[i]
	if sp[1] == 0 { // plain values without nulls (plainBody)
		return false, nil
	}
	// keepValues: the kept rows' nulls, then the values.
	var err error
	f.picked, _, err = codec.DecodeBools(f.picked, f.arena[sp[0]+1:sp[2]], len(f.keep))
	if err != nil {
		return false, err
	}
	return !slices.Contains(f.picked, true), nil
}

// plainBody appends the raw body of column i of f.dec filtered to the
// rows f.keep: a column stored uncompressed, in the plain string
// encoding or the raw float encoding, without nulls.
func (f *filterState) plainBody(dst []byte, i int, enc *codec.Encoder) ([]byte, error) {
	d := f.dec
	info := &d.cols[i]
	body := d.src[info.Offset : info.Offset+info.Stored] // uncompressed
	dst = append(dst, 0)                                 // no nulls
	if info.Type == Float64 {
		return f.rawFloats(dst, body, info.Name)
	}
	dst, used, err := enc.FilterPlain(dst, body[1:], d.rows, f.keep, &f.cdec, MaxColumnBytes)
	if err != nil {
		return dst, codec.Within(err, "column "+info.Name, 1)
	}
	if 1+used != len(body) {
		return dst, corrupt("column "+info.Name, 1+used, fmt.Errorf("%d bytes after the values", len(body)-1-used))
	}
	return dst, nil
}

// rawFloats appends the raw float encoding of the rows f.keep of body, a
// column's body without nulls in that encoding (8 bytes a value): the
// kept values' bytes are copied, runs of kept rows at once.
func (f *filterState) rawFloats(dst, body []byte, name string) ([]byte, error) {
	if want := 2 + 8*f.dec.rows; len(body) != want {
		return dst, corrupt("column "+name, 0, fmt.Errorf("%d bytes of raw floats for %d rows, want %d", len(body), f.dec.rows, want))
	}
	vals := body[2:]
	dst = append(dst, byte(codec.FloatRaw))
	for j := 0; j < len(f.keep); {
		lo := int(f.keep[j])
		hi := lo + 1
		for j++; j < len(f.keep) && int(f.keep[j]) == hi; j++ {
			hi++
		}
		dst = append(dst, vals[8*lo:8*hi]...)
	}
	return dst, nil
}

func growCols(c []Column, n int) []Column {
	if cap(c) < n {
		c = append(c[:cap(c)], make([]Column, n-cap(c))...)
	}
	return c[:n]
}

// pick sets dst to the rows keep of c, in the arrays of arrays (kept
// there for the next call, whatever the type); the dictionary is shared.
// Only the values of c's type are taken: a decoded column's other slices
// may hold another column's rows.
func pick(dst, arrays, c *Column, keep []int32) {
	out := Column{Name: c.Name, Type: c.Type}
	if len(c.Valid) > 0 {
		arrays.Valid = pickOf(arrays.Valid, c.Valid, keep)
		out.Valid = arrays.Valid
	}
	switch c.Type {
	case Int64:
		if len(c.Ints) > 0 {
			arrays.Ints = pickOf(arrays.Ints, c.Ints, keep)
			out.Ints = arrays.Ints
		}
	case Float64:
		if len(c.Floats) > 0 {
			arrays.Floats = pickOf(arrays.Floats, c.Floats, keep)
			out.Floats = arrays.Floats
		}
	case Bool:
		if len(c.Bools) > 0 {
			arrays.Bools = pickOf(arrays.Bools, c.Bools, keep)
			out.Bools = arrays.Bools
		}
	case String, Bytes:
		out.Dict = c.Dict
		if len(c.Codes) > 0 {
			arrays.Codes = pickOf(arrays.Codes, c.Codes, keep)
			out.Codes = arrays.Codes
		}
		if len(c.Strs) > 0 {
			arrays.Strs = pickOf(arrays.Strs, c.Strs, keep)
			out.Strs = arrays.Strs
		}
	}
	*dst = out
}

// pickOf returns the rows keep of s in dst's array, nil if s is empty.
func pickOf[T any](dst, s []T, keep []int32) []T {
	if len(s) == 0 {
		return nil
	}
	out := slices.Grow(dst[:0], len(keep))[:len(keep)]
	for j, i := range keep {
		out[j] = s[i]
	}
	return out
}
