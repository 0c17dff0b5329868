package interop_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// TestStoreAggregates checks tsq's own per-series aggregates (Store.Query)
// against the Go values that the DuckDB and apache-arrow answers are
// compared with, so tsq, DuckDB and apache-arrow all agree.
func TestStoreAggregates(t *testing.T) {
	samples, s := nabShared(t)
	want := goAggregates(samples)
	rr := storeQuery(t, s, "SELECT count(value), sum(value), avg(value), min(value), max(value), count(*) FROM nab GROUP BY series")
	defer rr.Release()
	got := map[string]agg{}
	for rr.Next() {
		rec := rr.RecordBatch()
		if rec.NumCols() != 7 {
			t.Fatalf("schema %v", rec.Schema())
		}
		series, ok := rec.Column(0).(*array.Dictionary)
		if !ok {
			t.Fatalf("series column is %v", rec.Column(0).DataType())
		}
		names := series.Dictionary().(*array.String)
		f64 := func(c, i int) *float64 {
			a := rec.Column(c).(*array.Float64)
			if a.IsNull(i) {
				return nil
			}
			v := a.Value(i)
			return &v
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			name := names.Value(series.GetValueIndex(i))
			g := agg{
				Count: rec.Column(1).(*array.Int64).Value(i),
				Avg:   f64(3, i), Min: f64(4, i), Max: f64(5, i),
				Rows: rec.Column(6).(*array.Int64).Value(i),
				// tsq's query has no time range per series here; take Go's.
				MinTime: want[name].MinTime, MaxTime: want[name].MaxTime,
			}
			if s := f64(2, i); s != nil {
				g.Sum = *s
			}
			got[name] = g
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	compareAggregates(t, "tsq Store.Query", got, want)
}

// TestInteropArgExtremes holds arg_max and arg_min (max_by, min_by)
// against DuckDB's first(x ORDER BY ...), which states the tie-break
// tsq documents: the earliest row by (time, seq) of those with the
// extreme value.
func TestInteropArgExtremes(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	agreeWithDuckDB(t, node, s, path, "the time of each series' peak and trough, per week",
		"SELECT series, epoch_ms(date_trunc('week', time)) AS w, arg_max(epoch_ms(time), value) AS peak, max_by(value * 2, value) AS v2, "+
			"arg_min(epoch_ms(time), round(value)) AS trough, min_by(series, value) AS s FROM nab GROUP BY series, w ORDER BY series, w",
		"SELECT series, epoch_ms(date_trunc('week', time)) AS w, first(epoch_ms(time) ORDER BY value DESC, time, seq) AS peak, first(value * 2 ORDER BY value DESC, time, seq) AS v2, "+
			"first(epoch_ms(time) ORDER BY round(value), time, seq) AS trough, first(series ORDER BY value, time, seq) AS s FROM nab GROUP BY series, w ORDER BY series, w")
}

// TestInteropStringAgg holds string_agg against DuckDB's, ordered as
// tsq orders it: by (time, seq).
func TestInteropStringAgg(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	agreeWithDuckDB(t, node, s, path, "the series above 90 in each hour of a day, in time order",
		"SELECT epoch_ms(time_bucket(1h, time)) AS h, string_agg(split_part(series, '/', 3), ' ') AS hot, string_agg(series) AS s2 FROM nab "+
			"WHERE value > 90 AND time >= '2014-04-10' AND time < '2014-04-11' GROUP BY h ORDER BY h",
		"SELECT epoch_ms(time_bucket(INTERVAL 1 hour, time)) AS h, string_agg(split_part(series, '/', 3), ' ' ORDER BY time, seq) AS hot, string_agg(series, ',' ORDER BY time, seq) AS s2 FROM nab "+
			"WHERE value > 90 AND time >= '2014-04-10' AND time < '2014-04-11' GROUP BY h ORDER BY h")
}

// TestInteropBivariate holds corr, covar_pop, covar_samp and the least
// squares line (regr_slope, regr_intercept, regr_r2, regr_count)
// against DuckDB's, per series and per series and day: value against
// time (its trend) and against the hour of the day. Where a variance is
// 0 tsq's corr is null, as SQL says, and DuckDB's NaN, which it is told.
func TestInteropBivariate(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	const items = "corr(value, epoch(time)) AS c, covar_pop(value, epoch(time)) AS cp, covar_samp(value, hour(time)) AS cs, regr_slope(value, epoch(time)) AS sl, " +
		"regr_intercept(value, hour(time)) AS ic, regr_r2(value, hour(time)) AS r2, regr_count(value, hour(time)) AS n"
	agreeWithDuckDB(t, node, s, path, "value against time and the hour, per series",
		"SELECT series, "+items+" FROM nab GROUP BY series ORDER BY series",
		"SELECT series, "+items+" FROM nab GROUP BY series ORDER BY series")
	agreeWithDuckDB(t, node, s, path, "value against the minute, per series and day (days of constant values included)",
		"SELECT series, epoch_ms(date_trunc('day', time)) AS d, corr(value, minute(time)) AS c, regr_slope(value, minute(time)) AS sl, regr_r2(value, minute(time)) AS r2, covar_samp(value, minute(time)) AS cs "+
			"FROM nab WHERE series LIKE 'nab/realAWSCloudwatch/%' GROUP BY series, d ORDER BY series, d",
		"SELECT series, epoch_ms(date_trunc('day', time)) AS d, nullif(corr(value, minute(time)), 'NaN'::DOUBLE) AS c, regr_slope(value, minute(time)) AS sl, regr_r2(value, minute(time)) AS r2, covar_samp(value, minute(time)) AS cs "+
			"FROM nab WHERE series LIKE 'nab/realAWSCloudwatch/%' GROUP BY series, d ORDER BY series, d")
}

// TestInteropQuantiles holds tsq's quantile spellings against DuckDB's:
// quantile_cont and percentile_cont (interpolated, ascending and
// descending), quantile_disc and percentile_disc (a value of the group),
// per series and day.
func TestInteropQuantiles(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	const items = "quantile_cont(value, 0.9) AS c9, percentile_cont(0.25) WITHIN GROUP (ORDER BY value DESC) AS c25d, quantile_disc(value, 0.5) AS d5, " +
		"percentile_disc(0.9) WITHIN GROUP (ORDER BY value) AS d9, quantile_disc(value, 0.33) AS d33, percentile_disc(0) WITHIN GROUP (ORDER BY value) AS d0"
	agreeWithDuckDB(t, node, s, path, "quantiles per series and day",
		"SELECT series, epoch_ms(date_trunc('day', time)) AS d, "+items+" FROM nab WHERE series LIKE 'nab/realKnownCause/%' GROUP BY series, d ORDER BY series, d",
		"SELECT series, epoch_ms(date_trunc('day', time)) AS d, "+items+" FROM nab WHERE series LIKE 'nab/realKnownCause/%' GROUP BY series, d ORDER BY series, d")
}

// TestInteropScalarSubquery holds scalar subqueries against DuckDB's:
// in WHERE, an aggregate's FILTER and an item's arithmetic, of numbers
// and of times.
func TestInteropScalarSubquery(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	q := "SELECT series, count(*) FILTER (WHERE value > (SELECT avg(value) FROM nab)) AS above, round(avg(value) - (SELECT avg(value) FROM nab), 6) AS d, " +
		"count(*) FILTER (WHERE time > (SELECT max(time) FROM nab) - INTERVAL 30 DAY) AS recent FROM nab WHERE value < (SELECT max(value) FROM nab) / 2 GROUP BY series ORDER BY series"
	agreeWithDuckDB(t, node, s, path, "scalar subqueries in WHERE, FILTER and items", q, q)
}

// TestInteropCountIf holds count_if and any_value (tsq's: the group's
// first by time and seq, which DuckDB is told) against DuckDB's.
func TestInteropCountIf(t *testing.T) {
	node := requireNode(t)
	s, path := nabParquet(t)
	agreeWithDuckDB(t, node, s, path, "count_if and any_value per series",
		"SELECT series, count_if(value > 50 AND hour(time) < 12) AS morning_hot, count_if(value <= 1) AS idle, any_value(epoch_ms(time)) AS t0 FROM nab GROUP BY series ORDER BY series",
		"SELECT series, count_if(value > 50 AND hour(time) < 12) AS morning_hot, count_if(value <= 1) AS idle, first(epoch_ms(time) ORDER BY time, seq) AS t0 FROM nab GROUP BY series ORDER BY series")
}
