package query

import (
	"math"

	"github.com/tsqdb/tsq/internal/numtext"
)

// Spans of time. The difference of two instants is a span in int64
// nanoseconds, and so are duration literals (5m, INTERVAL 90 MINUTE),
// their sums and differences, their multiples by integers, their
// negations and abs, and min, max, sum, first, last, arg_max,
// arg_min and any_value of them (arithPlan.dur): computed as int64,
// compared with durations, they come out as Arrow duration[ns] columns
// (kDuration), which print as DuckDB prints an INTERVAL made by
// subtracting timestamps: "1 day 03:04:05.5", "00:03:00", "425 days",
// "-00:00:01.25". avg, median and the quantiles of spans are spans,
// rounded to the nanosecond; a quotient of a span (/), like any
// quotient, is a float64 of nanoseconds. to_seconds(x), to_minutes(x)
// and the like make spans of numbers; epoch(span) and epoch_ms(span) are
// its seconds and milliseconds.

// durationAggs are the aggregates whose result is one of their inputs
// (or their sum): a span when the inputs are.
var durationAggs = map[string]bool{"min": true, "max": true, "sum": true, "first": true, "last": true,
	"arg_max": true, "arg_min": true, "quantile_disc": true}

// spanUnits are DuckDB's constructors of spans, to_seconds(x) and the
// like, by the nanoseconds of their unit.
var spanUnits = map[string]int64{"to_days": 86400e9, "to_hours": 3600e9, "to_minutes": 60e9, "to_seconds": 1e9,
	"to_milliseconds": 1e6, "to_microseconds": 1e3}

// spanOf is the span of x (of kind k) units of u nanoseconds, NULL past
// int64 nanoseconds (292 years).
func spanOf(k colKind, x value, u int64) value {
	if k != kFloat {
		if x.i > math.MaxInt64/u || x.i < math.MinInt64/u {
			return nullValue
		}
		return value{i: x.i * u}
	}
	f := math.Round(x.fl() * float64(u))
	if !(f >= math.MinInt64 && f < math.MaxInt64) { // NaN too
		return nullValue
	}
	return value{i: int64(f)}
}

// spanParts are the time parts a span has, as DuckDB takes them of an
// INTERVAL of days and time: no months or years (0), whole days, then
// the hours, minutes and seconds of the time of day, and its
// milliseconds, microseconds and nanoseconds counted from the minute
// (6.789 s is 6789 ms); each part has the span's sign.
var spanParts = map[string]bool{"year": true, "month": true, "day": true, "hour": true, "minute": true,
	"second": true, "millisecond": true, "microsecond": true, "nanosecond": true}

// spanPart is time part fn (spanParts) of span ns.
func spanPart(fn string, ns int64) int64 {
	neg := ns < 0
	u := uint64(ns)
	if neg {
		u = -u
	}
	day, rest := u/nsPerDay, u%nsPerDay
	var v uint64
	switch fn {
	case "day":
		v = day
	case "hour":
		v = rest / 3600e9
	case "minute":
		v = rest / 60e9 % 60
	case "second":
		v = rest / 1e9 % 60
	case "millisecond":
		v = rest % 60e9 / 1e6
	case "microsecond":
		v = rest % 60e9 / 1e3
	case "nanosecond":
		v = rest % 60e9
	}
	if neg {
		return -int64(v)
	}
	return int64(v)
}

// spanMean is v, what window function fn gave for a column of kind k:
// a mean (float64) as a span to the nanosecond when k is one (winKind),
// anything else as it is.
func spanMean(fn string, v value, k colKind) value {
	if fn != "avg" || k != kDuration || v.null {
		return v
	}
	return value{i: int64(math.Round(v.fl()))}
}

// durationText is a span as it prints (numtext.AppendDuration).
func durationText(ns int64) string { return string(numtext.AppendDuration(nil, ns)) }

const nsPerDay = 24 * 3600e9
