package main

import (
	"fmt"
	"math"
	"strconv"
	"time"
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

// parseAge parses a non-negative duration of numbers with units ns, us,
// µs, ms, s, m, h, d (24h) and w (7d): "90d", "1w2d", "36h", "0".
func parseAge(s string) (time.Duration, error) {
	if s == "0" {
		return 0, nil
	}
	units := map[string]float64{"ns": 1, "us": 1e3, "µs": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9, "d": 86400e9, "w": 7 * 86400e9}
	total := 0.0
	rest := s
	for rest != "" {
		i := 0
		for i < len(rest) && (rest[i] >= '0' && rest[i] <= '9' || rest[i] == '.') {
			i++
		}
		j := i
		for j < len(rest) && !(rest[j] >= '0' && rest[j] <= '9' || rest[j] == '.') {
			j++
		}
		v, err := strconv.ParseFloat(rest[:i], 64)
		u, ok := units[rest[i:j]]
		if i == 0 || err != nil || !ok {
			return 0, fmt.Errorf("%q is not a duration such as 90d, 2w or 36h (units ns us ms s m h d w)", s)
		}
		total += v * u
		rest = rest[j:]
	}
	if s == "" || total >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is not a duration such as 90d, 2w or 36h, or too long", s)
	}
	return time.Duration(total), nil
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
