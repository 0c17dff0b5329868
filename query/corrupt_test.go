package query

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tsqdb/tsq/chunk"
)

// TestOnCorrupt: a block whose bytes are corrupt fails every query that
// reads it, unless Options.OnCorrupt is set: then raw, sorted, folded
// and aggregate queries leave out exactly that block's rows, and
// OnCorrupt hears of it once a query, with its segment, index, seqs and
// rows, however many passes read it.
func TestOnCorrupt(t *testing.T) {
	src, rows := testSource(t, 2000, 40)
	ms := src.segs[len(src.segs)/2].(*memSeg)
	bi := len(ms.blocks) / 2
	meta := ms.blocks[bi]
	ms.data[bi] = bytes.Clone(ms.data[bi])
	ms.data[bi][len(ms.data[bi])/2] ^= 0x10
	open := openOnly(src)
	_, err := runCells("SELECT count(*) FROM m", open, &Options{Now: modelNow})
	if !errors.Is(err, chunk.ErrCorrupt) {
		t.Fatalf("without OnCorrupt: %v", err)
	}
	inBlock := func(seq uint64) bool { return seq >= meta.MinSeq && seq <= meta.MaxSeq }
	var kept []trow
	for _, r := range rows {
		if !inBlock(r.seq) {
			kept = append(kept, r)
		}
	}
	if len(kept) == len(rows) || len(rows)-len(kept) != int(meta.Rows) {
		t.Fatalf("the block holds %d rows, %d of %d rows are outside it", meta.Rows, len(kept), len(rows))
	}
	for _, c := range []struct {
		q    string
		want func() int
	}{
		{"SELECT seq FROM m", func() int { return len(kept) }},
		{"SELECT seq FROM m ORDER BY time DESC LIMIT 5000", func() int { return len(kept) }},
		{"SELECT count(*) AS n FROM m", func() int { return 1 }},
		{"SELECT seq FROM fold(m)", nil},
	} {
		var mu sync.Mutex
		var heard []CorruptBlock
		o := &Options{Now: modelNow, OnCorrupt: func(b CorruptBlock) { mu.Lock(); heard = append(heard, b); mu.Unlock() }}
		got, err := runCells(c.q, open, o)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		if len(heard) != 1 || heard[0].Segment != ms.name || heard[0].Block != bi || heard[0].MinSeq != meta.MinSeq ||
			heard[0].MaxSeq != meta.MaxSeq || heard[0].Rows != int(meta.Rows) || !errors.Is(heard[0].Err, chunk.ErrCorrupt) {
			t.Fatalf("%s: heard %+v", c.q, heard)
		}
		if strings.HasPrefix(c.q, "SELECT count") {
			if got[0][0] != int64(len(kept)) {
				t.Fatalf("%s: %v, want %d", c.q, got[0][0], len(kept))
			}
			continue
		}
		var seqs []uint64
		for _, r := range got {
			if s := r[0].(uint64); inBlock(s) {
				t.Fatalf("%s: seq %d of the corrupt block", c.q, s)
			} else {
				seqs = append(seqs, s)
			}
		}
		if c.want != nil && len(seqs) != c.want() {
			t.Fatalf("%s: %d rows, want %d", c.q, len(seqs), c.want())
		}
		if c.want == nil {
			// the fold over the rows outside the block
			var want []uint64
			for _, r := range bruteFold(&Statement{}, kept) {
				want = append(want, r.seq)
			}
			slices.Sort(seqs)
			if !slices.Equal(seqs, want) {
				t.Fatalf("%s: %d rows, the fold of the rest has %d", c.q, len(seqs), len(want))
			}
		}
	}
}
