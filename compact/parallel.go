package compact

import (
	"fmt"
	"sync"

	"github.com/tsqdb/tsq/seg"
)

// allScanned reports whether every block was decided before the rewrite
// (empty frames above the chunk aside): then writing a block needs nothing of the
// blocks before it, and blocks can be re-encoded in parallel.
func (x *rewriter) allScanned() bool {
	for i := range x.blocks {
		if m := &x.blocks[i]; !x.sc.plans[i].scanned && (m.Rows > 0 || x.sc.inChunk(m)) {
			return false
		}
	}
	return true
}

// toFilter reports whether some block still has to be re-encoded.
func (x *rewriter) toFilter() bool {
	for i := range x.blocks {
		p := &x.sc.plans[i]
		if len(p.drop) > 0 && len(p.drop) < x.blocks[i].Rows && p.enc == nil {
			return true
		}
	}
	return false
}

// filterers keeps the scratch space of re-encoding between rewrites.
var filterers = sync.Pool{New: func() any { return new(filterer) }}

// filterTask is a block re-encoded by a helper of runParallel.
type filterTask struct {
	i    int
	f    *filterer // nil: the writer handles the block itself
	out  []byte
	rows int
	read int
	err  error
	done chan struct{}
}

// runParallel is run when every block is decided: the blocks that lose
// some rows are read and re-encoded by x.helpers goroutines, a few ahead
// of the writer, which appends every block in order.
func (x *rewriter) runParallel(w *seg.Writer) error {
	pool := 2 * x.helpers
	free := make(chan *filterer, pool)
	for range pool {
		free <- filterers.Get().(*filterer)
	}
	defer func() {
		for range pool {
			filterers.Put(<-free)
		}
	}()
	order := make(chan *filterTask, pool)
	work := make(chan *filterTask, pool)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range x.helpers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range work {
				t.err = x.filterBlock(t)
				close(t.done)
			}
		}()
	}
	go func() { // dispatcher
		defer close(order)
		defer close(work)
		for i := range x.blocks {
			m, p := &x.blocks[i], &x.sc.plans[i]
			t := &filterTask{i: i, done: make(chan struct{})}
			if m.Rows > 0 && len(p.drop) > 0 && len(p.drop) < m.Rows && p.enc == nil {
				select {
				case t.f = <-free:
				case <-stop:
					return
				}
				work <- t
			} else {
				close(t.done)
			}
			select {
			case order <- t:
			case <-stop:
				if t.f != nil {
					<-t.done
					free <- t.f
				}
				return
			}
		}
	}()
	err := x.writeOrdered(w, order, free)
	close(stop)
	for t := range order { // drain after an error
		<-t.done
		if t.f != nil {
			free <- t.f
		}
	}
	wg.Wait()
	if err != nil {
		return err
	}
	for name := range x.sc.kept {
		w.AddSeries(name)
	}
	x.sc.setKeys(w)
	return nil
}

// writeOrdered appends the blocks of order as they are done.
func (x *rewriter) writeOrdered(w *seg.Writer, order <-chan *filterTask, free chan<- *filterer) error {
	from, next := -1, 0 // first of the copyable blocks before next, if any
	for t := range order {
		<-t.done
		next = t.i + 1
		if t.f == nil && x.copyable(t.i) {
			if from < 0 {
				from = t.i
			}
			continue
		}
		if err := x.copyFrames(w, from, t.i); err != nil {
			if t.f != nil {
				free <- t.f
			}
			return err
		}
		from = -1
		m := x.blocks[t.i] // historical envelope: seq and time bounds kept
		meta := seg.BlockMeta{Rows: m.Rows, MinSeq: m.MinSeq, MaxSeq: m.MaxSeq, MinTime: m.MinTime, MaxTime: m.MaxTime}
		var err error
		switch {
		case t.f != nil:
			x.read += int64(t.read)
			if t.err == nil {
				meta.Rows = t.rows
				err = w.AppendChecked(t.out, meta)
			} else {
				err = fmt.Errorf("compact: %s block %d: %w", x.path, t.i, t.err)
			}
			free <- t.f
		case x.sc.plans[t.i].enc != nil:
			p := &x.sc.plans[t.i]
			meta.Rows = p.encRows
			if err = w.AppendChecked(p.enc, meta); err == nil {
				p.release()
			}
		case m.Rows == 0 || len(x.sc.plans[t.i].drop) == m.Rows:
			meta.Rows = 0
			err = w.Append(nil, meta)
		default: // no drop: the bytes as they are
			if err = x.ctx.Err(); err != nil {
				break
			}
			if x.buf, err = x.r.ReadBlock(t.i, x.buf); err != nil {
				break
			}
			x.read += int64(len(x.buf))
			err = w.AppendChecked(x.buf, meta)
		}
		if err != nil {
			return err
		}
	}
	if err := x.copyFrames(w, from, next); err != nil {
		return err
	}
	return x.ctx.Err()
}

// filterBlock reads block t.i and re-encodes it without its planned drops.
func (x *rewriter) filterBlock(t *filterTask) error {
	if err := x.ctx.Err(); err != nil {
		return err
	}
	f := t.f
	var err error
	if f.buf, err = x.r.ReadBlock(t.i, f.buf); err != nil {
		return err
	}
	t.read = len(f.buf)
	t.out, t.rows, err = f.filter(x.sc.plans[t.i].drop, false)
	return err
}
