package query

import (
	"fmt"
	"testing"
)

// TestUsingSample: USING SAMPLE p% (TABLESAMPLE, PERCENT) keeps each row
// with that chance, before WHERE and aggregates; REPEATABLE (seed) (or
// (bernoulli, seed)) keeps exactly the rows whose draw from seq and
// seed is below p, run after run; a join's rows are sampled once (a
// condition with random() is not applied twice); a number of rows, a
// percentage past 100 and a REPEATABLE join are refused.
func TestUsingSample(t *testing.T) {
	src, rows := testSource(t, 2000, 64)
	open := openOnly(src)
	n := int64(len(rows))
	count := func(q string) int64 { return mustRun(t, open, q)[0][0].(int64) }
	for _, q := range []string{"SELECT count(*) FROM m USING SAMPLE 25%", "SELECT count(*) FROM m TABLESAMPLE 25 PERCENT",
		"SELECT count(*) FROM m AS x USING SAMPLE 25% (system)", "SELECT count(*) FROM m a JOIN m b USING (seq) USING SAMPLE 25%",
		"SELECT count(*) FROM m a JOIN m b USING (seq) WHERE random() < 0.25",
		"SELECT count(*) FROM m a JOIN m b USING (seq) WHERE length(a.series) * 0 + random() < 0.25"} { // not pushed into a side as well
		if c := count(q); c < n*15/100 || c > n*35/100 {
			t.Errorf("%s: %d of %d", q, c, n)
		}
	}
	if c := count("SELECT count(*) FROM m USING SAMPLE 0%"); c != 0 {
		t.Errorf("0%%: %d", c)
	}
	if c := count("SELECT count(*) FROM m USING SAMPLE 100%"); c != n {
		t.Errorf("100%%: %d, want %d", c, n)
	}
	// REPEATABLE: the rows the draws choose, before WHERE.
	var want, wantV [][]any
	for _, r := range rows {
		if sampleDraw(int64(r.seq), 42) < 0.3 {
			want = append(want, []any{r.seq})
			if v, ok := r.f["v"].(float64); ok && v > 1 {
				wantV = append(wantV, []any{r.seq})
			}
		}
	}
	if len(want) < int(n)/5 || len(wantV) < 10 {
		t.Fatalf("a weak oracle: %d and %d rows", len(want), len(wantV))
	}
	for _, q := range []string{"SELECT seq FROM m USING SAMPLE 30% REPEATABLE (42)", "SELECT seq FROM m USING SAMPLE 30% (bernoulli, 42)",
		"SELECT seq FROM m TABLESAMPLE 30% REPEATABLE (42) ORDER BY seq"} {
		if d := diffCells(mustRun(t, open, q), want); d != "" {
			t.Errorf("%s: %s", q, d)
		}
	}
	if d := diffCells(mustRun(t, open, "SELECT seq FROM m USING SAMPLE 30% REPEATABLE (42) WHERE v > 1"), wantV); d != "" {
		t.Errorf("with WHERE: %s", d)
	}
	other := mustRun(t, open, "SELECT seq FROM m USING SAMPLE 30% REPEATABLE (43)")
	if fmt.Sprint(other) == fmt.Sprint(want) {
		t.Error("seeds 42 and 43 drew the same rows")
	}
	got := mustRun(t, open, "SELECT series, count(*) FROM m USING SAMPLE 30% REPEATABLE (42) GROUP BY series")
	sum := int64(0)
	for _, r := range got {
		sum += r[1].(int64)
	}
	if sum != int64(len(want)) {
		t.Errorf("grouped counts sum to %d, want %d", sum, len(want))
	}
	wantErrors(t, open, []errCase{
		{"SELECT * FROM m USING SAMPLE 50 ROWS", "USING SAMPLE of a number of rows is not supported: ORDER BY random() LIMIT 50", "50"},
		{"SELECT * FROM m USING SAMPLE 10", "ORDER BY random() LIMIT 10", "10"},
		{"SELECT * FROM m USING SAMPLE 150%", "a percentage from 0 to 100", "150"},
		{"SELECT * FROM m USING SAMPLE 10% (reservoir)", "method is bernoulli or system", "reservoir"},
		{"SELECT * FROM m USING SAMPLE 10% REPEATABLE (x)", "a sample's seed is an integer", "x"},
		{"SELECT * FROM m a JOIN m b USING (seq) USING SAMPLE 10% REPEATABLE (1)", "a REPEATABLE sample draws from each row's seq", "USING SAMPLE"},
	})
}
