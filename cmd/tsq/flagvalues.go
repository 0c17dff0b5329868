package main

import (
	"fmt"
	"strconv"
	"time"

	"github.com/tsqdb/tsq/query"
)

// ageFlag is an optional duration flag that also takes days and weeks
// ("30d", "2w", "1d12h"), as the query language writes durations: Go's
// time.ParseDuration stops at hours. Unset, it prints no default.
type ageFlag struct {
	d   time.Duration
	set bool
}

func (f *ageFlag) String() string {
	if !f.set {
		return ""
	}
	return f.d.String()
}

func (f *ageFlag) Set(s string) error {
	d, err := parseAge(s)
	if err != nil {
		return err
	}
	f.d, f.set = d, true
	return nil
}

// parseAge parses a non-negative duration as the query language writes
// it (query.ParseDuration: units ns us ms s m h d w, as in 90d, 1w2d12h),
// or "0".
func parseAge(s string) (time.Duration, error) {
	if s == "0" {
		return 0, nil
	}
	ns, err := query.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%w: want a duration such as 90d, 2w or 36h (units ns us ms s m h d w)", err)
	}
	return time.Duration(ns), nil
}

// countFlag is an optional non-negative count flag; unset, it prints no
// default.
type countFlag struct {
	n   int64
	set bool
}

func (f *countFlag) String() string {
	if !f.set {
		return ""
	}
	return strconv.FormatInt(f.n, 10)
}

func (f *countFlag) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a count (0 or more)", s)
	}
	f.n, f.set = n, true
	return nil
}
