package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// reader is a buffered reader that hands out lines (or other spans) as
// slices of its buffer, tracking the byte offset and line number. A
// span longer than the buffer is assembled in long, up to max bytes.
type reader struct {
	r    io.Reader
	buf  []byte
	pos  int   // next unread byte in buf
	end  int   // end of valid data in buf
	off  int64 // input offset of buf[0]
	line int64 // lines started before buf[pos] (the next line is line+1)
	max  int
	long []byte
	err  error // sticky read error (io.EOF at the end)
}

func newReader(r io.Reader, bufSize, max int) *reader {
	return &reader{r: r, buf: make([]byte, bufSize), max: max}
}

// offset returns the input offset of the next unread byte.
func (r *reader) offset() int64 { return r.off + int64(r.pos) }

// fill moves the unread bytes to the front and reads more. It returns
// false when nothing more can be read.
func (r *reader) fill() bool {
	if r.err != nil {
		return false
	}
	if r.pos > 0 {
		n := copy(r.buf, r.buf[r.pos:r.end])
		r.off += int64(r.pos)
		r.pos, r.end = 0, n
	}
	for r.end < len(r.buf) {
		n, err := r.r.Read(r.buf[r.end:])
		r.end += n
		if err != nil {
			r.err = err
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	return true
}

// Read reads the input as an io.Reader does (the Arrow parser's
// input), keeping the offset.
func (r *reader) Read(p []byte) (int, error) {
	if r.pos == r.end && !r.fill() {
		if r.err != nil {
			return 0, r.err
		}
		return 0, io.EOF
	}
	n := copy(p, r.buf[r.pos:r.end])
	r.pos += n
	return n, nil
}

// errLineTooLong: a line (or JSON element) exceeds the limit.
var errLineTooLong = errors.New("line too long")

// readErr returns the read error that ended the input, nil at EOF.
func (r *reader) readErr() error {
	if r.err == io.EOF {
		return nil
	}
	return r.err
}

// nextLine returns the next line without its "\n" (and "\r"), the offset
// of its first byte and its line number. The slice is valid until the
// next call. At the end of the input it returns io.EOF (or the read
// error).
func (r *reader) nextLine() ([]byte, int64, int64, error) {
	start := r.offset()
	r.long = r.long[:0]
	inLong := false
	for {
		if i := bytes.IndexByte(r.buf[r.pos:r.end], '\n'); i >= 0 {
			p := r.buf[r.pos : r.pos+i]
			r.pos += i + 1
			r.line++
			if inLong {
				if len(r.long)+len(p) > r.max {
					return nil, start, r.line, errLineTooLong
				}
				p = append(r.long, p...)
				r.long = p
			}
			return trimCR(p), start, r.line, nil
		}
		// No newline in the buffer.
		if r.pos == 0 && r.end == len(r.buf) {
			// A full buffer without a newline: continue in long.
			if len(r.long)+r.end > r.max {
				r.skipLine()
				return nil, start, r.line, errLineTooLong
			}
			r.long = append(r.long, r.buf[:r.end]...)
			inLong = true
			r.off += int64(r.end)
			r.pos, r.end = 0, 0
		}
		if !r.fill() {
			if r.pos == r.end && !inLong {
				if e := r.readErr(); e != nil {
					return nil, start, r.line, e
				}
				return nil, start, r.line, io.EOF
			}
			if e := r.readErr(); e != nil {
				return nil, start, r.line, e
			}
			p := r.buf[r.pos:r.end]
			r.pos = r.end
			r.line++
			if inLong {
				if len(r.long)+len(p) > r.max {
					return nil, start, r.line, errLineTooLong
				}
				p = append(r.long, p...)
				r.long = p
			}
			return trimCR(p), start, r.line, nil
		}
	}
}

// skipLine discards input up to and including the next newline.
func (r *reader) skipLine() {
	for {
		if i := bytes.IndexByte(r.buf[r.pos:r.end], '\n'); i >= 0 {
			r.pos += i + 1
			r.line++
			return
		}
		r.pos = r.end
		if !r.fill() {
			return
		}
	}
}

func trimCR(p []byte) []byte {
	if len(p) > 0 && p[len(p)-1] == '\r' {
		return p[:len(p)-1]
	}
	return p
}

// Error is a parse error: where and what.
type Error struct {
	Format  Format
	Line    int64  // 1-based line number of the row (or element; row of Arrow input)
	Offset  int64  // byte offset of the row's first byte in the input (its record batch's in Arrow input)
	Snippet string // the row's first bytes
	Msg     string
}

func (e *Error) Error() string {
	if e.Format == Arrow {
		return fmt.Sprintf("ingest: arrow: row %d (of the record batch at byte offset %d): %s: %s", e.Line, e.Offset, e.Msg, e.Snippet)
	}
	return fmt.Sprintf("ingest: %v: line %d (byte offset %d): %s: %q", e.Format, e.Line, e.Offset, e.Msg, e.Snippet)
}

const snippetLen = 80

func snippet(p []byte) string {
	if len(p) > snippetLen {
		return string(p[:snippetLen]) + "…"
	}
	return string(p)
}
