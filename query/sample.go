package query

import (
	"math"
	"math/rand/v2"
	"strconv"
)

// FROM s USING SAMPLE 10% (or 10 PERCENT, or TABLESAMPLE 10%), as
// DuckDB has it after the FROM clause: each row of the source (joined
// rows too) is kept with that chance, before WHERE, aggregates and the
// rest (Bernoulli sampling; DuckDB's "system" and "bernoulli" methods
// both sample so). REPEATABLE (seed), or a seed after the method
// ((bernoulli, 42)), keeps the same rows run after run: a row's chance
// is drawn from its seq and the seed, so one stream's rows only.
//
// A number of rows (USING SAMPLE 50 ROWS, USING SAMPLE 50, or the
// method reservoir(50 ROWS), DuckDB's reservoir sample) keeps that many
// rows chosen uniformly at random (all when the source has fewer), in
// the source's order: each row's draw from its seq and a seed (the
// REPEATABLE one, else one drawn for the statement), and the rows kept
// are those whose draw is at most the 50th smallest, which a scalar
// subquery over the same source finds first (sampleRows).

// sampleFunc is the internal function of a repeatable sample: a
// float in [0, 1) from a row's seq and the seed. Its name cannot be
// written in a query.
const sampleFunc = "\x00sample"

// sampleAt reports whether USING SAMPLE or TABLESAMPLE starts at token i.
func (p *parser) sampleAt(i int) bool {
	return isKw(p.tok(i), "using") && isKw(p.tok(i+1), "sample") || isKw(p.tok(i), "tablesample")
}

// usingSample parses what follows FROM's source in st, if it is USING
// SAMPLE or TABLESAMPLE, and puts the sample's condition in st.Where
// (with AND, after the WHERE parsed later).
func (p *parser) usingSample(st *Statement) {
	t := p.peek()
	if !p.sampleAt(p.i) {
		return
	}
	if p.advance(); isKw(t, "using") {
		p.advance()
	}
	n := p.advance()
	reservoir := false
	if isKw(n, "reservoir") && isPunct(p.peek(), "(") { // reservoir(50 ROWS)
		p.advance()
		reservoir, n = true, p.advance()
	}
	if n.kind != tInt && n.kind != tFloat {
		p.fail(n.pos, "USING SAMPLE wants a percentage, such as 10%%, or a number of rows, found %s", n.describe())
	}
	pct, _ := strconv.ParseFloat(n.text, 64)
	switch u := p.peek(); {
	case !reservoir && (isPunct(u, "%") || isKw(u, "percent")):
		p.advance()
	default:
		if isKw(u, "rows") {
			p.advance()
		} else if reservoir && (isPunct(u, "%") || isKw(u, "percent")) {
			p.fail(u.pos, "reservoir takes a number of rows, reservoir(50 ROWS); USING SAMPLE %s%% keeps each row with that chance", n.text)
		} else if n.kind == tFloat {
			p.fail(n.pos, "USING SAMPLE of %s: a percentage has %% or PERCENT after it, a number of rows is a whole number", n.text)
		}
		if reservoir {
			p.expectPunct(")")
		}
		p.sampleRows(st, t, n)
		return
	}
	if pct < 0 || pct > 100 || math.IsNaN(pct) {
		p.fail(n.pos, "USING SAMPLE wants a percentage from 0 to 100, found %s", n.text)
	}
	var seed *int64
	if p.acceptPunct("(") { // (method[, seed])
		m := p.advance()
		if !isKw(m, "bernoulli") && !isKw(m, "system") {
			p.fail(m.pos, "USING SAMPLE's method is bernoulli or system (both keep each row with the chance), found %s", m.describe())
		}
		if p.acceptPunct(",") {
			seed = p.sampleSeed()
		}
		p.expectPunct(")")
	}
	if p.acceptKw("repeatable") {
		p.expectPunct("(")
		seed = p.sampleSeed()
		p.expectPunct(")")
	}
	text := "USING SAMPLE " + n.text + "%"
	x := volatileCall("random", t.pos)
	if seed != nil {
		if st.Join != nil {
			p.fail(t.pos, "a REPEATABLE sample draws from each row's seq: sample one side in a subquery, (SELECT * FROM s USING SAMPLE 10%% REPEATABLE (42))")
		}
		text += " REPEATABLE (" + strconv.FormatInt(*seed, 10) + ")"
		x = sampleDrawCall(*seed, t.pos)
	}
	st.sample = &ArithCompare{L: x, Op: "<", R: &Arith{Lit: &Lit{Kind: LitFloat, Float: pct / 100, Pos: n.pos}, Pos: n.pos}, Pos: t.pos, text: text}
}

// sampleRows parses the rest of USING SAMPLE n ROWS (at t; n the
// number's token) and puts its condition in st: a row's draw
// (sampleFunc of its seq and the seed) at most the largest of the n
// smallest draws of the source, which a scalar subquery reads: the
// source's tokens are parsed again for it.
func (p *parser) sampleRows(st *Statement, t, n token) {
	rows, err := strconv.ParseInt(n.text, 10, 64)
	if n.kind != tInt || err != nil {
		p.fail(n.pos, "USING SAMPLE wants a whole number of rows, found %s", n.text)
	}
	seed := rand.Int64()
	given := false
	if p.acceptKw("repeatable") {
		p.expectPunct("(")
		seed, given = *p.sampleSeed(), true
		p.expectPunct(")")
	}
	if st.Join != nil {
		p.fail(t.pos, "USING SAMPLE of a number of rows draws from each row's seq: sample one side in a subquery, (SELECT * FROM s USING SAMPLE %d ROWS)", rows)
	}
	// The n smallest draws: SELECT draw AS d FROM <source> ORDER BY d
	// LIMIT n, with the source parsed again from its first token.
	inner := &Statement{Limit: rows}
	end := p.i
	p.i = p.sourceStart
	restore := p.scalarScope()
	p.source(inner)
	restore()
	p.i = end
	const d = "\x00draw"
	inner.Items = []SelectItem{{Expr: sampleDrawCall(seed, t.pos), Alias: d, Pos: t.pos}}
	inner.OrderBy = []OrderItem{{Name: d, Pos: t.pos}}
	top := &Statement{Limit: -1, Sub: inner, Stream: "(subquery)", streamPos: t.pos,
		Items: []SelectItem{{Agg: &Call{Func: "max", Arg: &ColRef{Name: d, Pos: t.pos}, Pos: t.pos}, Pos: t.pos}}}
	text := "USING SAMPLE " + n.text + " ROWS"
	if given {
		text += " REPEATABLE (" + strconv.FormatInt(seed, 10) + ")"
	}
	st.sample = &ArithCompare{L: sampleDrawCall(seed, t.pos), Op: "<=", R: &Arith{Scalar: top, scalarText: "(" + text + ")", Pos: t.pos}, Pos: t.pos, text: text}
}

// sampleDrawCall is a row's draw for seed: sampleFunc of its seq.
func sampleDrawCall(seed int64, pos int) *Arith {
	return &Arith{Op: 'f', Func: sampleFunc, Pos: pos, Args: []*Arith{
		{Col: &ColRef{Name: ColSeq, Pos: pos}, Pos: pos},
		{Lit: &Lit{Kind: LitInt, Int: seed, Pos: pos}, Pos: pos}}}
}

// sampleSeed parses a sample's seed, an integer.
func (p *parser) sampleSeed() *int64 {
	neg := p.acceptPunct("-")
	s := p.advance()
	v, err := strconv.ParseInt(s.text, 10, 64)
	if s.kind != tInt || err != nil {
		p.fail(s.pos, "a sample's seed is an integer, found %s", s.describe())
	}
	if neg {
		v = -v
	}
	return &v
}

// sampleDraw is a row's draw in [0, 1) for seed: its seq and the seed
// mixed (SplitMix64's finalizer), the top 53 bits.
func sampleDraw(seq, seed int64) float64 {
	x := uint64(seq)*0x9e3779b97f4a7c15 ^ uint64(seed)
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / (1 << 53)
}
