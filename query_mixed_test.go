package tsq

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

// TestQueryMixedTypes: a field stored as numbers or bools in some blocks
// and as text in others (appends of changing types; an import whose
// later rows turned a number column to text) reads as text in every
// block, the numbers and bools written out, instead of failing every
// query of the stream; int and float stay float; bytes win over text.
func TestQueryMixedTypes(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{})
	appendOne := func(i int, v, w Value) {
		t.Helper()
		if _, err := s.Append(ctx, "m", Record{Time: day0 + int64(i)*1e9, Series: "a", Fields: []Field{{"v", v}, {"w", w}}}); err != nil {
			t.Fatal(err)
		}
	}
	appendOne(0, Int(42), Int(1))
	appendOne(1, Float(1234567.5), Float(2.5))
	appendOne(2, Bool(true), Int(3))
	appendOne(3, Str("n/a"), Float(-0.5))
	appendOne(4, Float(1e-7), Int(5))
	_, rows := queryT(t, s, "SELECT v, w FROM m")
	want := []string{"42|1", "1234567.5|2.5", "true|3", "n/a|-0.5", "1e-07|5"}
	if !slices.Equal(rows, want) {
		t.Fatalf("got %q, want %q", rows, want)
	}
	schema, _ := queryT(t, s, "SELECT v, w FROM m LIMIT 1")
	if got := fmt.Sprint(schema.Field(0).Type, schema.Field(1).Type); got != "utf8 float64" {
		t.Fatalf("types %s", got)
	}
	for q, want := range map[string][]string{
		"SELECT count(*) FROM m WHERE v = 'true'":                {"1"},
		"SELECT count(v), min(v), max(v) FROM m":                 {"5|1234567.5|true"},
		"SELECT v, count(*) FROM m WHERE v LIKE '4%' GROUP BY v": {"42|1"},
		"SELECT v FROM fold(m) ORDER BY v DESC LIMIT 2":          {"true", "n/a"},
	} {
		if _, got := queryT(t, s, q); !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", q, got, want)
		}
	}
	// Bytes in one block and text in another: bytes.
	appendOne(5, Bytes([]byte{0xff, 'x'}), Int(6))
	schema, rows = queryT(t, s, "SELECT v FROM m")
	if schema.Field(0).Type.String() != "binary" || len(rows) != 6 || rows[0] != "NDI=" || rows[5] != "/3g=" { // base64 of 42 and of ff 78
		t.Fatalf("with bytes: %s %q", schema.Field(0).Type, rows)
	}
	closeT(t, s)
}

// TestImportLateText: a CSV column of numbers whose only text comes after
// the first batch (8,192 rows) was int64 in some blocks and string in
// others, and every query of the stream failed; so with bools.
func TestImportLateText(t *testing.T) {
	var b strings.Builder
	b.WriteString("ts,n,flag\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "%d,%d,%s\n", 1700000000000+i, i, []string{"false", "TRUE"}[i%2])
	}
	b.WriteString("1700000020000,n/a,maybe\n")
	s := openT(t, vfs.NewMem(), Options{})
	o := &ImportOptions{}
	if err := o.Mapping.Set("time=ts"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Import(ctx, "late", bytes.NewReader([]byte(b.String())), o); err != nil {
		t.Fatal(err)
	}
	_, rows := queryT(t, s, "SELECT n, flag FROM late WHERE seq >= 19999")
	if want := []string{"19998|false", "19999|true", "n/a|maybe"}; !slices.Equal(rows, want) {
		t.Fatalf("got %q, want %q", rows, want)
	}
	_, rows = queryT(t, s, "SELECT flag, count(*) FROM late GROUP BY flag")
	if want := []string{"false|10000", "maybe|1", "true|10000"}; !slices.Equal(rows, want) {
		t.Fatalf("got %q, want %q", rows, want)
	}
	closeT(t, s)
}

// TestQueryOffset: LIMIT n OFFSET m (and OFFSET alone) gives rows m to
// m+n of the query without them, for raw results streamed in batches of
// 7 and in built records, ordered ones, aggregates and folded views.
func TestQueryOffset(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 50})
	var recs []Record
	for i := range 500 {
		recs = append(recs, Record{Time: day0 + int64(i)*1e9, Series: fmt.Sprintf("s%d", i%7), Key: fmt.Sprintf("k%d", i%60),
			Fields: []Field{{"v", Int(int64((i * 37) % 101))}}})
	}
	if _, err := s.Append(ctx, "o", recs...); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"SELECT seq, v FROM o",
		"SELECT seq, v FROM o WHERE v > 50",
		"SELECT seq, v FROM o ORDER BY v DESC, seq",
		"SELECT series, count(*), max(v) FROM o GROUP BY series",
		"SELECT key, v FROM fold(o)",
		"SELECT DISTINCT key FROM o ORDER BY key DESC",
	} {
		_, all := queryT(t, s, q)
		for _, c := range [][2]int{{0, 3}, {5, 0}, {5, 10}, {7, 7}, {49, 3}, {len(all) - 2, 5}, {len(all), 1}, {len(all) + 3, 2}, {3, -1}, {0, -1}} {
			off, lim := c[0], c[1]
			text := q
			if lim >= 0 {
				text += fmt.Sprintf(" LIMIT %d", lim)
			}
			text += fmt.Sprintf(" OFFSET %d", off)
			_, got := queryT(t, s, text)
			want := all[min(off, len(all)):]
			if lim >= 0 {
				want = want[:min(lim, len(want))]
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: %d rows %q, want %d rows %q", text, len(got), got, len(want), want)
			}
		}
	}
	closeT(t, s)
}
