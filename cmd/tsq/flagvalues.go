package main

import (
	"fmt"
	"strconv"
	"strings"
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

// sizeFlag is a byte size flag: a number of bytes, or one with a unit,
// binary (KiB, MiB, GiB, and K, M, G, as tools write them) or decimal
// (kB, MB, GB): 256MiB, 1G, 512M.
type sizeFlag struct{ n int64 }

func (f *sizeFlag) String() string {
	if f.n == 0 {
		return ""
	}
	return strconv.FormatInt(f.n, 10)
}

func (f *sizeFlag) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	f.n = n
	return nil
}

// parseSize parses a non-negative byte size (sizeFlag).
func parseSize(s string) (int64, error) {
	num := strings.TrimRightFunc(s, func(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r == ' ' })
	unit := strings.ToLower(strings.TrimSpace(s[len(num):]))
	mult := map[string]float64{"": 1, "b": 1, "k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gib": 1 << 30,
		"kb": 1e3, "mb": 1e6, "gb": 1e9}[unit]
	v, err := strconv.ParseFloat(num, 64)
	if mult == 0 || err != nil || v < 0 || v*mult >= 1<<62 {
		return 0, fmt.Errorf("bad size %q: want bytes, or a number with KiB, MiB, GiB (K, M, G) or kB, MB, GB, such as 256MiB", s)
	}
	return int64(v * mult), nil
}
