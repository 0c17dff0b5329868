package query

import (
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestTextFunctions: each text function's edges (characters, not
// bytes; out-of-range positions; empty separators; missing labels),
// constant and on columns, against written-out answers.
func TestTextFunctions(t *testing.T) {
	src, _ := testSource(t, 100, 50)
	open := openOnly(src)
	for _, c := range []struct {
		expr string
		want any
	}{
		{"lower('ÄbC')", "äbc"},
		{"upper('äbc')", "ÄBC"},
		{"trim('  a b  ')", "a b"},
		{"length('héllo')", int64(5)},
		{"substr('héllo', 2, 3)", "éll"},
		{"substr('héllo', 2)", "éllo"},
		{"substr('héllo', 0, 2)", "h"},
		{"substr('héllo', -3, 5)", "h"},
		{"substr('héllo', 9)", ""},
		{"substr('héllo', -9223372036854775807 - 1)", "héllo"},
		{"substr('héllo', 9223372036854775807, 9223372036854775807)", ""},
		{"substr('héllo', 2, 0)", ""},
		{"substr('héllo', 2, -1)", nil},
		{"replace('a-b-c', '-', '+')", "a+b+c"},
		{"replace('abc', '', 'x')", "abc"},
		{"split_part('way/42/v1', '/', 2)", "42"},
		{"split_part('way/42', '/', 3)", ""},
		{"split_part('way/42', '/', 0)", ""},
		{"split_part('way/42', '', 1)", ""},
		{"strpos('héllo', 'llo')", int64(3)},
		{"strpos('hello', 'z')", int64(0)},
		{"position('llo' IN 'héllo')", int64(3)},
		{"position(concat('l', 'o') in upper('hello') || 'lo')", int64(6)},
		{"concat('n=', 7, ' v=', 2.5, '!')", "n=7 v=2.5!"},
		{"label('cpu{host=\"a\",dc=\"x\"}', 'dc')", "x"},
		{"label('cpu{host=\"a\"}', 'dc')", ""},
		{"label('cpu{host=\"a\"}', '__name__')", "cpu"},
		{"CASE WHEN 1 > 2 THEN 'a' END", nil},
		{"CASE WHEN 1 > 2 THEN 'a' WHEN 2 > 1 THEN 'b' ELSE 'c' END", "b"},
		{"CASE WHEN 1 < 2 THEN 1 ELSE 2.5 END", 1.0},
		{"coalesce(CASE WHEN 1 > 2 THEN 'a' END, 'z')", "z"},
		{"length(concat(lower('AB'), upper('cd')))", int64(4)},
	} {
		got := mustRun(t, open, "SELECT "+c.expr+" AS x FROM m LIMIT 1")
		if len(got) != 1 || got[0][0] != c.want {
			t.Errorf("%s: %v, want %v", c.expr, got, c.want)
		}
	}
	// Text going out is valid UTF-8, invalid bytes replaced (Arrow's
	// utf8 arrays must be valid).
	if got := mustRun(t, open, "SELECT concat('a', '\xff', 'b') AS x FROM m LIMIT 1"); got[0][0] != "a\uFFFDb" {
		t.Errorf("computed text with an invalid byte: %q", got[0][0])
	}
	// A LIKE pattern with an invalid byte is no error (FuzzQuery found
	// it panicking): the byte stands for U+FFFD.
	for _, q := range []string{"SELECT count(*) FROM m WHERE s LIKE '\xe0%'", "SELECT count(*) FROM m WHERE lower(s) NOT LIKE '\xe0'",
		"SELECT count(*) FROM m WHERE concat('\xff', s) LIKE '\xff_%'"} {
		if got := mustRun(t, open, q); got[0][0] == nil {
			t.Errorf("%q: %v", q, got)
		}
	}
	if a, b := mustRun(t, open, "SELECT count(*) FROM m WHERE '\xff' || s LIKE '\xfe%'")[0][0], mustRun(t, open, "SELECT count(s) FROM m")[0][0]; a != b {
		t.Errorf("an invalid byte in the text matches one in the pattern: %v rows, want %v", a, b)
	}
	// On columns, row by row, against the same computed in Go.
	rows := mustRun(t, open, "SELECT series, s, n, upper(s), concat(series, '|', n), CASE WHEN n > 50 THEN s ELSE series END, label(series, 'host') FROM m")
	for _, r := range rows {
		series, s, n := r[0].(string), r[1], r[2]
		var up, cs any
		var cat string
		if s != nil {
			up = upperASCII(s.(string))
		}
		cat = series + "|" // concat leaves a NULL n out
		if n != nil {
			cat = series + "|" + itoa(n.(int64))
			if n.(int64) > 50 {
				cs = s
			} else {
				cs = series
			}
		} else {
			cs = series
		}
		_, labels := bruteLabels(series)
		if r[3] != up || r[4] != cat || r[5] != cs || r[6] != labels["host"] {
			t.Fatalf("row %v: got %v %v %v %v", r[:3], r[3], r[4], r[5], r[6])
		}
	}
}

func upperASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	if neg {
		b = append([]byte{'-'}, b...)
	}
	return string(b)
}

// TestTextAndCase: text and CASE where conditions, groups and
// aggregates take them, HAVING included, and what is refused.
func TestTextAndCase(t *testing.T) {
	src, _ := testSource(t, 3000, 50)
	open := openOnly(src)
	count := func(q string) int64 { return mustRun(t, open, q)[0][0].(int64) }
	for _, c := range [][2]string{
		{"SELECT count(*) FROM m WHERE lower(s) = 'delta'", "SELECT count(*) FROM m WHERE s = 'Delta'"},
		{"SELECT count(*) FROM m WHERE upper(s) LIKE 'AL%'", "SELECT count(*) FROM m WHERE s = 'alpha'"},
		{"SELECT count(*) FROM m WHERE upper(s) NOT LIKE 'AL%'", "SELECT count(*) FROM m WHERE s != 'alpha'"},
		{"SELECT count(*) FROM m WHERE concat(s, '') =~ 'b.*|g.*'", "SELECT count(*) FROM m WHERE s IN ('beta', 'gamma')"},
		{"SELECT count(*) FROM m WHERE lower(s) IN ('beta', 'gamma')", "SELECT count(*) FROM m WHERE s IN ('beta', 'gamma')"},
		{"SELECT count(*) FROM m WHERE lower(s) NOT IN ('beta', 'gamma')", "SELECT count(*) FROM m WHERE s NOT IN ('beta', 'gamma')"},
		{"SELECT count(*) FROM m WHERE CASE WHEN n > 50 THEN s END IS NULL", "SELECT count(*) FROM m WHERE n <= 50 OR n IS NULL OR s IS NULL"},
		{"SELECT count(*) FROM m WHERE CASE WHEN n > 50 THEN s END IS NOT NULL", "SELECT count(*) FROM m WHERE n > 50 AND s IS NOT NULL"},
		{"SELECT count(DISTINCT lower(s)) FROM m", "SELECT 4"},
		{"SELECT sum(CASE WHEN b THEN 1 ELSE 0 END) FROM m", "SELECT count(*) FROM m WHERE b"},
		// Text of constants compared: the same for every row (found by FuzzQuery).
		{"SELECT count(*) FROM m WHERE split_part('a/b', '/', 1) = 'a' OR s = 'x'", "SELECT count(*) FROM m"},
		{"SELECT count(*) FROM m WHERE split_part('x/beta', '/', 2) IN (s, 'a')", "SELECT count(*) FROM m WHERE s = 'beta'"},
		// DuckDB's tests of text, as conditions.
		{"SELECT count(*) FROM m WHERE starts_with(s, 'al')", "SELECT count(*) FROM m WHERE s LIKE 'al%'"},
		{"SELECT count(*) FROM m WHERE ends_with(lower(s), 'ta') AND NOT contains(s, 'bet')", "SELECT count(*) FROM m WHERE lower(s) LIKE '%ta' AND s NOT LIKE '%bet%'"},
		{"SELECT count(*) FROM m WHERE contains(series, 'host=\"a')", "SELECT count(*) FROM m WHERE strpos(series, 'host=\"a') > 0"},
		{"SELECT count(*) FROM m WHERE regexp_matches(s, 'e.a')", "SELECT count(*) FROM m WHERE s =~ '.*e.a.*'"},
		{"SELECT count(*) FROM m WHERE regexp_full_match(s, 'a|.e.*a')", "SELECT count(*) FROM m WHERE s IN ('beta', 'Delta')"},
		{"SELECT count(*) FROM m WHERE NOT regexp_full_match(s, 'alph')", "SELECT count(*) FROM m WHERE s IS NOT NULL"},
		{"SELECT sum(if(starts_with(s, 'g'), 1, 0)) FROM m", "SELECT count(*) FROM m WHERE s = 'gamma'"},
	} {
		got := count(c[0])
		want := int64(4)
		if c[1] != "SELECT 4" {
			want = count(c[1])
		}
		if got != want || want == 0 {
			t.Errorf("%s: %d, want %d", c[0], got, want)
		}
	}
	groups := mustRun(t, open, "SELECT CASE WHEN n > 50 THEN 'hi' WHEN n >= 0 THEN 'lo' END AS band, count(*) FROM m GROUP BY band")
	want := [][]any{{"hi", count("SELECT count(*) FROM m WHERE n > 50")}, {"lo", count("SELECT count(*) FROM m WHERE n <= 50")},
		{nil, count("SELECT count(*) FROM m WHERE n IS NULL")}}
	if d := diffCells(groups, want); d != "" {
		t.Errorf("GROUP BY CASE: %s", d)
	}
	for _, r := range mustRun(t, open, "SELECT lower(s) AS l, count(*), concat(l, '#', count(*)), concat(lower(s), '!') FROM m GROUP BY l") {
		l, _ := r[0].(string)
		if r[2] != l+"#"+itoa(r[1].(int64)) || r[3] != l+"!" { // concat leaves a NULL l out
			t.Errorf("a computed group inside arithmetic: %v", r)
		}
	}
	// A null fails a pattern and its negation in HAVING too: the delete
	// and drop rows' groups have no s.
	if got := mustRun(t, open, "SELECT op, first(s) FROM m GROUP BY op HAVING lower(first(s)) NOT LIKE 'zz%' ORDER BY op"); len(got) != 1 || got[0][0] != "put" {
		t.Errorf("HAVING lower(first(s)) NOT LIKE: %v, want the put group only", got)
	}
	having := mustRun(t, open, "SELECT series, count(*) FROM m GROUP BY series HAVING lower(series) LIKE 'cpu%' AND NOT series LIKE 'cpu{host=\"a\"}'")
	for _, r := range having {
		if s := r[0].(string); len(s) < 3 || s[:3] != "cpu" || s == `cpu{host="a"}` {
			t.Errorf("HAVING lower(series) LIKE: %v", r)
		}
	}
	if len(having) == 0 {
		t.Error("HAVING lower(series) LIKE kept no group")
	}
	mustRun(t, open, "SELECT series, max(CASE WHEN b THEN v END) * 2, concat(series, '!') FROM m GROUP BY series ORDER BY 1")
	wantErrors(t, open, []errCase{
		{"SELECT lower(n) FROM m", "lower() wants text, n is a int64", "n)"},
		{"SELECT substr(s, 'a') FROM m", "substr() wants an integer", "'a'"},
		{"SELECT substr(s) FROM m", "substr() takes 2 or 3 arguments, not 1", "substr"},
		{"SELECT lower(s, s) FROM m", "lower() takes 1 arguments, not 2", "lower"},
		{"SELECT CASE WHEN b THEN 1 ELSE 'a' END FROM m", "CASE values are all text, all bools or all numbers", "'a'"},
		{"SELECT series, sum(CASE WHEN count(*) > 5 THEN 1 END) FROM m GROUP BY series", "aggregate count in a CASE condition", "count"},
		{"SELECT * FROM m WHERE n LIKE 'a%'", `LIKE on int64 column "n"`, "n LIKE"},
		{"SELECT * FROM m WHERE n + 1 LIKE 'a%'", "a pattern match on n + 1, a number", "LIKE"},
		{"SELECT * FROM m WHERE CASE WHEN b THEN 1 END", "expected a comparison after CASE", ""},
		{"SELECT CASE b THEN 1 END FROM m", `CASE b wants WHEN value THEN result after it, found "THEN"`, "THEN 1"}, // CASE b ... is a simple CASE
	})
}

// TestSimpleCase: CASE v WHEN w THEN x ... END is CASE WHEN v = w THEN x
// ... END, on text, numbers and expressions, with and without ELSE.
func TestSimpleCase(t *testing.T) {
	src, _ := testSource(t, 1000, 50)
	open := openOnly(src)
	for _, c := range [][2]string{
		{"SELECT seq, CASE s WHEN 'alpha' THEN 1 WHEN 'beta' THEN 2 ELSE 0 END FROM m",
			"SELECT seq, CASE WHEN s = 'alpha' THEN 1 WHEN s = 'beta' THEN 2 ELSE 0 END FROM m"},
		{"SELECT seq, CASE n % 3 WHEN 0 THEN 'zero' WHEN 1 + 0 THEN 'one' END FROM m",
			"SELECT seq, CASE WHEN n % 3 = 0 THEN 'zero' WHEN n % 3 = 1 THEN 'one' END FROM m"},
		{"SELECT CASE lower(s) WHEN 'delta' THEN 'd' ELSE 'other' END AS k, count(*) FROM m GROUP BY k ORDER BY k",
			"SELECT CASE WHEN lower(s) = 'delta' THEN 'd' ELSE 'other' END AS k, count(*) FROM m GROUP BY k ORDER BY k"},
	} {
		sameRows(t, open, c[0], c[1], 2)
	}
	wantErrors(t, open, []errCase{
		{"SELECT CASE s WHEN 1 THEN 2 END FROM m", `type mismatch: string column "s" compared with an integer`, "1 THEN"},
		{"SELECT CASE s END FROM m", `CASE s wants WHEN value THEN result after it, found "END"`, "END"},
	})
}

// TestTextTestErrors: starts_with and the like take a string literal;
// as values they are bools (NULL of NULL text), named as written.
func TestTextTestErrors(t *testing.T) {
	src, rows := testSource(t, 100, 50)
	open := openOnly(src)
	wantErrors(t, open, []errCase{
		{"SELECT count(*) FROM m WHERE starts_with(s, key)", "starts_with wants a string literal here", "key)"},
		{"SELECT count(*) FROM m WHERE regexp_matches(s, '(')", "bad regular expression", "'('"},
		{"SELECT ends_with(s, 'a') + 1 FROM m", "arithmetic on ends_with(s, 'a'), a bool", "ends_with"},
	})
	got := mustRun(t, open, "SELECT ends_with(s, 'a'), starts_with(s, 'b')::int, contains(key, '1') OR regexp_matches(s, 'l.h') FROM m")
	for i, r := range rows {
		var end, start, either any
		if s, ok := r.f["s"].(string); ok {
			end, start = strings.HasSuffix(s, "a"), int64(0)
			if strings.HasPrefix(s, "b") {
				start = int64(1)
			}
			either = strings.Contains(r.key, "1") || regexp.MustCompile("l.h").MatchString(s)
		} else if strings.Contains(r.key, "1") {
			either = true
		}
		if d := diffCells(got[i:i+1], [][]any{{end, start, either}}); d != "" {
			t.Fatalf("row %d (%q %v): %s", i, r.key, r.f["s"], d)
		}
	}
	cols, err := columnNamesOf("SELECT ends_with(s, 'a'), contains(key, 'it''s') FROM m", open)
	if err != nil || strings.Join(cols, "|") != "ends_with(s, 'a')|contains(key, 'it''s')" {
		t.Fatalf("names %q %v", cols, err)
	}
}

// TestTextAliases: DuckDB's and PostgreSQL's other names of text
// functions give what the functions give.
func TestTextAliases(t *testing.T) {
	src, _ := testSource(t, 500, 50)
	open := openOnly(src)
	for _, c := range [][2]string{
		{"SELECT lcase(s), ucase(s), instr(s, 'a'), len(s), char_length(s), character_length(s), substring(s, 2, 3) FROM m ORDER BY seq",
			"SELECT lower(s), upper(s), strpos(s, 'a'), length(s), length(s), length(s), substr(s, 2, 3) FROM m ORDER BY seq"},
		{"SELECT count(*) FILTER (WHERE prefix(s, 'al')), count(*) FILTER (WHERE suffix(s, 'ta')) FROM m",
			"SELECT count(*) FILTER (WHERE starts_with(s, 'al')), count(*) FILTER (WHERE ends_with(s, 'ta')) FROM m"},
	} {
		sameRows(t, open, c[0], c[1], 1)
	}
}

// TestFloatRepr: CAST(x AS VARCHAR) and concat write floats as DuckDB
// does (cases checked against DuckDB 1.5).
func TestFloatRepr(t *testing.T) {
	for f, want := range map[float64]string{
		55996401: "55996401.0", 1e15: "1000000000000000.0", 1e16: "1e+16", 9999999999999998: "9999999999999998.0",
		0.0001: "0.0001", 0.00001: "1e-05", 1.5e-5: "1.5e-05", 0.1: "0.1", math.Inf(1): "inf", math.Inf(-1): "-inf",
		math.Copysign(0, -1): "-0.0", 123456789012345678: "1.2345678901234568e+17", 1e300: "1e+300", 2.5: "2.5", -3: "-3.0",
		1e-300: "1e-300", 1e21: "1e+21", 1.0 / 3: "0.3333333333333333", 1e7: "10000000.0",
	} {
		if got := string(appendFloatRepr([]byte("x"), f)); got != "x"+want {
			t.Errorf("%v: %q, want %q", f, got, "x"+want)
		}
	}
	if got := string(appendFloatRepr(nil, math.NaN())); got != "nan" {
		t.Errorf("NaN: %q", got)
	}
	// Any double: fixed digits exactly where its shortest digits'
	// exponent is from -4 up to 15.
	rng := rand.New(rand.NewPCG(3, 3))
	for i := range 200000 {
		f := math.Float64frombits(rng.Uint64())
		if i%2 == 0 { // near the bounds too
			f = []float64{1e-4, 1e16, 9999999999999998, 1e-5}[i%8/2] * (1 + float64(int64(rng.Uint32()%9)-4)*1e-16)
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		e := strconv.FormatFloat(f, 'e', -1, 64)
		exp, _ := strconv.Atoi(e[strings.LastIndexByte(e, 'e')+1:])
		want := e
		if f == 0 || exp >= -4 && exp < 16 {
			if want = strconv.FormatFloat(f, 'f', -1, 64); !strings.Contains(want, ".") {
				want += ".0"
			}
		}
		if got := string(appendFloatRepr(nil, f)); got != want {
			t.Fatalf("%v: %q, want %q", f, got, want)
		}
	}
	src, _ := testSource(t, 200, 50)
	got := mustRun(t, openOnly(src), "SELECT CAST(55996401.0 AS VARCHAR), concat('v', 2.0, 'w', 1e-5), 'a' || 0.25")
	if want := []any{"55996401.0", "v2.0w1e-05", "a0.25"}; !slices.Equal(got[0], want) {
		t.Errorf("%v, want %v", got[0], want)
	}
}

// TestASCIIChr: ascii gives the first character's code point (0 for
// ""), chr the character of one (NULL for a negative, a surrogate or
// one past U+10FFFF, which DuckDB refuses); the answers are DuckDB's.
func TestASCIIChr(t *testing.T) {
	src, _ := testSource(t, 10, 50)
	got := mustRun(t, openOnly(src), "SELECT ascii(''), ascii('A'), ascii('é'), chr(65), chr(233), chr(-1), chr(55296), chr(1114112), chr(ascii('z'))")
	want := []any{int64(0), int64(65), int64(233), "A", "é", nil, nil, nil, "z"}
	if !slices.Equal(got[0], want) {
		t.Errorf("%v, want %v", got[0], want)
	}
}
