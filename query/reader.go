package query

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/tsqdb/tsq/chunk"
)

// visible returns the output columns without the hidden ones (read only
// for ORDER BY) and their indexes.
func visible(cols []outCol) ([]outCol, []int) {
	var out []outCol
	var idx []int
	for i, c := range cols {
		if !c.hidden {
			out = append(out, c)
			idx = append(idx, i)
		}
	}
	return out, idx
}

// rowsReader returns materialized rows in batches.
type rowsReader struct {
	refs   atomic.Int64
	o      Options
	schema *arrow.Schema
	cols   []outCol
	idx    []int
	rows   [][]value
	next   int
	cur    arrow.RecordBatch
}

func newRowsReader(o Options, cols []outCol, rows [][]value) *rowsReader {
	vis, idx := visible(cols)
	r := &rowsReader{o: o, schema: schemaOf(vis), cols: vis, idx: idx, rows: rows}
	r.refs.Store(1)
	return r
}

func (r *rowsReader) Retain() { r.refs.Add(1) }

func (r *rowsReader) Release() {
	if r.refs.Add(-1) == 0 && r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
}

func (r *rowsReader) Schema() *arrow.Schema { return r.schema }
func (r *rowsReader) Err() error            { return nil }

func (r *rowsReader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch (deprecated in arrow-go).
func (r *rowsReader) Record() arrow.RecordBatch { return r.cur }

func (r *rowsReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.next >= len(r.rows) {
		return false
	}
	end := min(r.next+r.o.BatchRows, len(r.rows))
	rb := array.NewRecordBuilder(r.o.Allocator, r.schema)
	defer rb.Release()
	for c, col := range r.cols {
		bld := rb.Field(c)
		bld.Reserve(end - r.next)
		for _, row := range r.rows[r.next:end] {
			appendValue(bld, col.kind, row[r.idx[c]])
		}
	}
	for i := r.next; i < end; i++ {
		r.rows[i] = nil // free as we go
	}
	r.next = end
	r.cur = rb.NewRecordBatch()
	return true
}

// streamReader streams a raw scan in seq order: blocks are processed on
// all cores, at most window of them ahead of the consumer.
type streamReader struct {
	refs   atomic.Int64
	x      *executor
	schema *arrow.Schema
	cols   []outCol
	cancel context.CancelFunc
	done   sync.WaitGroup
	out    chan chan result
	pend   *batch              // batch being consumed
	pos    int                 // next row of pend.sel
	recs   []arrow.RecordBatch // records built by a worker, to emit next
	left   int64               // rows LIMIT still allows (OFFSET's too); -1 none
	skip   int64               // rows OFFSET still drops
	cur    arrow.RecordBatch
	err    error
	eof    bool
	// stopped is why the dispatcher stopped early; read only after out
	// is closed.
	stopped error
}

// result is a processed block: its batch, or, when it kept at least
// half a batch of rows, records the worker built from it (so that
// building Arrow arrays, the bulk of a large raw scan, runs on every
// core).
type result struct {
	b    *batch
	recs []arrow.RecordBatch
	err  error
}

// batches are the stream readers' decoded blocks, reused once their rows
// are read (built into records, or appended by Next).
var batches = sync.Pool{New: func() any { return new(batch) }}

func newStreamReader(ctx context.Context, x *executor, tasks []task) *streamReader {
	ctx, cancel := context.WithCancel(ctx)
	vis, _ := visible(x.p.out)
	r := &streamReader{x: x, schema: schemaOf(vis), cols: vis, cancel: cancel, left: x.p.limit, skip: x.p.skip}
	r.refs.Store(1)
	window := 2 * x.o.Parallelism
	r.out = make(chan chan result, window)
	jobs := make(chan struct {
		i   int
		res chan result
	})
	rg := x.scanRange()
	prebuild := max(x.o.BatchRows/2, 1)
	for range x.o.Parallelism {
		r.done.Add(1)
		go func() {
			defer r.done.Done()
			var dec chunk.Decoder
			rb := array.NewRecordBuilder(x.o.Allocator, r.schema)
			defer rb.Release()
			for j := range jobs {
				if err := ctx.Err(); err != nil {
					j.res <- result{err: err}
					continue
				}
				b, err := x.process(&dec, &tasks[j.i], &rg, batches.Get().(*batch))
				if err != nil || b == nil || len(b.sel) < prebuild { // nil: a corrupt block left out
					j.res <- result{b: b, err: err} // back to batches once read
					continue
				}
				var recs []arrow.RecordBatch
				for start := 0; start < len(b.sel); start += x.o.BatchRows {
					rows := b.sel[start:min(start+x.o.BatchRows, len(b.sel))]
					for c := range r.cols {
						appendColumn(rb.Field(c), &r.cols[c], b, rows)
					}
					recs = append(recs, rb.NewRecordBatch())
				}
				batches.Put(b)
				j.res <- result{recs: recs}
			}
		}()
	}
	r.done.Add(1)
	go func() {
		defer r.done.Done()
		defer close(r.out)
		defer close(jobs)
		for i := range tasks {
			res := make(chan result, 1)
			select {
			case r.out <- res:
			case <-ctx.Done():
				r.stopped = ctx.Err()
				return
			}
			select {
			case jobs <- struct {
				i   int
				res chan result
			}{i, res}:
			case <-ctx.Done():
				res <- result{err: ctx.Err()}
				r.stopped = ctx.Err()
				return
			}
		}
	}()
	return r
}

func (r *streamReader) Retain() { r.refs.Add(1) }

func (r *streamReader) Release() {
	if r.refs.Add(-1) != 0 {
		return
	}
	r.cancel()
	for res := range r.out { // let the dispatcher finish; free built records
		releaseAll((<-res).recs)
	}
	r.done.Wait()
	releaseAll(r.recs)
	r.recs = nil
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
}

func releaseAll(recs []arrow.RecordBatch) {
	for _, rec := range recs {
		rec.Release()
	}
}

func (r *streamReader) Schema() *arrow.Schema          { return r.schema }
func (r *streamReader) Err() error                     { return r.err }
func (r *streamReader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch (deprecated in arrow-go).
func (r *streamReader) Record() arrow.RecordBatch { return r.cur }

// nextBatch returns the next block's batch with rows left, nil at the
// end or when the next block came as built records (now in r.recs).
func (r *streamReader) nextBatch() (*batch, error) {
	for r.pend == nil || r.pos >= len(r.pend.sel) {
		if r.pend != nil { // read: its room for another block
			batches.Put(r.pend)
		}
		r.pend, r.pos = nil, 0
		res, ok := <-r.out
		if !ok {
			return nil, r.stopped
		}
		got := <-res
		if got.err != nil {
			return nil, got.err
		}
		if got.recs != nil {
			r.recs = got.recs
			return nil, nil
		}
		r.pend = got.b
	}
	return r.pend, nil
}

// emitBuilt makes the next built record current, cut to the OFFSET and
// the LIMIT.
func (r *streamReader) emitBuilt() bool {
	rec := r.recs[0]
	r.recs = r.recs[1:]
	if r.skip > 0 {
		k := min(r.skip, rec.NumRows())
		r.skip -= k
		if r.left >= 0 {
			r.left -= k
		}
		if k == rec.NumRows() {
			rec.Release()
			if r.left == 0 {
				r.eof = true
				r.cancel()
			}
			return r.Next()
		}
		cut := rec.NewSlice(k, rec.NumRows())
		rec.Release()
		rec = cut
	}
	if r.left >= 0 {
		if rec.NumRows() > r.left {
			cut := rec.NewSlice(0, r.left)
			rec.Release()
			rec = cut
		}
		r.left -= rec.NumRows()
		if r.left == 0 {
			r.eof = true
			releaseAll(r.recs)
			r.recs = nil
			r.cancel()
		}
	}
	r.cur = rec
	return true
}

func (r *streamReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if len(r.recs) > 0 {
		return r.emitBuilt()
	}
	if r.eof || r.err != nil {
		return false
	}
	rb := array.NewRecordBuilder(r.x.o.Allocator, r.schema)
	defer rb.Release()
	n := 0
	for n < r.x.o.BatchRows && r.left != 0 {
		b, err := r.nextBatch()
		if err != nil {
			r.err = err
			r.cancel()
			return false
		}
		if b == nil && len(r.recs) > 0 {
			if n == 0 {
				return r.emitBuilt()
			}
			break // emit the rows gathered so far; the records next
		}
		if b == nil {
			r.eof = true
			break
		}
		if r.skip > 0 { // OFFSET: rows dropped, counted by LIMIT's
			k := min(r.skip, int64(len(b.sel)-r.pos))
			if r.left >= 0 {
				k = min(k, r.left)
				r.left -= k
			}
			r.pos += int(k)
			r.skip -= k
			continue
		}
		take := min(len(b.sel)-r.pos, r.x.o.BatchRows-n)
		if r.left >= 0 {
			take = min(take, int(min(r.left, int64(take))))
			r.left -= int64(take)
		}
		rows := b.sel[r.pos : r.pos+take]
		for c := range r.cols {
			appendColumn(rb.Field(c), &r.cols[c], b, rows)
		}
		r.pos += take
		n += take
	}
	if r.left == 0 {
		r.eof = true
		r.cancel()
	}
	if n == 0 {
		return false
	}
	r.cur = rb.NewRecordBatch()
	return true
}

// appendColumn appends rows of b's column for c to bld.
func appendColumn(bld array.Builder, c *outCol, b *batch, rows []int32) {
	bld.Reserve(len(rows))
	if c.expr != nil { // a block of rows at a time (vec)
		defer b.vecs.release(b.vecs.mark())
		v := c.expr.vec(b, rows)
		if v.scalar {
			v = b.vecs.broadcast(v, len(rows))
		}
		var valid []bool
		if v.null != nil {
			valid = b.vecs.nulls(len(rows))
			for i, null := range v.null {
				valid[i] = !null
			}
		}
		switch c.kind {
		case kString: // computed text may cut or join invalid UTF-8
			strs := b.vecs.strsN(len(rows))
			for i, s := range v.strs {
				strs[i] = validUTF8String(s)
			}
			bld.(*array.StringBuilder).AppendValues(strs, valid)
		case kFloat:
			bld.(*array.Float64Builder).AppendValues(b.vecs.floatsOf(v, c.expr.kind), valid)
		case kTime:
			tb := bld.(*array.TimestampBuilder)
			for i, t := range v.ints {
				if valid != nil && !valid[i] {
					tb.AppendNull()
				} else {
					tb.Append(arrow.Timestamp(t))
				}
			}
		case kDuration:
			db := bld.(*array.DurationBuilder)
			for i, d := range v.ints {
				if valid != nil && !valid[i] {
					db.AppendNull()
				} else {
					db.Append(arrow.Duration(d))
				}
			}
		case kBool: // a condition's value (condvalue.go): 0 or 1
			bb := bld.(*array.BooleanBuilder)
			for i, x := range v.ints {
				if valid != nil && !valid[i] {
					bb.AppendNull()
				} else {
					bb.Append(x != 0)
				}
			}
		default:
			bld.(*array.Int64Builder).AppendValues(v.ints, valid)
		}
		return
	}
	switch c.kind {
	case kSeq:
		ub := bld.(*array.Uint64Builder)
		for _, r := range rows {
			ub.UnsafeAppend(uint64(b.seq[r]))
		}
		return
	case kTime:
		tb := bld.(*array.TimestampBuilder)
		for _, r := range rows {
			tb.UnsafeAppend(arrow.Timestamp(b.time[r]))
		}
		return
	case kSeries:
		appendDict(bld.(*array.BinaryDictionaryBuilder), rows, b.series.Codes, b.series.Dict.Len(),
			func(r int32) []byte { return validUTF8(b.series.BytesAt(int(r))) })
		return
	case kKey:
		sb := bld.(*array.StringBuilder)
		for _, r := range rows {
			sb.BinaryBuilder.Append(validUTF8(b.key.BytesAt(int(r))))
		}
		return
	case kOp:
		codes := make([]int32, len(b.op))
		for i, op := range b.op {
			codes[i] = int32(min(max(op, 0), int64(len(opNames))))
		}
		appendDict(bld.(*array.BinaryDictionaryBuilder), rows, codes, len(opNames)+1,
			func(r int32) []byte { return []byte(opName(b.op[r])) })
		return
	}
	col := b.fields[c.src]
	if col == nil {
		bld.AppendNulls(len(rows))
		return
	}
	switch c.kind {
	case kFloat:
		fb := bld.(*array.Float64Builder)
		for _, r := range rows {
			switch {
			case col.IsNull(int(r)):
				fb.AppendNull()
			case col.Type == chunk.Int64:
				fb.Append(float64(col.Ints[r]))
			default:
				fb.Append(col.Floats[r])
			}
		}
	case kInt:
		ib := bld.(*array.Int64Builder)
		for _, r := range rows {
			if col.IsNull(int(r)) {
				ib.AppendNull()
			} else {
				ib.Append(col.Ints[r])
			}
		}
	case kBool:
		bb := bld.(*array.BooleanBuilder)
		for _, r := range rows {
			if col.IsNull(int(r)) {
				bb.AppendNull()
			} else {
				bb.Append(col.Bools[r])
			}
		}
	case kString:
		sb := bld.(*array.StringBuilder)
		for _, r := range rows {
			if col.IsNull(int(r)) {
				sb.AppendNull()
			} else {
				sb.BinaryBuilder.Append(validUTF8(col.BytesAt(int(r))))
			}
		}
	case kBytes:
		bb := bld.(*array.BinaryBuilder)
		for _, r := range rows {
			if col.IsNull(int(r)) {
				bb.AppendNull()
			} else {
				bb.Append(col.BytesAt(int(r)))
			}
		}
	}
}

// collectSorted materializes a raw result for ORDER BY. With LIMIT k it
// keeps at most about 2k rows at any time; without, it refuses more than
// maxSortRows.
func (x *executor) collectSorted(ctx context.Context, tasks []task) ([][]value, error) {
	p := x.p
	var mu sync.Mutex
	var rows [][]value
	var order []int64 // seq of each row, to restore scan order
	trim := func() {
		idx := make([]int, len(rows))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			if c := compareRows(rows[a], rows[b], p.order, p.out); c != 0 {
				return c
			}
			return cmp3(order[a], order[b])
		})
		nr, no := make([][]value, len(idx)), make([]int64, len(idx))
		for i, j := range idx {
			nr[i], no[i] = rows[j], order[j]
		}
		rows, order = nr, no
		if p.limit >= 0 && int64(len(rows)) > p.limit {
			rows, order = rows[:p.limit], order[:p.limit]
		}
	}
	// With LIMIT k, once k rows are held, the k-th is a cutoff: a row
	// ordered after it (ties broken by seq) cannot enter the result and is
	// not materialized.
	var cutoff []value
	var cutoffSeq int64
	var tooMany bool
	tasks, bounded := x.topK(tasks, func() []value {
		mu.Lock()
		defer mu.Unlock()
		return cutoff
	})
	defer func() { x.skip = nil }()
	// Without LIMIT every row is kept: each batch's rows are filled in
	// column by column, in one allocation, and the batches' runs are
	// put together once at the end.
	var runs []rowRun
	held := 0
	err := x.each(ctx, tasks, x.scanRange(), func(w int, b *batch) error {
		if p.limit < 0 {
			run := p.holdAll(b)
			mu.Lock()
			defer mu.Unlock()
			runs = append(runs, run)
			if held += len(run.rows); held > maxSortRows {
				tooMany = true
				return errTooManyRows
			}
			return nil
		}
		mu.Lock()
		cut, cutSeq := cutoff, cutoffSeq
		mu.Unlock()
		var local [][]value
		var seqs []int64
		probe := make([]value, len(p.out))
		keyCols := make([]argCol, len(p.order))
		for i, k := range p.order {
			if p.out[k.col].expr == nil {
				keyCols[i] = b.argCol(p.out[k.col].src, p.out[k.col].kind)
			}
		}
		for _, r := range b.sel {
			for i, k := range p.order {
				if p.out[k.col].expr != nil {
					probe[k.col] = b.outValue(&p.out[k.col], r)
				} else {
					probe[k.col] = keyCols[i].get(r)
				}
			}
			if cut != nil {
				c := compareRows(probe, cut, p.order, p.out)
				if c > 0 || c == 0 && b.seq[r] > cutSeq {
					continue
				}
			}
			row := slices.Clone(probe)
			for c := range p.out {
				if !slices.ContainsFunc(p.order, func(k orderKey) bool { return k.col == c }) {
					row[c] = b.outValue(&p.out[c], r)
				}
			}
			local = append(local, row)
			seqs = append(seqs, b.seq[r])
		}
		mu.Lock()
		defer mu.Unlock()
		rows = append(rows, local...)
		order = append(order, seqs...)
		if p.limit >= 0 && (int64(len(rows)) > 2*p.limit+4096 || bounded && cutoff == nil && p.limit > 0 && int64(len(rows)) >= p.limit) {
			trim()
			if p.limit > 0 && int64(len(rows)) >= p.limit {
				cutoff, cutoffSeq = rows[p.limit-1], order[p.limit-1]
			}
		}
		return nil
	})
	if err != nil {
		if tooMany {
			return nil, errTooManyRows
		}
		return nil, err
	}
	if p.limit < 0 {
		rows, order = joinRuns(runs, held)
		if len(p.order) == 0 && slices.IsSorted(order) {
			return rows, nil // in scan order already
		}
	}
	trim()
	return rows, nil
}

// rowRun is the rows a batch holds, in scan order, and their seqs.
type rowRun struct {
	rows [][]value
	seqs []int64
}

// holdAll materializes every selected row of b, filling the rows
// column by column.
func (p *plan) holdAll(b *batch) rowRun {
	n, width := len(b.sel), len(p.out)
	slab := make([]value, n*width)
	run := rowRun{rows: make([][]value, n), seqs: make([]int64, n)}
	for j, r := range b.sel {
		run.rows[j] = slab[j*width : (j+1)*width : (j+1)*width]
		run.seqs[j] = b.seq[r]
	}
	for c := range p.out {
		oc := &p.out[c]
		switch {
		case oc.win != nil || oc.post != nil: // computed over the rows (applyWindows)
			for j := range n {
				slab[j*width+c] = nullValue
			}
		case oc.expr == nil:
			a := b.argCol(oc.src, oc.kind)
			if col := a.col; a.base == nil && col != nil && col.Strs == nil && (col.Type == chunk.String || col.Type == chunk.Bytes) {
				// A dictionary's entries: one string each, shared by their rows.
				strs := make([]string, col.Dict.Len())
				made := make([]bool, len(strs))
				for j, r := range b.sel {
					k := col.Codes[r]
					switch {
					case col.IsNull(int(r)):
						slab[j*width+c] = nullValue
						continue
					case !made[k]:
						strs[k], made[k] = string(col.Dict.At(int(k))), true
					}
					slab[j*width+c] = value{s: strs[k]}
				}
				continue
			}
			for j, r := range b.sel {
				slab[j*width+c] = a.get(r)
			}
		default:
			for j, r := range b.sel {
				slab[j*width+c] = b.outValue(oc, r)
			}
		}
	}
	return run
}

// joinRuns puts the runs of held rows (n in all) together, in order of
// their first seq: batches are blocks, whose seq ranges do not overlap,
// so this is scan order.
func joinRuns(runs []rowRun, n int) ([][]value, []int64) {
	slices.SortFunc(runs, func(a, b rowRun) int {
		switch {
		case len(a.seqs) == 0 || len(b.seqs) == 0:
			return cmp3(len(a.seqs), len(b.seqs))
		}
		return cmp3(a.seqs[0], b.seqs[0])
	})
	rows, seqs := make([][]value, 0, n), make([]int64, 0, n)
	for _, r := range runs {
		rows, seqs = append(rows, r.rows...), append(seqs, r.seqs...)
	}
	return rows, seqs
}

// compareRows orders two rows by the ORDER BY keys.
func compareRows(a, b []value, keys []orderKey, cols []outCol) int {
	for _, k := range keys {
		if c := compareOrdered(cols[k.col].kind, a[k.col], b[k.col], k.desc, k.nulls); c != 0 {
			return c
		}
	}
	return 0
}

// compareOrdered compares a and b (of kind k) as an ORDER BY key in
// direction desc with nulls placed so.
func compareOrdered(k colKind, a, b value, desc bool, nulls Nulls) int {
	if nulls != NullsDefault && (a.null || b.null) {
		switch {
		case a.null && b.null:
			return 0
		case a.null == (nulls == NullsFirst):
			return -1
		}
		return 1
	}
	c := compareValues(k, a, b)
	if desc {
		c = -c
	}
	return c
}

func sortStable(rows [][]value, keys []orderKey, cols []outCol) {
	slices.SortStableFunc(rows, func(a, b []value) int { return compareRows(a, b, keys, cols) })
}

// appendDict appends rows of a dictionary-coded column (codes[r] in
// [0, n)) to a dictionary builder: the builder's memo table is consulted
// once per code, and rows whose code was seen go in as indexes.
func appendDict(db *array.BinaryDictionaryBuilder, rows []int32, codes []int32, n int, value func(r int32) []byte) {
	val := func(r int32) []byte {
		if v := value(r); v != nil {
			return v
		}
		return []byte{} // nil would go in as a null entry of the dictionary, not as ""
	}
	if len(codes) == 0 {
		for _, r := range rows {
			_ = db.Append(val(r))
		}
		return
	}
	memo := make([]int, n)
	for i := range memo {
		memo[i] = -1
	}
	pending := make([]int, 0, len(rows))
	for _, r := range rows {
		c := codes[r]
		if c < 0 || int(c) >= n {
			db.AppendIndices(pending, nil)
			pending = pending[:0]
			_ = db.Append(val(r))
			continue
		}
		if idx := memo[c]; idx >= 0 {
			pending = append(pending, idx)
			continue
		}
		db.AppendIndices(pending, nil)
		pending = pending[:0]
		_ = db.Append(val(r))
		memo[c] = db.GetValueIndex(db.Len() - 1)
	}
	db.AppendIndices(pending, nil)
}

// topK orders a sorted query's tasks so that a LIMIT cuts the scan
// short, when its first ORDER BY key is time or seq: blocks by their
// bound on that key, best first (ORDER BY time DESC: the latest MaxTime
// first). Once LIMIT rows are held, the k-th row (cutoff()) bounds the
// rest: x.skip leaves out a block whose every row sorts after it, without
// reading it. It reports whether it did so.
func (x *executor) topK(tasks []task, cutoff func() []value) ([]task, bool) {
	if !x.p.topK() {
		return tasks, false
	}
	p := x.p
	key := p.order[0]
	c := p.out[key.col]
	bound := func(t *task) int64 { // the block's best value of the key
		switch {
		case c.src == ColTime && key.desc:
			return t.meta.MaxTime
		case c.src == ColTime:
			return t.meta.MinTime
		case key.desc:
			return int64(t.meta.MaxSeq)
		}
		return int64(t.meta.MinSeq)
	}
	worse := func(a, b int64) bool { // a sorts after b
		if c.src == ColSeq {
			if key.desc {
				return uint64(a) < uint64(b)
			}
			return uint64(a) > uint64(b)
		}
		if key.desc {
			return a < b
		}
		return a > b
	}
	tasks = slices.Clone(tasks)
	slices.SortStableFunc(tasks, func(a, b task) int {
		x, y := bound(&a), bound(&b)
		switch {
		case worse(x, y):
			return 1
		case worse(y, x):
			return -1
		}
		return 0
	})
	x.skip = func(t *task) bool {
		cut := cutoff()
		return cut != nil && worse(bound(t), cut[key.col].i)
	}
	return tasks, true
}

// topK reports whether a sorted query's scan reads blocks best first
// and stops early (executor.topK): a LIMIT, and time or seq first in
// ORDER BY.
func (p *plan) topK() bool {
	if p.limit < 0 || len(p.order) == 0 {
		return false
	}
	c := p.out[p.order[0].col]
	return c.expr == nil && c.win == nil && (c.src == ColTime || c.src == ColSeq)
}
