package query

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// setOracle computes a op b (op: union, intersect, except; all: ALL)
// from the two SELECTs' rows, as SQL defines it: rows equal when every
// cell is (NULL equals NULL, numbers by value), the first's order, each
// distinct row at its first.
func setOracle(op string, all bool, a, b [][]any) [][]any {
	key := func(r []any) string {
		var sb strings.Builder
		for _, c := range r {
			switch v := c.(type) {
			case int64:
				fmt.Fprintf(&sb, "n%v|", float64(v))
			case float64:
				fmt.Fprintf(&sb, "n%v|", v)
			default:
				fmt.Fprintf(&sb, "%T%v|", c, c)
			}
		}
		return sb.String()
	}
	inB := map[string]int{}
	for _, r := range b {
		inB[key(r)]++
	}
	out, done := [][]any{}, map[string]bool{}
	switch op {
	case "union":
		for _, r := range append(append([][]any{}, a...), b...) {
			if k := key(r); !done[k] {
				done[k] = true
				out = append(out, r)
			}
		}
	case "intersect":
		for _, r := range a {
			k := key(r)
			if all && inB[k] > 0 {
				inB[k]--
				out = append(out, r)
			} else if !all && inB[k] > 0 && !done[k] {
				done[k] = true
				out = append(out, r)
			}
		}
	case "except":
		for _, r := range a {
			k := key(r)
			if all && inB[k] > 0 {
				inB[k]--
			} else if all || inB[k] == 0 && !done[k] {
				done[k] = true
				out = append(out, r)
			}
		}
	}
	return out
}

// TestSetOps: UNION, INTERSECT and EXCEPT, DISTINCT and ALL, give what
// the oracle computes from their two SELECTs' own rows: over text,
// NULLs, several columns, an integer against a float of its value, with
// any batch size; INTERSECT binds first, the others go left to right;
// ORDER BY and LIMIT after the last SELECT take the whole; a set
// operation works as a subquery and in IN (SELECT ...).
func TestSetOps(t *testing.T) {
	open := twoStreams(t)
	pairs := [][2]string{
		{"SELECT s FROM m", "SELECT s FROM m WHERE n > 50"},
		{"SELECT s, b FROM m WHERE n < 60", "SELECT s, b FROM m WHERE n > 30"},
		{"SELECT key, op FROM m", "SELECT key, op FROM m WHERE op = 'put' AND n > 40"},
		{"SELECT n FROM m WHERE n < 40", "SELECT x FROM m"},
		{"SELECT series, hour(time) AS h FROM m", "SELECT series, hour(time) FROM m WHERE v > 100"},
		{"SELECT v FROM w", "SELECT v FROM w WHERE s = 'red'"},
	}
	for _, pr := range pairs {
		a, b := mustRun(t, open, pr[0]), mustRun(t, open, pr[1])
		for _, op := range []string{"union", "intersect", "except"} {
			for _, all := range []bool{false, true} {
				word := strings.ToUpper(op)
				if all {
					word += " ALL"
				} else if op == "union" {
					word = "UNION DISTINCT"
				}
				want := setOracle(op, all, a, b)
				if op == "union" && all {
					want = append(append([][]any{}, a...), b...)
				}
				if strings.Contains(pr[1], "SELECT x") { // n widened to a float as x is
					for i, r := range want {
						if n, ok := r[0].(int64); ok {
							want[i] = []any{float64(n)}
						}
					}
				}
				q := pr[0] + " " + word + " " + pr[1]
				for _, batch := range []int{1, 7, 4096} {
					mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
					got, err := runCells(q, open, &Options{Now: modelNow, BatchRows: batch, Allocator: mem})
					if err != nil {
						t.Fatalf("%s: %v", q, err)
					}
					mem.AssertSize(t, 0)
					if d := diffCells(got, want); d != "" {
						t.Fatalf("%s (batch %d): %s", q, batch, d)
					}
				}
			}
		}
	}
	// Shown on a pair whose results differ by operation.
	a, b := mustRun(t, open, pairs[2][0]), mustRun(t, open, pairs[2][1])
	if u, i, e := setOracle("union", false, a, b), setOracle("intersect", false, a, b), setOracle("except", false, a, b); len(i) < 3 || len(e) < 1 || len(u) <= len(i) {
		t.Fatalf("union %d, intersect %d, except %d rows: the pair shows little", len(u), len(i), len(e))
	}
	// Precedence: INTERSECT first; UNION and EXCEPT left to right.
	x, y, z := "SELECT s FROM m WHERE n < 30", "SELECT s FROM m WHERE n > 70", "SELECT s FROM m WHERE v > 200"
	rx, ry, rz := mustRun(t, open, x), mustRun(t, open, y), mustRun(t, open, z)
	for _, c := range []struct {
		q    string
		want [][]any
	}{
		{x + " UNION " + y + " INTERSECT " + z, setOracle("union", false, rx, setOracle("intersect", false, ry, rz))},
		{x + " EXCEPT " + y + " EXCEPT " + z, setOracle("except", false, setOracle("except", false, rx, ry), rz)},
		{x + " INTERSECT " + y + " EXCEPT " + z, setOracle("except", false, setOracle("intersect", false, rx, ry), rz)},
		{x + " UNION ALL " + y + " EXCEPT ALL " + z, setOracle("except", true, append(append([][]any{}, rx...), ry...), rz)},
	} {
		if d := diffCells(mustRun(t, open, c.q), c.want); d != "" {
			t.Errorf("%s: %s", c.q, d)
		}
	}
	for _, c := range [][2]string{
		{"SELECT series FROM m INTERSECT SELECT series FROM m WHERE v > 100 ORDER BY series DESC LIMIT 2",
			"SELECT DISTINCT series FROM m WHERE v > 100 ORDER BY series DESC LIMIT 2"},
		{"SELECT count(*) AS c FROM (SELECT key FROM m EXCEPT SELECT key FROM m WHERE op = 'delete')",
			"SELECT count(DISTINCT key) AS c FROM m WHERE key NOT IN (SELECT key FROM m WHERE op = 'delete')"},
		{"SELECT seq FROM m WHERE s IN (SELECT s FROM m WHERE n < 10 INTERSECT SELECT s FROM m WHERE n > 90) ORDER BY seq",
			"SELECT seq FROM m WHERE s IN (SELECT s FROM m WHERE n < 10) AND s IN (SELECT s FROM m WHERE n > 90) ORDER BY seq"},
	} {
		sameRows(t, open, c[0], c[1], 1)
	}
	if p := planText(t, open, "EXPLAIN SELECT s FROM m EXCEPT ALL SELECT s FROM w"); !strings.Contains(p, "except all of 2 selects:") || strings.Contains(p, "\x00") {
		t.Errorf("EXPLAIN of EXCEPT ALL:\n%q", p)
	}
}

// TestSetOpErrors: a set operation that cannot run says why, where.
func TestSetOpErrors(t *testing.T) {
	open := twoStreams(t)
	wantErrors(t, open, []errCase{
		{"SELECT time FROM m INTERSECT time FROM w", "expected SELECT after INTERSECT", "time FROM w"},
		{"SELECT time, v FROM m EXCEPT SELECT time FROM w", "EXCEPT: this SELECT gives 1 column, the first 2", "SELECT time FROM w"},
		{"SELECT s FROM m UNION SELECT v FROM w", "UNION: column 1 (v) is an integer here and text in the first SELECT (s)", "SELECT v FROM w"},
		{"SELECT time FROM m LIMIT 3 INTERSECT ALL SELECT time FROM w", "go after the last SELECT of a INTERSECT ALL", "INTERSECT ALL"},
		{"SELECT seq FROM m EXCEPT SELECT seq FROM w LIMIT 2", "a EXCEPT with ORDER BY, LIMIT or OFFSET holds its rows", ""},
	})
	defer func(n int) { maxJoinRightRows = n }(maxJoinRightRows)
	maxJoinRightRows = 50
	wantErrors(t, open, []errCase{
		{"SELECT time FROM m EXCEPT SELECT time FROM w", "EXCEPT holds the rows it has seen and passes 50 rows", "SELECT time FROM w"},
		{"SELECT time FROM m UNION SELECT time FROM w", "UNION holds the rows it has seen and passes 50 rows", "SELECT time FROM w"},
	})
}
