package query

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Statement is a parsed query.
type Statement struct {
	Explain bool
	// Analyze: EXPLAIN ANALYZE, the plan and what running it did
	// (analyze.go)
	Analyze bool
	// Delete: DELETE FROM stream [WHERE cond], the put rows of the raw
	// view matching Where, which Store.Query soft-deletes; Items then
	// select their seq.
	Delete   bool
	writePos int // the position of DELETE, INSERT, CREATE or DROP
	// Insert: INSERT INTO stream (cols) VALUES ..., records Store.Query
	// appends (see InsertRows); nil otherwise.
	Insert *Insert
	// Create: CREATE TABLE Stream AS SELECT ..., which Store.Query runs
	// (ddl.go); nil otherwise.
	Create *Create
	// Drop: DROP TABLE name, ..., which Store.Query runs; nil otherwise.
	Drop *Drop
	// Show: SHOW STREAMS, DESCRIBE stream, SHOW SERIES FROM stream,
	// SHOW FUNCTIONS [LIKE showLike] (see show.go); "" otherwise.
	Show     string
	showLike *string
	Star     bool         // SELECT *
	Items    []SelectItem // the projection unless Star
	Stream   string
	Sub      *Statement // FROM (SELECT ...): its result is the rows read; Stream is "(subquery)"
	Join     *Join      // FROM a JOIN b ...: the joined relation is the rows read; Stream is "(join)"
	// Union: SELECT ... UNION ALL SELECT ...: its SELECTs (union.go), at
	// unionPos; OrderBy, Limit, Offset and Explain are the union's, the
	// other clauses unused. Stream is "(union)".
	Union    []*Statement
	unionPos []int
	// Pivot: PIVOT <source> ON ... USING ... (pivot.go); nil otherwise
	Pivot *Pivot
	// unpivot: this UNION ALL is an UNPIVOT's (unpivot.go)
	unpivot bool
	// Values: (VALUES (...), ...), rows written out (values.go); nil
	// otherwise
	Values *Values
	// Gen: FROM generate_series(...) or range(...) (genseries.go); nil
	// otherwise
	Gen *GenSeries
	// sample: FROM ... USING SAMPLE p% (sample.go), its condition, put
	// in Where
	sample Expr
	// SetOp: "" for UNION ALL, else "union", "intersect", "intersect
	// all", "except" or "except all" of the two SELECTs of Union
	// (setop.go).
	SetOp string
	// distinctAll: this UNION of one SELECT is a SELECT DISTINCT *
	// (distinctRows)
	distinctAll bool
	// unionHeld: the union is read as a subquery's result (execUnion),
	// its series, key and op copied (heldCopy)
	unionHeld bool
	// With: WITH name AS (SELECT ...), ...: relations run first, which
	// the statement reads by name as streams (with.go).
	With   []CTE
	Fold   bool // FROM fold(stream)
	noFrom bool // SELECT without FROM: one row of no columns; Stream is "(no FROM)"
	AsOf   *AsOf
	Where  Expr // nil: every row
	// whereItems, when set, are the items whose aliases WHERE reads in
	// place of Items: a grouping set's SELECT has its terms rolled up
	// (NULL) in Items, and WHERE runs before any grouping.
	whereItems []SelectItem
	GroupBy    []GroupItem
	// groupingSets: GROUP BY ROLLUP, CUBE or GROUPING SETS, the sets of
	// terms grouped by, each a SELECT of the UNION ALL the statement
	// becomes once read (groupsets.go); nil otherwise.
	groupingSets [][]GroupItem
	Fill         *Fill // GROUP BY time(d) FILL(...); nil: none
	Having       Expr  // on the result's columns (aggregates by their text); nil: every group
	havingPos    int
	// havingAggs are the aggregates HAVING names, computed as hidden
	// columns when the SELECT does not return them (planAggregate)
	havingAggs []*Call
	// Qualify is on the result's columns after the window functions
	// (QUALIFY rn <= 3); nil: every row.
	Qualify    Expr
	qualifyPos int
	OrderBy    []OrderItem
	Limit      int64 // -1: none
	// limitPct: LIMIT p% (or p PERCENT), a share of the result's rows
	// (limitpct.go); nil: none. Limit is then -1.
	limitPct *float64
	Offset   int64 // rows skipped before LIMIT counts

	streamPos int
	// keep, when set, narrows SELECT * to these columns: a join side's,
	// to the columns its statement names.
	keep map[string]bool
	// subAlias names FROM (SELECT ...) [AS] name, for a JOIN.
	subAlias    string
	subAliasPos int
	// alias names the stream of a statement without JOIN (FROM cpu AS
	// c): its columns may be written c.value (qualify.go).
	alias string
}

// CTE is one relation of a WITH list: its name (a stream name) and its
// SELECT.
type CTE struct {
	Name string
	Pos  int
	St   *Statement
}

// condition is the rows' condition: WHERE, and for DELETE only put rows
// (tombstone rows are kept forever); nil: every row.
func (st *Statement) condition() Expr {
	if !st.Delete {
		return st.Where
	}
	put := &Compare{Col: &ColRef{Name: "op", Pos: st.writePos}, Op: "=", Lit: &Lit{Kind: LitString, Str: "put", Pos: st.writePos}}
	if st.Where == nil {
		return put
	}
	return &And{L: st.Where, R: put}
}

// AsOf limits a folded view to the rows up to a seq or a time.
type AsOf struct {
	Seq  uint64 // AS OF SEQ n, 0 if by time
	Time *Lit   // AS OF TIME t
	Pos  int
}

// SelectItem is a projected column, an aggregate or arithmetic on them.
type SelectItem struct {
	Col  *ColRef  // a column, or
	Agg  *Call    // an aggregate, or
	Expr *Arith   // arithmetic, or
	Win  *WinCall // a window function
	// Hidden: a window QUALIFY computes (QUALIFY row_number() OVER (...)
	// <= 3), not returned; named by its text.
	Hidden bool
	Alias  string
	Pos    int
	// exclude and replace: * EXCLUDE (c, ...) REPLACE (x AS c, ...), the
	// columns left out and put in by another value (Col is *)
	exclude []*ColRef
	// match: COLUMNS('re'), the columns * gives whose names re matches
	// (somewhere in the name, as DuckDB's; Col is *); its text in text
	match   *regexp.Regexp
	text    string
	replace []SelectItem
	// clash: names * must not give, the other items' (UNPIVOT's name
	// and value columns: unpivot.go)
	clash []string
	// columns: the item has COLUMNS(...) as an operand, max(COLUMNS(*)):
	// it stands for one item per column (columnsexpr.go)
	columns *columnsExpr
}

// WinCall is a window function of a series over time: difference(value),
// derivative(avg(value), 1m), moving_average(value, 5), row_number().
// Its argument is arithmetic (columns in a raw query; aggregates and
// grouped columns in an aggregate query), taken in time order within
// each partition, or as OVER says.
type WinCall struct {
	Func string // difference, non_negative_difference, derivative, non_negative_derivative, cumulative_sum, moving_average, lag, lead, row_number, rank, dense_rank
	Arg  *Arith // nil for row_number, rank and dense_rank
	N    int64  // moving_average: the values averaged; lag, lead: the offset in rows
	Unit int64  // derivatives: the time unit in ns (0: a second, not written)
	unit string
	// IgnoreNulls: lag, lead, first_value, last_value and nth_value skip
	// the rows whose argument is null (IGNORE NULLS).
	IgnoreNulls bool
	// Default: lag and lead's value past the partition's edge (lag(x, 1,
	// 0)); nil: NULL
	Default *Lit
	Over    *Over // OVER (...); nil: the default window
	Pos     int
}

// Over is a window's OVER (PARTITION BY ... ORDER BY ...): arithmetic
// on the row's columns (raw), or on aggregates and grouped columns.
type Over struct {
	Partition []*Arith
	Order     []OverOrder
	Frame     *Frame // nil: SQL's default (see winPlan.frameOf)
	// Ref names the WINDOW clause's window this one is (OVER w) or
	// builds on (OVER (w ORDER BY ...)); once the clause is read its
	// terms are copied in. text is the OVER as written, its name.
	Ref    string
	RefPos int
	text   string
}

// OverOrder is a key of OVER's ORDER BY.
type OverOrder struct {
	Expr  *Arith
	Desc  bool
	Nulls Nulls
}

func (w *WinCall) String() string {
	s := w.Func + "("
	switch {
	case w.Arg != nil:
		s += w.Arg.String()
	case w.Func == "count":
		s += "*"
	case w.Func == "ntile":
		s += strconv.FormatInt(w.N, 10)
	}
	switch {
	case w.Func == "moving_average" || w.Func == "nth_value", (w.Func == "lag" || w.Func == "lead") && (w.N != 1 || w.Default != nil):
		s += ", " + strconv.FormatInt(w.N, 10)
		if w.Default != nil {
			s += ", " + w.Default.String()
		}
	case w.Unit != 0:
		s += ", " + w.unit
	}
	if w.IgnoreNulls {
		s += " IGNORE NULLS"
	}
	s += ")"
	if w.Over == nil {
		return s
	}
	if w.Over.text != "" {
		return s + " OVER " + w.Over.text
	}
	var parts []string
	if len(w.Over.Partition) > 0 {
		var ps []string
		for _, x := range w.Over.Partition {
			ps = append(ps, x.String())
		}
		parts = append(parts, "PARTITION BY "+strings.Join(ps, ", "))
	}
	if len(w.Over.Order) > 0 {
		var os []string
		for _, o := range w.Over.Order {
			os = append(os, o.Expr.String()+[]string{"", " DESC"}[b2i(o.Desc)]+[]string{"", " NULLS FIRST", " NULLS LAST"}[o.Nulls])
		}
		parts = append(parts, "ORDER BY "+strings.Join(os, ", "))
	}
	if w.Over.Frame != nil {
		parts = append(parts, w.Over.Frame.String())
	}
	return s + " OVER (" + strings.Join(parts, " ") + ")"
}

// hasAgg reports whether the window's argument or OVER holds an
// aggregate: it is then an aggregate query's.
func (w *WinCall) hasAgg() bool { return w.firstAgg() != nil }

// firstAgg returns the first aggregate of the window's argument and
// OVER, nil if none.
func (w *WinCall) firstAgg() *Call {
	xs := []*Arith{w.Arg}
	if w.Over != nil {
		xs = append(xs, w.Over.Partition...)
		for _, o := range w.Over.Order {
			xs = append(xs, o.Expr)
		}
	}
	for _, x := range xs {
		if x == nil {
			continue
		}
		if c := x.firstAgg(); c != nil {
			return c
		}
	}
	return nil
}

// Name returns the output column name: the alias, the column name or
// the aggregate's canonical text such as avg(value).
func (s *SelectItem) Name() string {
	switch {
	case s.Alias != "":
		return s.Alias
	case s.Col != nil:
		return s.Col.Name
	case s.Expr != nil:
		return s.Expr.String()
	case s.Win != nil:
		return s.Win.String()
	}
	return s.Agg.String()
}

// AggKey is a further ORDER BY term of an aggregate: a column, or
// Expr's text.
type AggKey struct {
	Col   *ColRef
	Expr  *Arith // nil: Col
	Desc  bool
	Nulls Nulls
}

// orderText writes an ORDER BY term: its name, direction and nulls.
func orderText(name string, desc bool, nulls Nulls) string {
	if desc {
		name += " DESC"
	}
	switch nulls {
	case NullsFirst:
		name += " NULLS FIRST"
	case NullsLast:
		name += " NULLS LAST"
	}
	return name
}

// ColRef names a column: seq, time, series, key, op or a field.
type ColRef struct {
	Name string
	Pos  int
}

// Call is an aggregate call: count(*), avg(value), quantile(0.9, value).
type Call struct {
	Func     string  // lower case
	Arg      *ColRef // the column, or Expr's text
	Expr     *Arith  // avg(value * 2): arithmetic on the row's columns; nil: Arg
	Star     bool    // count(*)
	Distinct bool    // count(DISTINCT x)
	Q        float64 // quantile's q
	// Sep is string_agg's separator; SepGiven: written in the call.
	Sep      string
	SepGiven bool
	// By is what arg_max(x, by) and arg_min(x, by) (max_by, min_by)
	// order the rows by, and string_agg(x ORDER BY by) its texts: a
	// column, or ByExpr's text. ByDesc and ByNulls: string_agg's
	// direction.
	By      *ColRef
	ByExpr  *Arith // arithmetic on the row's columns; nil: By
	ByDesc  bool
	ByNulls Nulls
	// Then: string_agg's further ORDER BY terms (ORDER BY k, then ...)
	Then []AggKey
	Pos  int
	// Filter: count(*) FILTER (WHERE cond): the rows the aggregate takes
	// (nil: all of the group's).
	Filter Expr
	// ordered: first(x ORDER BY k) or last(x ORDER BY k) as written, the
	// call's name; Func is then first, last, arg_min or arg_max
	ordered string
}

// starItem returns the index of an item * beside others (SELECT *,
// value * 2), -1 for none.
func (st *Statement) starItem() int {
	return slices.IndexFunc(st.Items, func(it SelectItem) bool { return it.Col != nil && it.Col.Name == "*" })
}

// columnsItems reports whether an item has COLUMNS(...) as an operand
// (columnsexpr.go).
func (st *Statement) columnsItems() bool {
	return slices.ContainsFunc(st.Items, func(it SelectItem) bool { return it.columns != nil })
}

func (c *Call) String() string {
	if c.Filter != nil {
		f := *c
		f.Filter = nil
		return f.String() + " FILTER (WHERE " + condText(c.Filter) + ")"
	}
	switch {
	case c.ordered != "":
		return c.ordered
	case c.Star:
		return c.Func + "(*)"
	case c.Func == "quantile" || c.Func == "quantile_disc":
		return c.Func + "(" + strconv.FormatFloat(c.Q, 'g', -1, 64) + ", " + c.Arg.Name + ")"
	case c.Func == "string_agg" && c.By != nil: // string_agg([DISTINCT] x, 'sep' ORDER BY k DESC)
		f := *c
		f.By = nil
		t := strings.TrimSuffix(f.String(), ")") + " ORDER BY " + orderText(c.By.Name, c.ByDesc, c.ByNulls)
		for _, k := range c.Then {
			t += ", " + orderText(k.Col.Name, k.Desc, k.Nulls)
		}
		return t + ")"
	case c.Distinct && c.SepGiven:
		return c.Func + "(DISTINCT " + c.Arg.Name + ", " + (&Lit{Kind: LitString, Str: c.Sep}).String() + ")"
	case c.Distinct:
		return c.Func + "(DISTINCT " + c.Arg.Name + ")"
	case c.By != nil:
		return c.Func + "(" + c.Arg.Name + ", " + c.By.Name + ")"
	case c.SepGiven:
		return c.Func + "(" + c.Arg.Name + ", " + (&Lit{Kind: LitString, Str: c.Sep}).String() + ")"
	}
	return c.Func + "(" + c.Arg.Name + ")"
}

// GroupItem is a GROUP BY term: time(d), series, key, op, a field or a
// series label.
type GroupItem struct {
	Bucket int64          // time(d): d in ns; 0 otherwise
	Months int            // time(3mo), time(1y): calendar months (Bucket then about as long)
	Offset int64          // time(d, offset): buckets start offset after multiples of d
	Zone   *time.Location // time(d, 'zone'): buckets on the zone's wall clock; nil: UTC
	text   string         // time(...) as written
	Col    *ColRef
	Expr   *Arith // GROUP BY hour(time), floor(value / 10): a computed value of each row
	Pos    int
}

// OrderItem is an ORDER BY term naming an output column (or alias).
type OrderItem struct {
	Name  string
	Index int    // ORDER BY 2: the result's 2nd column (1-based); 0 when by name
	Expr  *Arith // ORDER BY abs(value): computed; Name is its text
	Desc  bool
	Nulls Nulls // NULLS FIRST or LAST; 0: as the direction puts them
	Pos   int
}

// Nulls places nulls in an order: NullsDefault puts them last in
// ascending order and first in descending order, as PostgreSQL does.
type Nulls int8

// The places of nulls.
const (
	NullsDefault Nulls = iota
	NullsFirst
	NullsLast
)

// Expr is a WHERE condition.
type Expr interface{ exprNode() }

// And, Or and Not combine conditions. An And or Or the parser made of
// a form it expands (x BETWEEN a AND b, x IS NOT TRUE) keeps the form as
// written in text, which names it.
type (
	And struct {
		L, R Expr
		text string
	}
	Or struct {
		L, R Expr
		text string
	}
	Not struct{ X Expr }
)

// Compare is col op literal; Op is one of = != < <= > >=.
type Compare struct {
	Col  *ColRef
	Op   string
	Lit  *Lit
	bare bool // a bool column alone (WHERE ok): ok = true
}

// IsNull is col IS [NOT] NULL.
type IsNull struct {
	Col *ColRef
	Neg bool
}

// Like is col [NOT] LIKE 'pattern' (% any run, _ one character).
type Like struct {
	Col     *ColRef
	Pattern string
	Neg     bool
	Pos     int
}

// Regex is col =~ 're' or col !~ 're'; the match is anchored as in
// Prometheus.
type Regex struct {
	Col *ColRef
	Re  *regexp.Regexp
	Neg bool
	// text: the test as written when it was no =~ (ILIKE, SIMILAR TO)
	text string
}

// In is col [NOT] IN (lit, ...), or IN (SELECT ...): the subquery's
// values, which each run of the statement takes first (insub.go; the
// statement is not changed).
type In struct {
	Col *ColRef
	// X: arithmetic IN (SELECT ...) (hour(time) IN (SELECT ...)): the
	// term, and Col names it by its text; nil for a column's IN
	X       *Arith
	Lits    []*Lit
	Neg     bool
	Sub     *Statement
	subPos  int
	subText string // (SELECT ...) as written
	// tuple: the parts of a row value (x, y) IN (SELECT ...), X its
	// rowFunc (rowin.go); 0 otherwise
	tuple int
	// cmp: the comparison of X cmp ANY|ALL (SELECT ...) (all: ALL), at
	// cmpPos (quantified.go); "" for IN
	cmp    string
	all    bool
	cmpPos int
}

// SeriesMatch is series ~ name{label op "value", ...}.
type SeriesMatch struct {
	Col      *ColRef
	Name     string // "" matches any metric name
	Matchers []LabelMatcher
}

// LabelMatcher is one Prometheus label matcher; Op is = != =~ !~.
type LabelMatcher struct {
	Label, Op, Value string
	re               *regexp.Regexp
}

func (*And) exprNode()         {}
func (*Or) exprNode()          {}
func (*Not) exprNode()         {}
func (*Compare) exprNode()     {}
func (*IsNull) exprNode()      {}
func (*Like) exprNode()        {}
func (*Regex) exprNode()       {}
func (*In) exprNode()          {}
func (*SeriesMatch) exprNode() {}

// LitKind is the type of a literal.
type LitKind uint8

const (
	LitInt LitKind = iota
	LitFloat
	LitString
	LitBool
	LitNull
	LitTime     // now() ± durations, or a string ± durations; resolved to ns
	LitDuration // 1h30m in arithmetic: Int nanoseconds, Str as written
	LitMonths   // 1mo, 2y (INTERVAL 1 MONTH) in arithmetic: Int calendar months, Str as written
)

// Lit is a literal. A time literal holds its base (a string, or now())
// and the sum of the durations added to it; it is resolved at planning.
type Lit struct {
	Kind  LitKind
	Int   int64
	Float float64
	Str   string
	Bool  bool
	Now   bool  // LitTime based on now()
	Shift int64 // LitTime: ns added to the base
	// Months: LitTime's calendar months added to the base, before Shift
	// (now() - INTERVAL 1 MONTH; months.go)
	Months int64
	// Typed: a LitString written as a time (TIMESTAMP '...', '...'::DATE),
	// which arithmetic reads as text until it meets a time (typeof says
	// TIMESTAMP)
	Typed bool
	Pos   int
}

func (l *Lit) String() string {
	switch l.Kind {
	case LitInt:
		return strconv.FormatInt(l.Int, 10)
	case LitFloat:
		return strconv.FormatFloat(l.Float, 'g', -1, 64)
	case LitString:
		return "'" + strings.ReplaceAll(l.Str, "'", "''") + "'"
	case LitBool:
		return strconv.FormatBool(l.Bool)
	case LitNull:
		return "NULL"
	case LitDuration, LitMonths:
		return l.Str
	}
	base := "now()"
	if !l.Now {
		base = "'" + l.Str + "'"
	}
	switch {
	case l.Months > 0:
		base += " + " + monthsText(l.Months)
	case l.Months < 0:
		base += " - " + monthsText(-l.Months)
	}
	switch {
	case l.Shift > 0:
		return base + " + " + time.Duration(l.Shift).String()
	case l.Shift < 0:
		return base + " - " + time.Duration(-l.Shift).String()
	}
	return base
}
