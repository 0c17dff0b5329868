package query

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// LIMIT p% (or LIMIT p PERCENT), as DuckDB takes it: the first
// ⌊p·n/100⌋ rows of the n rows the statement gives, after OFFSET. A
// statement whose rows are its source's rows that pass WHERE (no
// aggregate, window, DISTINCT, join, subquery source, union or sample)
// is counted first, by the same statement with count(*) for its items,
// then run with LIMIT ⌊p·n/100⌋: nothing is held. Any other is held to
// count it: at most maxSubqueryRows rows and maxLimitPctBytes bytes of
// Arrow buffers.

// maxLimitPctBytes bounds the result LIMIT p% holds (a variable for
// tests).
var maxLimitPctBytes = 1 << 30

// limit parses what follows LIMIT: a count, or a percentage.
func (p *parser) limit(st *Statement) {
	t := p.peek()
	if (t.kind == tInt || t.kind == tFloat) && (isPunct(p.tok(p.i+1), "%") || isKw(p.tok(p.i+1), "percent")) {
		p.advance()
		p.advance()
		pct, err := strconv.ParseFloat(t.text, 64)
		if err != nil || pct < 0 || pct > 100 {
			p.fail(t.pos, "LIMIT %s%%: a percentage is from 0%% to 100%%", t.text)
		}
		st.limitPct = &pct
		return
	}
	if t.kind == tFloat {
		p.fail(t.pos, "LIMIT wants a non-negative integer, or a percentage (LIMIT %s%%), found %s", t.text, t.describe())
	}
	st.Limit = p.count("LIMIT")
}

// execLimitPct runs st, which has LIMIT p%: st without it, held and
// counted, then the rows from OFFSET on, as many as the share says.
func execLimitPct(ctx context.Context, st *Statement, text string, open Opener, o *Options) (array.RecordReader, error) {
	pct := *st.limitPct
	pctText := strconv.FormatFloat(pct, 'f', -1, 64)
	inner := *st
	inner.limitPct, inner.Offset = nil, 0
	note := fmt.Sprintf("limit %s%% of the rows (held to count them: at most %d rows)", pctText, maxSubqueryRows)
	if st.Offset > 0 {
		note += fmt.Sprintf(", after the first %d", st.Offset)
	}
	// One time for both runs, so that now() in WHERE reads the same.
	oc := o.withDefaults()
	o = &oc
	if countable(st) {
		note = fmt.Sprintf("limit %s%% of the rows: counted first (the same rows' count(*)), then the first of them read", pctText)
		if st.Offset > 0 {
			note += fmt.Sprintf(" after the first %d", st.Offset)
		}
		if !st.Explain {
			c := inner
			c.Items = []SelectItem{{Agg: &Call{Func: "count", Star: true, Pos: st.streamPos}, Alias: "n", Pos: st.streamPos}}
			if c.whereItems == nil {
				c.whereItems = st.Items // WHERE may name their aliases
			}
			c.Star, c.OrderBy, c.Limit = false, nil, -1
			rr, err := exec(ctx, &c, text, open, o)
			if err != nil {
				return nil, err
			}
			var n int64
			for rr.Next() {
				if rec := rr.RecordBatch(); rec.NumRows() > 0 {
					n = rec.Column(0).(*array.Int64).Value(0)
				}
			}
			err = rr.Err()
			rr.Release()
			if err != nil {
				return nil, err
			}
			run := inner
			run.Limit, run.Offset = int64(math.Floor(pct*float64(n)/100)), st.Offset
			return exec(ctx, &run, text, open, o)
		}
	}
	if st.Explain {
		inner.Explain = true
		lines, err := explainLinesOf(ctx, &inner, text, open, o)
		if err != nil {
			return nil, err
		}
		opts := o.withDefaults()
		rows := [][]value{{{s: note}}}
		for _, l := range lines {
			rows = append(rows, []value{{s: "  " + l}})
		}
		pr := newRowsReader(opts, []outCol{{name: "plan", kind: kString}}, rows)
		pr.schema = ExplainSchema
		return pr, nil
	}
	tooMany := func(err error) error {
		if errors.Is(err, errTooManyRows) { // an ORDER BY without LIMIT, as the statement runs without it
			return errAt(text, st.streamPos, "LIMIT %s%% sorts the whole result to count it, and this one passes %d rows: use LIMIT n, or USING SAMPLE %s%% for a sample",
				pctText, maxSortRows, pctText)
		}
		return err
	}
	rr, err := exec(ctx, &inner, text, open, o)
	if err != nil {
		return nil, tooMany(err)
	}
	defer rr.Release()
	var held []arrow.RecordBatch
	defer func() {
		for _, r := range held {
			r.Release()
		}
	}()
	var n int64
	size := 0
	for rr.Next() {
		rec := rr.RecordBatch()
		n += rec.NumRows()
		size += recordBytes(rec)
		if n > int64(maxSubqueryRows) || size > maxLimitPctBytes {
			return nil, errAt(text, st.streamPos, "LIMIT %s%% holds the result to count it, and this one passes %d rows or %d MiB: use LIMIT n, or USING SAMPLE %s%% for a sample",
				pctText, maxSubqueryRows, maxLimitPctBytes>>20, pctText)
		}
		rec.Retain()
		held = append(held, rec)
	}
	if err := rr.Err(); err != nil {
		return nil, tooMany(err)
	}
	keep := int64(math.Floor(pct * float64(n) / 100))
	from, to := min(st.Offset, n), min(st.Offset+keep, n)
	var out []arrow.RecordBatch
	var at int64 // the first row of rec
	for _, rec := range held {
		lo, hi := max(from-at, 0), min(to-at, rec.NumRows())
		at += rec.NumRows()
		if lo < hi {
			out = append(out, rec.NewSlice(lo, hi))
		}
	}
	defer func() {
		for _, r := range out {
			r.Release()
		}
	}()
	return array.NewRecordReader(rr.Schema(), out)
}

// countable reports whether st's rows are its source's rows that pass
// its WHERE, one each, so that count(*) of st's FROM and WHERE counts
// them (see execLimitPct).
func countable(st *Statement) bool {
	if st.Union != nil || st.Pivot != nil || st.Values != nil || st.Gen != nil || st.Join != nil || st.Sub != nil || len(st.With) > 0 ||
		len(st.GroupBy) > 0 || st.groupingSets != nil || st.Having != nil || st.Qualify != nil || st.Fill != nil || st.sample != nil ||
		st.distinctAll || st.noFrom || st.Show != "" || st.Delete || st.Insert != nil {
		return false
	}
	for _, it := range st.Items {
		if it.Agg != nil || it.Win != nil || it.Expr != nil && (it.Expr.hasAgg() || it.Expr.hasWin()) {
			return false
		}
	}
	return true
}
