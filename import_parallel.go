package tsq

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsqdb/tsq/ingest"
)

// parallelChunk is the chunk size of parallel parsing.
const parallelChunk = 1 << 20

// parallelParse parses a line-based input on nParse goroutines: one
// goroutine cuts the input into chunks of whole records (after the CSV
// header, given to every parser), each parser takes
// the next chunk, and the batches are handed to dispatch chunk by chunk
// in input order, so seqs follow the input. A parse error is reported
// when its chunk's turn comes, so the first bad line of the input is the
// one reported. done is called when nothing more will be dispatched. It
// returns a function giving the input bytes cut so far.
func (run *importRun) parallelParse(ctx context.Context, wg *sync.WaitGroup, r io.Reader, header []byte, o ingest.Options, nParse int,
	parseNs *atomic.Int64, fail func(error), dispatch func(*ingest.Batch, chan *ingest.Batch) bool, done func()) func() int64 {
	type msg struct {
		b    *ingest.Batch
		pool chan *ingest.Batch
		err  error
		end  bool // the chunk's last message: its channel can be reused
	}
	// Result channels of chunks that ended normally are reused.
	outs := make(chan chan msg, nParse+4)
	type chunkJob struct {
		buf       []byte
		line, off int64
		out       chan msg
	}
	var lines int64
	if header != nil {
		lines = 1
	}
	chunker := ingest.NewChunker(r, o.Format, parallelChunk, o.MaxLineBytes, lines, int64(len(header)))
	var cut atomic.Int64
	freeC := make(chan []byte, nParse+1)
	for range nParse + 1 {
		freeC <- nil
	}
	cjobs := make(chan chunkJob)
	corder := make(chan chan msg, nParse+1)
	wg.Go(func() { // cut
		defer close(corder)
		defer close(cjobs)
		for {
			var buf []byte
			select {
			case buf = <-freeC:
			case <-ctx.Done():
				return
			}
			chunk, line, off, err := chunker.Next(buf)
			cut.Store(chunker.Offset())
			run.parsed.Store(chunker.Offset())
			if err == io.EOF {
				return
			}
			var out chan msg
			select {
			case out = <-outs:
			default:
				out = make(chan msg, 1)
			}
			j := chunkJob{chunk, line, off, out}
			if err != nil {
				j.out <- msg{err: err}
				close(j.out)
			}
			select {
			case corder <- j.out:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
			select {
			case cjobs <- j:
			case <-ctx.Done():
				close(j.out)
				return
			}
		}
	})
	var rejected atomic.Int64
	for range nParse {
		wg.Go(func() { // parse chunks
			p, err := ingest.NewParser(eofReader{}, o)
			if err == nil && header != nil {
				err = p.SetHeader(header)
			}
			if err != nil {
				fail(err)
				return
			}
			pool := newBatchPool(2)
			for j := range cjobs {
				p.ResetChunk(j.buf, j.line, j.off)
				before := p.Rejected()
				for {
					var b *ingest.Batch
					select {
					case b = <-pool:
					case <-ctx.Done():
					}
					if b == nil {
						break
					}
					t0 := time.Now()
					err := p.Fill(b)
					parseNs.Add(int64(time.Since(t0)))
					if err == io.EOF {
						pool <- b
						break
					}
					m := msg{b: b, pool: pool}
					if err != nil {
						pool <- b
						m = msg{err: err}
					}
					select {
					case j.out <- m:
					case <-ctx.Done():
						if m.b != nil {
							pool <- b
						}
					}
					if err != nil || ctx.Err() != nil {
						break
					}
				}
				run.rejected.Store(rejected.Add(p.Rejected() - before))
				select {
				case j.out <- msg{end: true}:
				case <-ctx.Done():
				}
				freeC <- j.buf
			}
		})
	}
	wg.Go(func() { // hand out in input order
		defer done()
		for out := range corder {
			for {
				var m msg
				var ok bool
				select {
				case m, ok = <-out:
				case <-ctx.Done():
					return
				}
				if !ok {
					break
				}
				if m.end {
					select {
					case outs <- out:
					default:
					}
					break
				}
				if m.err != nil {
					fail(m.err)
					return
				}
				if !dispatch(m.b, m.pool) {
					return
				}
			}
		}
	})
	return cut.Load
}

// eofReader is an empty input.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

func newBatchPool(n int) chan *ingest.Batch {
	pool := make(chan *ingest.Batch, n)
	for range n {
		pool <- new(ingest.Batch)
	}
	return pool
}

// syncWriter serializes writes of several parsers to one writer.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
