package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// Arrow IPC input: a stream, or a file read front to back as the stream
// it holds after its magic (the footer, which only indexes the same
// batches, is checked for but not needed). One record batch at a time is
// held, bounded by Options.MaxRecordBytes.

const arrowMagic = "ARROW1"

// IsArrow reports whether head, an input's first bytes, starts an Arrow
// IPC file ("ARROW1") or stream (a message's continuation marker and
// length).
func IsArrow(head []byte) bool {
	return bytes.HasPrefix(head, []byte(arrowMagic+"\x00")) ||
		bytes.HasPrefix(head, []byte("\xff\xff\xff\xff")) && binaryAt(head, 4)
}

// DefaultMaxRecordBytes bounds one Arrow record batch (its buffers as
// read and decompressed) when Options.MaxRecordBytes is 0.
const DefaultMaxRecordBytes = 64 << 20

// arrowState reads the record batches of an Arrow input.
type arrowState struct {
	rd     *ipc.Reader
	src    *reader     // the input, for its offsets
	in     *tailReader // what the decoder reads: src after a file's magic
	mem    *limitAllocator
	file   bool // an IPC file: its footer follows the stream
	schema *arrow.Schema
	cols   []arrowCol
	names  [][]byte // the cols' names (headerNames)

	rec     arrow.RecordBatch // the batch being read; owned by rd
	next    int               // its next row
	recOff  int64             // input offset its messages started at
	row     int64             // rows handed out so far
	scratch []byte
}

// arrowCol is one stored column: a top-level field, or a leaf of a
// struct field flattened to a dotted name.
type arrowCol struct {
	name []byte
	path []int         // field index, then child indices
	arrs []arrow.Array // per level of path, for the current batch
}

// newArrowState reads the schema at the input's start.
func newArrowState(in *reader, o *Options) (*arrowState, error) {
	limit := int64(o.MaxRecordBytes)
	if limit <= 0 {
		limit = DefaultMaxRecordBytes
	}
	a := &arrowState{mem: &limitAllocator{limit: limit}, src: in}
	for in.end-in.pos < len(arrowMagic)+2 && in.fill() { // (a pipe may hand over a few bytes at a time)
	}
	if in.end == in.pos {
		if err := in.readErr(); err != nil {
			return nil, fmt.Errorf("ingest: arrow: read: %w", err)
		}
		return nil, errors.New("ingest: arrow: empty input")
	}
	if bytes.HasPrefix(in.buf[in.pos:in.end], []byte(arrowMagic)) {
		// the file's magic, padded to 8 bytes, then the stream
		var pad [8]byte
		if _, err := io.ReadFull(in, pad[:]); err != nil {
			return nil, fmt.Errorf("ingest: arrow: read the file's magic: %w", err)
		}
		a.file = true
	}
	a.in = &tailReader{r: in}
	var err error
	a.rd, err = ipcReader(&messageChecker{r: a.in, maxBody: limit}, a.mem)
	if err != nil {
		return nil, fmt.Errorf("ingest: arrow: read the schema at byte offset %d: %w", in.offset(), err)
	}
	a.schema = a.rd.Schema()
	var names [][]byte
	a.walk(nil, "", a.schema.Fields(), o.Mapping.Nested, &names)
	a.names = headerNames(nil, names)
	for i := range a.cols {
		a.cols[i].name = a.names[i]
	}
	return a, nil
}

// ipcReader opens the stream, turning a panic of the decoder on corrupt
// bytes into an error.
func ipcReader(r io.Reader, mem *limitAllocator) (rd *ipc.Reader, err error) {
	defer recoverArrow(&err)
	return ipc.NewReader(r, ipc.WithAllocator(mem), ipc.WithBodySizeLimit(mem.limit), ipc.WithMetadataSizeLimit(maxArrowMetadata))
}

// walk lists the stored columns of fields: a struct is flattened to
// dotted names unless nested says to keep it as JSON; a column of the
// null type holds nothing and is left out.
func (a *arrowState) walk(path []int, prefix string, fields []arrow.Field, nested Nested, names *[][]byte) {
	for i, f := range fields {
		p := append(slices.Clip(path), i)
		name := prefix + f.Name
		if st, ok := f.Type.(*arrow.StructType); ok && nested == NestedFlatten && st.NumFields() > 0 {
			a.walk(p, name+".", st.Fields(), nested, names)
			continue
		}
		if f.Type.ID() == arrow.NULL {
			continue
		}
		a.cols = append(a.cols, arrowCol{path: p, arrs: make([]arrow.Array, len(p))})
		*names = append(*names, []byte(name))
	}
}

// nextRecord reads the next record batch; io.EOF at the end of a whole
// stream.
func (a *arrowState) nextRecord() (err error) {
	a.rec, a.next = nil, 0
	a.recOff = a.src.offset()
	defer recoverArrow(&err)
	for {
		if !a.rd.Next() {
			if err := a.rd.Err(); err != nil {
				return a.fail(err)
			}
			return a.end()
		}
		rec := a.rd.RecordBatch()
		for i, col := range rec.Columns() {
			// (a column of the null type has no buffers, which the
			// validation takes for an error; it is not read)
			if col.DataType().ID() != arrow.NULL {
				if err := array.ValidateFull(col); err != nil {
					return a.fail(fmt.Errorf("column %d (%s): %w", i, rec.ColumnName(i), err))
				}
			}
		}
		if rec.NumRows() == 0 {
			continue
		}
		a.rec = rec
		break
	}
	for i := range a.cols {
		c := &a.cols[i]
		c.arrs[0] = a.rec.Column(c.path[0])
		for k := 1; k < len(c.path); k++ {
			c.arrs[k] = c.arrs[k-1].(*array.Struct).Field(c.path[k])
		}
	}
	return nil
}

func (a *arrowState) fail(err error) error {
	var be budgetError
	if errors.As(err, &be) || a.mem.exceeded.Load() {
		return fmt.Errorf("ingest: arrow: the record batch at byte offset %d needs more than %d bytes, the import's bound for one batch, half its memory budget (write smaller batches, or give the import more memory: MemoryBudget, tsq import --memory)", a.recOff, a.mem.limit)
	}
	if strings.Contains(err.Error(), "body of") && strings.Contains(err.Error(), "exceeds limit") {
		return fmt.Errorf("ingest: arrow: the record batch at byte offset %d is larger than %d bytes, the import's bound for one batch, half its memory budget (write smaller batches, or give the import more memory: MemoryBudget, tsq import --memory): %w", a.recOff, a.mem.limit, err)
	}
	return fmt.Errorf("ingest: arrow: bad record batch at byte offset %d: %w", a.recOff, err)
}

// end checks how the stream ended: with its end-of-stream marker (an
// input cut at a batch's end reads as whole otherwise), and for a file
// with the footer and the closing magic after it.
func (a *arrowState) end() error {
	if !a.in.endsWith("\xff\xff\xff\xff\x00\x00\x00\x00") {
		return fmt.Errorf("ingest: arrow: the input ends at byte offset %d without the stream's end marker: is it cut short?", a.src.offset())
	}
	if a.file {
		if _, err := io.Copy(io.Discard, a.in); err != nil {
			return fmt.Errorf("ingest: arrow: read the file's footer: %w", err)
		}
		if !a.in.endsWith(arrowMagic) {
			return fmt.Errorf("ingest: arrow: the file ends at byte offset %d without its footer and closing %q: is it cut short?", a.src.offset(), arrowMagic)
		}
	}
	return io.EOF
}

// recoverArrow turns a panic of the Arrow decoder (corrupt bytes it does
// not check, the allocator's bound) into an error.
func recoverArrow(err *error) {
	if r := recover(); r != nil {
		if be, ok := r.(budgetError); ok {
			*err = be
			return
		}
		*err = fmt.Errorf("corrupt input: %v", r)
	}
}

// arrowRows fills b with the rows of the record batches.
func (p *Parser) arrowRows(b *Batch) (err error) {
	a := p.arrow
	p.rb.stableNames = true // a.names: never modified
	for !p.full(b) {
		if a.rec == nil || a.next >= int(a.rec.NumRows()) {
			if err := a.nextRecord(); err != nil {
				return err
			}
			continue
		}
		i := a.next
		p.rb.begin(b)
		err := a.setRow(&p.rb, i)
		if err == nil {
			err = p.rb.finish()
		}
		if errors.Is(err, errTooManyCols) && b.Rows > 0 {
			b.abortRow() // the row starts the next batch
			return nil
		}
		var raw []byte
		if err != nil {
			raw = a.rowJSON(i)
		}
		if err := p.row(b, err, raw, a.recOff, a.row+1); err != nil {
			return err
		}
		a.next++
		a.row++
	}
	return nil
}

// setRow hands row i's values to the row builder.
func (a *arrowState) setRow(rb *rowBuilder, i int) (err error) {
	defer recoverArrow(&err) // ValidateFull checked each column read: a decoder's gap
	for k := range a.cols {
		c := &a.cols[k]
		null := false
		for _, parent := range c.arrs[:len(c.arrs)-1] {
			if parent.IsNull(i) {
				null = true
				break
			}
		}
		if null {
			continue
		}
		v, ok := a.value(c.arrs[len(c.arrs)-1], i)
		if !ok {
			continue
		}
		if err := rb.set(c.name, v); err != nil {
			return err
		}
	}
	return nil
}

// value returns row i of arr as an input value; false for a null.
// Integers are int64 (a uint64 past int64's range reads as a JSON number
// would: a float), floats float64 (a float32 as its shortest decimal, so
// 0.1f stays 0.1), decimals their decimal text read as a number,
// timestamps and dates instants (the record's time, or RFC 3339 text),
// durations int64 nanoseconds, strings and binaries text, dictionaries
// and run-end encodings their values, and lists, maps, unions and
// structs kept whole JSON text.
func (a *arrowState) value(arr arrow.Array, i int) (value, bool) {
	if arr.IsNull(i) {
		return value{}, false
	}
	switch x := arr.(type) {
	case *array.Int8:
		return value{kind: vInt, i: int64(x.Value(i))}, true
	case *array.Int16:
		return value{kind: vInt, i: int64(x.Value(i))}, true
	case *array.Int32:
		return value{kind: vInt, i: int64(x.Value(i))}, true
	case *array.Int64:
		return value{kind: vInt, i: x.Value(i)}, true
	case *array.Uint8:
		return value{kind: vInt, i: int64(x.Value(i))}, true
	case *array.Uint16:
		return value{kind: vInt, i: int64(x.Value(i))}, true
	case *array.Uint32:
		return value{kind: vInt, i: int64(x.Value(i))}, true
	case *array.Uint64:
		if u := x.Value(i); u <= math.MaxInt64 {
			return value{kind: vInt, i: int64(u)}, true
		} else {
			a.scratch = strconv.AppendUint(a.scratch[:0], u, 10)
			return value{kind: vNum, text: a.scratch}, true
		}
	case *array.Float16:
		return a.float32(x.Value(i).Float32()), true
	case *array.Float32:
		return a.float32(x.Value(i)), true
	case *array.Float64:
		return value{kind: vFloat, f: x.Value(i)}, true
	case *array.Boolean:
		return value{kind: vBool, b: x.Value(i)}, true
	case *array.String:
		return value{kind: vStr, text: strBytes(x.Value(i))}, true
	case *array.LargeString:
		return value{kind: vStr, text: strBytes(x.Value(i))}, true
	case *array.StringView:
		return value{kind: vStr, text: strBytes(x.Value(i))}, true
	case *array.Binary:
		return value{kind: vStr, text: x.Value(i)}, true
	case *array.LargeBinary:
		return value{kind: vStr, text: x.Value(i)}, true
	case *array.BinaryView:
		return value{kind: vStr, text: x.Value(i)}, true
	case *array.FixedSizeBinary:
		return value{kind: vStr, text: x.Value(i)}, true
	case *array.Timestamp:
		unit := x.DataType().(*arrow.TimestampType).Unit
		return a.instant(int64(x.Value(i)), int64(unit.Multiplier()), false, arr, i), true
	case *array.Date32:
		return a.instant(int64(x.Value(i)), 86400e9, true, arr, i), true
	case *array.Date64:
		return a.instant(int64(x.Value(i)), 1e6, true, arr, i), true
	case *array.Duration:
		unit := x.DataType().(*arrow.DurationType).Unit
		if ns, err := scaleInt(int64(x.Value(i)), int64(unit.Multiplier())); err == nil {
			return value{kind: vInt, i: ns}, true
		}
		return a.text(arr, i), true
	case *array.Decimal128:
		a.scratch = append(a.scratch[:0], x.Value(i).ToString(x.DataType().(*arrow.Decimal128Type).Scale)...)
		return value{kind: vNum, text: a.scratch}, true
	case *array.Decimal256:
		a.scratch = append(a.scratch[:0], x.Value(i).ToString(x.DataType().(*arrow.Decimal256Type).Scale)...)
		return value{kind: vNum, text: a.scratch}, true
	case *array.Dictionary:
		return a.value(x.Dictionary(), x.GetValueIndex(i))
	case *array.RunEndEncoded:
		return a.value(x.Values(), x.GetPhysicalIndex(i))
	case array.ExtensionArray:
		return a.value(x.Storage(), i)
	case *array.Null:
		return value{}, false
	case *array.Struct, *array.List, *array.LargeList, *array.FixedSizeList, *array.ListView,
		*array.LargeListView, *array.Map, *array.SparseUnion, *array.DenseUnion:
		j, err := json.Marshal(arr.GetOneForMarshal(i))
		if err != nil {
			return a.text(arr, i), true
		}
		a.scratch = append(a.scratch[:0], j...)
		return value{kind: vRaw, text: a.scratch}, true
	}
	return a.text(arr, i), true // times of day, intervals, decimals of other widths
}

// float32 widens f to the float64 of its shortest decimal.
func (a *arrowState) float32(f float32) value {
	a.scratch = strconv.AppendFloat(a.scratch[:0], float64(f), 'g', -1, 32)
	g, err := strconv.ParseFloat(bstr(a.scratch), 64) // (not kept: no copy)
	if err != nil {                                   // ±Inf and NaN parse; nothing else fails
		g = float64(f)
	}
	return value{kind: vFloat, f: g}
}

// instant is v in units of unit nanoseconds; past int64 nanoseconds'
// range, Arrow's text of it (an error where it is the time).
func (a *arrowState) instant(v, unit int64, date bool, arr arrow.Array, i int) value {
	ns, err := scaleInt(v, unit)
	if err != nil {
		return a.text(arr, i)
	}
	return value{kind: vTime, i: ns, b: date}
}

func (a *arrowState) text(arr arrow.Array, i int) value {
	a.scratch = append(a.scratch[:0], arr.ValueStr(i)...)
	return value{kind: vStr, text: a.scratch}
}

// rowJSON renders row i as a JSON object of its top-level fields: the
// row's text in errors and in the rejects.
func (a *arrowState) rowJSON(i int) (out []byte) {
	defer func() {
		if recover() != nil {
			out = []byte(fmt.Sprintf("row %d of the record batch", i))
		}
	}()
	out = append(out, '{')
	for k, f := range a.schema.Fields() {
		if k > 0 {
			out = append(out, ',')
		}
		name, _ := json.Marshal(f.Name)
		out = append(append(out, name...), ':')
		v, err := json.Marshal(a.rec.Column(k).GetOneForMarshal(i))
		if err != nil {
			v = []byte("null")
		}
		out = append(out, v...)
	}
	return append(out, '}')
}

func strBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// arrowDefaults maps the record columns of a tsq result, as tsq
// exports it, to the record's own when m names none of series, key and
// op and no time but "time": a timestamp "time" and a text "series",
// then "key" and "op" if present as text, "seq" (uint64) dropped, as the
// store assigns seqs anew. A stream exported by tsq (SELECT *, or
// SELECT time, series, value) imports back as it was.
func arrowDefaults(m *Mapping, s *arrow.Schema) {
	if m.Series != "" || m.Key != "" || m.Op != "" || m.Time != "" && m.Time != "time" {
		return
	}
	has := func(name string, ok func(arrow.DataType) bool) bool {
		i := s.FieldIndices(name)
		return len(i) == 1 && ok(s.Field(i[0]).Type)
	}
	isText := func(t arrow.DataType) bool {
		if d, ok := t.(*arrow.DictionaryType); ok {
			t = d.ValueType
		}
		return t.ID() == arrow.STRING || t.ID() == arrow.LARGE_STRING || t.ID() == arrow.STRING_VIEW
	}
	if !has("time", func(t arrow.DataType) bool { return t.ID() == arrow.TIMESTAMP }) || !has("series", isText) {
		return
	}
	m.Time, m.Series = "time", "series"
	if has("key", isText) {
		m.Key = "key"
	}
	if has("op", isText) {
		m.Op = "op"
	}
	if has("seq", func(t arrow.DataType) bool { return t.ID() == arrow.UINT64 }) {
		m.Drop = append(slices.Clip(m.Drop), "seq")
	}
}

// arrowTimeField is GuessTimeField for Arrow input: the first field of
// a timestamp or date type named like a time, else the first of such a
// type; "" when head does not hold the whole schema.
func arrowTimeField(head []byte) string {
	if bytes.HasPrefix(head, []byte(arrowMagic)) {
		head = head[min(8, len(head)):]
	}
	mem := &limitAllocator{limit: 1 << 20}
	rd, err := ipcReader(&messageChecker{r: bytes.NewReader(head), maxBody: mem.limit}, mem)
	if err != nil {
		return ""
	}
	defer rd.Release()
	var typed []string
	for _, f := range rd.Schema().Fields() {
		switch f.Type.ID() {
		case arrow.TIMESTAMP, arrow.DATE32, arrow.DATE64:
			typed = append(typed, f.Name)
		}
	}
	if n := pickTimeName(typed); n != "" {
		return n
	}
	if len(typed) > 0 {
		return typed[0]
	}
	return ""
}

// tailReader counts the bytes read and keeps the last eight.
type tailReader struct {
	r    io.Reader
	n    int64
	tail [8]byte
}

func (t *tailReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n >= len(t.tail) {
		copy(t.tail[:], p[n-len(t.tail):n])
	} else if n > 0 {
		copy(t.tail[:], t.tail[n:])
		copy(t.tail[len(t.tail)-n:], p[:n])
	}
	t.n += int64(n)
	return n, err
}

// endsWith reports whether the bytes read so far end with s (at most 8
// bytes).
func (t *tailReader) endsWith(s string) bool {
	return t.n >= int64(len(s)) && string(t.tail[len(t.tail)-len(s):]) == s
}
