package query

import (
	"math"
	"strings"
	"testing"
	"time"
)

// TestCast: CAST and TRY_CAST convert between floats, integers and text
// (rounding to the nearest, ties to even; NULL for text that is no number and
// floats out of range), in items, conditions, aggregates and unions,
// and name their column as written; an unknown type is refused.
func TestCast(t *testing.T) {
	open := twoStreams(t)
	got := mustRun(t, open, "SELECT CAST(2.5 AS BIGINT), CAST(-3.5 AS INT), CAST(' 42 ' AS BIGINT), CAST('1e3' AS INTEGER), CAST(1e300 AS BIGINT), "+
		"CAST('x' AS BIGINT), TRY_CAST('2.25' AS DOUBLE), CAST(7 AS DOUBLE) / 2, CAST(1.5 AS VARCHAR), CAST(12 AS TEXT), CAST('-0.5' AS FLOAT)")
	want := []any{int64(2), int64(-4), int64(42), int64(1000), nil, nil, 2.25, 3.5, "1.5", "12", -0.5}
	if msg := diffCells(got, [][]any{want}); msg != "" {
		t.Fatalf("casts of constants: %s", msg)
	}
	rows := mustRun(t, open, "SELECT v, CAST(v AS BIGINT) AS i, CAST(v AS VARCHAR) AS s FROM w WHERE CAST(v AS DOUBLE) / 2 > 50")
	if len(rows) == 0 {
		t.Fatal("no rows")
	}
	for _, r := range rows {
		if r[0].(int64) <= 100 || r[1] != r[0] || r[2] != strings.TrimSpace(r[2].(string)) || r[2] == "" {
			t.Fatalf("row %v", r)
		}
	}
	rr, err := runCells("SELECT CAST(v AS BIGINT) FROM m LIMIT 1", open, nil)
	if err != nil || len(rr) != 1 {
		t.Fatalf("%v %v", rr, err)
	}
	cols, err := columnNamesOf("SELECT CAST(v AS BIGINT), try_cast(s AS double) FROM m", open)
	if err != nil || strings.Join(cols, "|") != "CAST(v AS BIGINT)|CAST(s AS DOUBLE)" {
		t.Fatalf("names %v %v", cols, err)
	}
	wantErrors(t, open, []errCase{
		{"SELECT CAST(v AS BLOB) FROM m", `CAST to "BLOB" is not supported`, "BLOB"},
		{"SELECT CAST(v) FROM m", "expected AS type in CAST(x AS type)", ")"},
		{"SELECT CAST(v AS BIGINT FROM m", `expected ")"`, "FROM"},
	})
}

// TestCastShorthand: x::type is CAST(x AS type) after a literal, a
// column, a call or a parenthesised group, chained too, with a
// precision or a length that tsq needs not; a time string cast to a
// time type is the string (it compares with times and takes durations);
// what is no cast is refused where it is.
func TestCastShorthand(t *testing.T) {
	open := twoStreams(t)
	sameRows(t, open, "SELECT v::bigint AS a, v::double / 2, (v * 3)::varchar, round(v / 7)::int::varchar, v::decimal(10, 2), '42'::integer FROM w WHERE v::double > '50'::float",
		"SELECT CAST(v AS BIGINT) AS a, CAST(v AS DOUBLE) / 2, CAST(v * 3 AS VARCHAR), CAST(CAST(round(v / 7) AS INT) AS VARCHAR), CAST(v AS DOUBLE), 42 FROM w WHERE CAST(v AS DOUBLE) > 50", 10)
	sameRows(t, open, "SELECT count(*) FROM w WHERE time >= '2020-01-01'::TIMESTAMP AND time < '2100-01-01'::date + INTERVAL 1 DAY",
		"SELECT count(*) FROM w WHERE time >= '2020-01-01' AND time < '2100-01-02'", 1)
	cols, err := columnNamesOf("SELECT v::bigint, (v + 1)::text FROM m", open)
	if err != nil || strings.Join(cols, "|") != "CAST(v AS BIGINT)|CAST(v + 1 AS VARCHAR)" {
		t.Fatalf("names %v %v", cols, err)
	}
	wantErrors(t, open, []errCase{
		{"SELECT v:: FROM m", "expected a type after ::, found \"FROM\"", "FROM"},
		{"SELECT v FROM m WHERE time > '2020-01-01'::timestamp(0", "the ( after timestamp is not closed", "(0"},
		{"SELECT v::decimal(5 FROM m", "the ( after decimal is not closed", "(5"},
		{"SELECT ::int FROM m", ":: casts the value just before it, and there is none", "::int"},
		{"SELECT v::blob FROM m", `CAST to "blob" is not supported`, "blob"},
		{"SELECT 'soon'::date FROM m", "'soon' is not a time", "'soon'"},
		{"SELECT v::varchar(x) FROM m", "expected a precision or length in varchar(...)", "x)"},
		{"SELECT v : int FROM m", "unexpected character ':'", ": int"},
	})
}

// TestCastDecimal: DECIMAL(p, s) and NUMERIC(p, s) round to s digits
// after the point (ties away from zero, as DuckDB's DECIMAL does), in
// either spelling, over constants, text and columns, with NULL kept; a
// precision alone is scale 0; the column is named as written; DECIMAL
// without (p, s) is a double.
func TestCastDecimal(t *testing.T) {
	open := twoStreams(t)
	got := mustRun(t, open, "SELECT CAST('12.345' AS DECIMAL(4,1)), 7::DECIMAL(3,2), (-2.5)::NUMERIC(3,0), NULL::DECIMAL(3,1), CAST(1.25 AS NUMERIC(9)), 0.125::DECIMAL(9,2), 0.1234::decimal")
	want := []any{12.3, 7.0, -3.0, nil, 1.0, 0.13, 0.1234}
	if msg := diffCells(got, [][]any{want}); msg != "" {
		t.Fatalf("decimal casts of constants: %s", msg)
	}
	rows := mustRun(t, open, "SELECT v, CAST(v / 7 AS DECIMAL(18,3)) FROM m WHERE v IS NOT NULL LIMIT 50")
	if len(rows) == 0 {
		t.Fatal("no rows")
	}
	for _, r := range rows {
		v, ok := r[0].(float64)
		if !ok {
			v = float64(r[0].(int64))
		}
		if want := math.Round(v/7*1000) / 1000; r[1] != want {
			t.Fatalf("CAST(%v / 7 AS DECIMAL(18,3)) = %v, want %v", v, r[1], want)
		}
	}
	cols, err := columnNamesOf("SELECT CAST(v AS numeric(5)), round(v, 2)::DECIMAL(10, 2) FROM m", open)
	if err != nil || strings.Join(cols, "|") != "CAST(v AS DECIMAL(5,0))|CAST(round(v, 2) AS DECIMAL(10,2))" {
		t.Fatalf("names %v %v", cols, err)
	}
	wantErrors(t, open, []errCase{
		{"SELECT CAST(v AS DECIMAL(10, 40)) FROM m", "expected a scale in DECIMAL(...), 0 to 38", "40"},
		{"SELECT v::DECIMAL(x) FROM m", "expected a precision or length in DECIMAL(...)", "x"},
	})
}

// TestCastTime: CAST(t AS DATE) (and t::date) is t's UTC day, as
// date_trunc('day', t) gives it, before the epoch too; TIMESTAMP and its
// spellings are t itself; a time in text cast to DATE is its day, still a
// literal that bounds the scan; what is no time is refused.
func TestCastTime(t *testing.T) {
	src, rows := testSource(t, 500, 50)
	open := openOnly(src)
	got := mustRun(t, open, "SELECT CAST(time AS DATE), time::date, CAST(time AS TIMESTAMP), time::timestamptz, CAST(time - 20000d AS date) FROM m")
	day := int64(24 * time.Hour)
	floorDay := func(ns int64) int64 { return ns - ((ns%day)+day)%day }
	var want [][]any
	for _, r := range rows {
		past := r.time - 20000*day
		want = append(want, []any{floorDay(r.time), floorDay(r.time), r.time, r.time, floorDay(past)})
	}
	if d := diffCells(got, want); d != "" {
		t.Fatal(d)
	}
	sameRows(t, open, "SELECT seq FROM m WHERE time >= '1970-01-01T00:20:00Z'::date + 1d", "SELECT seq FROM m WHERE time >= '1970-01-02'", 0)
	got = mustRun(t, open, "SELECT '2024-01-05T10:00:00Z'::date, CAST('2024-01-05 23:59' AS DATE), '1969-12-31T23:00:00Z'::DATE")
	if d := diffCells(got, [][]any{{"2024-01-05", time.Date(2024, 1, 5, 0, 0, 0, 0, time.UTC).UnixNano(), "1969-12-31"}}); d != "" {
		t.Fatal(d)
	}
	// The typed literals TIMESTAMP '...' and DATE '...' are the casts of
	// the strings.
	got = mustRun(t, open, "SELECT DATE '2024-01-05T10:00:00Z', TIMESTAMP '2024-01-05 23:59', timestamptz '1969-12-31T23:00:00Z'")
	if d := diffCells(got, [][]any{{"2024-01-05", "2024-01-05 23:59", "1969-12-31T23:00:00Z"}}); d != "" {
		t.Fatal(d)
	}
	sameRows(t, open, "SELECT seq FROM m WHERE time >= TIMESTAMP '1970-01-01 00:20:00' - 1h AND time < DATE '1970-01-03'",
		"SELECT seq FROM m WHERE time >= '1969-12-31T23:20:00Z' AND time < '1970-01-03'", 0)
	cols, err := columnNamesOf("SELECT CAST(time AS DATE), time::timestamp FROM m", open)
	if err != nil || strings.Join(cols, "|") != "CAST(time AS DATE)|CAST(time AS TIMESTAMP)" {
		t.Fatalf("names %v %v", cols, err)
	}
	wantErrors(t, open, []errCase{
		{"SELECT CAST(v AS DATE) FROM m", "CAST to DATE wants a time, not a float64", "CAST"},
		{"SELECT s::timestamp FROM m", "CAST to TIMESTAMP wants a time, not a string", "::"},
		{"SELECT 'x'::date FROM m", "'x' is not a time", "'x'"},
		{"SELECT * FROM m WHERE time > TIMESTAMP '2024-13-45'", "'2024-13-45' is not a time", "'2024"},
	})
}
