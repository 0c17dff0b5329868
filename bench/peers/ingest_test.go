package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReplicateAndPlan(t *testing.T) {
	d := &dataset{series: []series{
		{name: "a", ms: []int64{0, 1000, 86_400_000}, vals: []float64{1, 2, 3}},
		{name: "b", ms: []int64{500}, vals: []float64{4}},
	}}
	ss := replicate(d, 13)
	var names []string
	n := 0
	for _, s := range ss {
		names = append(names, s.name)
		n += len(s.ms)
	}
	if want := "a b a/copy1 b/copy1 a/copy2 b/copy2 a/copy3 b/copy3"; strings.Join(names, " ") != want || n != 16 {
		t.Fatalf("replicate: %q (%d samples), want %q (16)", names, n, want)
	}
	plan := planSlices(ss[:2], 24*time.Hour)
	if got := fmt.Sprint(plan); got != "[[{0 0 2} {1 0 1}] [{0 2 3}]]" {
		t.Fatalf("planSlices = %s", got)
	}
	dd, dropped := dedupe(&dataset{series: []series{{name: "a", ms: []int64{1, 1, 2}, vals: []float64{1, 2, 3}}}})
	if dropped != 1 || fmt.Sprint(dd.series[0].ms, dd.series[0].vals) != "[1 2] [1 3]" {
		t.Fatalf("dedupe: %v, %d dropped", dd.series, dropped)
	}
}

// TestIngestMode runs the ingest mode end to end on a small generated file.
func TestIngestMode(t *testing.T) {
	var b strings.Builder
	b.WriteString("series,ts_ms,value\n")
	t0 := int64(1392388200000)
	for s := range 3 {
		for i := range 900 { // 5-minute steps: a bit over 3 days
			fmt.Fprintf(&b, "s%d,%d,%g\n", s, t0+int64(i)*300_000, float64(i%17)*0.25+float64(s))
		}
	}
	fmt.Fprintf(&b, "s3,%d,1\ns3,%d,2\n", t0, t0) // a repeated timestamp, dropped
	path := filepath.Join(t.TempDir(), "small.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := parseFlags([]string{"-ingest", "-data", path, "-ingest-samples", "20000", "-reps", "1"})
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := runIngest(cfg, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if lines[0] != "mode\tsystem\tgoroutines\tsync\tsamples\tsamples_per_s\tfsyncs\tfsyncs_maint\tappends\tsamples_per_fsync\tbytes_on_disk" {
		t.Fatalf("header %q", lines[0])
	}
	// Per goroutine count: tsq ingest, scan1, scan2 for three modes
	// (interval, always, always-async8); prom ingest and scan1.
	if len(lines) != 1+2*(3*3+2) {
		t.Fatalf("%d lines:\n%s", len(lines), out.String())
	}
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) != 11 || f[4] != "21608" { // 8 copies of 2701 samples
			t.Errorf("row %q", l)
		}
	}
	if !strings.Contains(errOut.String(), "tsq always-async8, 8 goroutines:") {
		t.Errorf("no pipelined fsync line in the summary:\n%s", errOut.String())
	}
	if !strings.Contains(errOut.String(), "summary") {
		t.Errorf("no summary on stderr:\n%s", errOut.String())
	}
	if _, err := parseFlags([]string{"-ingest"}); err == nil {
		t.Error("-ingest without -data accepted")
	}
}
