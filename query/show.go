package query

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Statements that describe a store rather than read a stream's rows:
//
//	SHOW STREAMS (TABLES, ALL TABLES) stream, rows (Store.Query answers it)
//	DESCRIBE s, SHOW COLUMNS FROM s, SHOW s  column, type, nullable
//	SHOW SERIES FROM s [LIMIT n]    series, sorted
//	SHOW FUNCTIONS [LIKE 'pat']     name, kind, call, what (funcdoc.go)

// What a SHOW statement shows (Statement.Show).
const (
	ShowStreams   = "streams"
	ShowColumns   = "columns"
	ShowSeries    = "series"
	ShowFunctions = "functions"
	ShowQuery     = "query"   // DESCRIBE SELECT ...: the result's columns
	ShowSummary   = "summary" // SUMMARIZE: each column's figures (summarize.go)
)

// showStmt parses the rest of SHOW (at pos).
func (p *parser) showStmt(st *Statement, pos int) {
	st.writePos = pos
	switch t := p.advance(); {
	case isKw(t, "streams"), isKw(t, "tables"), isKw(t, "all") && isKw(p.peek(), "tables"):
		p.acceptKw("tables") // SHOW ALL TABLES, DuckDB's
		st.Show = ShowStreams
	case isKw(t, "columns"), isKw(t, "fields"):
		st.Show = ShowColumns
		p.expectKw("from")
		st.Stream, st.streamPos = p.streamName()
	case isKw(t, "functions"):
		st.Show = ShowFunctions
		if p.acceptKw("like") {
			s := p.advance()
			if s.kind != tString {
				p.fail(s.pos, "SHOW FUNCTIONS LIKE wants a pattern string, found %s", s.describe())
			}
			st.showLike = &s.text
		}
	case isKw(t, "series"):
		st.Show = ShowSeries
		p.expectKw("from")
		st.Stream, st.streamPos = p.streamName()
		if p.acceptKw("limit") {
			st.Limit = p.count("LIMIT")
		}
	case t.kind != tPunct && (p.peek().kind == tEOF || isPunct(p.peek(), ";")):
		p.i-- // SHOW s: DESCRIBE s, as in DuckDB
		p.describeStmt(st, pos)
		return
	default:
		p.fail(t.pos, "SHOW what? SHOW STREAMS, SHOW COLUMNS FROM stream, SHOW SERIES FROM stream, SHOW FUNCTIONS or SHOW stream, not %s", t.describe())
	}
	p.end()
}

// describeStmt parses the rest of DESCRIBE stream (at pos).
func (p *parser) describeStmt(st *Statement, pos int) {
	st.writePos, st.Show = pos, ShowColumns
	if t := p.peek(); isKw(t, "select") || isKw(t, "with") { // DESCRIBE SELECT ...: its result's columns
		q := &Statement{Limit: -1}
		p.selectStmt(q)
		st.Show, st.Sub = ShowQuery, q
		return
	}
	if t := p.peek(); isKw(t, "pivot") || isKw(t, "unpivot") {
		q := &Statement{Limit: -1}
		p.pivotOrUnpivot(q)
		p.end()
		st.Show, st.Sub = ShowQuery, q
		return
	}
	if !p.fileSource(st, p.peek()) { // DESCRIBE 'x.csv', read_parquet('y.parquet'): a file's
		st.Stream, st.streamPos = p.streamName()
	}
	p.end()
}

// end expects the end of the statement: an optional ";" and nothing.
func (p *parser) end() {
	p.acceptPunct(";")
	if t := p.peek(); t.kind != tEOF {
		p.fail(t.pos, "unexpected %s after the statement", t.describe())
	}
}

// execShow answers SHOW COLUMNS and SHOW SERIES from the stream's
// Source; SHOW STREAMS needs the store.
func execShow(ctx context.Context, st *Statement, text string, open Opener, o Options) (array.RecordReader, error) {
	if st.Show == ShowStreams {
		return nil, errAt(text, st.writePos, "SHOW STREAMS lists a store's streams: run it with Store.Query")
	}
	if st.Show == ShowFunctions {
		cols := []outCol{{name: "name", kind: kString}, {name: "kind", kind: kString}, {name: "call", kind: kString}, {name: "what", kind: kString}}
		return newRowsReader(o, cols, functionList(st.showLike)), nil
	}
	if st.Show == ShowQuery {
		return describeQuery(ctx, st.Sub, text, open, o)
	}
	if st.Show == ShowSummary {
		return summarize(ctx, st, text, open, o)
	}
	src, err := open(st.Stream)
	if err != nil {
		e := errAt(text, st.streamPos, "%s", strings.TrimPrefix(err.Error(), "tsq: "))
		e.err = err
		return nil, e
	}
	var rows [][]value
	var cols []outCol
	if st.Show == ShowSeries {
		names, err := Series(src, int(max(st.Limit, 0)))
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			rows = append(rows, []value{{s: n}})
		}
		cols = []outCol{{name: "series", kind: kString}}
	} else {
		fs, err := fieldsOf(context.Background(), src, nil)
		if err != nil {
			return nil, err
		}
		for _, c := range rawColumns(fs) {
			rows = append(rows, []value{{s: c.name}, {s: typeName(c.kind)}, bv(c.nullable)})
		}
		cols = []outCol{{name: "column", kind: kString}, {name: "type", kind: kString}, {name: "nullable", kind: kBool}}
	}
	return newRowsReader(o, cols, rows), nil
}

// describeQuery gives the columns of q's result: q runs for no rows
// (LIMIT 0: no block of a raw or aggregate scan is read).
func describeQuery(ctx context.Context, q *Statement, text string, open Opener, o Options) (array.RecordReader, error) {
	e := *q
	e.Limit, e.Offset = 0, 0
	rr, err := exec(ctx, &e, text, open, &o)
	if err != nil {
		return nil, err
	}
	sc := rr.Schema()
	rr.Release()
	var rows [][]value
	for _, f := range sc.Fields() {
		if isHeldCopy(f.Name) {
			continue
		}
		rows = append(rows, []value{{s: f.Name}, {s: arrowTypeName(f.Type)}, bv(f.Nullable)})
	}
	cols := []outCol{{name: "column", kind: kString}, {name: "type", kind: kString}, {name: "nullable", kind: kBool}}
	return newRowsReader(o, cols, rows), nil
}

// arrowTypeName names an Arrow type as DESCRIBE does a stream's
// columns: a dictionary of text is string, a timestamp timestamp.
func arrowTypeName(t arrow.DataType) string {
	switch t.ID() {
	case arrow.DICTIONARY:
		return arrowTypeName(t.(*arrow.DictionaryType).ValueType)
	case arrow.STRING:
		return "string"
	case arrow.TIMESTAMP:
		return "timestamp"
	case arrow.DURATION:
		return "duration"
	}
	return t.String()
}

// typeName names a column's kind as its Arrow type, simply.
func typeName(k colKind) string {
	switch k {
	case kSeq:
		return "uint64"
	case kTime:
		return "timestamp"
	case kDuration:
		return "duration"
	case kSeries, kKey, kString, kOp:
		return "string"
	case kBytes:
		return "binary"
	}
	return k.String()
}

// StreamList is the result of SHOW STREAMS: each stream with its rows.
func StreamList(names []string, rows []int64, o *Options) array.RecordReader {
	out := make([][]value, len(names))
	for i, n := range names {
		out[i] = []value{{s: n}, {i: rows[i]}}
	}
	return newRowsReader(o.withDefaults(), []outCol{{name: "stream", kind: kString}, {name: "rows", kind: kInt}}, out)
}
