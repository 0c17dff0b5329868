package query

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseGood(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		check     func(*Statement) bool
	}{
		{"star", "SELECT * FROM m", func(s *Statement) bool { return s.Star && s.Stream == "m" && s.Limit == -1 }},
		{"stream folded", "SELECT * FROM Cpu_Usage", func(s *Statement) bool { return s.Stream == "cpu_usage" }},
		{"fold stream folded", "SELECT * FROM fold(KV)", func(s *Statement) bool { return s.Stream == "kv" && s.Fold }},
		{"quoted stream kept", "SELECT * FROM `CPU`", func(s *Statement) bool { return s.Stream == "CPU" }},
		{"stream with - and .", "SELECT * FROM cpu-usage.v2 WHERE value > 1", func(s *Statement) bool { return s.Stream == "cpu-usage.v2" && s.Where != nil }},
		{"fold stream with -", "SELECT * FROM fold(osm-ch.2013) AS OF SEQ 3", func(s *Statement) bool { return s.Stream == "osm-ch.2013" && s.Fold && s.AsOf.Seq == 3 }},
		{"stream from digits", "SELECT * FROM 2024-logs LIMIT 1", func(s *Statement) bool { return s.Stream == "2024-logs" && s.Limit == 1 }},
		{"arithmetic named by its text", "SELECT a-(b-c), a - b - c, -x*2, (a+b)*c/2, max(v)-min(v) AS r, (v), -(-v) FROM m", func(s *Statement) bool {
			var names []string
			for _, it := range s.Items {
				names = append(names, it.Name())
			}
			return strings.Join(names, "|") == "a - (b - c)|a - b - c|-x * 2|(a + b) * c / 2|r|v|-(-v)" && s.Items[5].Col != nil
		}},
		{"stream with digits and letters after -", "SELECT * FROM flights-200k WHERE time > now() - 5m", func(s *Statement) bool { return s.Stream == "flights-200k" && s.Where != nil }},
		{"stream with digits and letters after .", "SELECT * FROM fold(hosts.2xlarge-1b)", func(s *Statement) bool { return s.Stream == "hosts.2xlarge-1b" && s.Fold }},
		{"stream a duration", "SELECT * FROM 5m", func(s *Statement) bool { return s.Stream == "5m" }},
		{"distinct", "SELECT DISTINCT series, host AS h FROM m", func(s *Statement) bool {
			return len(s.GroupBy) == 2 && s.GroupBy[0].Col.Name == "series" && s.GroupBy[1].Col.Name == "host" && s.Items[1].Alias == "h"
		}},
		{"a field named distinct", "SELECT distinct FROM m", func(s *Statement) bool { return s.Items[0].Col.Name == "distinct" && s.GroupBy == nil }},
		{"count distinct", "SELECT count(DISTINCT series), count(distinct) FROM m", func(s *Statement) bool {
			return s.Items[0].Agg.Distinct && s.Items[0].Agg.String() == "count(DISTINCT series)" && !s.Items[1].Agg.Distinct && s.Items[1].Agg.Arg.Name == "distinct"
		}},
		{"having", "SELECT series, count(*) FROM m GROUP BY series HAVING count(*) > 3 AND NOT avg(value) IS NULL", func(s *Statement) bool {
			a, ok := s.Having.(*And)
			return ok && a.L.(*Compare).Col.Name == "count(*)" && a.R.(*Not).X.(*IsNull).Col.Name == "avg(value)"
		}},
		{"order by position", "SELECT a, b FROM m ORDER BY 2 DESC, a", func(s *Statement) bool {
			return s.OrderBy[0].Index == 2 && s.OrderBy[0].Desc && s.OrderBy[1].Name == "a" && s.OrderBy[1].Index == 0
		}},
		{"limit offset", "SELECT * FROM m LIMIT 5 OFFSET 10", func(s *Statement) bool { return s.Limit == 5 && s.Offset == 10 }},
		{"offset alone", "SELECT * FROM m OFFSET 10", func(s *Statement) bool { return s.Limit == -1 && s.Offset == 10 }},
		{"columns", "select seq, time, value AS v from m", func(s *Statement) bool {
			return len(s.Items) == 3 && s.Items[2].Name() == "v" && s.Items[1].Col.Name == "time"
		}},
		{"fold", "SELECT * FROM fold(kv)", func(s *Statement) bool { return s.Fold && s.AsOf == nil }},
		{"fold as of seq", "SELECT * FROM fold(kv) AS OF SEQ 42", func(s *Statement) bool { return s.AsOf.Seq == 42 }},
		{"fold as of time", "SELECT * FROM fold(kv) AS OF TIME '2024-01-02T00:00:00Z' + 1h", func(s *Statement) bool {
			return s.AsOf.Time.Kind == LitTime && s.AsOf.Time.Shift == 3600e9
		}},
		{"relative time", "SELECT * FROM m WHERE time > now() - 1h30m", func(s *Statement) bool {
			c := s.Where.(*Compare)
			return c.Lit.Now && c.Lit.Shift == -5400e9 && c.Op == ">"
		}},
		{"flipped", "SELECT * FROM m WHERE 3 < value", func(s *Statement) bool {
			c := s.Where.(*Compare)
			return c.Op == ">" && c.Col.Name == "value" && c.Lit.Int == 3
		}},
		{"precedence", "SELECT * FROM m WHERE a = 1 OR b = 2 AND NOT c = 3", func(s *Statement) bool {
			o, ok := s.Where.(*Or)
			if !ok {
				return false
			}
			a, ok := o.R.(*And)
			_, neg := a.R.(*Not)
			return ok && neg
		}},
		{"like in regex", "SELECT * FROM m WHERE series LIKE 'cpu%' AND key NOT IN ('a', 'b') AND series =~ 'c.*' AND s !~ 'x'", func(s *Statement) bool {
			return strings.Count(exprString(s.Where), "AND") == 3
		}},
		{"selector", `SELECT * FROM m WHERE series ~ cpu{host="a", dc!="x", r=~"eu.*"}`, func(s *Statement) bool {
			m := s.Where.(*SeriesMatch)
			return m.Name == "cpu" && len(m.Matchers) == 3 && m.Matchers[2].re != nil
		}},
		{"selector no name", `SELECT * FROM m WHERE series ~ {host="a"}`, func(s *Statement) bool { return s.Where.(*SeriesMatch).Name == "" }},
		{"is null", "SELECT * FROM m WHERE v IS NOT NULL", func(s *Statement) bool { return s.Where.(*IsNull).Neg }},
		{"between", "SELECT * FROM m WHERE seq BETWEEN 2 AND 5", func(s *Statement) bool { _, ok := s.Where.(*And); return ok }},
		{"aggregates", "SELECT count(*), avg(value), quantile(0.99, value) AS p99 FROM m GROUP BY time(5m), series, host ORDER BY p99 DESC LIMIT 10;", func(s *Statement) bool {
			return len(s.Items) == 3 && s.Items[2].Name() == "p99" && s.GroupBy[0].Bucket == 300e9 &&
				s.GroupBy[2].Col.Name == "host" && s.OrderBy[0].Desc && s.Limit == 10
		}},
		{"order by call", "SELECT max(v) FROM m GROUP BY series ORDER BY max(v)", func(s *Statement) bool { return s.OrderBy[0].Name == "max(v)" }},
		{"explain", "EXPLAIN SELECT * FROM m", func(s *Statement) bool { return s.Explain }},
		{"delete", "DELETE FROM m WHERE v > 3;", func(s *Statement) bool {
			return s.Delete && s.Stream == "m" && s.Where.(*Compare).Op == ">" && s.Items[0].Col.Name == "seq"
		}},
		{"delete all", "explain delete from M", func(s *Statement) bool { return s.Delete && s.Explain && s.Stream == "m" && s.Where == nil }},
		{"delete field", "SELECT delete FROM m WHERE delete = 1", func(s *Statement) bool { return !s.Delete && s.Items[0].Col.Name == "delete" }},
		{"quoted names", "SELECT `my field` FROM `my-stream` WHERE `my field` = 'x''y'", func(s *Statement) bool {
			return s.Stream == "my-stream" && s.Items[0].Col.Name == "my field" && s.Where.(*Compare).Lit.Str == "x'y"
		}},
		{"negative float", "SELECT * FROM m WHERE v > -1.5e3", func(s *Statement) bool { return s.Where.(*Compare).Lit.Float == -1500 }},
		{"comment", "SELECT * -- all\nFROM m", func(s *Statement) bool { return s.Star }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := Parse(tc.src)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tc.src, err)
			}
			if !tc.check(st) {
				t.Errorf("Parse(%q) = %+v", tc.src, st)
			}
		})
	}
}

func TestParseBad(t *testing.T) {
	for _, tc := range []struct {
		src       string
		line, col int
		msg       string
	}{
		{"", 1, 1, "expected select"},
		{"SELEC value FROM m", 1, 1, "found \"SELEC\": did you mean SELECT?"},
		{"  frobnicate", 1, 3, "expected a statement (SELECT, WITH,"},
		{"SELECT avg(value) FROM m GRUOP BY series", 1, 32, `unexpected "BY" after the statement (GRUOP: did you mean GROUP?)`},
		{"SELECT * FROM m WHERE value > 1 ADN value < 3", 1, 33, `(ADN: did you mean AND?)`},
		{"SELECT", 1, 7, "expected a column name"},
		{"SELECT * FORM m", 1, 10, "expected from"},
		{"SELECT date_trunc(day, time) FROM m", 1, 19, "date_trunc wants a unit in quotes first"},
		{"SELECT date_trunc('fortnight', time) FROM m", 1, 19, `date_trunc: unknown unit "fortnight"`},
		{"SELECT time_bucket('1h', time) FROM m", 1, 20, "time_bucket wants a width such as 15m first"},
		{"SELECT time_bucket(0s, time) FROM m", 1, 20, "time_bucket of 0"},
		{"SELECT time_bucket(1mo, time, 1d) FROM m", 1, 31, "an offset is not supported with calendar buckets (1mo)"},
		{"SELECT time_bucket(1h, time, 'Mars/Olympus') FROM m", 1, 30, "Mars/Olympus"},
		{"SELECT (value + 1 FROM m", 1, 19, `expected ")", found "FROM"`},
		{"SELECT DISTINCT max(value) + 1 FROM m", 1, 17, "SELECT DISTINCT with an aggregate is not supported"},
		{"SELECT * FROM a-1e+5", 1, 15, "expected a stream name, found \"a-1e\""},
		{"SELECT * FROM m LIMIT 1 OFFSET -2", 1, 32, "OFFSET wants a non-negative integer"},
		{"SELECT a FROM m ORDER BY 0", 1, 26, "ORDER BY 0: a column's position counts from 1"},
		{"SELECT * FROM m WHERE count(*) > 1", 1, 23, "aggregate count in WHERE: WHERE tests rows; test aggregates in HAVING"},
		{"SELECT series FROM m GROUP BY series HAVING bogus(x) > 1", 1, 45, "unknown function \"bogus\""},
		{"SELECT * FROM m OFFSET 2 LIMIT 1", 1, 26, "unexpected \"LIMIT\" after the statement"},
		{"SELECT DISTINCT series, count(*) FROM m", 1, 25, "SELECT DISTINCT with an aggregate"},
		{"SELECT DISTINCT series FROM m GROUP BY series", 1, 8, "SELECT DISTINCT with GROUP BY"},
		{"SELECT sum(DISTINCT value) FROM m", 1, 12, "sum(DISTINCT ...) is not supported; count(DISTINCT x) and string_agg(DISTINCT x) are"},
		{"SELECT max(value) - FROM m", 1, 21, "expected a column name"},
		{"SELECT * FROM m WHERE", 1, 22, "expected a value"},
		{"SELECT * FROM m WHERE value >", 1, 30, "expected a value"},
		{"SELECT * FROM m\nWHERE value ! 3", 2, 13, "unexpected character"},
		{"SELECT * FROM m WHERE s = 'abc", 1, 27, "unterminated string"},
		{"SELECT * FROM m WHERE series =~ '(('", 1, 33, "bad regular expression"},
		{"SELECT avg(v) FROM m GROUP BY time(0)", 1, 36, "time bucket of 0"},
		{"SELECT avg(v) FROM m GROUP BY time(0s)", 1, 36, "time bucket of 0"},
		{"SELECT avg(v) FROM m GROUP BY time(5x)", 1, 37, "bad duration unit"},
		{"SELECT * FROM folded(m)", 1, 15, `"folded" is no view of a stream: FROM fold(stream) reads the folded view`},
		{"SELECT histogram(v) FROM m", 1, 8, "unknown function"},
		{"SELECT quantile(2, v) FROM m", 1, 17, "outside [0, 1]"},
		{"SELECT quantile(v, 0.5) FROM m", 1, 17, "the quantile first, a number in [0, 1]: quantile(0.99, v)"},
		{"SELECT quantile(-0.5, v) FROM m", 1, 17, "quantile wants a number q in [0, 1] first"},
		{"SELECT * FROM m LIMIT -1", 1, 23, "LIMIT wants"},
		{"SELECT * FROM m extra words", 1, 23, "unexpected"},
		{"SELECT * FROM fold(m) AS OF SEQ x", 1, 33, "AS OF SEQ wants"},
		{"SELECT * FROM fold(m) AS OF BANANA", 1, 29, "expected SEQ or TIME"},
		{"SELECT * FROM m WHERE series ~ cpu{host=a}", 1, 41, "quoted label value"},
		{"SELECT * FROM m WHERE select = 1", 1, 23, "expected"},
		{"  SELECT *\n  FROM m\n  WHERE (a = 1", 3, 15, `expected ")"`},
	} {
		_, err := Parse(tc.src)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%q) = %v, want *Error", tc.src, err)
			continue
		}
		if e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("Parse(%q) = line %d col %d %q, want line %d col %d containing %q\n%s",
				tc.src, e.Line, e.Col, e.Msg, tc.line, tc.col, tc.msg, e.Caret(tc.src))
		}
	}
}

func TestCaret(t *testing.T) {
	src := "SELECT *\nFROM m WHERE value ! 3"
	_, err := Parse(src)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatal(err)
	}
	want := "FROM m WHERE value ! 3\n                   ^"
	if got := e.Caret(src); got != want {
		t.Errorf("Caret:\n%s\nwant\n%s", got, want)
	}
}

// FuzzParse checks that no input panics and that every error is an
// *Error positioned inside the input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`SELECT j->'a'->>'b' || 'x', j->>-1, json_object(), json_array(1, NULL), json_group_array(x ORDER BY y) FROM m`,
		"SELECT * FROM m WHERE time > now() - 1h AND series ~ cpu{host=\"a\"}",
		"SELECT count(*), quantile(0.5, v) FROM fold(m) AS OF SEQ 3 GROUP BY time(5m), host ORDER BY count(*) DESC LIMIT 3",
		"EXPLAIN SELECT a, b AS c FROM `x` WHERE NOT (a IS NULL OR b IN (1, 2.5, 'x')) AND s LIKE 'a\\%%'",
		"SELECT * FROM m WHERE '2024-01-01' <= time",
		"SELECT 1e",
		"DELETE FROM m WHERE key = 'a' AND time < now() - 30d",
		"INSERT INTO m (time, series, key, v, s) VALUES ('2024-01-01T00:00:00Z' + 1h, 'a', NULL, -1.5, 'x'), (now(), 'b', 'k', 2, true)",
		"SELECT time, derivative(value, 1m) AS d, moving_average(avg(v) * 2, 3) FROM m GROUP BY time(5m)",
		"SELECT (SELECT max(time) FROM m) - 1h, v FROM m WHERE v > (SELECT avg(v) FROM m WHERE s = 'x') HAVING count(*) > (SELECT 1)",
		"SELECT v::int, (a + b)::decimal(9, 2), f(x)::text::double, '2024-01-01'::date + INTERVAL 2 HOURS FROM m",
		"SELECT avg(v) OVER w, sum(v) OVER (w ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) FROM m WINDOW w AS (PARTITION BY s ORDER BY time RANGE 5m PRECEDING)",
		"SELECT o.v, (SELECT v FROM m AS i WHERE i.s = o.s AND hour(time) = hour(o.time) ORDER BY time LIMIT 1) FROM m AS o WHERE NOT EXISTS (SELECT 1 FROM m WHERE m.k = o.k)",
		"SELECT a, grouping(a, b) FROM m GROUP BY ROLLUP (a, b), CUBE (c), GROUPING SETS ((d), ())",
		"SELECT s FROM m UNION SELECT s FROM w INTERSECT ALL SELECT s FROM m EXCEPT DISTINCT SELECT s FROM w ORDER BY s LIMIT 3",
		"SELECT string_agg(DISTINCT s, '; ') FROM m AS o WHERE v NOT IN (SELECT max(v) FROM m WHERE s = o.s GROUP BY k)",
		"CREATE TABLE IF NOT EXISTS r AS FROM m SELECT time, series, avg(v) AS v GROUP BY time(1h), series",
		"CREATE STREAM r AS (SELECT * FROM m WHERE v > 1)",
		"DROP TABLE IF EXISTS r, \"x-1\", m",
		"INSERT INTO r FROM m WHERE v > 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		st, err := Parse(src)
		if err == nil {
			if st == nil || st.Stream == "" {
				t.Fatalf("Parse(%q): no statement and no error", src)
			}
			return
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("Parse(%q): error %T %v is not *Error", src, err, err)
		}
		if e.Pos < 0 || e.Pos > len(src) || e.Line < 1 || e.Col < 1 {
			t.Fatalf("Parse(%q): bad position %+v", src, e)
		}
		_ = e.Caret(src)
	})
}

// TestParseTimeForms: the text time literals the query language reads,
// down to minutes, with or without a zone.
func TestParseTimeForms(t *testing.T) {
	want := time.Date(2014, 3, 1, 12, 30, 0, 0, time.UTC).UnixNano()
	for _, s := range []string{"2014-03-01T12:30:00Z", "2014-03-01T12:30:00", "2014-03-01 12:30:00", "2014-03-01 12:30:00Z",
		"2014-03-01 13:30:00+01:00", "2014-03-01T12:30", "2014-03-01 12:30", "2014-03-01T13:30+01:00", "2014-03-01 12:30Z"} {
		if got, ok := parseTime(s); !ok || got != want {
			t.Errorf("%q: %v %v", s, time.Unix(0, got).UTC(), ok)
		}
	}
	for _, s := range []string{"2014-03-01 12", "01/03/2014", "12:30"} {
		if _, ok := parseTime(s); ok {
			t.Errorf("%q read as a time", s)
		}
	}
}
