package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	tsq "github.com/tsqdb/tsq"
)

// TestDemo runs tsq demo end to end without a terminal: it builds the
// store from the embedded data, runs every step of the tour (raw query,
// aggregate, raw and folded counts, plot, Arrow export), prints the next
// commands and exits 0, in a few seconds.
func TestDemo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	start := time.Now()
	r := runTSQ(t, "", "--store", dir, "demo")
	took := time.Since(start)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d stderr %q\n%s", r.code, r.stderr, r.stdout)
	}
	if took > 10*time.Second {
		t.Errorf("demo took %s", took)
	}
	t.Logf("demo took %s", took)
	out := r.stdout
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`stream cpu \(16128 samples`),
		regexp.MustCompile(`stream osm \(985 OpenStreetMap edits`),
		regexp.MustCompile(`(?s)LIMIT 5;\n┌.*│ 2014-02-14T14:30:00Z │ nab/realAWSCloudwatch/ec2_cpu_utilization_24ae8d │ +0\.132 │.*5 rows`),
		regexp.MustCompile(`(?s)GROUP BY time\(1d\), series;\n┌.*2014-02-22T00:00:00Z.*12 rows`),
		regexp.MustCompile(`(?s)AS prev FROM cpu\) GROUP BY series;\n┌.*│ nab/realAWSCloudwatch/ec2_cpu_utilization_5f5533 │ +68\.092 │ 2014-02-24T21:57:00Z │ +30\.28 │ 2014-02-24T22:02:00Z │.*4 rows`),
		regexp.MustCompile(`(?s)QUALIFY r <= 2 ORDER BY series, r;\n┌.*│ nab/realAWSCloudwatch/ec2_cpu_utilization_5f5533 │ 2014-02-19T00:00:00Z │ +48\.69 │ +1\.82 │ +47\.21 │ +1 │.*8 rows`),
		regexp.MustCompile(`(?s)ORDER BY series, time DESC;\n┌.*│ nab/realAWSCloudwatch/ec2_cpu_utilization_5f5533 │ 2014-02-28T14:22:00Z │ +37\.718 │ +24\.42 │.*4 rows`),
		regexp.MustCompile(`(?s)ORDER BY total, series;\n┌.*│ nab/realAWSCloudwatch/ec2_cpu_utilization_24ae8d │ +4032 │ +22 │ +0 │.*│ NULL +│ +16128 │ +32 │ +1 │.*5 rows`),
		regexp.MustCompile(`(?s)GROUP BY time\(1d\) ORDER BY time LIMIT 5;\n┌.*│ time +│ +api │ +batch │ +db │ +web │.*│ 2014-02-14T00:00:00Z │ +1\.82 │ +46\.83 │ +6\.11 │ +0\.13 │.*5 rows`),
		regexp.MustCompile(`(?s)SUMMARIZE osm;\n┌.*│ lat +│ float64 +│ +446 │ +54\.72 │ 46\.5583569 +│ 47\.7420739 +│`),
		regexp.MustCompile(`(?s)ORDER BY edits DESC, highway LIMIT 5;\n┌.*│ service +│ +7 │ \["Tellenmoosstrasse","Hasenstalden","Steyen"\] │.*│ track +│ +4 │ NULL +│.*5 rows`),
		regexp.MustCompile(`(?s)FROM osm;\n┌.*│ +985 │`),
		regexp.MustCompile(`(?s)FROM fold\(osm\);\n┌.*│ +485 │`),
		regexp.MustCompile(`(?s)\.plot .*┤.*\(UTC\)\n +━━ nab/realAWSCloudwatch/ec2_cpu_utilization_24ae8d`),
		regexp.MustCompile(`exported 16128 rows \(.*\) to ` + regexp.QuoteMeta(filepath.Join(dir, "cpu.arrow"))),
		regexp.MustCompile(`Next, try:\n  tsq --store ` + regexp.QuoteMeta(dir)),
	} {
		if !want.MatchString(out) {
			t.Errorf("output lacks %s", want)
		}
	}
	if t.Failed() {
		t.Fatalf("output:\n%s", out)
	}

	// The export is an Arrow IPC file with every sample.
	f, err := os.Open(filepath.Join(dir, "cpu.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ar, err := ipc.NewFileReader(f)
	if err != nil {
		t.Fatal(err)
	}
	defer ar.Close()
	var rows int64
	for i := 0; i < ar.NumRecords(); i++ {
		rec, err := ar.RecordBatch(i)
		if err != nil {
			t.Fatal(err)
		}
		rows += rec.NumRows()
	}
	if rows != 16128 || ar.Schema().Field(0).Name != "seq" {
		t.Fatalf("arrow file: %d rows, schema %v", rows, ar.Schema())
	}

	// The store is the library's: counts agree.
	st, err := tsq.Open(dir, &tsq.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if n, _ := st.Count("cpu"); n != 16128 {
		t.Fatalf("cpu count %d", n)
	}

	// A second demo into the same store refuses.
	r = runTSQ(t, "", "--store", dir, "demo")
	if r.code != 1 || !strings.Contains(r.stderr, "already holds streams") {
		t.Fatalf("second demo: %+v", r)
	}
}
