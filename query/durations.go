package query

import "github.com/tsqdb/tsq/internal/numtext"

// Spans of time. The difference of two instants is a span in int64
// nanoseconds, and so are duration literals (5m, INTERVAL 90 MINUTE),
// their sums and differences, their multiples by integers, their
// negations and abs, and min, max, sum, first, last, arg_max,
// arg_min and any_value of them (arithPlan.dur): computed as int64,
// compared with durations, they come out as Arrow duration[ns] columns
// (kDuration), which print as DuckDB prints an INTERVAL made by
// subtracting timestamps: "1 day 03:04:05.5", "00:03:00", "425 days",
// "-00:00:01.25". A quotient of a span (/), like any quotient, is a
// float64 of nanoseconds; avg of spans too.

// durationAggs are the aggregates whose result is one of their inputs
// (or their sum): a span when the inputs are.
var durationAggs = map[string]bool{"min": true, "max": true, "sum": true, "first": true, "last": true,
	"arg_max": true, "arg_min": true}

// durationText is a span as it prints (numtext.AppendDuration).
func durationText(ns int64) string { return string(numtext.AppendDuration(nil, ns)) }
