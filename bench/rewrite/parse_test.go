package main

import (
	"strings"
	"testing"
	"time"
)

// A log line of BenchmarkCompactRewrite as it prints it.
const sampleOut = `goos: linux
BenchmarkCompactRewrite/scattered-2         	       1	  68451141 ns/op	      2508 copy-MB/s	      2479 dcopy-MB/s	         0.5370 dratio	      1331 pass-MB/s	         0.5309 ratio
    compaction_bench_test.go:289: 400000 puts, 3 segments, 22.5 MB -> 20.4 MB, 40000 rows dropped; pass 32.190739ms (fold 30.151658ms, rewrite 1.253255ms; 1331 MB/s; CPU 55.44ms (system 22.168ms), 773 MB per CPU-second, 549 page faults, 22.4 MB allocated in 3659 objects, 0 GCs, 3.1 MB of blocks held), copy 17.930673ms (2508 MB/s), ratio 0.53; direct copy 18.137979ms (2479 MB/s), ratio 0.54
PASS
`

func TestParse(t *testing.T) {
	r, err := parse(sampleOut)
	if err != nil {
		t.Fatal(err)
	}
	want := run{pass: 32190739 * time.Nanosecond, cpu: 55440 * time.Microsecond, sys: 22168 * time.Microsecond,
		copy: 17930673 * time.Nanosecond, ratio: 1331.0 / 2508, faults: 549}
	if r != want {
		t.Fatalf("parse = %v, want %v", r, want)
	}
	for _, bad := range []string{
		"",                           // no pass
		strings.Repeat(sampleOut, 2), // two passes: -test.count was not 1
		strings.Replace(sampleOut, "pass 32.190739ms", "pass 32.19xs", 1),
		strings.Replace(sampleOut, "(2508 MB/s)", "(0 MB/s)", 1),
	} {
		if _, err := parse(bad); err == nil {
			t.Errorf("parse accepted %.80q", bad)
		}
	}
}

func TestSummarize(t *testing.T) {
	runs := []run{
		{pass: 30 * time.Millisecond, cpu: 50 * time.Millisecond, copy: 18 * time.Millisecond, ratio: 0.55},
		{pass: 40 * time.Millisecond, cpu: 60 * time.Millisecond, copy: 17 * time.Millisecond, ratio: 0.45},
		{pass: 34 * time.Millisecond, cpu: 54 * time.Millisecond, copy: 19 * time.Millisecond, ratio: 0.49},
		{pass: 36 * time.Millisecond, cpu: 58 * time.Millisecond, copy: 20 * time.Millisecond, ratio: 0.52},
	}
	got := summarize("b.test", runs, 0.5)
	want := "b.test: 4 runs, medians: pass 35ms, CPU 56ms (system 0s), copy 18.5ms, ratio 0.505 (0.45–0.55), 2 below 0.50"
	if got != want {
		t.Fatalf("summarize =\n%s\nwant\n%s", got, want)
	}
	if m := median([]float64{3, 1, 2}); m != 2 {
		t.Fatalf("median of 3, 1, 2 = %v", m)
	}
}
