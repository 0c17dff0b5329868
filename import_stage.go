package tsq

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/ingest"
	"github.com/tsqdb/tsq/seg"
)

// encoders returns the number of encoding goroutines (and of parsing
// goroutines for formats parsed in parallel): one per processor, at most
// 4. The pipeline holds a fixed set of batches (two per parallel parser,
// or encoders+2 for a single parser), encoders+2 frames and, parsing in
// parallel, parsers+1 chunks; the queues between stages are short, so a
// slow stage stops the ones before it.
func encoders() int { return min(max(runtime.GOMAXPROCS(0), 1), 4) }

// frame is one encoded block on its way to a staging segment.
type frame struct {
	buf       []byte
	meta      seg.BlockMeta
	firstTime int64
	series    []string    // distinct series, copied
	keys      seg.KeySpan // keys of the keyed rows
	inBytes   int64       // input bytes of the rows
}

// zstdWindow is the largest window a zstd-compressed input's frames may
// use: half the import's memory budget, at least 8 MiB (what zstd's
// levels up to 19 use; --long and --ultra use more).
func zstdWindow(budget int64) uint64 { return uint64(max(budget/2, 8<<20)) }

// countingReader counts the bytes read from r into n.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n.Add(int64(k))
	return k, err
}

// stage runs parse → encode → write into the staging directory. A
// compressed input (ingest.DetectCompression) is decompressed first, and
// UTF-16 text (ingest.DetectUTF16) read as UTF-8.
func (run *importRun) stage(ctx context.Context, r io.Reader) error {
	s, st, fsys := run.s, run.st, run.s.fs
	st.mu.Lock()
	run.base = st.next
	st.mu.Unlock()
	if err := fsys.MkdirAll(run.dir, 0o755); err != nil {
		return fmt.Errorf("staging: %w", err)
	}
	for _, d := range []string{s.stagingDir(), s.dir} {
		if err := fsys.SyncDir(d); err != nil {
			return fmt.Errorf("staging: %w", err)
		}
	}
	budget := run.o.MemoryBudget
	nEnc := encoders()
	// A cancelled import must not wait for its input: the reader stops
	// at ctx whichever stage cancels it.
	ctx, cancelRead := context.WithCancel(ctx)
	defer cancelRead()
	r = newCancelReader(ctx, r, 64<<10)
	// Guess the format from the first bytes here, so that either path
	// below reads the input from its start.
	br := bufio.NewReaderSize(&countingReader{r: r, n: &run.readIn}, 64<<10)
	head, err := br.Peek(ingest.HeadBytes)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return fmt.Errorf("read: %w", err)
	}
	comp, err := ingest.DetectCompression(head)
	if err != nil {
		return err
	}
	run.stats.Compression = comp
	if comp != ingest.Uncompressed {
		dr, release, err := ingest.Decompress(br, comp, zstdWindow(budget))
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		defer release() // after the parsers are done: stage waits for them
		br = bufio.NewReaderSize(dr, 64<<10)
	}
	if head, _ := br.Peek(64); !ingest.IsArrow(head) && ingest.DetectUTF16(head) != ingest.NotUTF16 {
		run.stats.UTF16 = true
		br = bufio.NewReaderSize(ingest.NewUTF16Reader(br, ingest.DetectUTF16(head)), 64<<10)
	}
	format := run.o.Format
	if format == ingest.Guess {
		head, err := br.Peek(4096)
		if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
			return fmt.Errorf("read: %w", err)
		}
		format = ingest.GuessContent(head)
	}
	run.stats.Format = format
	if run.o.GuessTime && run.o.Mapping.Time == "" || run.o.GuessSeries {
		head, err := br.Peek(64 << 10)
		if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
			return fmt.Errorf("read: %w", err)
		}
		g := ingest.GuessRecord(head, format)
		if m := &run.o.Mapping; run.o.GuessTime && m.Time == "" && g.Time != "" {
			m.Time, run.stats.TimeField = g.Time, g.Time
		}
		if run.o.GuessSeries && g.Apply(&run.o.Mapping) {
			run.stats.SeriesField, run.stats.KeyField, run.stats.OpField = g.Series, g.Key, g.Op
		}
	}
	nParse := 1
	if ingest.Parallel(format) && nEnc > 1 {
		nParse = nEnc
	}
	// CSV in parallel: each parser gets the header; the chunks follow it.
	var input io.Reader = br
	var header []byte
	if nParse > 1 && format == ingest.CSV {
		h, err := br.ReadSlice('\n')
		header = bytes.Clone(h)
		if err != nil && err != io.EOF || len(bytes.TrimSpace(header)) == 0 || bytes.Count(header, []byte{'"'})%2 == 1 {
			// a blank, huge or multi-line header: parse on one goroutine
			nParse, input = 1, io.MultiReader(bytes.NewReader(header), br)
		}
	}
	// Batches in flight: two per parser, one per encoder; frames: one per
	// encoder and two more.
	nBatch := 2*nParse + nEnc
	popts := ingest.Options{
		Format: format, Mapping: run.o.Mapping, SkipBad: run.o.SkipBad, Rejects: run.o.Rejects,
		MaxLineBytes: int(min(budget/16, 64<<20)), BatchRows: s.o.BlockRows, BatchBytes: int(budget / int64(6*nBatch)),
		MaxRecordBytes: int(budget / 2),
	}
	if nParse > 1 && popts.Rejects != nil {
		popts.Rejects = &syncWriter{w: popts.Rejects}
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var once sync.Once
	var firstErr error
	fail := func(err error) {
		once.Do(func() { firstErr = err; cancel(); cancelRead() })
	}
	freeF := make(chan *frame, nEnc+2)
	for range nEnc + 2 {
		freeF <- new(frame)
	}
	// Batches go to the encoders through jobs; order carries each job's
	// result channel in input order, so the writer takes frames in seq
	// order whichever encoder finishes first. A batch goes back to the
	// pool it came from (each parser has its own).
	type job struct {
		b    *ingest.Batch
		pool chan *ingest.Batch
		seq  uint64
		out  chan *frame
	}
	jobs := make(chan job, 1)
	// The result channels of jobs that delivered their frame are reused
	// (no allocation per block).
	outs := make(chan chan *frame, nEnc+4)
	order := make(chan chan *frame, nEnc+1)
	monDone := make(chan struct{})
	go run.monitor(monDone)
	defer close(monDone)

	var wg sync.WaitGroup
	var encodeNs, parseNs atomic.Int64
	seq := run.base
	// dispatch hands a parsed batch to the encoders, in input order.
	dispatch := func(b *ingest.Batch, pool chan *ingest.Batch) bool {
		var out chan *frame
		select {
		case out = <-outs:
		default:
			out = make(chan *frame, 1)
		}
		j := job{b, pool, seq, out}
		seq += uint64(b.Rows)
		select {
		case order <- j.out:
		case <-ctx.Done():
			pool <- b
			return false
		}
		select {
		case jobs <- j:
			return true
		case <-ctx.Done():
			pool <- b
			close(j.out)
			return false
		}
	}
	var parsed func() int64
	if nParse == 1 {
		p, err := ingest.NewParser(input, popts)
		if err != nil {
			return err
		}
		parsed = p.Offset
		pool := newBatchPool(nEnc + 2)
		wg.Go(func() { // parse
			defer close(order)
			defer close(jobs)
			for {
				var b *ingest.Batch
				select {
				case b = <-pool:
				case <-ctx.Done():
					return
				}
				t0 := time.Now()
				err := p.Fill(b)
				parseNs.Add(int64(time.Since(t0)))
				run.parsed.Store(p.Offset())
				run.rejected.Store(p.Rejected())
				if err == io.EOF {
					return
				}
				if err != nil {
					fail(err)
					return
				}
				if !dispatch(b, pool) {
					return
				}
			}
		})
	} else {
		parsed = run.parallelParse(ctx, &wg, br, header, popts, nParse, &parseNs, fail, func(b *ingest.Batch, pool chan *ingest.Batch) bool {
			return dispatch(b, pool)
		}, func() { close(jobs); close(order) })
	}
	for range nEnc {
		wg.Go(func() { // encode
			var e blockEncoder
			for j := range jobs {
				var f *frame
				select {
				case f = <-freeF:
				case <-ctx.Done():
					j.pool <- j.b
					close(j.out)
					continue
				}
				t0 := time.Now()
				err := e.encode(f, j.b, j.seq, st.name)
				encodeNs.Add(int64(time.Since(t0)))
				j.pool <- j.b
				if err != nil {
					fail(err)
					freeF <- f
					close(j.out)
					continue
				}
				j.out <- f
			}
		})
	}
	wg.Go(func() { // write
		var w *seg.Writer
		for out := range order {
			var f *frame
			select {
			case f = <-out:
			case <-ctx.Done():
			}
			if f != nil {
				select {
				case outs <- out:
				default:
				}
			}
			if f == nil {
				continue // failed or cancelled: drain the order
			}
			if ctx.Err() == nil {
				t0 := time.Now()
				if run.o.writeDelay > 0 {
					time.Sleep(run.o.writeDelay)
				}
				var err error
				if w, err = run.writeFrame(w, f); err != nil {
					fail(err)
				}
				run.stats.Write += time.Since(t0)
			}
			freeF <- f
		}
		if w != nil {
			if ctx.Err() == nil {
				t0 := time.Now()
				if err := run.seal(w); err != nil {
					fail(err)
				}
				run.stats.Write += time.Since(t0)
			}
			_ = w.Close()
		}
	})
	wg.Wait()
	run.stats.Encode = time.Duration(encodeNs.Load())
	run.stats.Parse = time.Duration(parseNs.Load())
	if firstErr != nil {
		return firstErr
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	run.stats.Bytes = parsed()
	return nil
}

// writeFrame appends f to the staging segment w, rolling to a new one
// when w would pass SegmentMaxBytes.
func (run *importRun) writeFrame(w *seg.Writer, f *frame) (*seg.Writer, error) {
	fl := int64(len(f.buf) + seg.FrameHeaderLen)
	if w != nil && w.Size()+fl > run.s.o.SegmentMaxBytes && len(w.Blocks()) > 0 {
		if err := run.seal(w); err != nil {
			return w, err
		}
		_ = w.Close()
		w = nil
	}
	if w == nil {
		name := segName(dayOf(f.firstTime), f.meta.MinSeq)
		var err error
		if w, err = seg.Create(run.s.fs, filepath.Join(run.dir, name), run.st.name, 1, f.meta.MinSeq); err != nil {
			return nil, fmt.Errorf("staging: %w", err)
		}
	}
	if err := w.Append(f.buf, f.meta); err != nil {
		return w, fmt.Errorf("staging: %w", err)
	}
	for _, sr := range f.series {
		w.AddSeries(sr)
	}
	w.SetLastKeys(&f.keys)
	st := &run.stats // the writer's alone until the import ends
	if st.MinTime > f.meta.MinTime || run.rows.Load() == 0 {
		st.MinTime = f.meta.MinTime
	}
	if st.MaxTime < f.meta.MaxTime || run.rows.Load() == 0 {
		st.MaxTime = f.meta.MaxTime
	}
	run.rows.Add(int64(f.meta.Rows))
	run.inputDone.Add(f.inBytes)
	return w, nil
}

// seal seals a staging segment (index, bloom, footer, fsync).
func (run *importRun) seal(w *seg.Writer) error {
	if err := w.Seal(); err != nil {
		return fmt.Errorf("staging: %w", err)
	}
	run.staged = append(run.staged, stagedSeg{name: filepath.Base(w.Path()), rows: w.Rows(), size: w.Size(), blocks: w.Blocks()})
	run.stagedB.Add(w.Size())
	return nil
}

// blockEncoder turns a batch into an encoded chunk block, reusing its
// slices.
type blockEncoder struct {
	enc     chunk.Encoder
	seq, op []int64
	series  []string
	key     []string
	strs    [][]string
	cols    []chunk.Column
	seen    map[string]struct{}
}

func (e *blockEncoder) encode(f *frame, b *ingest.Batch, first uint64, stream string) error {
	n := b.Rows
	if n == 0 {
		return errors.New("empty batch")
	}
	// Sized to the batch before appending: no regrowth (see
	// ingest.Batch.reserve).
	e.seq, e.op = slices.Grow(e.seq[:0], n), slices.Grow(e.op[:0], n)
	for i := range n {
		e.seq = append(e.seq, int64(first)+int64(i))
		e.op = append(e.op, int64(b.Op[i]))
	}
	e.series = b.Strings(slices.Grow(e.series[:0], n), b.Series[:n])
	e.key = b.Strings(slices.Grow(e.key[:0], n), b.Key[:n])
	f.keys.Reset()
	for _, k := range e.key {
		if k != "" {
			f.keys.AddString(k)
		}
	}
	cols := append(e.cols[:0],
		chunk.Column{Name: colSeq, Type: chunk.Int64, Ints: e.seq},
		chunk.Column{Name: colTime, Type: chunk.Int64, Ints: b.Time[:n]},
		chunk.Column{Name: colSeries, Type: chunk.String, Strs: e.series},
		chunk.Column{Name: colKey, Type: chunk.String, Strs: e.key},
		chunk.Column{Name: colOp, Type: chunk.Int64, Ints: e.op},
	)
	for len(e.strs) < len(b.Cols) {
		e.strs = append(e.strs, nil)
	}
	for i, c := range b.Cols {
		col := chunk.Column{Name: c.Name, Type: c.Type}
		switch c.Type {
		case chunk.Int64:
			col.Ints = c.Ints
		case chunk.Float64:
			col.Floats = c.Floats
		case chunk.Bool:
			col.Bools = c.Bools
		default:
			e.strs[i] = b.Strings(slices.Grow(e.strs[i][:0], len(c.Strs)), c.Strs)
			col.Strs = e.strs[i]
		}
		if c.Nulls {
			col.Valid = c.Valid
		}
		cols = append(cols, col)
	}
	e.cols = cols
	blk := chunk.Block{Rows: n, Columns: cols}
	var err error
	if f.buf, err = e.enc.Append(f.buf[:0], &blk, nil); err != nil {
		return fmt.Errorf("stream %q: encode rows at line %d: %w", stream, b.FirstLine, err)
	}
	minT, maxT := b.Time[0], b.Time[0]
	for _, t := range b.Time[:n] {
		minT, maxT = min(minT, t), max(maxT, t)
	}
	f.meta = seg.BlockMeta{Rows: n, MinSeq: first, MaxSeq: first + uint64(n) - 1, MinTime: minT, MaxTime: maxT}
	f.firstTime, f.inBytes = b.Time[0], b.Bytes
	if e.seen == nil {
		e.seen = map[string]struct{}{}
	}
	clear(e.seen)
	clear(f.series)
	f.series = f.series[:0]
	last := ""
	for i, sr := range e.series {
		if i > 0 && sr == last {
			continue
		}
		last = sr
		if _, ok := e.seen[sr]; !ok {
			e.seen[sr] = struct{}{}
			f.series = append(f.series, sr)
		}
	}
	for i := range f.series {
		f.series[i] = strings.Clone(f.series[i]) // out of the batch arena
	}
	// drop references into the arena
	clear(e.series)
	clear(e.key)
	for i := range b.Cols {
		clear(e.strs[i])
	}
	return nil
}
