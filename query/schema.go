package query

import (
	"context"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/tsqdb/tsq/chunk"
)

// The record columns every stream has, in the raw view's order.
const (
	ColSeq    = "seq"
	ColTime   = "time"
	ColSeries = "series"
	ColKey    = "key"
	ColOp     = "op"
)

func isBase(name string) bool {
	switch name {
	case ColSeq, ColTime, ColSeries, ColKey, ColOp:
		return true
	}
	return false
}

// FieldDef is a field column of a stream and its type over all blocks. A
// field stored as int64 in some blocks and float64 in others is float64;
// one stored as text (string or bytes) in some blocks and as numbers or
// bools in others is text, its numbers and bools written as text (an
// import whose later rows turned a column of numbers to text; bytes if
// any block has bytes); one of numbers and bools is string too.
type FieldDef struct {
	Name string
	Type chunk.Type
}

// fieldSet is the fields of a stream in order of first appearance.
type fieldSet struct {
	list   []FieldDef
	byName map[string]int
	// instants: int64 fields that hold instants (a subquery's
	// timestamps), output as timestamps and compared with times
	instants map[string]bool
	// durations: int64 fields that hold spans of time (a subquery's
	// durations), output as durations
	durations map[string]bool
	// star, when set, lists the columns of SELECT * (a join's: a.time,
	// b.value, ...) instead of the base columns and every field
	star []string
	// relation names a held result in messages ("the subquery", "WITH
	// relation p"); "" for a stream
	relation string
}

// instant reports whether field name holds instants.
func (f *fieldSet) instant(name string) bool {
	if f == nil || f.instants == nil {
		return false
	}
	t, ok := f.lookup(name)
	return ok && t == chunk.Int64 && f.instants[name]
}

// duration reports whether field name holds spans of time.
func (f *fieldSet) duration(name string) bool {
	if f == nil || f.durations == nil {
		return false
	}
	t, ok := f.lookup(name)
	return ok && t == chunk.Int64 && f.durations[name]
}

func (f *fieldSet) lookup(name string) (chunk.Type, bool) {
	i, ok := f.byName[name]
	if !ok {
		return 0, false
	}
	return f.list[i].Type, true
}

// add merges a field: any two types unify (see FieldDef).
func (f *fieldSet) add(name string, t chunk.Type) error {
	if f.byName == nil {
		f.byName = map[string]int{}
	}
	i, ok := f.byName[name]
	if !ok {
		f.byName[name] = len(f.list)
		f.list = append(f.list, FieldDef{name, t})
		return nil
	}
	old := f.list[i].Type
	switch {
	case old == t:
	case (old == chunk.Int64 || old == chunk.Float64) && (t == chunk.Int64 || t == chunk.Float64):
		f.list[i].Type = chunk.Float64
	case old == chunk.Bytes || t == chunk.Bytes:
		f.list[i].Type = chunk.Bytes
	default:
		f.list[i].Type = chunk.String
	}
	return nil
}

func (f *fieldSet) merge(o *fieldSet) error {
	for _, d := range o.list {
		if err := f.add(d.Name, d.Type); err != nil {
			return err
		}
	}
	return nil
}

// segSchema caches the fields of the first n blocks of a segment.
type segSchema struct {
	n       int
	lastCRC uint32
	fields  fieldSet
}

// schemaCache maps Segment.Key to the fields seen in its blocks, so that
// only blocks appended since the last query have their headers read.
var schemaCache struct {
	sync.Mutex
	m map[string]*segSchema
}

const maxSchemaCache = 1 << 14

// Fields returns the fields of the source's blocks in order of first
// appearance. Block headers are read once per segment and cached.
func Fields(src Source) ([]FieldDef, error) {
	fs, err := fieldsOf(context.Background(), src, nil)
	if err != nil {
		return nil, err
	}
	return fs.list, nil
}

func fieldsOf(ctx context.Context, src Source, skip func(Segment, int, error) bool) (*fieldSet, error) {
	all := &fieldSet{}
	var dec chunk.Decoder
	for _, sg := range src.Segments() {
		fs, err := segFields(ctx, sg, &dec, skip)
		if err != nil {
			return nil, err
		}
		if err := all.merge(fs); err != nil {
			return nil, err
		}
	}
	return all, nil
}

// segFields returns the fields of sg's blocks; skip says whether a
// block that fails to read is left out (nil: none is). A segment with a
// block left out is not cached.
func segFields(ctx context.Context, sg Segment, dec *chunk.Decoder, skip func(Segment, int, error) bool) (*fieldSet, error) {
	blocks := sg.Blocks()
	key := sg.Key()
	schemaCache.Lock()
	c := schemaCache.m[key]
	schemaCache.Unlock()
	start := 0
	fs := &fieldSet{}
	skipped := false
	if key == "" { // not to be cached
		c = nil
	}
	if c != nil && c.n <= len(blocks) && c.n > 0 && blocks[c.n-1].CRC == c.lastCRC {
		if c.n == len(blocks) {
			return &c.fields, nil
		}
		start = c.n
		_ = fs.merge(&c.fields)
	}
	for i := start; i < len(blocks); i++ {
		if blocks[i].Rows == 0 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		data, err := sg.ReadBlock(i)
		if err == nil {
			if err = dec.Reset(data); err != nil {
				err = fmt.Errorf("query: segment %s block %d: %w", sg.Name(), i, err)
			}
		}
		if err != nil {
			if skip != nil && skip(sg, i, err) {
				skipped = true
				continue
			}
			return nil, err
		}
		for k := range dec.NumColumns() {
			info := dec.Info(k)
			if isBase(info.Name) {
				continue
			}
			if err := fs.add(info.Name, info.Type); err != nil {
				return nil, fmt.Errorf("query: segment %s: %w", sg.Name(), err)
			}
		}
	}
	if len(blocks) > 0 && !skipped && key != "" {
		schemaCache.Lock()
		if schemaCache.m == nil || len(schemaCache.m) >= maxSchemaCache {
			schemaCache.m = map[string]*segSchema{}
		}
		schemaCache.m[key] = &segSchema{n: len(blocks), lastCRC: blocks[len(blocks)-1].CRC, fields: *fs}
		schemaCache.Unlock()
	}
	return fs, nil
}

// Arrow types of the raw view.
var (
	TimeType = &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}
	// DurationType is the type of a span of time (time - time)
	DurationType = arrow.FixedWidthTypes.Duration_ns
	SeriesType   = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	OpType       = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
)

// RawSchema returns the Arrow schema of the raw view of a source:
// seq, time, series, key, op, then the fields (nullable).
func RawSchema(src Source) (*arrow.Schema, error) {
	fs, err := fieldsOf(context.Background(), src, nil)
	if err != nil {
		return nil, err
	}
	cols := rawColumns(fs)
	return schemaOf(cols), nil
}
