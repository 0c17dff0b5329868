package query

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
)

// TestSharedScan: a union of aggregate SELECTs of one stream with one
// WHERE (ROLLUP, CUBE and GROUPING SETS among them) reads the rows once
// and gives what its SELECTs give read one by one, row for row, over
// soft-deleted rows, a folded view, WHERE, FILTER, HAVING, grouping(),
// DISTINCT aggregates and ordered string_agg; unions that differ in
// their stream, WHERE or AS OF are read one SELECT at a time. A WHERE
// may read the alias of an item rolled up (WHERE runs before grouping).
func TestSharedScan(t *testing.T) {
	src, rows := testSource(t, 3000, 60)
	src.deleted = roaring64.BitmapOf(5, 6, 7, 100, 2999)
	open := openOnly(src)
	mid := rows[1500].time
	for _, c := range []struct {
		q      string
		shared bool
	}{
		{"SELECT series, s, count(*), sum(n), grouping(series, s) AS g FROM m GROUP BY CUBE (series, s) ORDER BY g, series, s", true},
		{"SELECT series, s, avg(v) FILTER (WHERE n > 50), count(DISTINCT n) FROM m WHERE v > 10 GROUP BY ROLLUP (series, s) HAVING count(*) > 3 ORDER BY 1, 2", true},
		{"SELECT time, series, max(v), string_agg(s, ',' ORDER BY n DESC, s) FROM m GROUP BY time(1h), ROLLUP (series) ORDER BY 1, 2", true},
		{"SELECT upper(s) AS u, b, min(n), quantile_cont(v, 0.9) FROM m GROUP BY GROUPING SETS ((u, b), (u), ()) ORDER BY 1, 2", true},
		{"SELECT series, key, count(*) FROM fold(m) GROUP BY ROLLUP (series, key) ORDER BY 1, 2", true},
		{fmt.Sprintf("SELECT series, count(*) FROM m WHERE time > %d GROUP BY ROLLUP (series) ORDER BY 1", mid), true},
		{"SELECT count(*), sum(n) FROM m UNION ALL SELECT max(v), min(v) FROM m", true},
		{"SELECT series, count(*) FROM m GROUP BY series UNION ALL SELECT s, count(*) FROM m GROUP BY s", true},
		{"SELECT count(*) FROM m WHERE n > 3 UNION ALL SELECT count(*) FROM m WHERE n > 4", false},
		{"SELECT count(*) FROM m UNION ALL SELECT count(*) FROM fold(m)", false},
		{"SELECT count(*) FROM m UNION ALL SELECT v FROM m", false},
		{"SELECT count(*) FROM fold(m) AS OF SEQ 1000 UNION ALL SELECT count(*) FROM fold(m)", false},
		{"SELECT upper(s) AS u, count(*) FROM m WHERE u IS NULL OR u > 'B' GROUP BY ROLLUP (u) ORDER BY 1", true},
	} {
		t.Run(c.q, func(t *testing.T) {
			st, err := Parse(c.q)
			if err != nil {
				t.Fatal(err)
			}
			if st.Union == nil { // sorted: a held union
				st = st.Sub
			}
			for st != nil && st.Union == nil {
				st = st.Sub
			}
			xs, err := planShared(context.Background(), st, c.q, open, &Options{Now: modelNow})
			if err != nil {
				t.Fatal(err)
			}
			if (xs != nil) != c.shared {
				t.Fatalf("shared scan: %v, want %v", xs != nil, c.shared)
			}
			got, err := runCells(c.q, open, &Options{Now: modelNow})
			if err != nil {
				t.Fatal(err)
			}
			shareScans = false
			want, err := runCells(c.q, open, &Options{Now: modelNow})
			shareScans = true
			if err != nil {
				t.Fatal(err)
			}
			if len(want) < 2 {
				t.Fatalf("only %d rows: the case tests little", len(want))
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("one scan gives %d rows, one a SELECT %d:\n%v\n%v", len(got), len(want), got, want)
			}
			plan := explainLines(t, src, "EXPLAIN "+c.q)
			if strings.Contains(plan, "one scan of m") != c.shared {
				t.Fatalf("EXPLAIN says one scan: %v, want %v:\n%s", !c.shared, c.shared, plan)
			}
		})
	}
}

// BenchmarkSharedScan runs grouping-set queries over 1,000,000 rows with
// their SELECTs sharing one scan and, for comparison in the same run,
// reading the rows one SELECT at a time; ns/row is per row of the
// stream.
func BenchmarkSharedScan(b *testing.B) {
	src, rows := testSource(b, 1_000_000, 8192)
	open := openOnly(src)
	for _, q := range []struct{ name, q string }{
		{"rollup2", "SELECT series, s, count(*), avg(v) FROM m GROUP BY ROLLUP (series, s)"},
		{"cube2", "SELECT series, s, count(*), avg(v) FROM m GROUP BY CUBE (series, s)"},
		{"sets3-where", "SELECT series, s, b, sum(n) FROM m WHERE v > 0 GROUP BY GROUPING SETS ((series), (s), (b))"},
	} {
		for _, shared := range []bool{true, false} {
			name := q.name + "/shared"
			if !shared {
				name = q.name + "/separate"
			}
			b.Run(name, func(b *testing.B) {
				shareScans = shared
				defer func() { shareScans = true }()
				for b.Loop() {
					if _, err := runCells(q.q, open, &Options{Now: modelNow}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(rows)), "ns/row")
			})
		}
	}
}
