package interop_test

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	tsq "github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/internal/numtext"
)

// The two NAB series the ASOF cases pair: the left samples every 30
// minutes for seven months; the right samples at its own irregular
// 5-minute steps for three weeks within them, and shifted by 20 minutes
// (t) many of its times equal left times, so >= and > differ. Neither
// has two samples at one time: the right side's ASOF order has no ties,
// and the match is unique.
const (
	asofLeft  = "nab/realKnownCause/nyc_taxi"
	asofRight = "nab/realKnownCause/rogue_agent_key_updown"
)

// TestInteropJoin holds tsq's JOINs against DuckDB's on tsq's Parquet
// export of the NAB samples, both sides of each join derived from it
// (view nab in DuckDB) by subqueries written alike in both engines:
// INNER joins on time and series (duplicate samples pairing across),
// of a stream with an aggregate, of fold(nab) with USING, and of a
// float key with an int key; LEFT joins with many left rows unmatched
// (counts of NULLs, an anti-join); ASOF joins of two series by time
// (>=, a flipped strict >, <= bucketed by the left's day), by numbers
// (a float, a float against an int), and ASOF LEFT with USING (series,
// time) across all 37 series; a join of two hourly aggregates; and ON
// terms computed on each side (a.time = b.time + 7d, a truncated time
// against a subquery's day).
// Every ASOF right side is free of ties in its ordering column (per
// key), by its data or by construction (grouped by it), so that the
// match is unique. Results are compared as sorted rows: integers, text
// and times (epoch milliseconds) exactly, float64 cells within a
// relative 1e-9 (the engines sum in different orders), NULL as "null".
func TestInteropJoin(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	for _, c := range []struct{ name, tsq, duck string }{
		{"inner on time and series, per series",
			"SELECT series, count(*) AS n, sum(a.value) AS sa, sum(b.value) AS sb, count(*) FILTER (WHERE a.value != b.value) AS other " +
				"FROM (SELECT time, series, value FROM nab WHERE value > 1) AS a " +
				"JOIN (SELECT time, series, value FROM nab WHERE value < 50) AS b ON a.time = b.time AND a.series = b.series " +
				"GROUP BY series",
			"SELECT a.series, count(*) AS n, sum(a.value) AS sa, sum(b.value) AS sb, count(*) FILTER (WHERE a.value <> b.value) AS other " +
				"FROM (SELECT time, series, value FROM nab WHERE value > 1) AS a " +
				"JOIN (SELECT time, series, value FROM nab WHERE value < 50) AS b ON a.time = b.time AND a.series = b.series " +
				"GROUP BY a.series"},
		{"inner of a stream and a per-series aggregate, the samples at their series' max",
			"SELECT series, count(*) AS n, min(epoch_ms(time)) AS first, max(epoch_ms(time)) AS last, max(m.mx) AS mx " +
				"FROM nab AS s JOIN (SELECT series, max(value) AS mx FROM nab GROUP BY series) AS m ON s.series = m.series " +
				"WHERE s.value = m.mx GROUP BY series",
			"SELECT s.series, count(*) AS n, min(epoch_ms(s.time)) AS first, max(epoch_ms(s.time)) AS last, max(m.mx) AS mx " +
				"FROM nab AS s JOIN (SELECT series, max(value) AS mx FROM nab GROUP BY series) AS m ON s.series = m.series " +
				"WHERE s.value = m.mx GROUP BY s.series"},
		{"inner of fold(nab) and a per-series first time, USING (series), the first day's samples",
			"SELECT series, count(*) AS n, max(epoch_ms(f.time) - epoch_ms(m.t0)) AS span, sum(epoch_ms(m.t0)) AS t0s " +
				"FROM fold(nab) AS f JOIN (SELECT series, min(time) AS t0 FROM nab GROUP BY series) AS m USING (series) " +
				"WHERE f.time < m.t0 + 1d GROUP BY series",
			"SELECT series, count(*) AS n, max(epoch_ms(f.time) - epoch_ms(m.t0)) AS span, sum(epoch_ms(m.t0)) AS t0s " +
				"FROM nab AS f JOIN (SELECT series, min(time) AS t0 FROM nab GROUP BY series) AS m USING (series) " +
				"WHERE f.time < m.t0 + INTERVAL 1 DAY GROUP BY series"},
		{"left with unmatched rows, per series",
			"SELECT series, count(*) AS n, count(b.value) AS matched, count(*) FILTER (WHERE b.value IS NULL) AS unmatched, sum(b.value) AS sb " +
				"FROM (SELECT time, series, value FROM nab) AS a " +
				"LEFT JOIN (SELECT time, series, value FROM nab WHERE value > 50 AND minute(time) < 20) AS b USING (time, series) " +
				"GROUP BY series",
			"SELECT a.series, count(*) AS n, count(b.value) AS matched, count(*) FILTER (WHERE b.value IS NULL) AS unmatched, sum(b.value) AS sb " +
				"FROM (SELECT time, series, value FROM nab) AS a " +
				"LEFT JOIN (SELECT time, series, value FROM nab WHERE value > 50 AND minute(time) < 20) AS b USING (time, series) " +
				"GROUP BY a.series"},
		{"left anti-join (WHERE b.series IS NULL), the 50 largest left values",
			"SELECT epoch_ms(time) AS t, series, a.value FROM (SELECT time, series, value FROM nab WHERE value > 100) AS a " +
				"LEFT JOIN (SELECT time, series, value FROM nab WHERE minute(time) = 0) AS b ON a.series = b.series AND a.time = b.time " +
				"WHERE b.series IS NULL ORDER BY a.value DESC, t, series LIMIT 50",
			"SELECT epoch_ms(a.time) AS t, a.series, a.value FROM (SELECT time, series, value FROM nab WHERE value > 100) AS a " +
				"LEFT JOIN (SELECT time, series, value FROM nab WHERE minute(time) = 0) AS b ON a.series = b.series AND a.time = b.time " +
				"WHERE b.series IS NULL ORDER BY a.value DESC, t, a.series LIMIT 50"},
		{"asof >= of two series, row by row",
			"SELECT epoch_ms(time) AS lt, epoch_ms(b.t) AS rt, a.value AS lv, b.value AS rv " +
				"FROM (SELECT time, value FROM nab WHERE series = '" + asofLeft + "') AS a " +
				"ASOF JOIN (SELECT time + 20m AS t, value FROM nab WHERE series = '" + asofRight + "') AS b ON a.time >= b.t",
			"SELECT epoch_ms(a.time) AS lt, epoch_ms(b.t) AS rt, a.value AS lv, b.value AS rv " +
				"FROM (SELECT time, value FROM nab WHERE series = '" + asofLeft + "') AS a " +
				"ASOF JOIN (SELECT time + INTERVAL 20 MINUTE AS t, value FROM nab WHERE series = '" + asofRight + "') AS b ON a.time >= b.t"},
		{"asof left, strictly after (b.t > a.time), row by row",
			"SELECT epoch_ms(time) AS lt, epoch_ms(b.t) AS rt, b.value AS rv " +
				"FROM (SELECT time, value FROM nab WHERE series = '" + asofLeft + "' AND time < '2014-08-01') AS a " +
				"ASOF LEFT JOIN (SELECT time + 20m AS t, value FROM nab WHERE series = '" + asofRight + "') AS b ON b.t > a.time",
			"SELECT epoch_ms(a.time) AS lt, epoch_ms(b.t) AS rt, b.value AS rv " +
				"FROM (SELECT time, value FROM nab WHERE series = '" + asofLeft + "' AND time < TIMESTAMPTZ '2014-08-01 00:00:00+00') AS a " +
				"ASOF LEFT JOIN (SELECT time + INTERVAL 20 MINUTE AS t, value FROM nab WHERE series = '" + asofRight + "') AS b ON a.time < b.t"},
		// The right side is one row per series and hour (tie-free by
		// construction), of the hours whose every third is kept: a left
		// sample matches its own hour or one up to two hours before, or
		// an earlier one across a gap, or none before its series' first.
		{"asof left using (series, time) across all series, per series",
			"SELECT series, count(*) AS n, count(b.time) AS matched, sum(epoch_ms(b.time)) AS bt, max(epoch_ms(time) - epoch_ms(b.time)) AS lag, sum(b.n) AS bn " +
				"FROM (SELECT time, series, value FROM nab) AS a " +
				"ASOF LEFT JOIN (SELECT time, series, count(*) AS n FROM nab WHERE hour(time) % 3 = 0 AND value > 0 GROUP BY time(1h), series) AS b USING (series, time) " +
				"GROUP BY series",
			"SELECT a.series, count(*) AS n, count(b.time) AS matched, sum(epoch_ms(b.time)) AS bt, max(epoch_ms(a.time) - epoch_ms(b.time)) AS lag, sum(b.n) AS bn " +
				"FROM (SELECT time, series, value FROM nab) AS a " +
				"ASOF LEFT JOIN (SELECT date_trunc('hour', time) AS time, series, count(*) AS n FROM nab WHERE hour(time) % 3 = 0 AND value > 0 GROUP BY ALL) AS b USING (series, time) " +
				"GROUP BY a.series"},
		{"asof <= of two series (the earliest at or after), bucketed by the left's day",
			"SELECT time, count(*) AS n, count(b.t) AS matched, sum(epoch_ms(b.t) - epoch_ms(a.time)) AS wait " +
				"FROM (SELECT time, value FROM nab WHERE series = '" + asofLeft + "') AS a " +
				"ASOF LEFT JOIN (SELECT time + 20m AS t, value FROM nab WHERE series = '" + asofRight + "') AS b ON a.time <= b.t GROUP BY time(1d)",
			"SELECT epoch_ms(date_trunc('day', a.time)) AS day, count(*) AS n, count(b.t) AS matched, sum(epoch_ms(b.t) - epoch_ms(a.time)) AS wait " +
				"FROM (SELECT time, value FROM nab WHERE series = '" + asofLeft + "') AS a " +
				"ASOF LEFT JOIN (SELECT time + INTERVAL 20 MINUTE AS t, value FROM nab WHERE series = '" + asofRight + "') AS b ON a.time <= b.t GROUP BY ALL"},
		// ASOF by numbers: right sides grouped by their ordering column,
		// so it has no ties.
		{"asof >= by a float column, row by row",
			"SELECT epoch_ms(time) AS t, a.value, b.v, b.n FROM (SELECT time, value FROM nab WHERE series = 'nab/realTraffic/speed_7578') AS a " +
				"ASOF JOIN (SELECT value AS v, count(*) AS n FROM nab WHERE series = 'nab/realTraffic/speed_6005' AND value % 7 != 3 GROUP BY value) AS b ON a.value >= b.v",
			"SELECT epoch_ms(a.time) AS t, a.value, b.v, b.n FROM (SELECT time, value FROM nab WHERE series = 'nab/realTraffic/speed_7578') AS a " +
				"ASOF JOIN (SELECT value AS v, count(*) AS n FROM nab WHERE series = 'nab/realTraffic/speed_6005' AND value % 7 != 3 GROUP BY ALL) AS b ON a.value >= b.v"},
		{"asof left, a float strictly above an int, row by row",
			"SELECT epoch_ms(time) AS t, a.value, b.k, b.n FROM (SELECT time, value FROM nab WHERE series = 'nab/realTraffic/speed_t4013') AS a " +
				"ASOF LEFT JOIN (SELECT hour(time) * 3 + 2 AS k, count(*) AS n FROM nab GROUP BY k) AS b ON a.value > b.k",
			"SELECT epoch_ms(a.time) AS t, a.value, b.k, b.n FROM (SELECT time, value FROM nab WHERE series = 'nab/realTraffic/speed_t4013') AS a " +
				"ASOF LEFT JOIN (SELECT hour(time) * 3 + 2 AS k, count(*) AS n FROM nab GROUP BY ALL) AS b ON a.value > b.k"},
		{"inner of a float key with an int key",
			"SELECT a.series, a.fv, a.n, b.hn FROM (SELECT series, floor(value) AS fv, count(*) AS n FROM nab WHERE value < 24 GROUP BY series, fv) AS a " +
				"JOIN (SELECT hour(time) AS h, count(*) AS hn FROM nab GROUP BY h) AS b ON a.fv = b.h",
			"SELECT a.series, a.fv, a.n, b.hn FROM (SELECT series, floor(value) AS fv, count(*) AS n FROM nab WHERE value < 24 GROUP BY ALL) AS a " +
				"JOIN (SELECT hour(time) AS h, count(*) AS hn FROM nab GROUP BY ALL) AS b ON a.fv = b.h"},
		{"two hourly aggregates on (hour, series), row by row",
			"SELECT epoch_ms(time) AS h, series, a.av, a.n, b.mx " +
				"FROM (SELECT time, series, avg(value) AS av, count(*) AS n FROM nab GROUP BY time(1h), series) AS a " +
				"JOIN (SELECT time, series, max(value) AS mx FROM nab WHERE value > 10 GROUP BY time(1h), series) AS b USING (time, series)",
			"SELECT epoch_ms(a.time) AS h, a.series, a.av, a.n, b.mx " +
				"FROM (SELECT date_trunc('hour', time) AS time, series, avg(value) AS av, count(*) AS n FROM nab GROUP BY ALL) AS a " +
				"JOIN (SELECT date_trunc('hour', time) AS time, series, max(value) AS mx FROM nab WHERE value > 10 GROUP BY ALL) AS b USING (time, series)"},
		{"computed ON terms: week over week of every series, per series",
			"SELECT series, count(*) AS n, sum(b.value) AS prev " +
				"FROM nab AS a JOIN nab AS b ON a.series = b.series AND a.time = b.time + 7d GROUP BY series",
			"SELECT a.series, count(*) AS n, sum(b.value) AS prev " +
				"FROM nab AS a JOIN nab AS b ON a.series = b.series AND a.time = b.time + INTERVAL 7 DAY GROUP BY a.series"},
		{"computed ON terms: each sample beside its day's mean, by a truncated time",
			"SELECT series, count(*) AS n, count(*) FILTER (WHERE a.value > d.m) AS above " +
				"FROM nab AS a JOIN (SELECT series, date_trunc('day', time) AS day, avg(value) AS m FROM nab GROUP BY series, day) AS d " +
				"ON a.series = d.series AND date_trunc('day', a.time) = d.day GROUP BY series",
			"SELECT a.series, count(*) AS n, count(*) FILTER (WHERE a.value > d.m) AS above " +
				"FROM nab AS a JOIN (SELECT series, date_trunc('day', time) AS day, avg(value) AS m FROM nab GROUP BY series, day) AS d " +
				"ON a.series = d.series AND date_trunc('day', a.time) = d.day GROUP BY a.series"},
	} {
		agreeWithDuckDB(t, node, s, path, c.name, c.tsq, c.duck)
	}
}

// agreeWithDuckDB runs the tsq statement on s and the DuckDB one on the
// Parquet file path, and fails the test unless they give the same rows,
// and some (compared as joinRows and diffJoinRows do).
func agreeWithDuckDB(t *testing.T, node string, s *tsq.Store, path, name, tsqQuery, duckQuery string) {
	t.Helper()
	got, floats := joinRows(t, storeQuery(t, s, tsqQuery))
	var want [][]string
	runNode(t, node, &want, "query_parquet.mjs", path, duckQuery)
	if d := diffJoinRows(got, want, floats); d != "" {
		t.Errorf("%s: tsq and DuckDB disagree: %s\n tsq: %s\n DuckDB: %s", name, d, tsqQuery, duckQuery)
		return
	}
	if len(got) == 0 {
		t.Errorf("%s: no rows: the case shows nothing", name)
	}
	t.Logf("%s: %d rows agree", name, len(got))
}

// sameText is a statement both tsq and DuckDB run as written.
type sameText struct{ name, q string }

// agreeEach holds each case's statement against DuckDB's answer.
func agreeEach(t *testing.T, node string, s *tsq.Store, path string, cases []sameText) {
	t.Helper()
	for _, c := range cases {
		agreeWithDuckDB(t, node, s, path, c.name, c.q, c.q)
	}
}

// joinRows returns the rows of rr as cells (NULL is "null", float64 in
// Go's shortest form, a timestamp in milliseconds since the epoch) and
// which columns are float64.
func joinRows(t *testing.T, rr array.RecordReader) ([][]string, []bool) {
	t.Helper()
	defer rr.Release()
	var floats []bool
	for _, f := range rr.Schema().Fields() {
		floats = append(floats, f.Type.ID() == arrow.FLOAT64)
	}
	var out [][]string
	for rr.Next() {
		rec := rr.RecordBatch()
		for i := range int(rec.NumRows()) {
			var cells []string
			for c := range int(rec.NumCols()) {
				col := rec.Column(c)
				if col.IsNull(i) {
					cells = append(cells, "null")
					continue
				}
				switch a := col.(type) {
				case *array.Int64:
					cells = append(cells, strconv.FormatInt(a.Value(i), 10))
				case *array.Uint64: // seq
					cells = append(cells, strconv.FormatUint(a.Value(i), 10))
				case *array.Timestamp: // as DuckDB's epoch_ms
					unit := a.DataType().(*arrow.TimestampType).Unit
					cells = append(cells, strconv.FormatInt(a.Value(i).ToTime(unit).UnixMilli(), 10))
				case *array.Float64:
					cells = append(cells, strconv.FormatFloat(a.Value(i), 'g', -1, 64))
				case *array.Duration: // as DuckDB's INTERVAL::VARCHAR
					cells = append(cells, string(numtext.AppendDuration(nil, int64(a.Value(i)))))
				case *array.String:
					cells = append(cells, a.Value(i))
				case *array.Boolean:
					cells = append(cells, strconv.FormatBool(a.Value(i)))
				case *array.Dictionary:
					cells = append(cells, a.Dictionary().(*array.String).Value(a.GetValueIndex(i)))
				default:
					t.Fatalf("column %d is %s", c, a.DataType())
				}
			}
			out = append(out, cells)
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	return out, floats
}

// diffJoinRows compares tsq's rows with DuckDB's, each sorted by their
// cells (float64 columns by value), and describes the first difference;
// "" when they agree and there are at least two rows.
func diffJoinRows(got, want [][]string, floats []bool) string {
	num := func(s string) float64 {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return math.NaN()
		}
		return f
	}
	order := func(a, b []string) int {
		for pass := range 2 { // the exact columns, then the floats
			for c := range min(len(a), len(b)) {
				isFloat := c < len(floats) && floats[c]
				if isFloat != (pass == 1) {
					continue
				}
				if !isFloat {
					if r := strings.Compare(a[c], b[c]); r != 0 {
						return r
					}
				} else if r := cmp.Compare(num(a[c]), num(b[c])); r != 0 {
					return r
				}
			}
		}
		return cmp.Compare(len(a), len(b))
	}
	slices.SortFunc(got, order)
	slices.SortFunc(want, order)
	if len(got) < 2 {
		return fmt.Sprintf("tsq has %d rows: the case wants at least 2", len(got))
	}
	if len(got) != len(want) {
		return fmt.Sprintf("tsq has %d rows, DuckDB %d; first rows: tsq %.300v, DuckDB %.300v", len(got), len(want), got, want)
	}
	bad, first := 0, ""
	for i := range got {
		if !sameJoinRow(got[i], want[i], floats) {
			if bad == 0 {
				first = fmt.Sprintf("row %d: tsq %q, DuckDB %q", i, got[i], want[i])
			}
			bad++
		}
	}
	if bad > 0 {
		return fmt.Sprintf("%d of %d rows differ; first %s", bad, len(got), first)
	}
	return ""
}

// floatTolerance is the relative difference of float64 cells that
// sameJoinRow accepts (the engines sum in different orders).
var floatTolerance = 1e-9

// sameJoinRow: equal cells, float64 ones within floatTolerance.
func sameJoinRow(a, b []string, floats []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for c := range a {
		if a[c] == b[c] {
			continue
		}
		if c >= len(floats) || !floats[c] || a[c] == "null" || b[c] == "null" {
			return false
		}
		x, err1 := strconv.ParseFloat(a[c], 64)
		y, err2 := strconv.ParseFloat(b[c], 64)
		if err1 != nil || err2 != nil || math.Abs(x-y) > floatTolerance*max(math.Abs(x), math.Abs(y), 1e-3) {
			return false
		}
	}
	return true
}
