package tsq

import (
	"bytes"
	"context"
	"io"
	"strings"
)

// cancelReader lets an import stop when its context is cancelled while a
// Read of its input blocks (a pipe or socket with nothing to read, as
// `tsq import -` on Ctrl-C): the Reads of the input run on one goroutine
// into the cancelReader's own buffer, and Read returns ctx.Err() at
// cancellation without waiting for them. That goroutine ends when the
// input's Read in flight returns after ctx is done; it never writes into
// a caller's buffer. It allocates nothing per Read.
type cancelReader struct {
	ctx    context.Context
	r      io.Reader
	buf    []byte
	req    chan struct{}   // asks the goroutine for one Read into buf
	res    chan readResult // capacity 1: the goroutine never blocks on it
	busy   bool            // a Read of r is in flight
	start  bool            // the goroutine runs
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
	return &cancelReader{ctx: ctx, r: r, buf: make([]byte, size), req: make(chan struct{}), res: make(chan readResult, 1)}
}

// loop reads the input into buf on each request until ctx is done.
func (c *cancelReader) loop() {
	for {
		select {
		case <-c.req:
		case <-c.ctx.Done():
			return
		}
		n, err := c.r.Read(c.buf)
		c.res <- readResult{n, err}
	}
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
			if !c.start {
				c.start = true
				go c.loop()
			}
			select {
			case c.req <- struct{}{}:
				c.busy = true
			case <-c.ctx.Done(): // the goroutine may have ended
				return 0, c.ctx.Err()
			}
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
