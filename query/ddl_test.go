package query

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestParseCreateDrop: CREATE TABLE (or STREAM) [IF NOT EXISTS] name AS
// a SELECT, a WITH, a FROM-first statement or one in parentheses; DROP
// TABLE [IF EXISTS] names; and the forms tsq does not take, each refused
// at the word that makes it so.
func TestParseCreateDrop(t *testing.T) {
	for _, c := range []struct {
		src, stream string
		ifNot       bool
		sel         string // the query's stream
	}{
		{"CREATE TABLE r AS SELECT time, series, avg(v) AS v FROM m GROUP BY time(1h), series", "r", false, "m"},
		{"create stream IF NOT EXISTS R as select * from m;", "r", true, "m"},
		{"CREATE TABLE r AS FROM m WHERE v > 1", "r", false, "m"},
		{"CREATE TABLE r AS FROM m SELECT time, series WHERE v > 1", "r", false, "m"},
		{"CREATE TABLE cpu-1h.v2 AS (SELECT * FROM m) ;", "cpu-1h.v2", false, "(subquery)"},
		{"CREATE TABLE r AS WITH x AS (FROM m) SELECT * FROM x", "r", false, "x"},
	} {
		st, err := Parse(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if st.Create == nil || st.Stream != c.stream || st.Create.IfNotExists != c.ifNot || st.Create.Select == nil || st.Create.Select.Stream != c.sel ||
			st.Create.Pos != strings.Index(strings.ToLower(c.src), " "+c.stream+" ")+1 {
			t.Fatalf("%s: %+v (Create %+v)", c.src, st, st.Create)
		}
	}
	for _, c := range []struct {
		src    string
		names  []string
		ifExst bool
	}{
		{"DROP TABLE r", []string{"r"}, false},
		{"drop stream if exists r, \"Odd\", cpu-1h.v2;", []string{"r", "Odd", "cpu-1h.v2"}, true},
	} {
		st, err := Parse(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if st.Drop == nil || !slices.Equal(st.Drop.Streams, c.names) || st.Drop.IfExists != c.ifExst || st.Stream != c.names[0] {
			t.Fatalf("%s: %+v (Drop %+v)", c.src, st, st.Drop)
		}
		for i, n := range c.names {
			if p := st.Drop.Pos[i]; !strings.HasPrefix(strings.Trim(c.src[p:], `"`), n) {
				t.Fatalf("%s: name %d at byte %d: %q", c.src, i, p, c.src[p:])
			}
		}
	}
	if st, err := Parse("INSERT INTO r FROM m WHERE v > 1"); err != nil || st.Insert == nil || st.Insert.Select == nil || st.Insert.Select.Stream != "m" {
		t.Fatalf("INSERT INTO r FROM m: %v %+v", err, st)
	}
	for _, c := range []struct{ src, at, msg string }{
		{"CREATE OR REPLACE TABLE r AS SELECT * FROM m", "REPLACE", "would not be atomic"},
		{"CREATE TEMP TABLE r AS SELECT * FROM m", "TEMP", "every stream is stored"},
		{"CREATE VIEW v AS SELECT * FROM m", "VIEW", "CREATE VIEW is not supported"},
		{"CREATE r AS SELECT * FROM m", "r AS", "expected TABLE after CREATE"},
		{"CREATE TABLE r (time TIMESTAMP, v DOUBLE)", "(time", "takes its columns from the records"},
		{"CREATE TABLE r SELECT * FROM m", "SELECT", "expected as"},
		{"CREATE TABLE r AS VALUES (1)", "VALUES", "expected SELECT after CREATE TABLE r AS"},
		{"CREATE TABLE r AS SELECT * FROM m WHERE v > 1 extra", "extra", "unexpected"},
		{"CREATE TABLE IF EXISTS r AS SELECT * FROM m", "EXISTS", "expected not"},
		{"EXPLAIN CREATE TABLE r AS SELECT * FROM m", "CREATE", "EXPLAIN CREATE is not supported"},
		{"DROP r", "r", "expected TABLE after DROP"},
		{"DROP INDEX i", "INDEX", "DROP INDEX is not supported"},
		{"DROP TABLE r CASCADE", "CASCADE", "nothing depending on it"},
		{"DROP TABLE r,", "", "expected a stream name"},
		{"DROP TABLE IF r", "r", "expected exists"},
		{"EXPLAIN DROP TABLE r", "DROP", "EXPLAIN DROP is not supported"},
	} {
		_, err := Parse(c.src)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%s: %v, want %q", c.src, err, c.msg)
			continue
		}
		if at := strings.Index(c.src, c.at); c.at == "" && e.Pos != len(c.src) || c.at != "" && e.Pos != at {
			t.Errorf("%s: error at byte %d, want at %q\n%s", c.src, e.Pos, c.at, e.Caret(c.src))
		}
	}
}
