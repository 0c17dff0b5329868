package tsq

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tsqdb/tsq/chunk"
	"github.com/tsqdb/tsq/ingest"
	"github.com/tsqdb/tsq/internal/vfs"
	"github.com/tsqdb/tsq/seg"
)

// TestCompactKeySpan: a pass reads no archive segment (at or below W)
// that no tombstone key of its window falls in, yet still finds and
// rewrites the ones an update, a delete or a drop touches; the folded
// view and the physical removal stay right. Single-chunk and chunked
// passes both.
func TestCompactKeySpan(t *testing.T) {
	for _, c := range []struct {
		name string
		cap  int
	}{{"single", 0}, {"chunked", 64}} {
		t.Run(c.name, func(t *testing.T) {
			mem := vfs.NewMem()
			segments := func() int {
				names, err := mem.ReadDir("db/streams/ev")
				if err != nil {
					t.Fatal(err)
				}
				n := 0
				for _, name := range names {
					if strings.HasSuffix(name, ".seg") {
						n++
					}
				}
				return n
			}
			s := openT(t, mem, Options{SegmentMaxBytes: 16 << 10, CompactInterval: 0, CompactTombstoneCap: c.cap})
			defer closeT(t, s)
			tm := day0
			put := func(series, key string, op Op) {
				t.Helper()
				tm += 1e6
				r := Record{Time: tm, Series: series, Key: key, Op: op, Fields: []Field{{"v", Int(tm)}}}
				if op == OpDrop || op == OpDelete {
					r.Fields = nil
				}
				if _, err := s.Append(ctx, "ev", r); err != nil {
					t.Fatal(err)
				}
			}
			dropped := func(cs CompactStats) int64 { return cs.RowsRecord + cs.RowsUpdate + cs.RowsSeries + cs.RowsSoftDeleted }
			// The archive: samples of s2, then 2,000 keyed puts of s1.
			for range 50 {
				put("s2", "", OpPut)
			}
			for i := range 2000 {
				put("s1", fmt.Sprintf("a%05d", i), OpPut)
			}
			if _, err := s.Compact(ctx, "ev"); err != nil {
				t.Fatal(err)
			}
			archive := segments()
			if archive < 4 {
				t.Fatalf("the archive has %d segments, want several", archive)
			}
			// New keys above every archived one: no archive segment is read.
			for i := range 300 {
				put("s1", fmt.Sprintf("b%05d", i), OpPut)
			}
			cs, err := s.Compact(ctx, "ev")
			if err != nil {
				t.Fatal(err)
			}
			// Each chunk examines at most the new segments.
			fresh := segments() - archive
			if cs.SegmentsExamined > fresh*cs.Chunks || cs.SegmentsRewritten != 0 || dropped(cs) != 0 {
				t.Fatalf("new keys only: %d segments examined in %d chunks, %d skipped, %d rewritten, %d rows dropped; want only the %d new of %d segments examined",
					cs.SegmentsExamined, cs.Chunks, cs.SegmentsSkipped, cs.SegmentsRewritten, dropped(cs), fresh, archive+fresh)
			}
			// An update and a delete of archived keys: their segments are
			// found; no other archive segment is read.
			put("s1", "a01500", OpPut)
			put("s1", "a00010", OpDelete)
			cs, err = s.Compact(ctx, "ev")
			if err != nil {
				t.Fatal(err)
			}
			if dropped(cs) != 2 || cs.SegmentsRewritten < 1 || cs.SegmentsRewritten > 2 || cs.SegmentsSkipped == 0 {
				t.Fatalf("update and delete: %d rows dropped, %d segments rewritten, %d skipped, %d examined; want 2 rows from 1 or 2 segments",
					dropped(cs), cs.SegmentsRewritten, cs.SegmentsSkipped, cs.SegmentsExamined)
			}
			// A drop of s2, whose samples no key names: its segment is found
			// by the bloom.
			put("s2", "", OpDrop)
			if cs, err = s.Compact(ctx, "ev"); err != nil {
				t.Fatal(err)
			}
			if dropped(cs) != 50 {
				t.Fatalf("drop: %d rows dropped, want the 50 samples of s2", dropped(cs))
			}
			seen := map[string]int{}
			for _, r := range rawRows(t, s, "ev") {
				if r.op == OpPut {
					seen[r.series+"/"+r.key]++
				}
			}
			if seen["s1/a01500"] != 1 || seen["s1/a00010"] != 0 || seen["s2/"] != 0 || seen["s1/a01999"] != 1 || len(seen) != 2000-1+300 {
				t.Fatalf("after the passes: a01500 %d times, a00010 %d, s2 samples %d, %d keys in all",
					seen["s1/a01500"], seen["s1/a00010"], seen["s2/"], len(seen))
			}
		})
	}
}

// TestWritersTellKeys: every segment the store seals — by appends (rolls
// and merges at seal), imports and compaction's rewrites — carries known
// key spans, a block's holding each of its keyed rows.
func TestWritersTellKeys(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{SegmentMaxBytes: 8 << 10, CompactInterval: 0})
	defer closeT(t, s)
	for i := range 600 { // one record a commit: small frames, merged at seal
		r := Record{Time: day0 + int64(i)*1e6, Series: "s", Key: fmt.Sprintf("p%04d", i), Fields: []Field{{"v", Int(int64(i))}}}
		if _, err := s.Append(ctx, "ev", r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.AppendSamples(ctx, "ev", "m", []int64{day0 + 1e9, day0 + 2e9}, []float64{1, 2}); err != nil {
		t.Fatal(err)
	}
	var in strings.Builder
	for i := range 500 {
		fmt.Fprintf(&in, `{"t":%d,"series":"s","key":"i%04d","v":%d}`+"\n", day0/1e6+int64(1000+i), i, i)
	}
	if _, err := s.Import(ctx, "ev", strings.NewReader(in.String()), &ImportOptions{Mapping: ingest.Mapping{Time: "t", TimeUnit: "ms", Series: "series", Key: "key"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "ev", Record{Time: day0 + 5e9, Series: "s", Key: "p0007", Op: OpDelete}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Compact(ctx, "ev"); err != nil { // seals, merges and rewrites
		t.Fatal(err)
	}
	keys, keyed := map[string]bool{}, 0
	for _, r := range rawRows(t, s, "ev") {
		if r.key != "" {
			keyed++
		}
		if r.op == OpPut && r.key != "" {
			keys[r.key] = true
		}
	}
	names, err := mem.ReadDir("db/streams/ev")
	if err != nil {
		t.Fatal(err)
	}
	sealed := 0
	for _, name := range names {
		if !strings.HasSuffix(name, ".seg") {
			continue
		}
		r, err := seg.Open(mem, "db/streams/ev/"+name)
		if err != nil {
			t.Fatal(err)
		}
		span := r.Keys()
		if r.Sealed() {
			sealed++
			if !span.Known() {
				t.Errorf("%s: sealed with unknown keys", name)
			}
		}
		_ = r.Close()
	}
	if sealed < 3 || len(keys) != 600-1+500 {
		t.Fatalf("%d sealed segments, %d keys", sealed, len(keys))
	}
	if n := checkSpansHoldKeys(t, mem, "db/streams/ev"); n != keyed {
		t.Fatalf("%d keyed rows checked against their spans, %d read", n, keyed)
	}
}

// checkSpansHoldKeys opens every sealed segment in dir and checks that
// its blocks' key spans, and its own, hold the key of each of the
// block's keyed rows; it returns the keyed rows checked.
func checkSpansHoldKeys(t *testing.T, fsys vfs.FS, dir string) int {
	t.Helper()
	names, err := fsys.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var dec chunk.Decoder
	var blk chunk.Block
	checked := 0
	for _, name := range names {
		if !strings.HasSuffix(name, ".seg") {
			continue
		}
		r, err := seg.Open(fsys, dir+"/"+name)
		if err != nil {
			t.Fatal(err)
		}
		span := r.Keys()
		for i, m := range r.Blocks() {
			if m.Rows == 0 {
				continue
			}
			b, err := r.ReadBlock(i, nil)
			if err == nil {
				err = dec.Reset(b)
			}
			if err == nil {
				err = dec.Block(&blk)
			}
			if err != nil {
				t.Fatal(err)
			}
			keys, bk := blockColumn(&blk, colKey), r.BlockKeys(i)
			for j := range blk.Rows {
				if k := keys.StringAt(j); k != "" {
					checked++
					if !span.MayHold([]byte(k)) || !bk.MayHold([]byte(k)) {
						t.Errorf("%s block %d: key %q outside the block's or the segment's span", name, i, k)
					}
				}
			}
		}
		_ = r.Close()
	}
	return checked
}

func blockColumn(b *chunk.Block, name string) *chunk.Column {
	for i := range b.Columns {
		if b.Columns[i].Name == name {
			return &b.Columns[i]
		}
	}
	return &chunk.Column{}
}

// TestCompactFreshBlocks: a window of keys that grow holds in the record
// table only the keys that return (fresh blocks only look theirs up),
// and still drops exactly what is superseded: updates and deletes of
// older keys, a key put twice in one block, keys the archive below W
// holds.
func TestCompactFreshBlocks(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{SegmentMaxBytes: 16 << 10, CompactInterval: 0, BlockRows: 200})
	defer closeT(t, s)
	tm := day0
	var batch []Record
	put := func(key string, op Op) {
		tm += 1e6
		r := Record{Time: tm, Series: "s", Key: key, Op: op, Fields: []Field{{"v", Int(tm)}}}
		if op == OpDelete {
			r.Fields = nil
		}
		batch = append(batch, r)
	}
	flush := func() {
		t.Helper()
		if _, err := s.Append(ctx, "ev", batch...); err != nil {
			t.Fatal(err)
		}
		batch = batch[:0]
	}
	// The archive below W: a00000..a00999.
	for i := range 1000 {
		put(fmt.Sprintf("a%05d", i), OpPut)
	}
	flush()
	if _, err := s.Compact(ctx, "ev"); err != nil {
		t.Fatal(err)
	}
	// The window: an update of an archived key in its oldest block (only
	// the archive's key span rules that block out), 3,000 new keys in
	// order, with one key put twice in a block; then an update of an
	// archived key, an update and a delete of window keys.
	put("a00500", OpPut)
	for i := range 3000 {
		put(fmt.Sprintf("b%05d", i), OpPut)
		if i == 1500 {
			put("b01499", OpPut) // again, in the same block
		}
		if i%100 == 99 {
			flush()
		}
	}
	put("a00007", OpPut)
	put("b00010", OpPut)
	put("b00020", OpDelete)
	flush()
	cs, err := s.Compact(ctx, "ev")
	if err != nil {
		t.Fatal(err)
	}
	if cs.RowsUpdate != 4 || cs.RowsRecord != 1 {
		t.Fatalf("dropped %d updated and %d deleted rows, want 4 and 1", cs.RowsUpdate, cs.RowsRecord)
	}
	// The table held the returning keys' blocks, not the 3,000 keys.
	if cs.SnapshotEntries > 1000 {
		t.Fatalf("the record table held %d entries for a window of keys that grow", cs.SnapshotEntries)
	}
	// Tombstones are counted as if the table held them all: every keyed
	// row of the window that no later row supersedes.
	if cs.TombstonesUpdate != 3000-1+2 || cs.TombstonesRecord != 1 { // the b keys but b00020, a00007 and a00500
		t.Fatalf("tombstones: %d keyed puts, %d deletes", cs.TombstonesUpdate, cs.TombstonesRecord)
	}
	seen := map[string]int{}
	for _, r := range rawRows(t, s, "ev") {
		if r.op == OpPut {
			seen[r.key]++
		}
	}
	for _, k := range []string{"a00007", "a00500", "b01499", "b00010"} {
		if seen[k] != 1 {
			t.Errorf("key %s: %d puts left, want 1", k, seen[k])
		}
	}
	if seen["b00020"] != 0 || len(seen) != 1000+3000-1 {
		t.Errorf("b00020: %d puts; %d keys in all", seen["b00020"], len(seen))
	}
}
