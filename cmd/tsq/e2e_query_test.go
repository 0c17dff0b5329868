package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tsq "github.com/tsqdb/tsq"
)

// e2eStore builds a store for the terminal test: the demo streams plus
// stream big, 4M samples in four series: printed as CSV to the terminal
// they take many seconds, long enough to press Ctrl-C during the query.
func e2eStore(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "store")
	if r := runTSQ(t, "", "--store", dir, "demo", "--no-shell"); r.code != 0 {
		t.Fatalf("demo: %+v", r)
	}
	st, err := tsq.Open(dir, &tsq.Options{Sync: tsq.SyncNever})
	if err != nil {
		t.Fatal(err)
	}
	const n, batches = 200_000, 20
	times, vals := make([]int64, n), make([]float64, n)
	for b := 0; b < batches; b++ {
		for i := range times {
			times[i] = int64(b*n+i) * 1e9
			vals[i] = float64((b*n+i)%977) * 0.37
		}
		if _, err := st.AppendSamples(context.Background(), "big", "s"+string(rune('a'+b%4)), times, vals); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// shellQueryAndExport runs a query and sees the table, exports with
// .export and checks the file, and presses Ctrl-C during a slow query:
// the shell prints Interrupted and answers the next statement.
func shellQueryAndExport(t *testing.T, tm *tmux, store string) {
	tm.text("SELECT series, count(*) FROM cpu GROUP BY series;")
	tm.keys("Enter")
	s := tm.waitFor("4 rows", 10*time.Second)
	if !strings.Contains(s, "│ nab/realAWSCloudwatch/rds_cpu_utilization_cc0c53 │     4032 │") {
		t.Fatalf("no table row:\n%s", s)
	}

	out := filepath.Join(tm.dir, "out.csv")
	tm.text(".export " + out + " SELECT time, value FROM cpu LIMIT 10;")
	tm.keys("Enter")
	tm.waitFor("exported 10 rows", 10*time.Second)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 11 || lines[0] != "time,value" {
		t.Fatalf("exported file:\n%s", b)
	}

	tm.text(".mode csv")
	tm.keys("Enter")
	tm.text("SELECT seq, series, value FROM big;")
	tm.keys("Enter")
	tm.waitFor("sa,", 10*time.Second)
	time.Sleep(500 * time.Millisecond)
	tm.keys("C-c")
	s = tm.waitFor("Interrupted", 10*time.Second)
	if strings.Contains(s, "\n4000000,") {
		t.Fatalf("the query finished before Ctrl-C took effect:\n%s", s)
	}
	tm.text(".mode table")
	tm.keys("Enter")
	tm.text("SELECT count(*) FROM fold(osm);")
	tm.keys("Enter")
	tm.waitFor("│      485 │", 10*time.Second)
}
