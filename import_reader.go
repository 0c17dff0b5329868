package tsq

import (
	"bytes"
	"context"
	"io"
	"strings"
)

// cancelReader lets an import stop when its context is cancelled while a
// Read of its input blocks (a pipe or socket with nothing to read, as
// `tsq import -` on Ctrl-C): each Read of the input runs on a goroutine
// into the cancelReader's own buffer, and Read returns ctx.Err() at
// cancellation without waiting for it. That goroutine then ends when the
// input's Read returns; it never writes into a caller's buffer.
type cancelReader struct {
	ctx    context.Context
	r      io.Reader
	buf    []byte
	res    chan readResult // capacity 1: the goroutine never blocks on it
	busy   bool            // a Read of r is in flight
	off, n int             // buf[off:n] is read and not yet returned
	err    error           // the input's error, returned once buf is drained
}

type readResult struct {
	n   int
	err error
}

// newCancelReader wraps r unless it is in memory and cannot block.
func newCancelReader(ctx context.Context, r io.Reader, size int) io.Reader {
	switch r.(type) {
	case *bytes.Reader, *strings.Reader, *bytes.Buffer:
		return r
	}
	return &cancelReader{ctx: ctx, r: r, buf: make([]byte, size), res: make(chan readResult, 1)}
}

func (c *cancelReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if c.off == c.n && c.err == nil {
		if err := c.ctx.Err(); err != nil {
			return 0, err
		}
		if !c.busy {
			c.busy = true
			go func(buf []byte) {
				n, err := c.r.Read(buf)
				c.res <- readResult{n, err}
			}(c.buf)
		}
		select {
		case rr := <-c.res:
			c.busy = false
			c.off, c.n, c.err = 0, max(0, min(rr.n, len(c.buf))), rr.err
		case <-c.ctx.Done():
			return 0, c.ctx.Err()
		}
	}
	if c.off < c.n {
		n := copy(p, c.buf[c.off:c.n])
		c.off += n
		return n, nil
	}
	return 0, c.err
}
