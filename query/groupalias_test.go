package query

import "testing"

// TestGroupByColumnAlias: GROUP BY names a column SELECT item by its
// alias (SELECT s AS word ... GROUP BY word) as it names a computed one;
// a column's own name comes first, then an alias, then a series label.
func TestGroupByColumnAlias(t *testing.T) {
	src, _ := testSource(t, 2000, 50)
	open := openOnly(src)
	for _, c := range [][2]string{
		{"SELECT s AS word, count(*) AS c FROM m GROUP BY word ORDER BY word", "SELECT s, count(*) FROM m GROUP BY s ORDER BY s"},
		{"SELECT series AS sr, n AS k, max(v) FROM m GROUP BY sr, k ORDER BY sr, k", "SELECT series, n, max(v) FROM m GROUP BY series, n ORDER BY series, n"},
		// host is no column: the series label, by its alias too
		{"SELECT host AS hh, count(*) FROM m GROUP BY hh ORDER BY hh", "SELECT host, count(*) FROM m GROUP BY host ORDER BY host"},
	} {
		got, want := mustRun(t, open, c[0]), mustRun(t, open, c[1])
		if len(want) < 3 {
			t.Fatalf("%s: %d groups: too few to test", c[1], len(want))
		}
		if d := diffCells(got, want); d != "" {
			t.Errorf("%s: %s", c[0], d)
		}
	}
	// s is a field: GROUP BY s groups by it, not by the item n AS s
	wantErrors(t, open, []errCase{{"SELECT n AS s, count(*) FROM m GROUP BY s", `column "n" must be grouped`, ""}})
}
