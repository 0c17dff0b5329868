package query

import (
	"math"

	"github.com/tsqdb/tsq/chunk"
)

// Aggregation runs over a block's selected rows in runs of consecutive
// rows of the same group (same bucket, same dictionary codes): one map
// lookup per run, and per aggregate one typed loop over the run. Blocks
// hold rows grouped by series in time order, so runs are long.

// groupCol reads one GROUP BY term of a block.
type groupCol struct {
	spec  *groupSpec
	times []int64       // gBucket
	col   *chunk.Column // series, key or field; nil: all null
	base  []int64       // op; gExpr: by row, a float64's bits
	null  []bool        // gExpr: by row; nil: none null
	texts []string      // gExpr of text: the values, by the codes in base
	// label values by series dictionary code, filled lazily
	labels []string
	have   []bool
	// the current run: bucket [lo, hi), or code, or sig value
	lo, hi int64
	key    int64 // the bucket of the times in [lo, hi)
	inRun  bool  // lo, hi and key hold a bucket
	code   int32
	cur    int64
	mode   uint8
}

const (
	modeBucket uint8 = iota // times within [lo, hi)
	modeCode                // dictionary code equals code, no nulls
	modeSig                 // sig equals cur
	modeNoRun               // no cheap identity: runs of one row
)

// bucketOf returns the start of t's bucket, from the run's bucket when
// t is in it (a zone's bucket costs a time.Date).
func (g *groupCol) bucketOf(t int64) int64 {
	if g.inRun && g.lo <= t && t < g.hi {
		return g.key
	}
	return g.spec.bk.key(t)
}

// begin starts a run at row r.
func (g *groupCol) begin(r int32) {
	switch {
	case g.spec.kind == gBucket:
		g.mode = modeBucket
		g.lo, g.hi = g.spec.bk.span(g.times[r])
		g.key, g.inRun = g.lo, true
		if g.spec.bk.loc != nil {
			g.key = g.spec.bk.key(g.times[r])
		}
	case g.col != nil && g.col.Codes != nil && g.col.Strs == nil && g.col.Valid == nil:
		g.mode, g.code = modeCode, g.col.Codes[r]
	default:
		v, ok := g.sig(r)
		g.mode, g.cur = modeSig, v
		if !ok {
			g.mode = modeNoRun
		}
	}
}

// runEnd returns the end of the run begun at sel[start-1]: the first
// index in [start, end) whose row leaves it, or end.
func (g *groupCol) runEnd(sel []int32, start, end int) int {
	switch g.mode {
	case modeBucket:
		lo, hi, times := g.lo, g.hi, g.times
		for j := start; j < end; j++ {
			if t := times[sel[j]]; t < lo || t >= hi {
				return j
			}
		}
		return end
	case modeCode:
		code, codes := g.code, g.col.Codes
		for j := start; j < end; j++ {
			if codes[sel[j]] != code {
				return j
			}
		}
		return end
	}
	for j := start; j < end; j++ {
		if !g.same(sel[j]) {
			return j
		}
	}
	return end
}

// same reports whether row r continues the run.
func (g *groupCol) same(r int32) bool {
	switch g.mode {
	case modeBucket:
		t := g.times[r]
		return t >= g.lo && t < g.hi
	case modeCode:
		return g.col.Codes[r] == g.code
	case modeSig:
		v, ok := g.sig(r)
		return ok && v == g.cur
	}
	return false
}

// sig returns the identity of row r's group value within the block: a
// bucket, a dictionary code, a number's bits, or -1<<63 for null.
// ok is false when the value has no cheap identity (a column without
// dictionary), which ends every run.
func (g *groupCol) sig(r int32) (v int64, ok bool) {
	switch {
	case g.spec.kind == gBucket:
		return g.bucketOf(g.times[r]), true
	case g.null != nil && g.null[r]:
		return math.MinInt64, true
	case g.base != nil:
		return g.base[r], true
	case g.col == nil:
		return math.MinInt64, true
	case g.col.IsNull(int(r)):
		return math.MinInt64, true
	}
	c := g.col
	switch c.Type {
	case chunk.Int64:
		return c.Ints[r], true
	case chunk.Float64:
		return int64(math.Float64bits(c.Floats[r])), true
	case chunk.Bool:
		return b2i(c.Bools[r]), true
	}
	if c.Codes != nil && c.Strs == nil {
		return int64(c.Codes[r]), true
	}
	return 0, false
}

// value returns row r's group value.
func (g *groupCol) value(b *batch, r int32) value {
	switch g.spec.kind {
	case gBucket:
		return value{i: g.bucketOf(g.times[r])}
	case gExpr:
		switch {
		case g.null != nil && g.null[r]:
			return nullValue
		case g.spec.out == kFloat:
			return fv(math.Float64frombits(uint64(g.base[r])))
		case g.spec.out == kString:
			return value{s: g.texts[g.base[r]]}
		}
		return value{i: g.base[r]}
	case gLabel:
		c := g.col
		if c.Codes == nil || c.Strs != nil {
			return value{s: labelOf(c.StringAt(int(r)), g.spec.name)}
		}
		if g.labels == nil {
			g.labels, g.have = make([]string, c.Dict.Len()), make([]bool, c.Dict.Len())
		}
		k := c.Codes[r]
		if !g.have[k] {
			g.labels[k], g.have[k] = labelOf(string(c.Dict.At(int(k))), g.spec.name), true
		}
		return value{s: g.labels[k]}
	}
	if c := g.col; c != nil && c.Codes != nil && c.Strs == nil && (c.Valid == nil || c.Valid[r]) && (g.spec.out == kSeries || g.spec.out == kKey || g.spec.out == kString) {
		// Text by dictionary code: one string a code for the block, shared
		// by its groups (labels caches the same way).
		if g.labels == nil {
			g.labels, g.have = make([]string, c.Dict.Len()), make([]bool, c.Dict.Len())
		}
		k := c.Codes[r]
		if !g.have[k] {
			g.labels[k], g.have[k] = string(c.Dict.At(int(k))), true
		}
		return value{s: g.labels[k]}
	}
	return b.valueAt(g.spec.name, g.spec.out, r)
}

// argCol reads an aggregate's argument column of a block.
type argCol struct {
	base []int64       // seq, time or op
	col  *chunk.Column // series, key or a field; nil (no base): all null
	kind colKind
	by   *argCol  // arg_max, arg_min: what picks the row; string_agg: what orders the texts
	then []argCol // string_agg: the further ORDER BY terms
}

func (a *argCol) get(r int32) value {
	if a.base != nil {
		return value{i: a.base[r]}
	}
	c := a.col
	if c == nil || c.IsNull(int(r)) {
		return nullValue
	}
	switch c.Type {
	case chunk.Int64:
		if a.kind == kFloat {
			return fv(float64(c.Ints[r]))
		}
		return value{i: c.Ints[r]}
	case chunk.Float64:
		return fv(c.Floats[r])
	case chunk.Bool:
		return bv(c.Bools[r])
	}
	return value{s: c.StringAt(int(r))}
}

func (b *batch) argCol(name string, k colKind) argCol {
	switch name {
	case ColSeq:
		return argCol{base: b.seq, kind: k}
	case ColTime:
		return argCol{base: b.time, kind: k}
	case ColOp:
		return argCol{base: b.op, kind: k}
	}
	return argCol{col: b.strColOrField(name), kind: k}
}

func (b *batch) strColOrField(name string) *chunk.Column {
	switch name {
	case ColSeries:
		return b.series
	case ColKey:
		return b.key
	}
	return b.fields[name]
}

// accumulate adds the selected rows of b to gs.
func (a *aggPlan) accumulate(gs *groups, b *batch) error {
	sel := b.sel
	if len(sel) == 0 {
		return nil
	}
	defer b.vecs.release(b.vecs.mark()) // the computed group terms' rows
	gcols := make([]groupCol, len(a.groups))
	for i := range a.groups {
		g := &a.groups[i]
		gcols[i].spec = g
		switch {
		case g.kind == gBucket:
			gcols[i].times = b.time
		case g.kind == gLabel:
			gcols[i].col = b.series
		case g.kind == gExpr:
			gcols[i].base, gcols[i].null, gcols[i].texts = g.exprByRow(b, sel)
		case g.name == ColOp:
			gcols[i].base = b.op
		default:
			gcols[i].col = b.strColOrField(g.name)
		}
	}
	args := make([]argCol, len(a.aggs))
	for i := range a.aggs {
		if x := a.aggs[i].expr; x != nil {
			args[i] = argCol{col: exprColumn(b, x, sel), kind: a.aggs[i].in}
		} else if a.aggs[i].arg != "" {
			args[i] = b.argCol(a.aggs[i].arg, a.aggs[i].in)
		}
		if x := a.aggs[i].by; x != nil {
			args[i].by = &argCol{col: exprColumn(b, x, sel), kind: a.aggs[i].byIn}
		} else if a.aggs[i].byArg != "" {
			by := b.argCol(a.aggs[i].byArg, a.aggs[i].byIn)
			args[i].by = &by
		}
		for _, k := range a.aggs[i].then {
			if k.expr != nil {
				args[i].then = append(args[i].then, argCol{col: exprColumn(b, k.expr, sel), kind: k.in})
			} else {
				args[i].then = append(args[i].then, b.argCol(k.arg, k.in))
			}
		}
	}
	// takes[ai]: the rows a filtered aggregate takes, by row; nil: all.
	var takes [][]bool
	var taken []int32
	for ai := range a.aggs {
		if f := a.aggs[ai].filter; f != nil {
			if takes == nil {
				takes = make([][]bool, len(a.aggs))
			}
			takes[ai] = make([]bool, b.rows)
			for _, r := range f.eval(b, sel) {
				takes[ai][r] = true
			}
		}
	}
	vals := make([]value, len(a.groups))
	var key []byte
	// With one non-bucket term read by dictionary code, the buckets of a
	// code are cached for the block.
	var byCode []*buckets
	coded := -1
	for gi := range gcols {
		if gcols[gi].spec.kind == gBucket {
			continue
		}
		c := gcols[gi].col
		if coded == -1 && c != nil && c.Codes != nil && c.Strs == nil && c.Valid == nil {
			coded = gi
		} else {
			coded = -2
		}
	}
	if coded >= 0 {
		byCode = make([]*buckets, gcols[coded].col.Dict.Len())
	}
	for i := 0; i < len(sel); {
		r := sel[i]
		for gi := range gcols {
			gcols[gi].begin(r)
		}
		j := len(sel)
		for gi := range gcols {
			j = gcols[gi].runEnd(sel, i+1, j)
		}
		// Look the group up by its values.
		var bk *buckets
		var bucket int64
		if coded >= 0 {
			bk = byCode[gcols[coded].col.Codes[r]]
		}
		for gi := range gcols {
			if gcols[gi].spec.kind == gBucket {
				bucket = gcols[gi].key
			}
		}
		g := (*group)(nil)
		if bk != nil {
			g = bk.m[bucket]
		}
		if g == nil {
			key = key[:0]
			for gi := range gcols {
				v := gcols[gi].value(b, r)
				vals[gi] = v
				if bk == nil && gcols[gi].spec.kind != gBucket {
					key = appendKeyPart(key, gcols[gi].spec.out, v)
				}
			}
			if bk == nil {
				bk = gs.restOf(key)
				if coded >= 0 {
					byCode[gcols[coded].col.Codes[r]] = bk
				}
			}
			if g = bk.m[bucket]; g == nil {
				g = gs.slab.newGroup(vals, len(a.aggs))
				bk.m[bucket] = g
				if gs.n++; gs.n > maxGroups {
					return errTooManyGroups
				}
			}
		}
		run := sel[i:j]
		for ai := range a.aggs {
			rows := run
			if takes != nil && takes[ai] != nil {
				taken = taken[:0]
				for _, r := range run {
					if takes[ai][r] {
						taken = append(taken, r)
					}
				}
				if rows = taken; len(rows) == 0 {
					continue
				}
			}
			if err := g.states[ai].addRun(&a.aggs[ai], &args[ai], b, rows, gs); err != nil {
				return err
			}
		}
		i = j
	}
	return nil
}

// addRun adds the rows of one group's run.
func (s *aggState) addRun(a *aggSpec, arg *argCol, b *batch, run []int32, gs *groups) error {
	s.more(a)
	if a.arg == "" { // count(*)
		s.n += int64(len(run))
		return nil
	}
	c := arg.col
	fastFloat := arg.base == nil && c != nil && c.Type == chunk.Float64
	fastInt := arg.base == nil && c != nil && c.Type == chunk.Int64
	switch {
	case a.fn == "count" && arg.base == nil:
		if c == nil {
			return nil
		}
		if c.Valid == nil {
			s.n += int64(len(run))
			return nil
		}
		for _, r := range run {
			if c.Valid[r] {
				s.n++
			}
		}
		return nil
	case (a.fn == "sum" || a.fn == "avg") && fastFloat:
		sum := s.sum
		var n int64
		for _, r := range run {
			if c.Valid == nil || c.Valid[r] {
				sum.add(c.Floats[r])
				n++
			}
		}
		s.sum = sum
		s.n += n
		return nil
	case (a.fn == "sum" || a.fn == "avg") && fastInt:
		var sum int64
		var n int64
		for _, r := range run {
			if c.Valid == nil || c.Valid[r] {
				sum += c.Ints[r]
				n++
			}
		}
		s.sumI += sum
		s.sum.add(float64(sum))
		s.n += n
		return nil
	case (a.fn == "min" || a.fn == "max") && fastFloat:
		// NaN orders above every number (cmpFloat): it is the max of a
		// run holding one, and the min only of a run of NaNs.
		var best float64
		found, nan := false, false
		isMax := a.fn == "max"
		for _, r := range run {
			if c.Valid != nil && !c.Valid[r] {
				continue
			}
			v := c.Floats[r]
			switch {
			case v != v:
				nan = true
			case !found || isMax && v > best || !isMax && v < best:
				best, found = v, true
			}
		}
		if nan && (isMax || !found) {
			best, found = math.NaN(), true
		}
		if found {
			s.n++
			s.addExt(a, fv(best))
		}
		return nil
	}
	if arg.by != nil && bivariate[a.fn] {
		for _, r := range run {
			s.addPair(a, arg.get(r), arg.by.get(r))
		}
		return nil
	}
	if arg.by != nil {
		for _, r := range run {
			v := arg.get(r)
			if a.fn == "string_agg" && !v.null { // string_agg(x ORDER BY k) holds every text
				if gs.qvalues++; gs.qvalues > maxQuantileValues {
					return errTooManyValues
				}
			}
			s.addArg(a, v, arg.by.get(r), b.time[r], b.seq[r])
			if len(arg.then) > 0 && !v.null {
				then := make([]value, len(arg.then))
				for i := range arg.then {
					then[i] = arg.then[i].get(r)
				}
				s.texts[len(s.texts)-1].then = then
			}
		}
		return nil
	}
	for _, r := range run {
		v := arg.get(r)
		if a.fn == "count_distinct" {
			if s.addDistinct(a, v) {
				if gs.qvalues++; gs.qvalues > maxQuantileValues {
					return errTooManyValues
				}
			}
			continue
		}
		if (a.fn == "quantile" || a.fn == "quantile_disc" || a.fn == "rate" || a.fn == "string_agg" || a.fn == "mad") && !v.null {
			if gs.qvalues++; gs.qvalues > maxQuantileValues {
				return errTooManyValues
			}
		}
		if a.fn == "mode" || a.fn == "entropy" { // each distinct value is held
			held := s.heldValues()
			s.add(a, v, b.time[r], b.seq[r])
			if s.heldValues() > held {
				if gs.qvalues++; gs.qvalues > maxQuantileValues {
					return errTooManyValues
				}
			}
			continue
		}
		s.add(a, v, b.time[r], b.seq[r])
	}
	return nil
}

// exprByRow computes a gExpr group's values for the rows sel of b,
// indexed by row: int64s, or float64 bits (-0 as 0, every NaN as one);
// null (nil: none) marks rows without a value.
func (g *groupSpec) exprByRow(b *batch, sel []int32) ([]int64, []bool, []string) {
	// The rows' values, from the batch's arena (the caller releases
	// them); what computing them takes is released here.
	out, nulls := b.vecs.intsN(b.rows), b.vecs.nulls(b.rows)
	defer b.vecs.release(b.vecs.mark())
	v := g.expr.vec(b, sel)
	if v.scalar { // GROUP BY 1 + 1: no column below
		v = b.vecs.broadcast(v, len(sel))
	}
	var null []bool
	var texts []string
	var codes map[string]int64
	var last int64 // the code of the last text
	for i, r := range sel {
		switch {
		case v.isNull(i):
			null = nulls
			null[r] = true
		case g.out == kString: // coded within the block
			if codes == nil {
				codes = map[string]int64{}
			}
			if len(texts) > 0 && texts[last] == v.strs[i] { // runs of one value
				out[r] = last
				continue
			}
			c, ok := codes[v.strs[i]]
			if !ok {
				c = int64(len(texts))
				codes[v.strs[i]] = c
				texts = append(texts, v.strs[i])
			}
			out[r], last = c, c
		case g.out == kFloat:
			f := v.floats[i]
			if f == 0 {
				f = 0
			} else if f != f {
				f = math.NaN()
			}
			out[r] = int64(math.Float64bits(f))
		default:
			out[r] = v.ints[i]
		}
	}
	return out, null, texts
}

// exprColumn computes an aggregate's argument x for the rows sel of b as
// a column indexed by row (the rows outside sel are zero and null),
// its slices from the batch's arena (the caller releases them).
func exprColumn(b *batch, x *arithPlan, sel []int32) *chunk.Column {
	c := &chunk.Column{Type: chunk.Int64, Valid: b.vecs.nulls(b.rows)}
	switch x.kind {
	case kFloat:
		c.Type, c.Floats = chunk.Float64, b.vecs.floatsN(b.rows)
		clear(c.Floats)
	case kString:
		c.Type, c.Strs = chunk.String, b.vecs.strsN(b.rows)
		clear(c.Strs)
	case kBool: // a condition's value
		c.Type, c.Bools = chunk.Bool, b.vecs.nulls(b.rows)
	default:
		c.Ints = b.vecs.intsN(b.rows)
		clear(c.Ints)
	}
	defer b.vecs.release(b.vecs.mark())
	v := x.vec(b, sel)
	if v.scalar { // avg(2): no column below
		v = b.vecs.broadcast(v, len(sel))
	}
	for i, r := range sel {
		if v.isNull(i) {
			continue
		}
		c.Valid[r] = true
		switch x.kind {
		case kFloat:
			c.Floats[r] = v.floats[i]
		case kString:
			c.Strs[r] = v.strs[i]
		case kBool:
			c.Bools[r] = v.ints[i] != 0
		default:
			c.Ints[r] = v.ints[i]
		}
	}
	return c
}
