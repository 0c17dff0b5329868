package tsq

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// TestCompactLeavesNoResidue: after a pass, nothing that only removed
// rows held is anywhere in the stream's segments: not among a block's
// values, not in a column's dictionary (a string column whose few
// distinct values are kept as a dictionary and codes: a filtered block
// used to keep its whole dictionary), not a field only they had (its
// column, all null, used to stay), not in the files' bytes. The rows
// go each way a row can: a record tombstone, a newer put of the same key,
// a soft delete by seq, and a series tombstone (drop).
func TestCompactLeavesNoResidue(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{CompactTombstoneCap: 1 << 20})
	defer closeT(t, s)
	secret := func(how string) string { return "SECRET-" + how }
	var recs []Record
	for i := range 3000 {
		note := []string{"ok", "warn", "fail"}[i%3]
		series := []string{"a", "b"}[i%2]
		switch i {
		case 500:
			note = secret("deleted")
		case 1001:
			note = secret("updated")
		case 1500:
			note = secret("soft-deleted")
		case 2000:
			note, series = secret("dropped"), "gone"
		}
		r := Record{Time: day0 + int64(i)*1e6, Series: series, Key: fmt.Sprintf("k%d", i),
			Fields: []Field{{"note", Str(note)}, {"blob", Bytes([]byte(note))}}}
		if i == 500 || i == 1001 { // a field only these rows have
			r.Fields = append(r.Fields, Field{"SECRET_" + fmt.Sprint(i), Int(int64(i))})
		}
		recs = append(recs, r)
	}
	seqs, err := s.Append(ctx, "ev", recs...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "ev",
		Record{Time: day0 + 4000*1e6, Series: "a", Key: "k500", Op: OpDelete},
		Record{Time: day0 + 4001*1e6, Series: "b", Key: "k1001", Fields: []Field{{"note", Str("ok")}}},
		Record{Time: day0 + 4002*1e6, Series: "gone", Op: OpDrop, Fields: []Field{{"reason", Str("test")}}},
	); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "ev", seqs[1500]); err != nil {
		t.Fatal(err)
	}
	// Before the pass every secret is on disk (the check below finds
	// what it looks for).
	if n := residue(t, mem, "db/streams/ev", "SECRET"); n < 6 {
		t.Fatalf("before the pass, %d secrets found on disk; want 6 at least", n)
	}
	// A soft-deleted keyed put above the watermark a pass starts from
	// may still supersede older rows: the next pass removes it.
	st, err := s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	st2, err := s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	if st.RowsRecord != 1 || st.RowsUpdate != 1 || st.RowsSeries != 1 || st.RowsSoftDeleted+st2.RowsSoftDeleted != 1 {
		t.Fatalf("passes %+v, %+v: want one row dropped for each reason", st, st2)
	}
	if n := residue(t, mem, "db/streams/ev", "SECRET"); n > 0 {
		t.Fatalf("%d traces of removed rows left after the passes", n)
	}
	if n, _ := s.Count("ev"); n != 3000+3-4 {
		t.Fatalf("Count %d after the passes, want %d", n, 3000+3-4)
	}
}

// residue counts the places in the segments under dir where what
// occurs: in a block's decoded values, dictionary entries or column
// names, or in a file's bytes; each is reported.
func residue(t *testing.T, fsys vfs.FS, dir, what string) int {
	t.Helper()
	found := 0
	eachSegment(t, fsys, dir, func(name string, raw []byte) {
		if k := bytes.Count(raw, []byte(what)); k > 0 {
			t.Logf("%s: %d times in the file's bytes", name, k)
			found += k
		}
	})
	eachBlock(t, fsys, dir, func(name string, i int, dec *chunk.Decoder) {
		for c := range dec.NumColumns() {
			var col chunk.Column
			if err := dec.Column(c, &col); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(col.Name, what) {
				t.Logf("%s block %d: column %s", name, i, col.Name)
				found++
			}
			for _, v := range col.Strs {
				if strings.Contains(v, what) {
					t.Logf("%s block %d column %s: value %q", name, i, col.Name, v)
					found++
				}
			}
			for k := range col.Dict.Len() {
				if bytes.Contains(col.Dict.At(k), []byte(what)) {
					t.Logf("%s block %d column %s: dictionary entry %q", name, i, col.Name, col.Dict.At(k))
					found++
				}
			}
		}
	})
	return found
}

// eachSegment calls fn with the name and bytes of each segment file
// under dir.
func eachSegment(t *testing.T, fsys vfs.FS, dir string, fn func(name string, raw []byte)) {
	t.Helper()
	names, err := fsys.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if !strings.HasSuffix(n, ".seg") {
			continue
		}
		f, err := fsys.Open(path.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(f)
		_ = f.Close()
		if err != nil {
			t.Fatal(err)
		}
		fn(n, raw)
	}
}

// eachBlock calls fn with every block that holds rows in the segments
// under dir, checked and ready to decode.
func eachBlock(t *testing.T, fsys vfs.FS, dir string, fn func(name string, i int, dec *chunk.Decoder)) {
	t.Helper()
	names, err := fsys.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var dec chunk.Decoder
	for _, n := range names {
		if !strings.HasSuffix(n, ".seg") {
			continue
		}
		r, err := seg.Open(fsys, path.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range r.Blocks() {
			if m.Rows == 0 {
				continue
			}
			buf, err := r.ReadBlock(i, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := dec.Reset(buf); err != nil {
				t.Fatal(err)
			}
			fn(n, i, &dec)
		}
		_ = r.Close()
	}
}

// TestSeriesListAfterDrop: a dropped series leaves Store.Series (and
// SHOW SERIES) at once, stays out after a pass (which keeps its drop)
// and a reopen, and comes back with its next put; a series whose every
// put is soft-deleted is left out too.
func TestSeriesListAfterDrop(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{CompactTombstoneCap: 1 << 20})
	defer func() { closeT(t, s) }()
	list := func(when string, want ...string) {
		t.Helper()
		got, err := s.Series("ev", 0)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: Series = %v, want %v", when, got, want)
		}
		rr, err := s.Query(ctx, "SHOW SERIES FROM ev", nil)
		if err != nil {
			t.Fatal(err)
		}
		n := int64(0)
		for rr.Next() {
			n += rr.RecordBatch().NumRows()
		}
		rr.Release()
		if n != int64(len(want)) {
			t.Fatalf("%s: SHOW SERIES gives %d rows, want %d", when, n, len(want))
		}
	}
	seqs, err := s.Append(ctx, "ev",
		Record{Time: day0, Series: "keep", Fields: []Field{{"v", Float(1)}}},
		Record{Time: day0 + 1, Series: "gone", Fields: []Field{{"v", Float(2)}}},
		Record{Time: day0 + 2, Series: "hidden", Fields: []Field{{"v", Float(3)}}})
	if err != nil {
		t.Fatal(err)
	}
	list("after the puts", "gone", "hidden", "keep")
	if _, err := s.Append(ctx, "ev", Record{Time: day0 + 3, Series: "gone", Op: OpDrop}); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "ev", seqs[2]); err != nil {
		t.Fatal(err)
	}
	list("after the drop and the soft delete", "keep")
	if _, err := s.Compact(ctx, "ev"); err != nil {
		t.Fatal(err)
	}
	list("after a pass", "keep")
	closeT(t, s)
	s = openT(t, mem, Options{CompactTombstoneCap: 1 << 20})
	list("reopened", "keep")
	if _, err := s.Append(ctx, "ev", Record{Time: day0 + 4, Series: "gone", Fields: []Field{{"v", Float(4)}}}); err != nil {
		t.Fatal(err)
	}
	list("after a new put", "gone", "keep")
}

// tokensOnDisk returns the values of column col that the segments under
// dir hold, in present rows or as dictionary entries.
func tokensOnDisk(t *testing.T, fsys vfs.FS, dir, col string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	var c chunk.Column
	eachBlock(t, fsys, dir, func(_ string, _ int, dec *chunk.Decoder) {
		k := dec.Find(col)
		if k < 0 {
			return
		}
		if err := dec.Column(k, &c); err != nil {
			t.Fatal(err)
		}
		for row := range dec.Rows() {
			if !c.IsNull(row) {
				out[c.StringAt(row)] = true
			}
		}
		for e := range c.Dict.Len() {
			out[string(c.Dict.At(e))] = true
		}
	})
	return out
}
