package query

import "strings"

// CREATE TABLE and DROP TABLE, as DuckDB and PostgreSQL write them, for
// streams: CREATE TABLE name AS SELECT ... makes a new stream of a
// result (Store.Query runs it as INSERT INTO name SELECT ... that must
// create the stream), DROP TABLE name removes streams. STREAM may stand
// for TABLE.

// Create is CREATE TABLE name AS SELECT ...; Statement.Stream is the
// name.
type Create struct {
	Select      *Statement
	Pos         int  // of the name
	IfNotExists bool // IF NOT EXISTS: an existing stream is left as it is
}

// Drop is DROP TABLE name, ...: the streams to remove, in order;
// Statement.Stream is the first.
type Drop struct {
	Streams  []string
	Pos      []int // of each name
	IfExists bool  // IF EXISTS: a stream not found is skipped
}

// tableWord accepts TABLE or STREAM after CREATE or DROP (the statement's
// word, for messages).
func (p *parser) tableWord(stmt string) {
	if t := p.peek(); isKw(t, "table") || isKw(t, "stream") {
		p.advance()
		return
	}
	t := p.peek()
	switch {
	case stmt == "CREATE" && (isKw(t, "view") || isKw(t, "index") || isKw(t, "sequence") || isKw(t, "schema") || isKw(t, "macro") || isKw(t, "type")):
		p.fail(t.pos, "CREATE %s is not supported: a store holds streams (CREATE TABLE name AS SELECT ...)", strings.ToUpper(t.text))
	case stmt == "DROP" && (isKw(t, "view") || isKw(t, "index") || isKw(t, "sequence") || isKw(t, "schema") || isKw(t, "macro") || isKw(t, "type")):
		p.fail(t.pos, "DROP %s is not supported: a store holds streams (DROP TABLE name)", strings.ToUpper(t.text))
	}
	p.fail(t.pos, "expected TABLE after %s, found %s", stmt, t.describe())
}

// createStmt parses the rest of CREATE [OR REPLACE] TABLE [IF NOT
// EXISTS] name AS query, CREATE at pos.
func (p *parser) createStmt(st *Statement, pos int) {
	if t := p.peek(); isKw(t, "or") && isKw(p.tok(p.i+1), "replace") {
		p.fail(p.tok(p.i+1).pos, "CREATE OR REPLACE is not supported (a replacement would not be atomic): DROP TABLE the stream, then CREATE TABLE it")
	}
	if t := p.peek(); isKw(t, "temp") || isKw(t, "temporary") {
		p.fail(t.pos, "CREATE %s TABLE is not supported: every stream is stored (a WITH relation lasts one statement)", strings.ToUpper(t.text))
	}
	p.tableWord("CREATE")
	c := &Create{}
	if t := p.peek(); isKw(t, "if") {
		p.advance()
		p.expectKw("not")
		p.expectKw("exists")
		c.IfNotExists = true
	}
	st.Create, st.writePos = c, pos
	st.Stream, st.streamPos = p.streamName()
	c.Pos = st.streamPos
	if t := p.peek(); isPunct(t, "(") && !isKw(p.tok(p.i+1), "select") && !isKw(p.tok(p.i+1), "with") {
		p.fail(t.pos, "a stream takes its columns from the records written: CREATE TABLE %s AS SELECT ..., or INSERT INTO %s (time, series, ...) VALUES (...)", st.Stream, st.Stream)
	}
	p.expectKw("as")
	sel := &Statement{Limit: -1}
	switch t := p.peek(); {
	case isKw(t, "select") || isKw(t, "with"):
		p.selectStmt(sel)
	case isPunct(t, "("):
		p.advance()
		sel.Star = true
		p.subquery(sel, t)
		p.end()
	default:
		p.fail(t.pos, "expected SELECT after CREATE TABLE %s AS, found %s", st.Stream, t.describe())
	}
	c.Select = sel
}

// dropStmt parses the rest of DROP TABLE [IF EXISTS] name, ...
func (p *parser) dropStmt(st *Statement, pos int) {
	p.tableWord("DROP")
	d := &Drop{}
	if t := p.peek(); isKw(t, "if") {
		p.advance()
		p.expectKw("exists")
		d.IfExists = true
	}
	st.Drop, st.writePos = d, pos
	for {
		name, at := p.streamName()
		d.Streams, d.Pos = append(d.Streams, name), append(d.Pos, at)
		if !p.acceptPunct(",") {
			break
		}
	}
	st.Stream, st.streamPos = d.Streams[0], d.Pos[0]
	if t := p.peek(); isKw(t, "cascade") || isKw(t, "restrict") {
		p.fail(t.pos, "DROP TABLE ... %s: a stream has nothing depending on it; leave it out", strings.ToUpper(t.text))
	}
	p.end()
}
