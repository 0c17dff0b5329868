package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/tsqdb/tsq/chunk"
)

// Limits of one batch.
const (
	// MaxNameLen bounds a column name (a flattened field name).
	MaxNameLen = chunk.MaxNameLen
	// MaxBatchCols bounds the field columns of one batch: a row that
	// would add a column past it ends the batch first.
	MaxBatchCols = 1024
)

type roleKind uint8

const (
	roleField roleKind = iota
	roleTime
	roleSeries
	roleKey
	roleOp
	roleDrop
)

type role struct {
	kind  roleKind // roleField or roleDrop, or the first mapped role
	time  bool
	op    bool
	ser   int        // series part index + 1, 0 if none
	key   int        // key part index + 1, 0 if none
	typ   chunk.Type // forced type, 0 = inferred
	store bool       // a mapped field also stored as a field
}

// plan is a compiled Mapping.
type plan struct {
	roles         map[string]role
	keepOnly      bool
	unit          int64
	layout        string
	hasTime       bool
	nSeries, nKey int
	seriesDefault []byte
	opValues      map[string]Op
	hasOp         bool
	nested        Nested
	now           int64
}

func compile(m *Mapping, defUnit string, now int64) (*plan, error) {
	p := &plan{roles: map[string]role{}, nested: m.Nested, now: now, layout: m.TimeLayout}
	u := m.TimeUnit
	if u == "" {
		u = defUnit
	}
	var err error
	if p.unit, err = unitNanos(u); err != nil {
		return nil, err
	}
	set := func(name string, k roleKind, idx int) error {
		if name == "" {
			return fmt.Errorf("ingest: mapping: empty field name")
		}
		r := p.roles[name]
		if r.kind == roleField {
			r.kind = k
		}
		switch k {
		case roleTime:
			r.time = true
		case roleOp:
			r.op = true
		case roleSeries:
			if r.ser != 0 {
				return fmt.Errorf("ingest: mapping: field %q twice in the series", name)
			}
			r.ser = idx + 1
		case roleKey:
			if r.key != 0 {
				return fmt.Errorf("ingest: mapping: field %q twice in the key", name)
			}
			r.key = idx + 1
		}
		if r.time && r.op {
			return fmt.Errorf("ingest: mapping: field %q is both time and op", name)
		}
		r.store = m.KeepMapped
		p.roles[name] = r
		return nil
	}
	if m.Time != "" {
		p.hasTime = true
		if err := set(m.Time, roleTime, 0); err != nil {
			return nil, err
		}
	}
	for i, f := range splitList(m.Series) {
		if err := set(f, roleSeries, i); err != nil {
			return nil, err
		}
		p.nSeries++
	}
	for i, f := range splitList(m.Key) {
		if err := set(f, roleKey, i); err != nil {
			return nil, err
		}
		p.nKey++
	}
	if m.Op != "" {
		p.hasOp = true
		if err := set(m.Op, roleOp, 0); err != nil {
			return nil, err
		}
	}
	if len(m.OpValues) > 0 {
		p.opValues = map[string]Op{}
		for k, v := range m.OpValues {
			op, err := opByName(v)
			if err != nil {
				return nil, fmt.Errorf("ingest: mapping: %w", err)
			}
			p.opValues[k] = op
		}
	}
	for name, tn := range m.Types {
		t, err := typeByName(tn)
		if err != nil {
			return nil, fmt.Errorf("ingest: mapping: field %q: %w", name, err)
		}
		r := p.roles[name]
		r.typ = t
		p.roles[name] = r
	}
	for _, f := range m.Drop {
		if r, ok := p.roles[f]; !ok || r.kind == roleField {
			p.roles[f] = role{kind: roleDrop}
		}
	}
	if len(m.Keep) > 0 {
		p.keepOnly = true
		for _, f := range m.Keep {
			if _, ok := p.roles[f]; !ok {
				p.roles[f] = role{kind: roleField}
			}
		}
	}
	p.seriesDefault = []byte(m.SeriesDefault)
	if len(p.seriesDefault) == 0 {
		p.seriesDefault = []byte("default")
	}
	return p, nil
}

// rowBuilder turns the fields of one input row into a batch row.
type rowBuilder struct {
	p *plan
	b *Batch

	timeSet    bool
	t          int64
	op         Op
	parts      [][]byte // series parts then key parts, copied
	partSet    []bool
	scratch    []byte // name building
	tscratch   []byte // a typed time's text
	lastLayout int    // of otherLayouts, the last that read a time (-1: none yet)
	// defSeries replaces the plan's default series for this row (line
	// protocol and Prometheus: the series as written).
	defSeries []byte
	hasDef    bool

	nth   int // fields set so far in this row
	cache []fieldCache
	// stableNames: the names given to set are never modified and stay
	// allocated (the CSV header), so one at the address the cache saw
	// last has the cached name.
	stableNames bool
}

func (r *rowBuilder) begin(b *Batch) {
	r.b = b
	b.beginRow()
	r.timeSet, r.t, r.op, r.hasDef, r.nth = false, 0, OpPut, false, 0
	n := r.p.nSeries + r.p.nKey
	if cap(r.parts) < n {
		r.parts, r.partSet = make([][]byte, n), make([]bool, n)
	}
	r.parts, r.partSet = r.parts[:n], r.partSet[:n]
	for i := range r.partSet {
		r.partSet[i] = false
		r.parts[i] = r.parts[i][:0]
	}
}

// valKind is the kind of an input value.
type valKind uint8

const (
	vStr   valKind = iota // text
	vNum                  // numeric literal text (JSON number, CSV cell)
	vInt                  // typed int (line protocol)
	vFloat                // typed float
	vBool                 // typed bool
	vRaw                  // JSON text of an array or object, stored as a string
	vTime                 // a typed instant (Arrow): i in ns; b: a date, shown without a clock
)

type value struct {
	kind valKind
	text []byte
	i    int64
	f    float64
	b    bool
}

var errRow = errors.New("bad row")

func rowErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errRow}, args...)...)
}

func bstr(p []byte) string { return unsafe.String(unsafe.SliceData(p), len(p)) }

// set handles one field of the row.
func (r *rowBuilder) set(name []byte, v value) error {
	// The k-th field of a row usually has the name the k-th field of the
	// previous row had: the cache then spares the map lookups.
	k := r.nth
	r.nth++
	if k >= len(r.cache) { // a CSV row may skip empty cells: k can jump
		r.cache = append(r.cache, make([]fieldCache, k+1-len(r.cache))...)
	}
	fc := &r.cache[k]
	if !fc.valid || !(r.stableNames && fc.src == unsafe.SliceData(name) && len(fc.name) == len(name)) && string(fc.name) != bstr(name) {
		fc.ro, fc.ok = r.p.roles[bstr(name)]
		fc.name = append(fc.name[:0], name...)
		fc.col, fc.valid = nil, true
	}
	if r.stableNames {
		fc.src = unsafe.SliceData(name)
	}
	ro, ok := fc.ro, fc.ok
	if !ok && r.p.keepOnly {
		return nil
	}
	if ro.kind == roleDrop {
		return nil
	}
	if ro.time {
		if err := r.setTime(name, v); err != nil {
			return err
		}
	}
	if ro.ser > 0 {
		r.setPart(ro.ser-1, v)
	}
	if ro.key > 0 {
		r.setPart(r.p.nSeries+ro.key-1, v)
	}
	if ro.op {
		if err := r.setOp(name, v); err != nil {
			return err
		}
	}
	if ro.kind != roleField && !ro.store {
		return nil
	}
	if v.kind == vTime {
		// stored as RFC 3339 text (UTC), or as int64 ns when the
		// mapping types the field so
		if ro.typ == chunk.Int64 || ro.typ == chunk.Float64 {
			v = value{kind: vInt, i: v.i}
		} else {
			r.tscratch = r.text(v)
			v = value{kind: vStr, text: r.tscratch}
		}
	}
	if c := fc.col; c != nil && c.owner == r.b && c.active {
		// the column this field filled in the last row: skip the checks
		if ro.typ != 0 {
			var err error
			if v, err = coerce(v, ro.typ); err != nil {
				return rowErr("field %q: %v", c.Name, err)
			}
		}
		return r.put(c, v)
	}
	c, err := r.store(name, v, ro.typ, fc.col)
	fc.col = c
	return err
}

// fieldCache remembers what the k-th field of the last row resolved to.
type fieldCache struct {
	valid bool
	name  []byte
	src   *byte // the name's bytes last seen (stableNames only)
	ro    role
	ok    bool
	col   *Col
}

func (r *rowBuilder) text(v value) []byte {
	switch v.kind {
	case vInt:
		return strconv.AppendInt(r.scratch[:0], v.i, 10)
	case vFloat:
		return appendFloatText(r.scratch[:0], v.f)
	case vBool:
		return strconv.AppendBool(r.scratch[:0], v.b)
	case vTime:
		tm := time.Unix(0, v.i).UTC()
		if v.b {
			return tm.AppendFormat(r.tscratch[:0], time.DateOnly)
		}
		return tm.AppendFormat(r.tscratch[:0], time.RFC3339Nano)
	}
	return v.text
}

func (r *rowBuilder) setPart(i int, v value) {
	r.parts[i] = append(r.parts[i][:0], r.text(v)...)
	r.partSet[i] = true
}

func (r *rowBuilder) setOp(name []byte, v value) error {
	t := r.text(v)
	if op, ok := r.p.opValues[bstr(t)]; ok {
		r.op = op
		return nil
	}
	if op, ok := builtinOp(bstr(t)); ok {
		r.op = op
		return nil
	}
	return rowErr("field %q: op value %q is not mapped (use op.%s=put|delete|drop|skip)", name, t, t)
}

func (r *rowBuilder) setTime(name []byte, v value) error {
	var err error
	switch v.kind {
	case vTime:
		r.t = v.i
	case vInt:
		r.t, err = scaleInt(v.i, r.p.unit)
	case vFloat:
		r.t, err = scaleFloat(v.f, r.p.unit)
	case vNum, vStr:
		if r.p.layout != "" && v.kind == vStr {
			var tm time.Time
			if tm, err = time.Parse(r.p.layout, bstr(v.text)); err == nil {
				r.t, err = unixNano(tm)
			}
		} else if r.t, err = r.numTime(v.text); err != nil {
			if r.p.layout == "" {
				r.t, err = parseTextTime(v.text, &r.lastLayout)
			} else {
				var tm time.Time
				if tm, err = time.Parse(r.p.layout, bstr(v.text)); err == nil {
					r.t, err = unixNano(tm)
				}
			}
		}
	default:
		err = errors.New("not a number or a string")
	}
	if err != nil {
		return rowErr("time field %q = %q: %v", name, v.text, err)
	}
	r.timeSet = true
	return nil
}

func (r *rowBuilder) numTime(p []byte) (int64, error) {
	if i, ok := parseInt(p); ok {
		return scaleInt(i, r.p.unit)
	}
	f, err := parseFloat(p)
	if err != nil {
		return 0, fmt.Errorf("not a number")
	}
	return scaleFloat(f, r.p.unit)
}

// textTimeLayout returns the layout to read a text time with when the
// mapping gives none: RFC 3339, or its common relatives, as the query
// language reads time literals: a space for the 'T', no zone (UTC), a
// date alone (midnight UTC); seconds may have a fraction.
func textTimeLayout(s []byte) string {
	switch {
	case len(s) == len("2006-01-02"):
		return time.DateOnly
	case len(s) >= 19 && (s[10] == ' ' || s[10] == 'T'):
		layout := "2006-01-02T15:04:05.999999999"
		if s[10] == ' ' {
			layout = "2006-01-02 15:04:05.999999999"
		}
		if c := s[len(s)-1]; c == 'Z' || c == 'z' || bytes.ContainsAny(s[19:], "+-") {
			layout += "Z07:00"
		}
		return layout
	}
	return time.RFC3339Nano
}

// unixNano returns tm in nanoseconds since the epoch, or an error when
// int64 nanoseconds cannot hold it (before 1677-09-21, after 2262-04-11).
func unixNano(tm time.Time) (int64, error) {
	if tm.Before(minTime) || tm.After(maxTime) {
		return 0, fmt.Errorf("out of range: times run from %s to %s", minTime.UTC().Format(time.RFC3339Nano), maxTime.UTC().Format(time.RFC3339Nano))
	}
	return tm.UnixNano(), nil
}

// minTime and maxTime bound the times int64 nanoseconds hold.
var minTime, maxTime = time.Unix(0, math.MinInt64), time.Unix(0, math.MaxInt64)

func scaleInt(i, unit int64) (int64, error) {
	if unit > 1 && (i > (1<<63-1)/unit || i < -(1<<63-1)/unit) {
		return 0, fmt.Errorf("out of range")
	}
	return i * unit, nil
}

func scaleFloat(f float64, unit int64) (int64, error) {
	x := f * float64(unit)
	if !(x > -9.2e18 && x < 9.2e18) {
		return 0, fmt.Errorf("out of range")
	}
	return int64(x), nil
}

// store appends v to the field column name, coerced to typ if given.
func (r *rowBuilder) store(name []byte, v value, typ chunk.Type, hint *Col) (*Col, error) {
	if !utf8.Valid(name) {
		// A column name goes into Arrow and Parquet schemas, which need
		// UTF-8 (a Latin-1 CSV header): each run of invalid bytes becomes
		// U+FFFD, as invalid text does in query results.
		name = bytes.ToValidUTF8(name, []byte(string(utf8.RuneError)))
	}
	if len(name) == 0 || len(name) > MaxNameLen {
		return nil, rowErr("field name %.40q: must be 1 to %d bytes", name, MaxNameLen)
	}
	if reserved(name) {
		r.scratch = append(append(r.scratch[:0], name...), '_')
		name = r.scratch
	}
	b := r.b
	if typ != 0 {
		var err error
		if v, err = coerce(v, typ); err != nil {
			return nil, rowErr("field %q: %v", name, err)
		}
	}
	if hint != nil && hint.owner == b && hint.active && hint.Name == bstr(name) {
		return hint, r.put(hint, v)
	}
	if len(b.Cols) >= MaxBatchCols {
		if c := b.byName[bstr(name)]; c == nil || !c.active {
			return nil, errTooManyCols
		}
	}
	t := chunk.String
	switch v.kind {
	case vInt:
		t = chunk.Int64
	case vFloat:
		t = chunk.Float64
	case vBool:
		t = chunk.Bool
	case vNum:
		t = chunk.Int64
		if _, ok := boolText(v.text); ok {
			t = chunk.Bool // a CSV cell true or false
		}
	}
	c := b.col(name, t)
	return c, r.put(c, v)
}

// put appends v to column c for the current row.
func (r *rowBuilder) put(c *Col, v value) error {
	b := r.b
	if c.has(b.Rows) {
		return rowErr("field %q given twice", c.Name)
	}
	switch v.kind {
	case vInt:
		b.putInt(c, v.i)
	case vFloat:
		b.putFloat(c, v.f)
	case vBool:
		b.putBool(c, v.b)
	case vNum:
		switch c.Type {
		case chunk.String:
			b.putStr(c, v.text)
		case chunk.Bool:
			if t, ok := boolText(v.text); ok {
				b.putBool(c, t)
			} else {
				b.putStr(c, v.text) // other values among bools: text
			}
		default: // a number column; true or false among numbers is text
			if i, ok := parseInt(v.text); ok {
				b.putInt(c, i)
			} else if f, ok := numberValue(v.text); ok {
				b.putFloat(c, f)
			} else {
				b.putStr(c, v.text)
			}
		}
	default:
		b.putStr(c, v.text)
	}
	return nil
}

// errTooManyCols ends a batch early: the row is parsed again into the
// next batch.
var errTooManyCols = errors.New("too many columns in one batch")

func coerce(v value, t chunk.Type) (value, error) {
	s := v.text
	switch t {
	case chunk.String:
		switch v.kind {
		case vInt, vFloat, vBool:
			return value{kind: vStr, text: nil}, fmt.Errorf("typed value cannot become a string here")
		}
		return value{kind: vStr, text: s}, nil
	case chunk.Int64:
		switch v.kind {
		case vInt:
			return v, nil
		case vStr, vNum:
			i, err := strconv.ParseInt(bstr(s), 10, 64)
			if err != nil {
				return v, fmt.Errorf("%q is not an int64", s)
			}
			return value{kind: vInt, i: i}, nil
		}
	case chunk.Float64:
		switch v.kind {
		case vFloat:
			return v, nil
		case vInt:
			return value{kind: vFloat, f: float64(v.i)}, nil
		case vStr, vNum:
			f, ok := numberValue(s)
			if !ok {
				return v, fmt.Errorf("%q is not a float64", s)
			}
			return value{kind: vFloat, f: f}, nil
		}
	case chunk.Bool:
		switch v.kind {
		case vBool:
			return v, nil
		case vStr, vNum:
			bv, err := strconv.ParseBool(bstr(s))
			if err != nil {
				return v, fmt.Errorf("%q is not a bool", s)
			}
			return value{kind: vBool, b: bv}, nil
		}
	}
	return v, fmt.Errorf("value cannot be converted to %v", t)
}

func reserved(name []byte) bool {
	switch bstr(name) {
	case "seq", "time", "series", "key", "op":
		return true
	}
	return false
}

// finish completes the row: time, series, key and op.
func (r *rowBuilder) finish() error {
	p, b := r.p, r.b
	if r.op == OpSkip {
		b.abortRow()
		return nil
	}
	if p.hasTime && !r.timeSet {
		return rowErr("no time field")
	}
	if !r.timeSet {
		r.t = p.now
	}
	var series Span
	if p.nSeries == 1 && r.partSet[0] && b.Rows > 0 && b.lastSeriesIs(r.parts[0]) {
		series = b.Series[b.Rows-1] // one part, as in the last row: no copy
	} else {
		series = r.join(0, p.nSeries)
		if series.Len == 0 {
			if r.hasDef {
				series = b.span(r.defSeries)
			} else {
				series = b.span(p.seriesDefault)
			}
		}
		series = b.sameAsLast(series)
	}
	key := r.join(p.nSeries, p.nSeries+p.nKey)
	b.endRow(r.t, series, key, r.op)
	return nil
}

// join writes parts[i:j] that are set, joined by "/", to the arena.
func (r *rowBuilder) join(i, j int) Span {
	b := r.b
	start := len(b.Arena)
	for k := i; k < j; k++ {
		if !r.partSet[k] {
			continue
		}
		if len(b.Arena) > start {
			b.Arena = append(b.Arena, '/')
		}
		b.Arena = append(b.Arena, r.parts[k]...)
	}
	return Span{uint32(start), uint32(len(b.Arena) - start)}
}
