package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/seg"
)

func fmtInt(i int) string { return strconv.Itoa(i) }

func TestErrorsAreOneLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bogus"}, `tsq: unknown command "bogus"`},
		{[]string{"--store"}, "tsq: --store needs a directory"},
		{[]string{"--store", "/nonexistent/x", "stats"}, "tsq: no store at /nonexistent/x"},
		{[]string{"query", "-c", "x", "extra"}, "tsq: query: give -c or a file, not both"},
		{[]string{"query", "--nope"}, "tsq: query: flag provided but not defined: -nope"},
		{[]string{"retention"}, "tsq: retention: give one STREAM"},
		{[]string{"export", "x.arrow"}, "tsq: export: give -c STATEMENT and one FILE"},
		{[]string{"import", "-"}, "tsq: import: --stream is needed when reading stdin"},
	} {
		r := runTSQ(t, "", c.args...)
		if r.code == 0 || !strings.HasPrefix(r.stderr, c.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: exit %d stderr %q, want one line starting %q", c.args, r.code, r.stderr, c.want)
		}
	}
}

func TestHelpAndVersion(t *testing.T) {
	r := runTSQ(t, "", "help")
	for _, c := range commandNames() {
		if !strings.Contains(r.stdout, "  "+c+" ") {
			t.Errorf("help lacks %s", c)
		}
	}
	if r := runTSQ(t, "", "help", "query"); r.code != 0 || !strings.Contains(r.stdout, "-plot") {
		t.Errorf("help query: %+v", r)
	}
	if r := runTSQ(t, "", "version"); r.code != 0 || !strings.HasPrefix(r.stdout, "tsq ") || !strings.Contains(r.stdout, fmt.Sprintf("formats: block 1–%d, segment 1–%d,", chunk.CurrentVersion, seg.CurrentVersion)) {
		t.Errorf("version: %+v", r)
	}
}

func TestStoreDefault(t *testing.T) {
	e := &env{getenv: func(k string) string {
		return map[string]string{"XDG_DATA_HOME": "/x/data", "HOME": "/home/u"}[k]
	}}
	if d, _ := e.storeDir(); d != filepath.Join("/x/data", "tsq") {
		t.Fatalf("got %s", d)
	}
	e.getenv = func(k string) string { return map[string]string{"HOME": "/home/u"}[k] }
	if d, _ := e.storeDir(); d != "/home/u/.local/share/tsq" {
		t.Fatalf("got %s", d)
	}
	e.store = "/s"
	if d, _ := e.storeDir(); d != "/s" {
		t.Fatalf("got %s", d)
	}
}

func TestStats(t *testing.T) {
	dir := demoStore(t)
	r := runTSQ(t, "", "--store", dir, "stats")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	for _, want := range []string{"cpu     16128", "rows/block", "2014-02-14T14:27:00Z", "osm", "█"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stats lack %q:\n%s", want, r.stdout)
		}
	}
	// Named streams only (unquoted names fold to lower case, as in
	// queries); a name that is not a stream is an error.
	r = runTSQ(t, "", "--store", dir, "stats", "OSM")
	if r.code != 0 || strings.Count(r.stdout, "\n") != 2 || !strings.Contains(r.stdout, "\nosm ") || strings.Contains(r.stdout, "cpu") {
		t.Fatalf("stats OSM: %+v", r)
	}
	r = runTSQ(t, "", "--store", dir, "stats", "cpu", "nosuch")
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, `no stream "nosuch"`) {
		t.Fatalf("stats nosuch: %+v", r)
	}
	r = runTSQ(t, ".stats cpu\n", "--store", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "\ncpu ") || strings.Contains(r.stdout, "osm") {
		t.Fatalf(".stats cpu: %+v", r)
	}
}

// TestActivity: rows spread over buckets by time, with single-instant
// blocks far from the start (float rounding) counted whole, a block whose
// times are known counted where each row falls, and buckets without rows
// blank.
func TestActivity(t *testing.T) {
	day := int64(86400e9)
	t0 := int64(1281015356e9)
	blocks := []statBlock{
		{meta: seg.BlockMeta{Rows: 100, MinTime: t0, MaxTime: t0 + 31*day}}, // spread over all 32 buckets
		{meta: seg.BlockMeta{Rows: 1, MinTime: t0 + 20*day, MaxTime: t0 + 20*day}},
		{meta: seg.BlockMeta{Rows: 50, MinTime: t0 + 31*day + day/2, MaxTime: t0 + 31*day + day/2}},
	}
	got := activity(blocks, t0, t0+32*day-1)
	// About 3.2 rows a bucket, 4.2 in bucket 20, 53 in the last: 0.42, 0.55 and 7 eighths.
	if got != "▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▂▁▁▁▁▁▁▁▁▁▁█" {
		t.Fatalf("got %q", got)
	}
	if got := activity(blocks[1:2], t0, t0+1000*day); strings.Count(got, " ") != sparkWidth-1 || !strings.Contains(got, "█") {
		t.Fatalf("one row in a bucket, the others blank: %q", got)
	}
	// The first block's rows known: 96 on the last day, 4 on the first.
	blocks[0].times = []int64{t0, t0, t0, t0}
	for range 96 {
		blocks[0].times = append(blocks[0].times, t0+31*day+1)
	}
	if got := activity(blocks, t0, t0+32*day-1); got != "▁                   ▁          █" {
		t.Fatalf("with times: %q", got)
	}
}

// TestStatsExactTimes: tsq stats draws a block whose rows span years by
// where its rows fall (the demo's OpenStreetMap edits: most in the last
// month), not spread evenly over its span, unless reading it would pass
// the bytes stats may read.
func TestStatsExactTimes(t *testing.T) {
	dir := demoStore(t)
	r := runTSQ(t, "", "--store", dir, "stats", "osm")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(lines) != 2 {
		t.Fatalf("%+v", r)
	}
	spark := []rune(lines[1])
	spark = spark[len(spark)-sparkWidth:]
	if spark[len(spark)-1] != '█' || strings.Count(string(spark), "█") != 1 || !strings.ContainsRune(string(spark), ' ') {
		t.Errorf("osm's rows over time: %q, want the last month's spike", string(spark))
	}
	// Past the bytes it may read, a block is spread evenly: no gap.
	defer func(n int) { exactBytes = n }(exactBytes)
	exactBytes = 100
	r = runTSQ(t, "", "--store", dir, "stats", "osm")
	if lines = strings.Split(strings.TrimSpace(r.stdout), "\n"); r.code != 0 || len(lines) != 2 {
		t.Fatalf("%+v", r)
	}
	if even := []rune(lines[1]); strings.ContainsRune(string(even[len(even)-sparkWidth:]), ' ') {
		t.Errorf("over the budget: %q, want the block spread evenly", string(even[len(even)-sparkWidth:]))
	}
}

func TestErrText(t *testing.T) {
	inner := errors.New("tsq: store is read-only")
	for _, c := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("tsq: compact %q: %w", "x", inner), `compact "x": store is read-only`},
		{fmt.Errorf("tsq: gc: %w", fmt.Errorf("tsq: journal: %w", inner)), "gc: journal: store is read-only"},
		{errors.New("import: give a FILE\nor -"), "import: give a FILE; or -"},
		{errors.New(`query: "tsq:x"`), `query: "tsq:x"`},
	} {
		if got := errText(c.err); got != c.want {
			t.Errorf("%v: %q, want %q", c.err, got, c.want)
		}
	}
}

// TestParseSize: --memory takes bytes or a size with a binary or decimal
// unit, and refuses anything else with what it wants.
func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"67108864": 64 << 20, "64MiB": 64 << 20, "64M": 64 << 20, "1G": 1 << 30, "1.5GiB": 3 << 29,
		"512 KiB": 512 << 10, "100MB": 100e6, "2kB": 2000, "10b": 10} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MiB", "12x", "-1M", "1e30G", "1TiB"} {
		if _, err := parseSize(in); err == nil || !strings.Contains(err.Error(), "such as 256MiB") {
			t.Errorf("%q: %v", in, err)
		}
	}
}
