package query

import (
	"context"
	"math"
	"reflect"
	"slices"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// One scan for a union of aggregates over the same rows. ROLLUP, CUBE
// and GROUPING SETS become the UNION ALL of one aggregate SELECT a set
// (groupsets.go), which differ only in their groups and items: same
// stream, same WHERE. Rather than read the rows once a SELECT, the
// SELECTs are compiled against one opening of the stream and every
// matching batch of one scan is handed to each of them, which
// accumulates its own groups. Any union of aggregate SELECTs of one
// stream with one WHERE (and AS OF, fold) runs so.

// sharedScan runs the SELECTs of union st over one scan (planShared)
// and returns their results, in order; nil (and no error) when they do
// not share one: those run one by one (concatUnion).
func sharedScan(ctx context.Context, st *Statement, text string, open Opener, o *Options) ([]array.RecordReader, error) {
	xs, err := planShared(ctx, st, text, open, o)
	if xs == nil || err != nil {
		return nil, err
	}
	return runShared(ctx, xs)
}

// planShared compiles the SELECTs of union st against one opening of
// their stream and returns their executors, or nil (and no error) when
// they do not all qualify: aggregate SELECTs (no window, FILL, QUALIFY
// or LIMIT 0) of the same stream with the same WHERE, read the same way
// (AS OF, fold). A SELECT that fails to compile is left to its own run,
// which says why in its place.
func planShared(ctx context.Context, st *Statement, text string, open Opener, o *Options) ([]*executor, error) {
	ops := st.Union
	if len(ops) < 2 || !shareScans {
		return nil, nil
	}
	// What the statements show, before anything runs (their IN
	// subqueries, when they share).
	first := ops[0]
	for _, op := range ops {
		if !scansStream(op) || op.Stream != first.Stream || op.Fold != first.Fold || !reflect.DeepEqual(op.AsOf, first.AsOf) ||
			!isAggregate(op) || op.Fill != nil || op.Qualify != nil || op.Limit == 0 || hasWindows(op) {
			return nil, nil
		}
	}
	src, err := open(first.Stream)
	if err != nil {
		return nil, nil
	}
	opts := o.withDefaults()
	probe := &executor{src: src, o: opts}
	fs, err := fieldsOf(ctx, src, probe.skipCorrupt)
	if err != nil {
		return nil, err
	}
	// WHERE may read items' aliases (wherealias.go), which differ from
	// one set to the next when an item is rolled up.
	var where string
	for i, op := range ops {
		w := ""
		if cond := op.condition(); cond != nil {
			w = exprString(whereAliases(op, fs, cond))
		}
		if i == 0 {
			where = w
		} else if w != where {
			return nil, nil
		}
	}
	xs := make([]*executor, len(ops))
	for i, op := range ops {
		in, err := resolveIn(ctx, op, text, open, o)
		if err != nil {
			return nil, err
		}
		x := &executor{src: src, o: opts, deleted: src.Deleted()}
		if x.p, err = compile(op, text, fs, opts.Now, in); err != nil {
			return nil, nil
		}
		p := x.p
		if p.agg == nil || p.agg.fill != nil || p.hasWindows() || p.qualify != nil || p.limit == 0 {
			return nil, nil
		}
		if i > 0 && !reflect.DeepEqual(x.scanRange(), xs[0].scanRange()) {
			return nil, nil
		}
		xs[i] = x
	}
	return xs, nil
}

// runShared scans once for the executors xs (planShared), the first
// reading, and returns their results.
func runShared(ctx context.Context, xs []*executor) ([]array.RecordReader, error) {
	opts, src := xs[0].o, xs[0].src
	// The scan decodes what any of them reads.
	x0 := xs[0]
	scan := *x0.p
	scan.nd = need{types: x0.p.nd.types}
	for _, x := range xs {
		for _, n := range x.p.nd.names() {
			scan.nd.add(n)
		}
		scan.nd.time = scan.nd.time || x.p.nd.time
	}
	x0.p = &scan
	if scan.st.Fold {
		if err := x0.foldPass(ctx); err != nil {
			return nil, err
		}
		scan.nd.series, scan.nd.key, scan.nd.op = true, true, true
	}
	r := x0.scanRange()
	if r.tlo != math.MinInt64 || r.thi != math.MaxInt64 {
		scan.nd.time = true
	}
	tasks, _ := prune(src.Segments(), r)
	if r.empty() {
		tasks = nil
	}
	parts := make([][]*groups, len(xs))
	for i := range parts {
		parts[i] = make([]*groups, opts.Parallelism)
		for w := range parts[i] {
			parts[i][w] = newGroups()
		}
	}
	err := x0.each(ctx, tasks, r, func(w int, b *batch) error {
		for i, x := range xs {
			if err := x.p.agg.accumulate(parts[i][w], b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]array.RecordReader, 0, len(xs))
	for i, x := range xs {
		rr, err := x.aggregated(parts[i])
		if err != nil {
			for _, rr := range out {
				rr.Release()
			}
			return nil, err
		}
		out = append(out, rr)
	}
	return out, nil
}

// shareScans turns shared scans off when false (tests compare the two).
var shareScans = true

// scansStream reports whether op reads a stream (or file) itself, as
// one of a shared scan's SELECTs may.
func scansStream(op *Statement) bool {
	return op.Pivot == nil && op.Values == nil && op.Gen == nil && op.Union == nil && len(op.With) == 0 && op.Join == nil && op.Sub == nil &&
		!op.noFrom && !op.Explain && !op.Delete
}

// hasWindows reports whether op's items call a window function.
func hasWindows(op *Statement) bool {
	return slices.ContainsFunc(op.Items, func(it SelectItem) bool { return it.Win != nil || it.Expr != nil && it.Expr.hasWin() })
}
