package query

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// explain returns the plan as rows of one utf8 column "plan".
func (x *executor) explain(ps pruneStats) (array.RecordReader, error) {
	p := x.p
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	view := "raw"
	if p.st.Fold {
		view = "folded"
		if p.asSeq != math.MaxUint64 {
			view += fmt.Sprintf(" as of seq %d", p.asSeq)
		}
		if p.asTime != math.MaxInt64 {
			view += " as of time " + fmtTime(p.asTime)
		}
	}
	if sub, ok := x.src.(*subSource); ok {
		if sub.oneRow {
			add("source: no FROM: one row of no columns")
		} else if sub.cte != "" {
			add("source: WITH %s, run first: %d rows held in %d blocks (%d bytes)", sub.cte, sub.rows, len(sub.data()), sub.bytes)
		} else if sub.join != "" {
			add("source: %s, run first (the right side held in memory, the left streamed): %d rows held in %d blocks (%d bytes)", sub.join, sub.rows, len(sub.data()), sub.bytes)
		} else {
			add("source: a subquery, run first: %d rows held in %d blocks (%d bytes)", sub.rows, len(sub.data()), sub.bytes)
		}
		for _, l := range sub.plan {
			add("  | %s", l)
		}
	} else {
		add("%s (%s view)", sourceName(p.st.Stream, false), view)
	}
	r := x.scanRange()
	add("range: seq %s, time %s, series %s, key %s", seqRange(r.slo, r.shi), timeRange(r.tlo, r.thi), seriesSet(r.series), keyRange(&r))
	add("segments: %d total, %d scanned, %d pruned by seq, %d pruned by time, %d pruned by series bloom, %d pruned by key span",
		ps.segs, ps.segsScanned, ps.segsSeq, ps.segsTime, ps.segsBloom, ps.segsKeys)
	add("blocks: %d total, %d scanned, %d pruned by seq, %d pruned by time, %d pruned by series bloom, %d pruned by key span",
		ps.blocks, ps.blocksScanned, ps.blocksSeq, ps.blocksTime, ps.blocksBloom, ps.blocksKeys)
	add("rows: %d total, %d in scanned blocks", ps.rowsTotal, ps.rowsScanned)
	if d := x.deleted; d != nil && !d.IsEmpty() {
		add("soft-deleted: %d seqs hidden", d.GetCardinality())
	}
	nd := p.nd
	if p.st.Fold {
		nd.series, nd.key, nd.op = true, true, true
		if p.keys != nil || p.keyset {
			add("fold: first pass over every block up to AS OF (series, key, op), keeping the latest seqs of the wanted keys only, then the scan below")
		} else {
			add("fold: first pass over every block up to AS OF (series, key, op), then the scan below")
		}
	}
	var decoded []string
	for _, n := range nd.names() { // a held union's copy of series (heldCopy) is series
		if n = strings.TrimPrefix(n, heldCopy("")); !slices.Contains(decoded, n) {
			decoded = append(decoded, n)
		}
	}
	add("columns decoded: %s", strings.Join(decoded, ", "))
	if cond := p.st.condition(); cond != nil {
		add("filter: %s", exprString(cond))
	}
	eachNode(p.st, nil, func(a *Arith) {
		if t := p.in.tables[a.Corr]; a.Corr != nil && t != nil {
			add("correlated: %s, run once, grouped by %s: %d keys", a.scalarText, strings.Join(a.Corr.inner, ", "), len(t.rows))
		}
	})
	if p.st.Delete {
		add("delete: the matching rows are soft-deleted (hidden at once, removed from disk by compaction)")
	}
	if a := p.agg; a != nil {
		var gs, as []string
		for _, g := range a.groups {
			switch g.kind {
			case gBucket:
				gs = append(gs, g.bk.String())
			case gLabel:
				gs = append(gs, "label "+g.name)
			default:
				gs = append(gs, g.name)
			}
		}
		for _, s := range a.aggs {
			as = append(as, s.name)
		}
		add("aggregate: %s group by [%s] on %d workers, partial states merged", strings.Join(as, ", "), strings.Join(gs, ", "), x.o.Parallelism)
		if p.having != nil {
			add("having: tested on each group's result row")
		}
	} else if p.streamsInSeqOrder() {
		add("output: streamed in seq order, %d rows per batch, %d workers", x.o.BatchRows, x.o.Parallelism)
	} else if p.hasWindows() {
		add("output: every matching row held in memory for the window functions")
	} else {
		add("output: sorted in memory")
	}
	for _, c := range p.out {
		if c.win == nil {
			continue
		}
		var parts, by []string
		for _, pc := range c.win.part {
			parts = append(parts, p.out[pc].name)
		}
		if c.win.over {
			parts = c.win.partNames
		}
		for k, key := range c.win.keys {
			if key.desc {
				by = append(by, c.win.keyNames[k]+" desc")
			} else {
				by = append(by, c.win.keyNames[k])
			}
		}
		switch {
		case c.win.seq >= 0 && slices.Contains(by, "time"): // ties broken by seq only
			by = append(by, "seq")
		case c.win.seq >= 0:
			by = append(by, "time, seq")
		case c.win.time >= 0:
			by = append(by, "time bucket")
		}
		frame := ""
		if f := c.win.frame; f != nil && framed(c.win.fn) {
			frame = ", frame " + strings.ToLower(f.String())
		}
		add("window: %s over [%s] in order of %s%s", c.name, strings.Join(parts, ", "), strings.Join(by, ", "), frame)
	}
	if p.qualify != nil {
		add("qualify: tested on each row once the window functions are computed")
	}
	if len(p.order) > 0 {
		var os []string
		for _, o := range p.order {
			s := p.out[o.col].name
			if o.desc {
				s += " desc"
			}
			s += []string{"", " nulls first", " nulls last"}[o.nulls]
			os = append(os, s)
		}
		add("order by: %s", strings.Join(os, ", "))
		if p.agg == nil && !p.hasWindows() && !p.streamsInSeqOrder() {
			if p.topK() {
				add("top %d: blocks read best first by their %s bounds; once %d rows are held, the blocks that cannot enter are not read", p.limit, p.out[p.order[0].col].name, p.limit)
			}
		}
	}
	if p.skip > 0 {
		add("offset: %d", p.skip)
	}
	if p.limit >= 0 {
		add("limit: %d", p.limit)
	}
	rows := make([][]value, len(lines))
	for i, l := range lines {
		rows[i] = []value{{s: l}}
	}
	pr := newRowsReader(x.o, []outCol{{name: "plan", kind: kString}}, rows)
	pr.schema = ExplainSchema
	return pr, nil
}

// ExplainSchema is the schema of an EXPLAIN result. Its metadata
// (ResultKindKey = "explain") lets a renderer print the plan as text.
var ExplainSchema = arrow.NewSchema([]arrow.Field{{Name: "plan", Type: arrow.BinaryTypes.String}},
	func() *arrow.Metadata {
		m := arrow.NewMetadata([]string{ResultKindKey}, []string{"explain"})
		return &m
	}())

// ResultKindKey is the schema metadata key that marks a result's kind.
const ResultKindKey = "tsq.result"

// IsExplain reports whether a result schema is an EXPLAIN plan.
func IsExplain(s *arrow.Schema) bool {
	v, ok := s.Metadata().GetValue(ResultKindKey)
	return ok && v == "explain"
}

func fmtTime(t int64) string { return time.Unix(0, t).UTC().Format(time.RFC3339Nano) }

func seqRange(lo, hi uint64) string {
	if lo <= 1 && hi == math.MaxUint64 {
		return "all"
	}
	if hi == math.MaxUint64 {
		return fmt.Sprintf("[%d, ∞)", lo)
	}
	return fmt.Sprintf("[%d, %d]", lo, hi)
}

func timeRange(lo, hi int64) string {
	switch {
	case lo == math.MinInt64 && hi == math.MaxInt64:
		return "all"
	case lo == math.MinInt64:
		return "(-∞, " + fmtTime(hi) + "]"
	case hi == math.MaxInt64:
		return "[" + fmtTime(lo) + ", ∞)"
	}
	return "[" + fmtTime(lo) + ", " + fmtTime(hi) + "]"
}

// keyRange renders the keys a scan is restricted to: a set, a range
// (its upper bound as written, or a prefix's padded with 0xff bytes), or
// any.
func keyRange(r *scanRange) string {
	switch {
	case r.keys != nil:
		return seriesSet(r.keys)
	case r.keyset && r.keyHi != nil:
		// A prefix's bound: the prefix, then any bytes (its 0xff padding).
		if hi := bytes.TrimRight(r.keyHi, "\xff"); len(hi) < len(r.keyHi) {
			return fmt.Sprintf("[%q, %q…]", r.keyLo, hi)
		}
		return fmt.Sprintf("[%q, %q]", r.keyLo, r.keyHi)
	case r.keyset:
		return fmt.Sprintf("[%q, any]", r.keyLo)
	}
	return "any"
}

func seriesSet(s []string) string {
	if s == nil {
		return "any"
	}
	return "{" + strings.Join(s, ", ") + "}"
}

// condText renders a condition without the parentheses exprString
// puts around a top-level AND or OR.
func condText(e Expr) string {
	s := exprString(e)
	switch e.(type) {
	case *And, *Or:
		return s[1 : len(s)-1]
	}
	return s
}

// exprString renders a condition.
func exprString(e Expr) string {
	switch e := e.(type) {
	case *And:
		return "(" + cmp.Or(e.text, exprString(e.L)+" AND "+exprString(e.R)) + ")"
	case *Or:
		return "(" + cmp.Or(e.text, exprString(e.L)+" OR "+exprString(e.R)) + ")"
	case *Not:
		return "NOT " + exprString(e.X)
	case *Compare:
		if e.bare { // WHERE ok
			return e.Col.Name
		}
		return e.Col.Name + " " + e.Op + " " + e.Lit.String()
	case *ArithCompare:
		return e.String()
	case *ExprMatch:
		return e.String()
	case *IsNull:
		if e.Neg {
			return e.Col.Name + " IS NOT NULL"
		}
		return e.Col.Name + " IS NULL"
	case *Like:
		n := ""
		if e.Neg {
			n = "NOT "
		}
		return e.Col.Name + " " + n + "LIKE '" + e.Pattern + "'"
	case *Regex:
		if e.text != "" {
			return e.text
		}
		op := "=~"
		if e.Neg {
			op = "!~"
		}
		return e.Col.Name + " " + op + " /" + e.Re.String() + "/"
	case *In:
		if e.cmp != "" {
			return quantText(e)
		}
		n := ""
		if e.Neg {
			n = "NOT "
		}
		if e.Sub != nil {
			return e.Col.Name + " " + n + "IN " + e.subText
		}
		var ls []string
		for i, l := range e.Lits {
			if i == 10 {
				ls = append(ls, fmt.Sprintf("... %d values", len(e.Lits)))
				break
			}
			ls = append(ls, l.String())
		}
		return e.Col.Name + " " + n + "IN (" + strings.Join(ls, ", ") + ")"
	case *SeriesMatch:
		var ms []string
		for _, m := range e.Matchers {
			ms = append(ms, fmt.Sprintf("%s%s%q", m.Label, m.Op, m.Value))
		}
		return e.Col.Name + " ~ " + e.Name + "{" + strings.Join(ms, ", ") + "}"
	}
	return "?"
}
