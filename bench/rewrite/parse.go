package main

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// run is one pass's figures, from BenchmarkCompactRewrite's log line.
type run struct {
	pass, cpu, sys, copy time.Duration
	ratio                float64 // pass MB/s over copy MB/s (the log's, to more digits)
	faults               int
}

func (r run) String() string {
	return fmt.Sprintf("pass %v, CPU %v (system %v), %d page faults, copy %v, ratio %.2f", r.pass, r.cpu, r.sys, r.faults, r.copy, r.ratio)
}

// logLine matches the figures of the benchmark's log line (see
// benchCompactRewrite); durations as time.Duration prints them.
var logLine = regexp.MustCompile(`; pass (\S+) \(fold [^;]*; (\d+) MB/s; CPU (\S+) \(system (\S+)\), .*?, (\d+) page faults, .*?\), copy (\S+) \((\d+) MB/s\), ratio [0-9.]+;`)

// parse returns the figures of the benchmark's output: exactly one pass.
func parse(out string) (run, error) {
	m := logLine.FindAllStringSubmatch(out, -1)
	if len(m) != 1 {
		return run{}, fmt.Errorf("want one pass's log line in the benchmark's output, found %d: %s", len(m), strings.TrimSpace(out))
	}
	f := m[0][1:]
	var r run
	var err error
	for i, d := range map[int]*time.Duration{0: &r.pass, 2: &r.cpu, 3: &r.sys, 5: &r.copy} {
		if *d, err = time.ParseDuration(f[i]); err != nil {
			return run{}, fmt.Errorf("log line: %w", err)
		}
	}
	var ints [3]int // page faults, pass MB/s, copy MB/s
	for k, i := range []int{4, 1, 6} {
		if ints[k], err = strconv.Atoi(f[i]); err != nil {
			return run{}, fmt.Errorf("log line: %w", err)
		}
	}
	if ints[2] == 0 {
		return run{}, fmt.Errorf("log line: copy at 0 MB/s")
	}
	r.faults, r.ratio = ints[0], float64(ints[1])/float64(ints[2])
	return r, nil
}

// summarize returns a line of medians of runs (at least one) of build
// name, and how many ran below target.
func summarize(name string, runs []run, target float64) string {
	durs := func(get func(run) time.Duration) time.Duration {
		v := make([]time.Duration, len(runs))
		for i, r := range runs {
			v[i] = get(r)
		}
		return median(v)
	}
	ratios := make([]float64, len(runs))
	below := 0
	for i, r := range runs {
		ratios[i] = r.ratio
		if r.ratio < target {
			below++
		}
	}
	return fmt.Sprintf("%s: %d runs, medians: pass %v, CPU %v (system %v), copy %v, ratio %.3f (%.2f–%.2f), %d below %.2f",
		name, len(runs), durs(func(r run) time.Duration { return r.pass }).Round(10*time.Microsecond),
		durs(func(r run) time.Duration { return r.cpu }).Round(10*time.Microsecond),
		durs(func(r run) time.Duration { return r.sys }).Round(10*time.Microsecond),
		durs(func(r run) time.Duration { return r.copy }).Round(10*time.Microsecond),
		median(ratios), slices.Min(ratios), slices.Max(ratios), below, target)
}

// median returns the median of v (not empty), the mean of the middle two
// for an even count.
func median[T time.Duration | float64](v []T) T {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
