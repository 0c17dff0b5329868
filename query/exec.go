package query

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/tsqdb/tsq/chunk"
)

// Options tune a query. The zero value (and nil) means defaults.
type Options struct {
	// Allocator allocates the Arrow arrays (default memory.DefaultAllocator).
	Allocator memory.Allocator
	// BatchRows is the most rows of one record batch (default 8192).
	BatchRows int
	// Parallelism is the number of block scanners (default GOMAXPROCS).
	Parallelism int
	// Now is the time now() stands for (default time.Now()).
	Now time.Time
	// stats, when set, counts what the scans do (EXPLAIN ANALYZE).
	stats *runStats
	// OnCorrupt, when set, makes the query read past a block whose
	// bytes are corrupt (an error wrapping chunk.ErrCorrupt: a checksum
	// mismatch, an undecodable column) instead of failing: the block's
	// rows are left out and OnCorrupt is called once for it, from any
	// goroutine, one call at a time. Read errors still fail the query.
	OnCorrupt func(CorruptBlock)
	// OpenFile, when set, reads a file named in FROM (files.go) as a
	// source.
	OpenFile func(File) (Source, error)
}

// CorruptBlock is a block a query left out (Options.OnCorrupt).
type CorruptBlock struct {
	Segment        string
	Block          int
	MinSeq, MaxSeq uint64 // the seqs its rows had, by the block index
	Rows           int
	Err            error
}

func (o *Options) withDefaults() Options {
	var c Options
	if o != nil {
		c = *o
	}
	if c.Allocator == nil {
		c.Allocator = memory.DefaultAllocator
	}
	if c.BatchRows <= 0 {
		c.BatchRows = 8192
	}
	if c.Parallelism <= 0 {
		c.Parallelism = runtime.GOMAXPROCS(0)
	}
	if c.Now.IsZero() {
		c.Now = time.Now()
	}
	return c
}

// maxSortRows bounds the rows an ORDER BY without LIMIT sorts in memory
// (a variable for tests).
var maxSortRows = 1 << 22

// Run parses and runs a query. open gives the Source of the stream the
// query names. The caller must Release the reader. Parse and planning
// errors are *Error; scan errors come from the reader's Err.
func Run(ctx context.Context, text string, open Opener, o *Options) (array.RecordReader, error) {
	st, err := Parse(text)
	if err != nil {
		return nil, err
	}
	return Exec(ctx, st, text, open, o)
}

// Exec runs a parsed statement; text is its source, for error positions.
// A DELETE, INSERT, CREATE TABLE or DROP TABLE statement changes a
// store: Exec refuses it (EXPLAIN DELETE aside) and Store.Query runs it
// (a DELETE through Matching).
func Exec(ctx context.Context, st *Statement, text string, open Opener, o *Options) (array.RecordReader, error) {
	if st.Delete && !st.Explain || st.Insert != nil || st.Create != nil || st.Drop != nil {
		what := "INSERT"
		switch {
		case st.Delete:
			what = "DELETE"
		case st.Create != nil:
			what = "CREATE TABLE"
		case st.Drop != nil:
			what = "DROP TABLE"
		}
		return nil, errAt(text, st.writePos, "%s changes the store: run it with Store.Query", what)
	}
	open = withFiles(open, o)
	if st.Show != "" {
		return execShow(ctx, st, text, open, o.withDefaults())
	}
	return exec(ctx, st, text, open, o)
}

// Matching runs the selection of a DELETE statement: the seqs of the put
// rows of the raw view that match its condition, as one uint64 column
// "seq", in seq order, streamed in batches. The caller soft-deletes them.
func Matching(ctx context.Context, st *Statement, text string, open Opener, o *Options) (array.RecordReader, error) {
	if !st.Delete || st.Explain {
		return nil, errAt(text, 0, "Matching runs DELETE statements only")
	}
	return exec(ctx, st, text, open, o)
}

func exec(ctx context.Context, st *Statement, text string, open Opener, o *Options) (array.RecordReader, error) {
	if st.limitPct != nil {
		return execLimitPct(ctx, st, text, open, o)
	}
	if st.Pivot != nil {
		return execPivot(ctx, st, text, open, o)
	}
	if st.Values != nil {
		opts := o.withDefaults()
		if st.Explain {
			pr := newRowsReader(opts, []outCol{{name: "plan", kind: kString}},
				[][]value{{{s: fmt.Sprintf("values: %d rows of %d columns, written out", len(st.Values.Rows), len(st.Values.Names))}}})
			pr.schema = ExplainSchema
			return pr, nil
		}
		return valuesReader(st.Values, text, opts.Now.UnixNano(), opts.Allocator)
	}
	if st.Gen != nil {
		opts := o.withDefaults()
		if st.Explain {
			pr := newRowsReader(opts, []outCol{{name: "plan", kind: kString}}, [][]value{{{s: explainGen(st.Gen)}}})
			pr.schema = ExplainSchema
			return pr, nil
		}
		return newGenReader(st.Gen, text, opts.Now.UnixNano(), opts.Allocator)
	}
	if st.Explain && st.Analyze {
		return execAnalyze(ctx, st, text, open, o)
	}
	if len(st.With) > 0 {
		var err error
		if open, err = withOpener(ctx, st, text, open, o); err != nil {
			return nil, err
		}
		e := *st
		e.With = nil
		st = &e
	}
	if st.Union != nil {
		return execUnion(ctx, st, text, open, o)
	}
	in, err := resolveIn(ctx, st, text, open, o)
	if err != nil {
		return nil, err
	}
	var src Source
	if st.Join != nil {
		j, err := joinSource(ctx, st, text, open, o, in)
		if err != nil {
			return nil, err
		}
		if st.Explain {
			for _, side := range []*JoinSide{&st.Join.Left, &st.Join.Right} {
				lines, err := explainLinesOf(ctx, side.St, text, open, o)
				if err != nil {
					return nil, err
				}
				j.plan = append(j.plan, side.Alias+":")
				for _, l := range lines {
					j.plan = append(j.plan, "  "+l)
				}
			}
		}
		src = j
	} else if st.noFrom {
		var err error
		if src, err = oneRowSource(); err != nil {
			return nil, err
		}
	} else if st.Sub != nil {
		sub, err := subquerySource(ctx, st, text, open, o)
		if err != nil {
			return nil, err
		}
		if st.Explain {
			if sub.plan, err = explainLinesOf(ctx, st.Sub, text, open, o); err != nil {
				return nil, err
			}
		}
		src = sub
	} else {
		var err error
		if src, err = open(st.Stream); err != nil {
			e := errAt(text, st.streamPos, "%s", strings.TrimPrefix(err.Error(), "tsq: ")) // said once, by the caller
			e.err = err
			return nil, e
		}
	}
	return execSource(ctx, st, text, src, o, in)
}

// execSource runs st over src, its source resolved.
func execSource(ctx context.Context, st *Statement, text string, src Source, o *Options, in inValues) (array.RecordReader, error) {
	opts := o.withDefaults()
	x := &executor{src: src, o: opts, deleted: src.Deleted()}
	fs, err := fieldsOf(ctx, src, x.skipCorrupt)
	if err != nil {
		return nil, err
	}
	if sub, ok := src.(*subSource); ok {
		fs.instants, fs.durations, fs.star, fs.relation = sub.instants, sub.durations, sub.star, "the subquery"
		if sub.cte != "" {
			fs.relation = "WITH relation " + sub.cte
		}
		for _, f := range sub.fields { // also when no row came
			if err := fs.add(f.Name, f.Type); err != nil {
				return nil, err
			}
		}
	}
	if st, err = joinStar(st, text, fs); err != nil {
		return nil, err
	}
	p, err := compile(st, text, fs, opts.Now, in)
	if err != nil {
		return nil, err
	}
	x.p = p
	return x.start(ctx)
}

// executor runs one plan.
type executor struct {
	p       *plan
	src     Source
	o       Options
	deleted *roaring64.Bitmap
	fold    *foldState

	// skip, when set, tells each which tasks cannot change the result
	// any more (a sorted query's LIMIT reached: see topK).
	skip func(*task) bool

	corruptMu sync.Mutex
	corrupt   map[string]bool // blocks reported to OnCorrupt: segment key and index
}

// skipCorrupt reports whether block i of sg, whose read failed with
// err, is to be left out (Options.OnCorrupt), reporting it once.
func (x *executor) skipCorrupt(sg Segment, i int, err error) bool {
	if x.o.OnCorrupt == nil || !errors.Is(err, chunk.ErrCorrupt) {
		return false
	}
	x.corruptMu.Lock()
	defer x.corruptMu.Unlock()
	k := sg.Key() + "/" + strconv.Itoa(i)
	if x.corrupt[k] {
		return true
	}
	if x.corrupt == nil {
		x.corrupt = map[string]bool{}
	}
	x.corrupt[k] = true
	cb := CorruptBlock{Segment: sg.Name(), Block: i, Err: err}
	if bs := sg.Blocks(); i < len(bs) {
		cb.MinSeq, cb.MaxSeq, cb.Rows = bs[i].MinSeq, bs[i].MaxSeq, int(bs[i].Rows)
	}
	x.o.OnCorrupt(cb)
	return true
}

// scanRange is the plan's range, narrowed by AS OF for a folded view.
func (x *executor) scanRange() scanRange {
	p := x.p
	return scanRange{slo: max(p.slo, 0), shi: min(p.shi, p.asSeq), tlo: p.tlo, thi: min(p.thi, p.asTime), series: p.series, keys: p.keys,
		keyLo: p.keyLo, keyHi: p.keyHi, keyset: p.keyset}
}

func (x *executor) start(ctx context.Context) (array.RecordReader, error) {
	p := x.p
	r := x.scanRange()
	tasks, ps := prune(x.src.Segments(), r)
	if r.empty() {
		tasks = nil
	}
	if p.st.Explain {
		return x.explain(ps)
	}
	if p.st.Fold {
		if err := x.foldPass(ctx); err != nil {
			return nil, err
		}
		p.nd.series, p.nd.key, p.nd.op = true, true, true
	}
	if r.tlo != math.MinInt64 || r.thi != math.MaxInt64 {
		p.nd.time = true
	}
	if x.p.limit == 0 {
		tasks = nil
	}
	if p.agg != nil {
		parts, err := x.aggregate(ctx, tasks)
		if err != nil {
			return nil, err
		}
		return x.aggregated(parts)
	}
	if p.hasWindows() {
		// Every matching row, in seq order, then the windows, then the
		// order and the limit.
		limit, order := p.limit, p.order
		p.limit, p.order = -1, nil
		rows, err := x.collectSorted(ctx, tasks)
		p.limit, p.order = limit, order
		if errors.Is(err, errTooManyRows) {
			err = errTooManyWindowRows
		}
		if err != nil {
			return nil, err
		}
		applyWindows(rows, p.out)
		rows = p.qualified(rows)
		return newRowsReader(x.o, p.out, x.sortRows(rows)), nil
	}
	if p.streamsInSeqOrder() {
		return newStreamReader(ctx, x, tasks), nil
	}
	rows, err := x.collectSorted(ctx, tasks)
	if err != nil {
		return nil, err
	}
	return newRowsReader(x.o, p.out, rows[min(p.skip, int64(len(rows))):]), nil
}

// process decodes a block and selects the rows the query keeps: within
// the bounds, not soft-deleted, surviving the fold, matching WHERE. It
// returns nil for a corrupt block OnCorrupt leaves out.
func (x *executor) process(dec *chunk.Decoder, t *task, r *scanRange, scratch *batch) (*batch, error) {
	b, err := decodeBatch(dec, t.sg, t.blk, &x.p.nd, scratch)
	if err != nil {
		if x.skipCorrupt(t.sg, t.blk, err) {
			return nil, nil
		}
		return nil, err
	}
	if !t.inside {
		if b.time == nil {
			b.keep(func(i int32) bool { s := uint64(b.seq[i]); return s >= r.slo && s <= r.shi })
		} else {
			b.keep(func(i int32) bool {
				s, tm := uint64(b.seq[i]), b.time[i]
				return s >= r.slo && s <= r.shi && tm >= r.tlo && tm <= r.thi
			})
		}
	}
	if d := x.deleted; d != nil && !d.IsEmpty() && deletedIn(d, t.meta.MinSeq, t.meta.MaxSeq) {
		b.keep(func(i int32) bool { return !d.Contains(uint64(b.seq[i])) })
	}
	if x.fold != nil {
		x.fold.keep(b)
	}
	if x.p.where != nil && len(b.sel) > 0 {
		b.sel = x.p.where.eval(b, b.sel)
	}
	x.o.stats.scanned(b)
	return b, nil
}

// each runs fn on the processed batch of every task on all cores, in no
// particular order; worker w's calls are sequential. The batch is valid
// only during the call.
func (x *executor) each(ctx context.Context, tasks []task, r scanRange, fn func(w int, b *batch) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := min(x.o.Parallelism, max(len(tasks), 1))
	jobs := make(chan int)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var dec chunk.Decoder
			var scratch batch
			for i := range jobs {
				if errs[w] != nil {
					continue
				}
				if err := ctx.Err(); err != nil {
					errs[w] = err
					cancel()
					continue
				}
				if x.skip != nil && x.skip(&tasks[i]) {
					continue
				}
				b, err := x.process(&dec, &tasks[i], &r, &scratch)
				if err == nil && b != nil { // nil: a corrupt block left out
					err = fn(w, b)
				}
				if err != nil {
					errs[w] = err
					cancel()
				}
			}
		}()
	}
loop:
	for i := range tasks {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break loop
		}
	}
	close(jobs)
	wg.Wait()
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return context.Cause(ctx)
}

// aggregate accumulates the groups of the rows of tasks, one part a
// worker.
func (x *executor) aggregate(ctx context.Context, tasks []task) ([]*groups, error) {
	a := x.p.agg
	parts := make([]*groups, x.o.Parallelism)
	for i := range parts {
		parts[i] = newGroups()
	}
	err := x.each(ctx, tasks, x.scanRange(), func(w int, b *batch) error { return a.accumulate(parts[w], b) })
	if err != nil {
		return nil, err
	}
	return parts, nil
}

// aggregated reads the groups that parts accumulated as the plan's
// result: merged, filled, HAVING, windows, QUALIFY, ORDER BY and LIMIT.
func (x *executor) aggregated(parts []*groups) (array.RecordReader, error) {
	p := x.p
	rows, err := x.groupRows(parts)
	if err != nil {
		return nil, err
	}
	if p.having != nil {
		rows = slices.DeleteFunc(rows, func(r []value) bool { return !p.having(r) })
	}
	applyWindows(rows, p.out)
	rows = p.qualified(rows)
	return newRowsReader(x.o, p.out, x.sortRows(rows)), nil
}

// groupRows merges the parts and returns a row a group.
func (x *executor) groupRows(parts []*groups) ([][]value, error) {
	a := x.p.agg
	total := parts[0]
	for _, g := range parts[1:] {
		if err := a.merge(total, g); err != nil {
			return nil, err
		}
	}
	if a.fill != nil {
		lo, hi := a.fillBounds(total, x.p.tlo, x.p.thi, x.p.now)
		if err := a.fillGaps(total, lo, hi); err != nil {
			return nil, err
		}
	}
	return a.rows(total, x.p.out), nil
}

// sortRows applies ORDER BY (stable, so ties keep their order) and LIMIT.
func (x *executor) sortRows(rows [][]value) [][]value {
	p := x.p
	if len(p.order) > 0 {
		sortStable(rows, p.order, p.out)
	}
	if p.limit >= 0 && int64(len(rows)) > p.limit {
		rows = rows[:p.limit]
	}
	return rows[min(p.skip, int64(len(rows))):]
}

var errTooManyWindowRows = errors.New("query: window functions over raw rows hold every matching row, and this query has more than 4194304: narrow the time range or the series, or apply them to an aggregate (GROUP BY time(...))")

var errTooManyRows = errors.New("query: ORDER BY without LIMIT over more than 4194304 rows; add a LIMIT")

// deletedIn reports whether d holds a seq in [lo, hi].
func deletedIn(d *roaring64.Bitmap, lo, hi uint64) bool {
	below := uint64(0)
	if lo > 0 {
		below = d.Rank(lo - 1)
	}
	return d.Rank(hi) > below
}
