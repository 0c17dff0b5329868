package query

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
)

// TestGroupingSets: CUBE, ROLLUP, GROUPING SETS and a plain term beside
// ROLLUP give, per set, the groups of the rows computed here (count,
// sum, the terms not grouped by NULL, grouping()'s bits); HAVING
// applies to each set's groups; an empty input still has the grand
// total; an expression rolled up is NULL, and so is an expression of it.
func TestGroupingSets(t *testing.T) {
	src, rows := testSource(t, 3000, 60)
	open := openOnly(src)
	type key struct {
		g         int64
		series, s any
	}
	type agg struct{ count, sum, sums int64 }
	// oracle groups rows by each set (which of series and s it groups
	// by) and returns the rows series, s, count(*), sum(n), g sorted by
	// g, series, s (NULLs last), keeping groups of at least least rows.
	oracle := func(sets [][2]bool, least int64) [][]any {
		groups := map[key]*agg{}
		var keys []key
		for _, set := range sets {
			for _, r := range rows {
				k := key{g: 3}
				if set[0] {
					k.series, k.g = r.series, k.g&^2
				}
				if set[1] {
					k.s, k.g = r.f["s"], k.g&^1
				}
				a := groups[k]
				if a == nil {
					a = &agg{}
					groups[k] = a
					keys = append(keys, k)
				}
				a.count++
				if n, ok := r.f["n"].(int64); ok {
					a.sum += n
					a.sums++
				}
			}
			if !set[0] && !set[1] && len(rows) == 0 {
				keys = append(keys, key{g: 3})
				groups[key{g: 3}] = &agg{}
			}
		}
		slices.SortFunc(keys, func(a, b key) int { // NULLs last
			return cmp.Or(cmp.Compare(a.g, b.g), compareAny(kString, a.series, b.series), compareAny(kString, a.s, b.s))
		})
		var out [][]any
		for _, k := range keys {
			a := groups[k]
			if a.count < least {
				continue
			}
			var sum any
			if a.sums > 0 {
				sum = a.sum
			}
			out = append(out, []any{k.series, k.s, a.count, sum, k.g})
		}
		return out
	}
	const items = "SELECT series, s, count(*) AS c, sum(n) AS total, grouping(series, s) AS g FROM m "
	for _, c := range []struct {
		group string
		sets  [][2]bool
		least int64
	}{
		{"GROUP BY CUBE (series, s)", [][2]bool{{true, true}, {true, false}, {false, true}, {false, false}}, 0},
		{"GROUP BY ROLLUP (series, s)", [][2]bool{{true, true}, {true, false}, {false, false}}, 0},
		{"GROUP BY GROUPING SETS ((s), (series), ())", [][2]bool{{false, true}, {true, false}, {false, false}}, 0},
		{"GROUP BY GROUPING SETS (series, (series, s)) HAVING count(*) >= 50", [][2]bool{{true, false}, {true, true}}, 50},
		{"GROUP BY series, ROLLUP (s)", [][2]bool{{true, true}, {true, false}}, 0},
		{"GROUP BY 1, ROLLUP (2)", [][2]bool{{true, true}, {true, false}}, 0},
	} {
		q := items + c.group + " ORDER BY g, series, s"
		want := oracle(c.sets, c.least)
		if len(want) < 4 {
			t.Fatalf("%s: %d groups: too few to show anything", q, len(want))
		}
		if d := diffCells(mustRun(t, open, q), want); d != "" {
			t.Errorf("%s: %s", q, d)
		}
	}
	// No row: the grand total is still a row (count 0), the other sets
	// have no group.
	got := mustRun(t, open, "SELECT s, count(*) AS c FROM m WHERE n > 1000 GROUP BY ROLLUP (s)")
	if d := diffCells(got, [][]any{{nil, int64(0)}}); d != "" {
		t.Errorf("empty ROLLUP: %s", d)
	}
	// An expression rolled up, and one of it, are NULL in the total.
	got = mustRun(t, open, "SELECT upper(s) AS u, length(upper(s)) + 1 AS l, count(*) AS c FROM m GROUP BY ROLLUP (upper(s)) ORDER BY u")
	plain := mustRun(t, open, "SELECT upper(s) AS u, length(upper(s)) + 1 AS l, count(*) AS c FROM m GROUP BY u ORDER BY u")
	if d := diffCells(got, append(plain, []any{nil, nil, int64(len(rows))})); d != "" {
		t.Errorf("ROLLUP of an expression: %s", d)
	}
	// Terms not selected come first, as GROUP BY gives them.
	sameRows(t, open, "SELECT count(*) AS c FROM m GROUP BY ROLLUP (series, s) ORDER BY series, s",
		"SELECT series, s, count(*) AS c FROM m GROUP BY ROLLUP (series, s) ORDER BY series, s", 10)
	sameRows(t, open, "SELECT count(*) AS c FROM m GROUP BY series, s ORDER BY series, s",
		"SELECT series, s, count(*) AS c FROM m GROUP BY series, s ORDER BY series, s", 10)
	// Bits of grouping() in CUBE order, and 0 without sets.
	got = mustRun(t, open, "SELECT DISTINCT g FROM (SELECT grouping(series, s) AS g, grouping(s) AS gs, count(*) FROM m GROUP BY CUBE (series, s)) ORDER BY g")
	if fmt.Sprint(got) != "[[0] [1] [2] [3]]" {
		t.Errorf("grouping() over CUBE: %v", got)
	}
	got = mustRun(t, open, "SELECT DISTINCT g FROM (SELECT grouping(s) AS g FROM m GROUP BY s, series)")
	if fmt.Sprint(got) != "[[0]]" {
		t.Errorf("grouping() without sets: %v", got)
	}
}

// TestGroupingSetsErrors: what grouping sets cannot do fails where it
// is written.
func TestGroupingSetsErrors(t *testing.T) {
	src, _ := testSource(t, 200, 60)
	wantErrors(t, openOnly(src), []errCase{
		{"SELECT count(*) FROM m GROUP BY ROLLUP (time(1h))", "time(1h) in ROLLUP, CUBE or GROUPING SETS is not supported: put it beside them", "time(1h)"},
		{"SELECT count(*) FROM m GROUP BY CUBE (a, b, c, d, e, f, g)", "CUBE of 7 terms makes 128 grouping sets", "CUBE"},
		{"SELECT s, count(*), rank() OVER (ORDER BY count(*)) FROM m GROUP BY ROLLUP (s)", "window functions with ROLLUP, CUBE or GROUPING SETS are not supported", "rank()"},
		{"SELECT s, grouping(v) FROM m GROUP BY ROLLUP (s)", "grouping(v): v is no term of GROUP BY", "v)"},
		{"SELECT grouping(s) FROM m", "grouping() goes with GROUP BY", "grouping"},
		{"SELECT s, count(*) FROM m WHERE grouping(s) = 0 GROUP BY ROLLUP (s)", "grouping() goes in the SELECT items and HAVING", "grouping"},
		{"SELECT time, count(*) FROM m GROUP BY time(1h), ROLLUP (s) FILL(0)", "FILL with ROLLUP, CUBE or GROUPING SETS is not supported", "FILL"},
		{"SELECT DISTINCT ON (s) s, count(*) FROM m GROUP BY ROLLUP (s)", "DISTINCT ON with ROLLUP, CUBE or GROUPING SETS is not supported", "DISTINCT"},
	})
}
