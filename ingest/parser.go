package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"
)

// Options configure a Parser.
type Options struct {
	// Format of the input; Guess detects it from the first bytes.
	Format  Format
	Mapping Mapping
	// SkipBad writes a bad row to Rejects (its bytes and a newline) and
	// counts it instead of failing.
	SkipBad bool
	Rejects io.Writer
	// MaxLineBytes bounds one line (or one JSON array element); default
	// 4 MiB.
	MaxLineBytes int
	// BatchRows and BatchBytes bound one batch (defaults 8192 rows and
	// 8 MiB, estimated by Batch.Size).
	BatchRows  int
	BatchBytes int
	// MaxRecordBytes bounds one Arrow record batch, its buffers as read
	// and decompressed (default DefaultMaxRecordBytes): an Arrow input
	// is read one record batch at a time.
	MaxRecordBytes int
	// BufferBytes is the read buffer (default 256 KiB).
	BufferBytes int
	// Now is the time (ns) of rows without a time field; default the
	// time NewParser is called.
	Now int64
}

// Defaults of Options.
const (
	DefaultMaxLineBytes = 4 << 20
	DefaultBatchRows    = 8192
	DefaultBatchBytes   = 8 << 20
	DefaultBufferBytes  = 256 << 10
)

// Parser reads rows from an input into batches.
type Parser struct {
	o    Options
	f    Format
	in   *reader
	rb   rowBuilder
	rows func(*Parser, *Batch) error // the format's row loop

	lastOff  int64 // input offset at the end of the last Fill
	rejected int64
	// the most rows and arena bytes of a batch filled so far: Fill sizes
	// each batch for them up front (Batch.reserve)
	maxRows, maxArena, maxCols int
	chunkLen                   int // of the chunk being parsed (ResetChunk), 0 if none
	done                       bool

	// a row that did not fit the last batch (too many columns)
	pend     []byte
	pendOff  int64
	pendLine int64
	hasPend  bool
	csv      csvState
	// raw, when rawSet, replaces the line as the row's bytes (a CSV
	// record spanning lines).
	raw       []byte
	rawSet    bool
	jarr      jarrState
	jsonState jsonState
	arrow     *arrowState
}

// NewParser returns a parser of r.
func NewParser(r io.Reader, o Options) (*Parser, error) {
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DefaultMaxLineBytes
	}
	if o.BatchRows <= 0 {
		o.BatchRows = DefaultBatchRows
	}
	if o.BatchBytes <= 0 {
		o.BatchBytes = DefaultBatchBytes
	}
	if o.BufferBytes <= 0 {
		o.BufferBytes = DefaultBufferBytes
	}
	if o.Now == 0 {
		o.Now = time.Now().UnixNano()
	}
	p := &Parser{o: o, f: o.Format, in: newReader(r, o.BufferBytes, o.MaxLineBytes)}
	if p.f == Guess {
		// (a pipe may hand over a few bytes at a time)
		for p.in.end < min(4096, len(p.in.buf)) && p.in.fill() {
		}
		if e := p.in.readErr(); e != nil {
			return nil, fmt.Errorf("ingest: read: %w", e)
		}
		p.f = GuessContent(p.in.buf[:min(p.in.end, 4096)])
	}
	unit := "ms"
	switch p.f {
	case JSONLines, JSONArray:
		p.rows = (*Parser).jsonLines
		if p.f == JSONArray {
			p.rows = (*Parser).jsonArray
		}
	case CSV:
		p.rows = (*Parser).csvRows
	case LineProtocol:
		p.rows, unit = (*Parser).lpRows, "ns"
	case Prometheus:
		p.rows = (*Parser).promRows
	case Arrow:
		a, err := newArrowState(p.in, &o)
		if err != nil {
			return nil, err
		}
		p.arrow, p.rows = a, (*Parser).arrowRows
		arrowDefaults(&o.Mapping, a.schema)
	default:
		return nil, fmt.Errorf("ingest: unknown format %v", p.f)
	}
	pl, err := compile(&o.Mapping, unit, o.Now)
	if err != nil {
		return nil, err
	}
	p.rb.p, p.rb.lastLayout = pl, -1
	return p, nil
}

// Format returns the format being parsed (guessed if asked).
func (p *Parser) Format() Format { return p.f }

// Rejected returns the rows skipped as bad (SkipBad).
func (p *Parser) Rejected() int64 { return p.rejected }

// Lines returns the lines read so far (rows of an Arrow input).
func (p *Parser) Lines() int64 {
	if p.arrow != nil {
		return p.arrow.row
	}
	return p.in.line
}

// Offset returns the input bytes consumed so far.
func (p *Parser) Offset() int64 { return p.in.offset() }

// Fill resets b and fills it with the next rows. It returns io.EOF when
// the input is exhausted and b is empty; with rows in b it returns nil.
// A bad row fails with an *Error unless SkipBad is set.
func (p *Parser) Fill(b *Batch) error {
	b.Reset()
	if p.done {
		return io.EOF
	}
	rows := p.maxRows
	if rows == 0 {
		// the first batch: as many rows as the byte bound lets a row of
		// the record columns alone take (Batch.Size)
		rows = min(p.o.BatchRows, p.o.BatchBytes/48)
	}
	arena := p.maxArena
	if arena == 0 {
		// the first batch: its strings are copies of its input, which a
		// chunk bounds (a number turned to text aside)
		arena = min(p.chunkLen, p.o.BatchBytes)
	}
	b.reserve(rows, arena, p.o.BatchBytes, p.maxCols)
	err := p.rows(p, b)
	b.Finish()
	p.maxRows, p.maxArena, p.maxCols = max(p.maxRows, b.Rows), max(p.maxArena, len(b.Arena)), max(p.maxCols, len(b.Cols))
	b.Bytes = p.in.offset() - p.lastOff
	p.lastOff = p.in.offset()
	if err == io.EOF {
		p.done = true
		if b.Rows > 0 {
			return nil
		}
		return io.EOF
	}
	return err
}

// full reports whether the batch must be cut.
func (p *Parser) full(b *Batch) bool {
	return b.Rows >= p.o.BatchRows || b.Size() >= p.o.BatchBytes
}

// row handles the outcome of one row: a row error becomes an *Error or
// a rejection. It returns errTooManyCols when the row must be retried
// in the next batch.
func (p *Parser) row(b *Batch, err error, raw []byte, off, line int64) error {
	if err == nil {
		if b.FirstLine == 0 {
			b.FirstLine = line
		}
		return nil
	}
	b.abortRow()
	if errors.Is(err, errTooManyCols) {
		if b.Rows == 0 {
			err = rowErr("more than %d distinct fields in one row", MaxBatchCols)
		} else {
			p.pend = append(p.pend[:0], raw...)
			p.pendOff, p.pendLine, p.hasPend = off, line, true
			return errTooManyCols
		}
	}
	if p.o.SkipBad && errors.Is(err, errRow) {
		p.rejected++
		if p.o.Rejects != nil {
			if _, werr := p.o.Rejects.Write(append(raw[:len(raw):len(raw)], '\n')); werr != nil {
				return fmt.Errorf("ingest: write rejects: %w", werr)
			}
		}
		return nil
	}
	msg := err.Error()
	if errors.Is(err, errRow) {
		msg = msg[len(errRow.Error())+2:]
	}
	return &Error{Format: p.f, Line: line, Offset: off, Snippet: snippet(raw), Msg: msg}
}

// lineLoop runs rowFn over each line until the batch is full.
func (p *Parser) lineLoop(b *Batch, rowFn func(b *Batch, line []byte) error) error {
	if p.hasPend {
		p.hasPend = false
		raw := p.pend
		p.rb.begin(b)
		err := rowFn(b, raw)
		if err == nil {
			err = p.rb.finish()
		}
		if err := p.row(b, err, raw, p.pendOff, p.pendLine); err != nil && !errors.Is(err, errTooManyCols) {
			return err
		}
	}
	for !p.full(b) {
		line, off, n, err := p.in.nextLine()
		if err == errLineTooLong {
			if e := p.row(b, rowErr("line longer than %d bytes", p.o.MaxLineBytes), line, off, n); e != nil {
				return e
			}
			continue
		}
		if err != nil {
			if err != io.EOF {
				return fmt.Errorf("ingest: read at byte %d: %w", p.in.offset(), err)
			}
			return err
		}
		if off == 0 { // a byte order mark (Excel, Notepad) is not data
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		if blank(line) {
			continue
		}
		p.rb.begin(b)
		p.rawSet = false
		err = rowFn(b, line)
		if err == nil {
			err = p.rb.finish()
		}
		if p.rawSet {
			line = p.raw
		}
		if err := p.row(b, err, line, off, n); err != nil {
			if errors.Is(err, errTooManyCols) {
				return nil
			}
			return err
		}
	}
	return nil
}

func blank(p []byte) bool {
	for _, c := range p {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// utf8BOM is the byte order mark some editors write at the start of
// UTF-8 text.
var utf8BOM = []byte("\ufeff")
