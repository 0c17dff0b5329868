package query

import (
	"context"
	"strings"
	"testing"
)

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
		sameRows(t, open, c[0], c[1], 3)
	}
	// s is a field: GROUP BY s groups by it, not by the item n AS s
	wantErrors(t, open, []errCase{{"SELECT n AS s, count(*) FROM m GROUP BY s", `column "n" must be grouped`, ""}})
}

// TestImplicitAlias: a name right after a SELECT item renames it as AS
// does (SELECT count(*) n), quoted or not, and groups, orders and
// qualifies by it; a clause's keyword after an item is the clause.
func TestImplicitAlias(t *testing.T) {
	src, _ := testSource(t, 500, 50)
	open := openOnly(src)
	rr, err := Run(context.Background(), "SELECT series ser, count(*) n, max(v) `top v`, lag(count(*)) OVER (ORDER BY series) prev FROM m GROUP BY ser ORDER BY n DESC", open, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range rr.Schema().Fields() {
		names = append(names, f.Name)
	}
	rr.Release()
	if strings.Join(names, "|") != "ser|n|top v|prev" {
		t.Fatalf("columns %v", names)
	}
	sameRows(t, open, "SELECT series ser, count(*) n FROM m GROUP BY ser ORDER BY n DESC, ser",
		"SELECT series AS ser, count(*) AS n FROM m GROUP BY ser ORDER BY n DESC, ser", 3)
	if got := mustRun(t, open, "SELECT seq q, v FROM m WHERE v > 100 QUALIFY row_number() OVER (ORDER BY v DESC) <= 2 ORDER BY v DESC LIMIT 5"); len(got) != 2 {
		t.Fatalf("keywords after items: %v", got)
	}
	wantErrors(t, open, []errCase{{"SELECT v w x FROM m", `expected from, found "x"`, "x FROM"}})
}
