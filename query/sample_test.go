package query

import (
	"fmt"
	"slices"
	"testing"
)

// TestUsingSample: USING SAMPLE p% (TABLESAMPLE, PERCENT) keeps each row
// with that chance, before WHERE and aggregates; REPEATABLE (seed) (or
// (bernoulli, seed)) keeps exactly the rows whose draw from seq and
// seed is below p, run after run; a join's rows are sampled once (a
// condition with random() is not applied twice); a percentage past 100
// and a REPEATABLE join are refused.
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
		{"SELECT * FROM m USING SAMPLE 150%", "a percentage from 0 to 100", "150"},
		{"SELECT * FROM m USING SAMPLE 10% (reservoir)", "method is bernoulli or system", "reservoir"},
		{"SELECT * FROM m USING SAMPLE 10% REPEATABLE (x)", "a sample's seed is an integer", "x"},
		{"SELECT * FROM m a JOIN m b USING (seq) USING SAMPLE 10% REPEATABLE (1)", "a REPEATABLE sample draws from each row's seq", "USING SAMPLE"},
	})
}

// TestUsingSampleRows: USING SAMPLE n ROWS (also USING SAMPLE n and
// reservoir(n ROWS)) keeps exactly n rows (all when there are fewer), in
// the source's order, before WHERE; REPEATABLE (seed) keeps the n rows
// with the smallest draws from seq and seed; over many seeds every row
// is chosen about equally often; fold(...) and subqueries sample their
// rows; a fraction of rows and a join are refused.
func TestUsingSampleRows(t *testing.T) {
	src, rows := testSource(t, 2000, 64)
	open := openOnly(src)
	for _, q := range []string{"SELECT seq FROM m USING SAMPLE 50 ROWS", "SELECT seq FROM m USING SAMPLE 50",
		"SELECT seq FROM m TABLESAMPLE reservoir(50 ROWS)", "SELECT seq FROM (SELECT * FROM m WHERE v > -1e9) USING SAMPLE 50 ROWS"} {
		got := mustRun(t, open, q)
		if len(got) != 50 {
			t.Fatalf("%s: %d rows, want 50", q, len(got))
		}
		for i := 1; i < len(got); i++ {
			if got[i][0].(uint64) <= got[i-1][0].(uint64) {
				t.Fatalf("%s: rows not in the source's order: %v then %v", q, got[i-1], got[i])
			}
		}
	}
	if got := mustRun(t, open, "SELECT count(*) FROM m USING SAMPLE 5000 ROWS"); got[0][0].(int64) != int64(len(rows)) {
		t.Errorf("more rows asked than there are: %v, want %d", got, len(rows))
	}
	if got := mustRun(t, open, "SELECT count(*) FROM m USING SAMPLE 0 ROWS"); got[0][0].(int64) != 0 {
		t.Errorf("0 rows: %v", got)
	}
	// REPEATABLE: the 40 rows of smallest draw, then WHERE.
	draws := make([]float64, len(rows))
	for i, r := range rows {
		draws[i] = sampleDraw(int64(r.seq), 9)
	}
	sorted := slices.Clone(draws)
	slices.Sort(sorted)
	var want, wantV [][]any
	for i, r := range rows {
		if draws[i] <= sorted[39] {
			want = append(want, []any{r.seq})
			if v, ok := r.f["v"].(float64); ok && v > 1 {
				wantV = append(wantV, []any{r.seq})
			}
		}
	}
	if len(want) != 40 || len(wantV) == 0 || len(wantV) == 40 {
		t.Fatalf("a weak oracle: %d and %d rows", len(want), len(wantV))
	}
	if d := diffCells(mustRun(t, open, "SELECT seq FROM m USING SAMPLE 40 ROWS REPEATABLE (9)"), want); d != "" {
		t.Errorf("REPEATABLE: %s", d)
	}
	if d := diffCells(mustRun(t, open, "SELECT seq FROM m USING SAMPLE 40 ROWS REPEATABLE (9) WHERE v > 1"), wantV); d != "" {
		t.Errorf("REPEATABLE with WHERE: %s", d)
	}
	// Uniform: 10 rows of the first 100 under 1000 seeds; each row is
	// chosen 100 times on average (binomial, sd 9.5).
	chosen := map[uint64]int{}
	for seed := range 1000 {
		for _, r := range mustRun(t, open, fmt.Sprintf("SELECT seq FROM (SELECT * FROM m LIMIT 100) USING SAMPLE 10 ROWS REPEATABLE (%d)", seed)) {
			chosen[r[0].(uint64)]++
		}
	}
	if len(chosen) != 100 {
		t.Fatalf("%d distinct rows chosen of 100", len(chosen))
	}
	for seq, c := range chosen {
		if c < 55 || c > 145 {
			t.Errorf("row %d chosen %d times in 1000 samples of 10 of 100", seq, c)
		}
	}
	// Without a seed, each run draws anew.
	first := fmt.Sprint(mustRun(t, open, "SELECT seq FROM m USING SAMPLE 20 ROWS"))
	same := 0
	for range 5 {
		if fmt.Sprint(mustRun(t, open, "SELECT seq FROM m USING SAMPLE 20 ROWS")) == first {
			same++
		}
	}
	if same == 5 {
		t.Error("USING SAMPLE 20 ROWS drew the same rows six times")
	}
	wantErrors(t, open, []errCase{
		{"SELECT * FROM m USING SAMPLE 2.5", "a number of rows is a whole number", "2.5"},
		{"SELECT * FROM m USING SAMPLE 2.5 ROWS", "a whole number of rows", "2.5"},
		{"SELECT * FROM m a JOIN m b USING (seq) USING SAMPLE 10 ROWS", "sample one side in a subquery", "USING SAMPLE"},
		{"SELECT * FROM m USING SAMPLE reservoir(10%)", "reservoir takes a number of rows", "%"},
	})
}
