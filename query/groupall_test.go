package query

import "testing"

// TestGroupByPositionAndAll: GROUP BY n groups by the n-th SELECT item
// and GROUP BY ALL by every item that is not an aggregate, as naming
// them does; items that cannot group are refused.
func TestGroupByPositionAndAll(t *testing.T) {
	open := twoStreams(t)
	for _, c := range []struct{ q, same string }{
		{"SELECT series, count(*) FROM w GROUP BY 1 ORDER BY 1", "SELECT series, count(*) FROM w GROUP BY series ORDER BY series"},
		{"SELECT series, count(*) FROM w GROUP BY ALL ORDER BY 2 DESC, 1", "SELECT series, count(*) FROM w GROUP BY series ORDER BY 2 DESC, 1"},
		{"SELECT hour(time) AS h, s, max(v) FROM w GROUP BY ALL ORDER BY h, s", "SELECT hour(time) AS h, s, max(v) FROM w GROUP BY h, s ORDER BY h, s"},
		{"SELECT s AS colour, v % 3 AS r, count(*) FROM w GROUP BY 1, 2 ORDER BY 1, 2", "SELECT s AS colour, v % 3 AS r, count(*) FROM w GROUP BY s, v % 3 ORDER BY 1, 2"},
		{"SELECT a.s, count(*) FROM w a JOIN w b USING (series) GROUP BY ALL ORDER BY 1", "SELECT a.s, count(*) FROM w a JOIN w b USING (series) GROUP BY a.s ORDER BY 1"},
	} {
		sameRows(t, open, c.q, c.same, 2)
	}
	wantErrors(t, open, []errCase{
		{"SELECT series, count(*) FROM w GROUP BY 2", "GROUP BY 2: item 2 is an aggregate", "2"},
		{"SELECT series FROM w GROUP BY 3", "the SELECT has 1 item, counted from 1", "3"},
		{"SELECT series FROM w GROUP BY 0", "the SELECT has 1 item", "0"},
		{"SELECT * FROM w GROUP BY 1", "with SELECT * there are no numbered items", "1"},
		{"SELECT count(*), max(v) FROM w GROUP BY ALL", "every item is an aggregate", "ALL"},
		{"SELECT * FROM w GROUP BY ALL", "SELECT * names none", "ALL"},
		{"SELECT series, difference(count(*)) FROM w GROUP BY 2", "item 2 is", "2"},
	})
}

// TestILike: ILIKE is LIKE ignoring case, on columns and on computed
// text, negated with NOT.
func TestILike(t *testing.T) {
	open := twoStreams(t)
	for _, c := range []struct{ q, same string }{
		{"SELECT count(*) FROM w WHERE s ILIKE 'R%'", "SELECT count(*) FROM w WHERE s LIKE 'r%'"},
		{"SELECT count(*) FROM w WHERE s NOT ILIKE '%LU_'", "SELECT count(*) FROM w WHERE s NOT LIKE '%lu_'"},
		{"SELECT count(*) FROM w WHERE upper(s) ILIKE 'bl%' AND series ILIKE 'W_'", "SELECT count(*) FROM w WHERE s = 'blue'"},
		{"SELECT count(*) FROM w WHERE concat(s, '!') NOT ILIKE '%E!'", "SELECT count(*) FROM w WHERE s = 'red' AND s != 'blue'"},
	} {
		got, want := mustRun(t, open, c.q), mustRun(t, open, c.same)
		if want[0][0] == int64(0) {
			t.Fatalf("%s: counts nothing", c.same)
		}
		if msg := diffCells(got, want); msg != "" {
			t.Errorf("%s: %s", c.q, msg)
		}
	}
	wantErrors(t, open, []errCase{{"SELECT * FROM w WHERE s ILIKE 5", "ILIKE wants a pattern string", "5"}})
}
