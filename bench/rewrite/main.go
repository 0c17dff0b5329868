// Command rewrite runs BenchmarkCompactRewrite (the root package) many
// times, one pass a process, and prints the medians of each build's
// figures: a single pass against a single copy is noisy on a shared
// machine, and the first pass of a process is the one a long-lived store
// makes hours after the last.
//
//	go run ./bench/rewrite -shape scattered -rounds 30
//	go run ./bench/rewrite -rounds 30 /tmp/a.test /tmp/b.test
//
// With no arguments it builds the root package's test binary from the
// working tree (go test -c). Given test binaries (built with go test -c,
// e.g. from two revisions), it runs them in turn within each round, so
// that the machine's slow minutes fall on every build alike.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	if err := rewrite(); err != nil {
		fmt.Fprintln(os.Stderr, "rewrite:", err)
		os.Exit(1)
	}
}

func rewrite() error {
	shape := flag.String("shape", "scattered", "the benchmark's shape: scattered, runs or osm")
	rounds := flag.Int("rounds", 20, "rounds; each runs every build once")
	target := flag.Float64("target", 0.5, "the ratio to the copy that runs are counted against")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: rewrite [flags] [test binary...]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	switch {
	case *rounds < 1:
		return fmt.Errorf("-rounds %d: want at least 1", *rounds)
	case *shape != "scattered" && *shape != "runs" && *shape != "osm":
		return fmt.Errorf("-shape %q: want scattered, runs or osm", *shape)
	}
	bins := flag.Args()
	if len(bins) == 0 {
		dir, err := os.MkdirTemp("", "tsq-rewrite-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		bin := filepath.Join(dir, "tsq.test")
		build := exec.Command("go", "test", "-c", "-o", bin, ".")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("go test -c (run from the module's root): %w", err)
		}
		bins = []string{bin}
	}
	names := make([]string, len(bins))
	for i, bin := range bins {
		names[i] = filepath.Base(bin)
	}
	if flag.NArg() == 0 {
		names[0] = "working tree"
	}
	runs := make([][]run, len(bins))
	for r := range *rounds {
		for i, bin := range bins {
			got, err := once(bin, *shape)
			if err != nil {
				return fmt.Errorf("round %d, %s: %w", r+1, bin, err)
			}
			runs[i] = append(runs[i], got)
			fmt.Fprintf(os.Stderr, "round %d, %s: %s\n", r+1, names[i], got)
		}
	}
	for i := range bins {
		fmt.Println(summarize(names[i], runs[i], *target))
	}
	return nil
}

// once runs one pass of the benchmark's shape with bin and parses its log
// line.
func once(bin, shape string) (run, error) {
	cmd := exec.Command(bin, "-test.run", "^$", "-test.bench", "CompactRewrite/"+shape+"$",
		"-test.benchtime", "1x", "-test.count", "1")
	// In the working directory: the osm shape reads ../shared/data from
	// the module's root, as go test runs it.
	out, err := cmd.CombinedOutput()
	if err != nil {
		return run{}, fmt.Errorf("%w: %s", err, lastLines(out, 5))
	}
	return parse(string(out))
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
