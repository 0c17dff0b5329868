package ingest

import (
	"bytes"
	"fmt"
	"io"
)

// Parallel reports whether inputs of format f can be cut into chunks of
// whole records and parsed independently: JSON lines, line protocol,
// Prometheus text and CSV (cut only between records, with the header
// given to each parser by SetHeader). JSON arrays cannot.
func Parallel(f Format) bool {
	return f == JSONLines || f == LineProtocol || f == Prometheus || f == CSV
}

// Chunker cuts an input into chunks of whole lines, for parsing on
// several goroutines (see Parser.ResetChunk).
type Chunker struct {
	r       io.Reader
	size    int
	maxLine int
	carry   []byte // bytes after the last newline of the previous chunk
	line    int64  // newlines before the next chunk
	off     int64  // input offset of the next chunk
	err     error
	quotes  bool // CSV: a newline inside a quoted field does not end a record
}

// NewChunker returns a chunker of r making chunks of about size bytes;
// a line may be at most maxLine bytes. For CSV, chunks end only between
// records (outside quoted fields). line and off are the lines and bytes
// of the input before r (a header read already).
func NewChunker(r io.Reader, f Format, size, maxLine int, line, off int64) *Chunker {
	return &Chunker{r: r, size: size, maxLine: maxLine, quotes: f == CSV, line: line, off: off}
}

// cut returns the index of the last newline of buf that ends a record,
// or -1. buf starts at a record's start.
func (c *Chunker) cut(buf []byte) int {
	if !c.quotes || bytes.IndexByte(buf, '"') < 0 {
		return bytes.LastIndexByte(buf, '\n')
	}
	last, even := -1, true
	for i, ch := range buf {
		switch ch {
		case '"':
			even = !even
		case '\n':
			if even {
				last = i
			}
		}
	}
	return last
}

// Next returns the next chunk in buf (grown as needed), the number of
// lines before it and its input offset. It returns io.EOF at the end.
func (c *Chunker) Next(buf []byte) (chunk []byte, line, off int64, err error) {
	// Sized once, with room for a line of up to size/4 bytes past the
	// chunk's size: a buffer grows (and its old array becomes garbage)
	// only for a longer line. (Reads used to fill the buffer to its
	// capacity: a short read that left less than size/4 of room below
	// size doubled the buffer, at random points of a long import.)
	if want := c.size + c.size/4; cap(buf) < want {
		buf = make([]byte, 0, max(want, len(c.carry)+c.size/4))
	}
	buf = append(buf[:0], c.carry...)
	c.carry = c.carry[:0]
	for c.err == nil {
		if len(buf) >= c.size {
			if i := c.cut(buf); i >= 0 {
				c.carry = append(c.carry, buf[i+1:]...)
				buf = buf[:i+1]
				break
			}
			if len(buf) > c.maxLine+c.size {
				return nil, c.line, c.off, &Error{Line: c.line + 1, Offset: c.off, Snippet: snippet(buf), Msg: fmt.Sprintf("line longer than %d bytes", c.maxLine)}
			}
		}
		if cap(buf)-len(buf) < c.size/4 {
			buf = append(buf, make([]byte, c.size)...)[:len(buf)]
		}
		end := cap(buf)
		if len(buf) < c.size {
			end = c.size // chunks of size bytes, cut back to a line end
		}
		n, err := c.r.Read(buf[len(buf):end])
		buf = buf[:len(buf)+n]
		if err != nil {
			c.err = err
		}
	}
	if c.err != nil && c.err != io.EOF {
		return nil, c.line, c.off, fmt.Errorf("ingest: read at byte %d: %w", c.off+int64(len(buf)), c.err)
	}
	if len(buf) == 0 {
		return nil, c.line, c.off, io.EOF
	}
	line, off = c.line, c.off
	c.line += int64(bytes.Count(buf, []byte{'\n'}))
	c.off += int64(len(buf))
	return buf, line, off, nil
}

// Offset returns the input bytes handed out in chunks so far.
func (c *Chunker) Offset() int64 { return c.off }

// ResetChunk makes the parser parse chunk, a piece of whole lines of
// its input that starts after line lines at input offset off: errors
// then name lines and offsets of the whole input. The parser keeps its
// mapping, caches and column types.
func (p *Parser) ResetChunk(chunk []byte, line, off int64) {
	in := p.in
	// The chunk is the read buffer: parsed in place, not copied. The
	// parser may move bytes within it; the caller must not use it until
	// the next ResetChunk.
	in.r, in.buf = eofReader{}, chunk[:len(chunk):len(chunk)]
	in.pos, in.end, in.off, in.line, in.err = 0, len(chunk), off, line, nil
	in.long = in.long[:0]
	p.done, p.hasPend, p.lastOff = false, false, off
	p.chunkLen = len(chunk)
}

// SetHeader gives a CSV parser the header record, for parsing chunks
// that do not start with it.
func (p *Parser) SetHeader(rec []byte) error {
	if p.f != CSV {
		return fmt.Errorf("ingest: SetHeader on a %v parser", p.f)
	}
	rec = trimCR(bytes.TrimSuffix(bytes.TrimPrefix(rec, []byte("\ufeff")), []byte("\n")))
	if openQuote(rec) {
		return fmt.Errorf("ingest: csv header %q: unterminated quote", snippet(rec))
	}
	p.csv.delim = csvDelimiter(rec)
	if err := p.splitCSV(rec); err != nil {
		return &Error{Format: CSV, Line: 1, Snippet: snippet(rec), Msg: "header: " + err.Error()}
	}
	p.csv.header = headerNames(p.csv.header[:0], p.csv.fields)
	return nil
}

// eofReader is an empty input.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
